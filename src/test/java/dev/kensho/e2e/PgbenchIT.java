package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workload commands as a user runs them from bench.jar. */
class WorkloadsIT {
    @TempDir Path work;

    /** ssb-dbgen's SF 0.1 output (all tables in one process), from ../shared/ssb-reference/tables-sf01.txt. */
    private static final Map<String, String> SF01_MD5 = Map.of(
            "part.tbl", "61fcafdc115d9d9732474cb8c6c42cdd",
            "supplier.tbl", "faf888f9ea5b353fcd0e749d522b3bf0",
            "customer.tbl", "a350472fc3e368f0be8ad524d61932a9",
            "date.tbl", "40c20a029babac251a8e1accf7200a7a",
            "lineorder.tbl", "506c4017655f94e9a93c112f285844de");

    @Test
    void ssbGenWritesDbgenIdenticalFiles() throws Exception {
        Path out = work.resolve("tbl");
        BenchJar.Result r = BenchJar.run(work, "ssb", "gen", "-s", "0.1", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.all());
        for (var e : SF01_MD5.entrySet()) assertEquals(e.getValue(), md5(out.resolve(e.getKey())), e.getKey());
    }

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
                    "-c", "4", "-j", "2", "-T", "2", "--engine", "wire", "--keep-data", keep.toString());
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
                    "-c", "2", "-t", "50", "--engine", "wire", "--keep-data", keep.toString());
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

    private static String md5(Path f) throws Exception {
        MessageDigest md = MessageDigest.getInstance("MD5");
        try (InputStream in = Files.newInputStream(f)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
