package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SSB commands as a user runs them from bench.jar: gen, load and drop on a server given by URL, the queries, jit. */
class SsbIT {
    @TempDir Path work;

    /** ssb-dbgen's SF 0.1 output (all tables in one process), from ../shared/ssb-reference/tables-sf01.txt. */
    private static final Map<String, String> SF01_MD5 = Map.of(
            "part", "61fcafdc115d9d9732474cb8c6c42cdd",
            "supplier", "faf888f9ea5b353fcd0e749d522b3bf0",
            "customer", "a350472fc3e368f0be8ad524d61932a9",
            "date", "40c20a029babac251a8e1accf7200a7a",
            "lineorder", "506c4017655f94e9a93c112f285844de");
    /** The order of dbgen's lines: its tables' keys. */
    private static final Map<String, String> FILE_ORDER = Map.of(
            "part", "p_partkey", "supplier", "s_suppkey", "customer", "c_custkey", "date", "d_datekey",
            "lineorder", "lo_orderkey, lo_linenumber");

    @Test
    void ssbGenWritesDbgenIdenticalFiles() throws Exception {
        Path out = work.resolve("tbl");
        BenchJar.Result r = BenchJar.run(work, "ssb", "gen", "-s", "0.1", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.all());
        for (var e : SF01_MD5.entrySet()) assertEquals(e.getValue(), md5(out.resolve(e.getKey() + ".tbl")), e.getKey());
    }

    @Test
    void loadByUrlHoldsDbgensDataRefusesASecondLoadAndDropLeavesOtherTables() throws Exception {
        try (Target pg = new TargetSpec().open()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("create table mine (x int)");
            }
            BenchJar.Result load = BenchJar.run(work.resolve("load"), "ssb", "load", "-s", "0.1", "--jobs", "2", "--url", url,
                    "--user", "postgres");
            assertEquals(0, load.exitCode(), load.all());
            // Every table, printed as dbgen prints it (columns joined by '|', a trailing '|'), has dbgen's md5: the
            // parallel binary COPY stored exactly ssb-dbgen's data.
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                for (var e : SF01_MD5.entrySet()) {
                    try (ResultSet rs = s.executeQuery("select md5(string_agg((select string_agg(value, '|') from "
                            + "json_each_text(row_to_json(t))) || E'|\\n', '' order by " + FILE_ORDER.get(e.getKey()) + ")) from "
                            + e.getKey() + " t")) {
                        rs.next();
                        assertEquals(e.getValue(), rs.getString(1), e.getKey());
                    }
                }
            }
            Trial trial = RunDirectory.readTrials(ScanIT.onlyRun(work.resolve("load/results")).resolve(RunDirectory.TRIALS)).get(0);
            assertEquals(624_052L, trial.metric("rows").longValue(), "20000 + 200 + 3000 + 255 + 600597 rows (tables-sf01.txt)");

            BenchJar.Result again = BenchJar.run(work.resolve("again"), "ssb", "load", "-s", "0.1", "--url", url, "--user", "postgres");
            assertEquals(2, again.exitCode(), again.all());
            assertTrue(BenchJar.withoutRemovedRun(again.err()).strip().endsWith("use --reload to replace it"), again.err());
            assertEquals(0, BenchJar.runDirectories(work.resolve("again/results")), "a refused load leaves no run directory");

