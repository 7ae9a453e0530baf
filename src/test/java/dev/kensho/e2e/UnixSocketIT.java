package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * bench.jar against a local server's Unix-domain socket, given as pgbench's -h DIR is: the machine's PostgreSQL 15
 * at /var/run/postgresql (skipped, with the reason, where it has none).
 */
class UnixSocketIT {
    static final Path SOCKET = Path.of("/var/run/postgresql/.s.PGSQL.5432");
    static final String URL = "jdbc:postgresql:///test?host=/var/run/postgresql";
    @TempDir Path work;

    @BeforeEach
    void needsTheSocket() {
        Assumptions.assumeTrue(Files.exists(SOCKET), "no PostgreSQL socket at " + SOCKET + ": Unix-socket tests skipped");
    }

    /** The script aborts its client (division by zero) on a connection with a server address, i.e. over TCP. */
    @ParameterizedTest
    @ValueSource(strings = {"pgjdbc", "wire"})
    void pgbenchRunsOverTheSocket(String engine) throws Exception {
        Path script = work.resolve("unix.sql");
        Files.writeString(script, "select (inet_server_addr() is null)::int as unix \\gset\n\\set check 1 / :unix\n");
        BenchJar.Result r = BenchJar.run(work, "pgbench", "run", "-f", script.toString(), "-c", "2", "-t", "10", "-M", "prepared",
                "--engine", engine, "--url", URL, "-U", "postgres");
        assertEquals(0, r.exitCode(), r.all());
        assertTrue(r.out().contains("number of transactions actually processed: 20/20"), r.all());
        assertTrue(r.out().contains("(engine: " + engine + ";"), r.all());
        Path run;
        try (var d = Files.list(work.resolve("results"))) {
            run = d.findFirst().orElseThrow();
        }
        List<Trial> trials = RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS));
        assertEquals(1, trials.size());
        assertEquals(20.0, trials.get(0).metric("transactions"), 0.0, trials.get(0).metrics().toString());
        assertTrue(Files.readString(run.resolve("run.json")).contains("/var/run/postgresql/.s.PGSQL.5432"),
                "the results say which socket was measured");
    }
}
