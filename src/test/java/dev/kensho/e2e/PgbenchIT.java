package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pgbench init and run as a user runs them from bench.jar. */
class PgbenchIT {
    @TempDir Path work;

    @Test
    void pgbenchInitThenRunOnAKeptEmbeddedServer() throws Exception {
        // The managed server runs as an unprivileged user as root, so keep its data outside /root.
        Path keep = Files.createTempDirectory(Path.of("/var/tmp"), "kensho-e2e-");
        try {
            BenchJar.Result init = BenchJar.run(work.resolve("init"), "pgbench", "init", "-s", "1", "--keep-data", keep.toString());
            assertEquals(0, init.exitCode(), init.all());
            assertTrue(init.all().contains("done in"), init.all());

            BenchJar.Result run = BenchJar.run(work.resolve("run"), "pgbench", "run", "-b", "select-only", "-M", "prepared",
                    "-c", "2", "-j", "2", "-T", "3", "--keep-data", keep.toString());
            assertEquals(0, run.exitCode(), run.all());
            assertTrue(run.out().contains("number of transactions actually processed"), run.out());
            assertTrue(run.out().contains("scaling factor: 1"), run.out());
            Path dir;
            try (var d = Files.list(work.resolve("run/results"))) {
                dir = d.findFirst().orElseThrow();
            }
            List<Trial> trials = RunDirectory.readTrials(dir.resolve(RunDirectory.TRIALS));
            assertEquals(1, trials.size());
            assertTrue(trials.get(0).metric("tps") > 0, trials.get(0).metrics().toString());

            // pgbench's thread model: two threads for four clients, Kensho speaking the protocol itself
            BenchJar.Result wire = BenchJar.run(work.resolve("wire"), "pgbench", "run", "-b", "tpcb-like", "-M", "extended",
                    "-c", "4", "-j", "2", "-T", "2", "--engine", "wire", "--warmup", "0", "--keep-data", keep.toString());
            assertEquals(0, wire.exitCode(), wire.all());
            assertTrue(wire.out().contains("(engine: wire;"), wire.out());
            assertTrue(wire.out().contains("number of failed transactions: 0 "), wire.out());
            BenchJar.Result bad = BenchJar.run(work.resolve("bad"), "pgbench", "run", "--engine", "libpq", "--keep-data", keep.toString());
            assertEquals(2, bad.exitCode(), bad.all());
            assertTrue(bad.err().contains("invalid engine: \"libpq\"; expected wire or pgjdbc"), bad.err());

            // a pipeline: run by the wire engine, refused before the run by pgjdbc with the script's position
            Path pipeline = Files.writeString(work.resolve("pipeline.sql"), "\\set aid random(1, 100000 * :scale)\n\\startpipeline\n"
                    + "select abalance from pgbench_accounts where aid = :aid;\n\\syncpipeline\nselect 1;\n\\endpipeline\n");
            BenchJar.Result piped = BenchJar.run(work.resolve("piped"), "pgbench", "run", "-f", pipeline.toString(), "-M", "prepared",
                    "-c", "2", "-t", "50", "--engine", "wire", "--warmup", "0", "--keep-data", keep.toString());
            assertEquals(0, piped.exitCode(), piped.all());
            assertTrue(piped.out().contains("number of transactions actually processed: 100/100"), piped.out());
            BenchJar.Result refused = BenchJar.run(work.resolve("refused"), "pgbench", "run", "-f", pipeline.toString(), "-M", "prepared",
                    "--keep-data", keep.toString());
            assertEquals(2, refused.exitCode(), refused.all());
            assertEquals("bench: " + pipeline + ":2:1: \\startpipeline needs --engine wire: pgjdbc has no pipeline mode",
                    refused.err().strip(), refused.all());
        } finally {
            try (var w = Files.walk(keep)) {
                w.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