            BenchJar.Result drop = BenchJar.run(work.resolve("drop"), "ssb", "drop", "--url", url, "--user", "postgres");
            assertEquals(0, drop.exitCode(), drop.all());
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select string_agg(relname, ',' order by relname) from pg_class "
                         + "where relkind = 'r' and relnamespace = 'public'::regnamespace")) {
                rs.next();
                assertEquals("mine", rs.getString(1), "only the tables Kensho created were dropped");
            }
        }
    }

    /** A user's own table of an SSB name: every SSB command refuses to touch it, and it keeps its row. */
    @Test
    void aTableKenshoDidNotCreateIsNeverLoadedOverOrDropped() throws Exception {
        try (Target pg = new TargetSpec().open()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("create table part (x int); insert into part values (42)");
            }
            String refusal = "bench: table(s) part already exist in schema public and were not created by Kensho; Kensho never drops them: "
                    + "load into another schema or database";
            for (List<String> args : List.of(List.of("ssb", "load", "-s", "0.1"), List.of("ssb", "load", "-s", "0.1", "--reload"),
                    List.of("ssb", "-s", "0.1", "--query", "q1.1", "--workers", "0", "--repeat", "1"))) {
                List<String> all = new java.util.ArrayList<>(args);
                all.addAll(List.of("--url", url, "--user", "postgres"));
                BenchJar.Result r = BenchJar.run(work.resolve(String.valueOf(all.hashCode())), all.toArray(String[]::new));
                assertEquals(2, r.exitCode(), args + ": " + r.all());
                assertTrue(BenchJar.withoutRemovedRun(r.err()).strip().endsWith(refusal), args + ": " + r.err());
            }
            BenchJar.Result drop = BenchJar.run(work.resolve("drop"), "ssb", "drop", "--url", url, "--user", "postgres");
            assertEquals(0, drop.exitCode(), drop.all());
            try (Connection c = pg.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select x from part")) {
                assertTrue(rs.next());
                assertEquals(42, rs.getInt(1), "the user's table and its row are where they were");
            }
        }
    }

    @Test
    void queriesRunPerWorkerCountWithTheirGathersRecorded() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "ssb", "-s", "0.1", "--workers", "0,2", "--query", "q2.1", "--repeat", "1");
        assertEquals(0, r.exitCode(), r.all());
        List<Trial> all = RunDirectory.readTrials(ScanIT.onlyRun(work.resolve("results")).resolve(RunDirectory.TRIALS));
        // a machine without the SF 0.1 cache (a fresh one) loads first, and that load is a trial too
        List<Trial> trials = all.stream().filter(t -> !"load".equals(t.params().get("step"))).toList();
        assertTrue(all.size() - trials.size() <= 1, all.toString());
        assertEquals(2, trials.size(), all.toString());
        for (Trial t : trials) {
            assertTrue(t.ok(), t.toString());
            // psql -f ../shared/ssb-reference/sql/q2.1.sql on SF 0.1 prints 40 rows (the date table holds 1992 only)
            assertEquals(40L, t.metric("rows").longValue(), t.toString());
            int workers = ((Number) t.params().get("workers")).intValue();
            assertEquals(workers, t.metric("workers_planned").intValue(), "a worker count is what the planner was allowed: " + t);
        }
    }

    @Test
    void jitOnTheEmbeddedServerIsRefusedSayingWhereJitIs() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "ssb", "jit", "-s", "0.1");
        assertEquals(2, r.exitCode(), r.all());
        // before any server starts: one line, and no SSB cache made (and removed again, said on a line of its own)
        assertTrue(r.err().startsWith("bench: the embedded PostgreSQL servers have no JIT") && r.err().contains("--pg-bin"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void jitOnAnInstalledLlvmBuildCompilesAndGivesReductionRates() throws Exception {
        Path bin = Path.of("/usr/lib/postgresql/15/bin");
        Assumptions.assumeTrue(Files.isExecutable(bin.resolve("initdb")) && Files.exists(Path.of("/usr/lib/postgresql/15/lib/llvmjit.so")),
                "no PostgreSQL 15 built with LLVM under /usr/lib/postgresql/15: ssb jit --pg-bin skipped");
        BenchJar.Result r = BenchJar.run(work, "ssb", "jit", "--pg-bin", bin.toString(), "-s", "0.1", "--no-cache",
                "--verification", "1", "--jit-above-cost", "0", "--repeat", "1");
        assertEquals(0, r.exitCode(), r.all());
        List<String> summary = Files.readAllLines(ScanIT.onlyRun(work.resolve("results")).resolve("summary.csv"));
        // run.json says which build ran
        assertTrue(Files.readString(ScanIT.onlyRun(work.resolve("results")).resolve("run.json"))
                .contains("\"bin_directory\" : \"" + bin + "\""), "run.json names the --pg-bin directory");
        List<String> header = List.of(summary.get(0).split(","));
        int jit = header.indexOf("jit"), functions = header.indexOf("jit_functions"), reduction = header.indexOf("reduction_pct");
        int rows = header.indexOf("rows"), query = header.indexOf("query");
        assertEquals(1 + 9 * 2, summary.size(), "verification 1 has 9 queries, each with jit off and on: " + summary);
        for (String line : summary.subList(1, summary.size())) {
            String[] f = line.split(",", -1);
            if (f[jit].equals("on")) {
                assertTrue(Integer.parseInt(f[functions]) > 0, "jit_above_cost 0: every query is compiled: " + line);
                Double.parseDouble(f[reduction]);
            } else {
                assertEquals("0", f[functions], line);
                assertEquals("", f[reduction], "the rate is on the jit=on row: " + line);
            }
            // verification 1: two expressions over every lineorder row (600597 at SF 0.1), then aggregates of one row
            boolean perRow = f[query].equals("multiply") || f[query].equals("subtract");
            assertEquals(perRow ? "600597" : "1", f[rows], line);
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
