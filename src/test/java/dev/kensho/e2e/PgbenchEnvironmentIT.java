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
 * pgbench takes its random seed from PGBENCH_RANDOM_SEED when --random-seed is not given; bench pgbench run does too.
 * Checked side by side with the C pgbench on the machine's PostgreSQL (skipped, with the reason, where either is absent).
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
}
