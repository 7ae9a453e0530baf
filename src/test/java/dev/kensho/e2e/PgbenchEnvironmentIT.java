package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pgbench takes its random seed from PGBENCH_RANDOM_SEED when --random-seed is not given, and what its connection
 * options leave out from libpq's environment (PGHOST, PGOPTIONS...); bench pgbench run does too. Checked side by side
 * with the C pgbench on the machine's PostgreSQL (skipped, with the reason, where either is absent).
 */
class PgbenchEnvironmentIT {
    static final Path PGBENCH = Path.of("/usr/lib/postgresql/15/bin/pgbench");
    static final Path SOCKET = Path.of("/var/run/postgresql/.s.PGSQL.5432");
    @TempDir Path work;

    @Test
    void randomSeedFromTheEnvironmentAsPgbench() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PGBENCH), "no C pgbench at " + PGBENCH + ": side-by-side seed test skipped");
        Assumptions.assumeTrue(Files.exists(SOCKET), "no PostgreSQL at " + SOCKET + ": side-by-side seed test skipped");
        Path script = work.resolve("draws.sql");
        Files.writeString(script, "\\set a random(1, 1000000000)\n\\set b random_gaussian(1, 1000, 2.5)\n\\set d debug(:a * 1000 + :b)\n");
        Map<String, String> env = Map.of("PGBENCH_RANDOM_SEED", "5432");
        BenchJar.Result k = BenchJar.run(work.resolve("k"), env, "pgbench", "run", "-n", "-c", "2", "-t", "3", "-f", script.toString(),
                "--url", "jdbc:postgresql:///test?host=/var/run/postgresql", "-U", "postgres");
        assertEquals(0, k.exitCode(), k.all());
        List<String> kensho = k.err().lines().filter(l -> l.startsWith("debug(")).sorted().toList();
        assertEquals(6, kensho.size(), k.all());
        Path run;
        try (var d = Files.list(work.resolve("k/results"))) {
            run = d.findFirst().orElseThrow();
        }
        // the seed the environment gave is in the results, so the run can be reproduced from them
        assertEquals("5432", dev.kensho.core.result.RunDirectory.readTrials(run.resolve("trials.jsonl")).get(0).extra().get("random_seed"));

        ProcessBuilder pb = new ProcessBuilder(PGBENCH.toString(), "-n", "-c", "2", "-t", "3", "-f", script.toString(),
                "-h", "/var/run/postgresql", "-U", "postgres", "test").redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, out);
        List<String> c = out.lines().filter(l -> l.startsWith("debug(")).sorted().toList();
        assertEquals(c, kensho, "the same draws per client as pgbench with PGBENCH_RANDOM_SEED=5432");

        BenchJar.Result bad = BenchJar.run(work.resolve("bad"), Map.of("PGBENCH_RANDOM_SEED", "banana"), "pgbench", "run", "-n",
                "-t", "1", "-f", script.toString(), "--url", "jdbc:postgresql:///test?host=/var/run/postgresql", "-U", "postgres");
        assertEquals(2, bad.exitCode(), bad.all());
        assertTrue(bad.err().contains("banana"), bad.all());
    }

    /** PGOPTIONS gave pgbench its settings and Kensho, silently, none; both engines now take it, as the rest of libpq's. */
    @Test
    void libpqsEnvironmentReachesTheSessionsAsPgbenchs() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PGBENCH), "no C pgbench at " + PGBENCH + ": side-by-side environment test skipped");
        Assumptions.assumeTrue(Files.exists(SOCKET), "no PostgreSQL at " + SOCKET + ": side-by-side environment test skipped");
        Path script = work.resolve("check.sql");
        // a division by zero unless every session has what the environment says
        Files.writeString(script, "select 1 / (current_setting('work_mem') = '7MB' and current_setting('transaction_isolation') = "
                + "'repeatable read' and current_setting('application_name') = 'env app' and current_user = 'postgres' "
                + "and current_database() = 'test')::int;\n");
        Map<String, String> env = new java.util.HashMap<>(Map.of("PGHOST", "127.0.0.1", "PGPORT", "5432", "PGUSER", "postgres",
                "PGDATABASE", "test", "PGOPTIONS", "-c work_mem=7MB -c default_transaction_isolation=repeatable\\ read",
                "PGAPPNAME", "env app"));
        ProcessBuilder pb = new ProcessBuilder(PGBENCH.toString(), "-n", "-c", "2", "-t", "3", "-f", script.toString()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "pgbench: " + out);
        for (String engine : List.of("pgjdbc", "wire")) {
            BenchJar.Result k = BenchJar.run(work.resolve(engine), env, "pgbench", "run", "-n", "-c", "2", "-t", "3", "-f", script.toString(),
                    "--url", "jdbc:postgresql:///", "--engine", engine, "--warmup", "0");
            assertEquals(0, k.exitCode(), k.all());
            assertTrue(k.out().contains("number of transactions actually processed: 6/6"), k.all());
            assertTrue(k.out().contains("number of failed transactions: 0 "), k.all());
            Path run;
            try (var d = Files.list(work.resolve(engine + "/results"))) {
                run = d.findFirst().orElseThrow();
            }
            String record = Files.readString(run.resolve("run.json"));
            assertTrue(record.contains("took PGHOST, PGPORT, PGUSER, PGDATABASE, PGOPTIONS, PGAPPNAME from the environment"), record);
        }
        env.remove("PGOPTIONS");   // the check above can fail: without the settings it divides by zero
        BenchJar.Result without = BenchJar.run(work.resolve("without"), env, "pgbench", "run", "-n", "-t", "1", "-f", script.toString(),
                "--url", "jdbc:postgresql:///", "--warmup", "0");
        assertTrue(without.exitCode() != 0 && without.all().contains("division by zero"), without.all());
    }
}
