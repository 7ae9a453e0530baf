package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The acceptance sweep: --workers 0,2,4 on the embedded server records planned/launched workers per query. */
@KenshoTarget
class ParallelSweepTest {

    @Test
    void unknownQueryIsRefusedWhenTheOptionsAreMadeBeforeAnyServerStarts() {
        KenshoException e = assertThrows(KenshoException.class, () -> new ParallelSweep.Options(0.01, List.of(0), List.of(), 1,
                List.of("q1.1", "q9.9"), "public", new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("unknown SSB query q9.9"), e.getMessage());
    }

    @Test
    void aWorkerCountTwiceOrAnEmptySchemaIsRefusedBeforeAnyServerStarts() {
        var load = new SsbDatabase.LoadOptions(0.01, 1, false, false);
        assertEquals("ParallelSweep.Options workers 2 is given twice", assertThrows(KenshoException.class, () -> new ParallelSweep.Options(0.01,
                List.of(2, 0, 2), List.of(), 1, List.of(), "public", load, false, false, QueryTimer.DEFAULT_FETCH_SIZE)).getMessage());
        assertEquals("ParallelSweep.Options pools gather is given twice", assertThrows(KenshoException.class, () -> new ParallelSweep.Options(0.01,
                List.of(2), List.of(ParallelSweep.Pool.GATHER, ParallelSweep.Pool.GATHER4, ParallelSweep.Pool.GATHER), 1, List.of(), "public", load,
                false, false, QueryTimer.DEFAULT_FETCH_SIZE)).getMessage());
        assertEquals("ParallelSweep.Options schema must name a schema (default public)", assertThrows(KenshoException.class,
                () -> new ParallelSweep.Options(0.01, List.of(2), List.of(), 1, List.of(), "", load, false, false,
                        QueryTimer.DEFAULT_FETCH_SIZE)).getMessage());
        // longer than the server keeps: loaded under the cut name, then not found by the next run
        String longName = "s".repeat(60) + "ベンチ";
        assertEquals("--schema " + longName + ": 69 bytes, and PostgreSQL keeps 63 of a name (it would cut this one): give a shorter one",
                assertThrows(KenshoException.class, () -> new SsbDatabase(null, longName)).getMessage());
        new SsbDatabase(null, "s".repeat(63));
    }

    /** A harness typed no option: the record's errors name its components, and bench ssb reads them back as its options. */
    @Test
    void theOptionsNameTheirComponentsToAHarness() {
        var load = new SsbDatabase.LoadOptions(0.01, 1, false, false);
        KenshoException repeat = assertThrows(KenshoException.class, () -> new ParallelSweep.Options(0.01, List.of(0), List.of(), 0,
                List.of(), null, load, false, false, 0));
        assertEquals(KenshoException.USAGE, repeat.exitCode());
        assertEquals("ParallelSweep.Options repeat must be at least 1", repeat.getMessage());
        assertEquals("ParallelSweep.Options fetchSize must not be negative (0: one execution, the result streamed)", assertThrows(
                KenshoException.class, () -> new ParallelSweep.Options(0.01, List.of(0), List.of(), 1, List.of(), null, load, false, false, -1))
                .getMessage());
        assertEquals("ParallelSweep.Options workers needs at least one value", assertThrows(KenshoException.class,
                () -> new ParallelSweep.Options(0.01, List.of(), List.of(), 1, List.of(), null, load, false, false, 0)).getMessage());
        assertEquals("ParallelSweep.Options workers 1025: expected 0..1024", assertThrows(KenshoException.class,
                () -> new ParallelSweep.Options(0.01, List.of(1025), List.of(), 1, List.of(), null, load, false, false, 0)).getMessage());
        for (String cli : List.of("--repeat must be at least 1", "--fetch-size must not be negative (0: one execution, the result streamed)",
                "--workers needs at least one value", "--workers 1025: expected 0..1024", "--workers 2 is given twice",
                "--worker-pool gather is given twice", "--schema must name a schema (default public)")) {
            assertEquals(cli, KenshoException.usage(cli).naming(ParallelSweep.Options.COMPONENT_NAMES)
                    .namingBack(ParallelSweep.Options.COMPONENT_NAMES).getMessage());
        }
    }

    /** A cell whose Gather launched fewer workers than planned (7.6.2.1's finding), or planned fewer than asked, is flagged on its line of the table. */
    @Test
    void theTableFlagsACellThatLaunchedFewerWorkersThanPlanned(@TempDir Path results) throws Exception {
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            // workers asked, planned, launched
            for (int[] w : new int[][] {{2, 2, 1}, {4, 4, 4}, {8, 5, 4}}) {
                dir.append(Trial.of("version=18;pool=gather;workers=" + w[0] + ";query=q1.1", 0).param("version", "18").param("pool", "gather")
                        .param("workers", w[0]).param("query", "q1.1").metric("seconds", 0.5).metric("rows", 1L)
                        .metric("workers_planned", (long) w[1]).metric("workers_launched", (long) w[2]).build());
            }
            ParallelSweep.Options o = new ParallelSweep.Options(1, List.of(2, 4, 8), List.of(ParallelSweep.Pool.GATHER), 1, List.of("q1.1"),
                    "public", new SsbDatabase.LoadOptions(1, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new ParallelSweep(o, new PrintStream(out, true, StandardCharsets.UTF_8), System.err).finish(dir, List.of("18"));
            List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
            assertTrue(lines.get(1).matches(".* 2 q1\\.1 .* 2 +1  launched fewer than planned"), lines.get(1));
            assertFalse(lines.get(2).contains("fewer"), lines.get(2));
            // the planner's own limit (a small table) is told apart from the launch's shortfall
            assertTrue(lines.get(3).matches(".* 8 q1\\.1 .* 5 +4  planned fewer than 8  launched fewer than planned"), lines.get(3));
        }
    }

    /**
     * A note every query of a workers count carries (at SF 1 --workers 8 plans at most 4 for all 13) is said once below
     * the table; one that only some queries carry stays on their rows.
     */
    @Test
    void aNoteEveryQueryOfAWorkersCountCarriesIsSaidOnce(@TempDir Path results) throws Exception {
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            // workers asked, query, planned, launched
            Object[][] cells = {{2, "q1.1", 2, 2}, {2, "q4.2", 1, 1}, {8, "q1.1", 4, 4}, {8, "q4.2", 1, 1}};
            for (Object[] c : cells) {
                dir.append(Trial.of("version=18;pool=enough;workers=" + c[0] + ";query=" + c[1], 0).param("version", "18").param("pool", "enough")
                        .param("workers", c[0]).param("query", c[1]).metric("seconds", 0.5).metric("rows", 1L)
                        .metric("workers_planned", (long) (int) c[2]).metric("workers_launched", (long) (int) c[3]).build());
            }
            ParallelSweep.Options o = new ParallelSweep.Options(1, List.of(2, 8), List.of(), 1, List.of("q1.1", "q4.2"),
                    "public", new SsbDatabase.LoadOptions(1, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new ParallelSweep(o, new PrintStream(out, true, StandardCharsets.UTF_8), System.err).finish(dir, List.of("18"));
            List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
            assertEquals(6, lines.size(), String.join("\n", lines));
            assertFalse(lines.get(1).contains("fewer"), lines.get(1));
            assertTrue(lines.get(2).matches(".* 2 q4\\.2 .* 1 +1  planned fewer than 2"), lines.get(2));
            assertTrue(lines.get(3).matches(".* 8 q1\\.1 .* 4 +4"), lines.get(3));
            assertTrue(lines.get(4).matches(".* 8 q4\\.2 .* 1 +1"), lines.get(4));
            assertEquals("every query of 18 enough workers=8: planned fewer than 8", lines.get(5));
        }
    }

    /** A load without keys or without VACUUM (ANALYZE) says so: "keys 0.0 s" read as keys made in no time. */
    @Test
    void theLoadLineNamesTheStepsItLeftOut() {
        var r = new SsbDatabase.LoadReport(1, 2, 6_235_730, Map.of(), 4.0, 3.8, 0, 0.4, 5.9, Map.of());
        assertEquals("keys 0.0 s, VACUUM (ANALYZE) 0.4 s", ParallelSweep.afterCopy(r, new SsbDatabase.LoadOptions(1, 2, true, false, true)));
        assertEquals("no keys, VACUUM (ANALYZE) 0.4 s", ParallelSweep.afterCopy(r, new SsbDatabase.LoadOptions(1, 2, false, false, true)));
        assertEquals("keys 0.0 s, no VACUUM (ANALYZE)", ParallelSweep.afterCopy(r, new SsbDatabase.LoadOptions(1, 2, true, false, false)));
    }

    /** Columns line up in terminal columns: a Japanese database name in a target's label takes two a character. */
    @Test
    void theTableLinesUpWideTargetLabels(@TempDir Path results) throws Exception {
        List<String> versions = List.of("15 remote 127.0.0.1:5432/kx_検証", "15 remote 127.0.0.1:5432/kx_abcd");
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            for (String v : versions) {
                dir.append(Trial.of("version=" + v + ";pool=enough;workers=0;query=q1.1", 0).param("version", v).param("pool", "enough")
                        .param("workers", 0).param("query", "q1.1").metric("seconds", 0.5).metric("rows", 1L)
                        .metric("workers_planned", 0L).metric("workers_launched", 0L).build());
            }
            ParallelSweep.Options o = new ParallelSweep.Options(1, List.of(0), List.of(), 1, List.of("q1.1"),
                    "public", new SsbDatabase.LoadOptions(1, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new ParallelSweep(o, new PrintStream(out, true, StandardCharsets.UTF_8), System.err).finish(dir, versions);
            List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
            assertEquals(3, lines.size(), lines.toString());
            // where the pool column starts, in terminal columns, on the header and on both rows
            List<Integer> poolAt = lines.stream().map(l -> dev.kensho.core.run.DisplayWidth.of(l.substring(0, l.indexOf(" pool") >= 0
                    ? l.indexOf(" pool") : l.indexOf(" enough")))).toList();
            assertEquals(List.of(poolAt.get(0), poolAt.get(0), poolAt.get(0)), poolAt, String.join("\n", lines));
            assertTrue(lines.stream().noneMatch(l -> l.endsWith(" ")), "no line ends in blanks: " + lines);
        }
    }

    /** Null streams silence a study, as SsbDatabase.load's null progress does: finish threw a NullPointerException. */
    @Test
    void nullStreamsSilenceTheSsbStudies(@TempDir Path results) throws Exception {
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            dir.append(Trial.of("version=18;pool=enough;workers=2;query=q1.1", 0).param("version", "18").param("pool", "enough")
                    .param("workers", 2).param("query", "q1.1").metric("seconds", 0.5).metric("rows", 1L).build());
            ParallelSweep.Options o = new ParallelSweep.Options(1, List.of(2), List.of(), 1, List.of("q1.1"),
                    "public", new SsbDatabase.LoadOptions(1, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            List<List<Object>> rows = new ParallelSweep(o, null, null).finish(dir, List.of("18"));
            assertEquals(1, rows.size(), rows.toString());
            assertTrue(Files.readString(dir.path().resolve(RunDirectory.SUMMARY)).contains("q1.1"));
        }
        // the other SSB studies take their streams the same way
        try (RunDirectory jit = RunDirectory.create(results, RunInfo.of(JitMatrix.COMMAND, List.of(), Map.of()));
             RunDirectory index = RunDirectory.create(results, RunInfo.of(IndexBuild.COMMAND, List.of(), Map.of()))) {
            new JitMatrix(new JitMatrix.Options(List.of(3), 1, List.of("q1.1"), Map.of(), QueryTimer.DEFAULT_FETCH_SIZE), null, null).finish(jit);
            new IndexBuild(new IndexBuild.Options(List.of(0), 1, 1, "64MB"), null, null).finish(index);
            assertTrue(Files.exists(jit.path().resolve(RunDirectory.SUMMARY)) && Files.exists(index.path().resolve(RunDirectory.SUMMARY)));
        }
    }

    /** --set jit... on a server built without LLVM (zonky's) is said: two runs, jit on and off, would compare the same plans. */
    @Test
    void jitSetOnAServerWithoutLlvmIsSaid(Target pg) throws Exception {
        try (var c = pg.connect(); var st = c.createStatement(); var rs = st.executeQuery("SELECT pg_jit_available()")) {
            rs.next();
            org.junit.jupiter.api.Assumptions.assumeFalse(rs.getBoolean(1), pg.describe() + " has JIT");
        }
        assertEquals(null, ParallelSweep.jitWithoutLlvm(pg, "18"), "nothing of jit set: nothing to say");
        pg.control().apply(Map.of("jit_above_cost", "0"));   // JIT for every plan, were there JIT (put back after the test)
        assertEquals("--set jit_above_cost=0: jit changes nothing on 18, whose server was built without LLVM (pg_jit_available() is false);"
                + " give --pg-bin DIR of a PostgreSQL built with LLVM, or --url, to measure JIT", ParallelSweep.jitWithoutLlvm(pg, "18"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void sweepRecordsPlannedAndLaunchedWorkersPerQuery(Target pg, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_sweep_test");
        db.drop();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            ParallelSweep.Options o = new ParallelSweep.Options(0.1, List.of(0, 2, 4), List.of(ParallelSweep.Pool.ENOUGH), 1,
                    List.of(), db.schema(), new SsbDatabase.LoadOptions(0.1, 2, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            ParallelSweep sweep = new ParallelSweep(o, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            String version = sweep.run(pg, dir);
            sweep.finish(dir, List.of(version));

            List<Trial> queries = dir.trials().stream().filter(t -> t.params().containsKey("query")).toList();
            assertEquals(39, queries.size());
            assertTrue(dir.trials().stream().anyMatch(t -> "load".equals(t.params().get("step"))), "load recorded as a trial");
            int parallelAt2 = 0;
            for (Trial t : queries) {
                assertTrue(t.ok(), t.cell() + " " + t.extra());
                int workers = (Integer) t.params().get("workers");
                List<Map<String, Object>> gathers = (List<Map<String, Object>>) t.extra().get("gathers");
                if (workers == 0) assertTrue(gathers.isEmpty(), t.cell() + " has no Gather at workers=0");
                for (Map<String, Object> g : gathers) {
                    int planned = (Integer) g.get("planned");
                    int launched = (Integer) g.get("launched");
                    assertTrue(planned >= 1 && planned <= workers, t.cell() + " planned " + planned);
                    assertTrue(launched >= 0 && launched <= planned, t.cell() + " launched " + launched);
                }
                if (workers == 2 && !gathers.isEmpty()) parallelAt2++;
                assertTrue(Files.isRegularFile(dir.path().resolve((String) t.extra().get("plan_file"))));
            }
            assertTrue(parallelAt2 >= 10, "most SSB queries get a parallel plan at workers=2 (" + parallelAt2 + ")");
            String csv = Files.readString(dir.path().resolve(RunDirectory.SUMMARY));
            assertTrue(csv.startsWith("version,pool,workers,query,n,status,seconds_median"), csv);
            assertEquals(40, csv.strip().split("\n").length);
            String table = out.toString(StandardCharsets.UTF_8);
            assertTrue(table.contains("q4.3"), table);
            // SF 0.1's queries take milliseconds, which the table says in milliseconds (in seconds each read 0.0xx)
            boolean underASecond = csv.lines().skip(1).map(l -> l.split(",")[6]).allMatch(m -> Double.parseDouble(m) < 1);
            assertTrue(table.lines().findFirst().orElse("").contains(underASecond ? " median_ms " : " median_s "), table);
            // the rows each query returns at SF 0.1, as psql printed them for ../shared/ssb-reference/sql (the date table
            // holds 1992 only): a query that lost or changed a predicate returns other rows
            Map<String, Long> expectedRows = Map.ofEntries(Map.entry("q1.1", 1L), Map.entry("q1.2", 1L), Map.entry("q1.3", 1L),
                    Map.entry("q2.1", 40L), Map.entry("q2.2", 8L), Map.entry("q2.3", 1L), Map.entry("q3.1", 25L), Map.entry("q3.2", 52L),
                    Map.entry("q3.3", 2L), Map.entry("q3.4", 0L), Map.entry("q4.1", 5L), Map.entry("q4.2", 0L), Map.entry("q4.3", 0L));
            for (Trial t : queries) {
                assertEquals(expectedRows.get(String.valueOf(t.params().get("query"))), t.metric("rows").longValue(), t.cell());
            }
            // q1.1 returns its one row (a null sum) without reading lineorder: the run says why such times measure nothing
            String small = dir.info().notes().stream().filter(n -> n.startsWith("at SF 0.1 dbgen's date table")).findFirst().orElse("");
            assertTrue(small.startsWith("at SF 0.1 dbgen's date table holds 255 of its 2557 days (1992-01-01 to 1992-09-11): "),
                    dir.info().notes().toString());
            assertEquals(null, SsbDatabase.smallScaleWarning(1), "from SF 1 the date table is whole");
        } finally {
            db.drop();
        }
    }

    /**
     * A --resume of a finished sweep left its tables alone but applied every pool's settings (restarting a managed server
     * for each pattern) and prewarmed, to skip each recorded cell; it now says so without starting a server, and writes
     * summary.csv again. A run with cells left applies and prewarms for those cells only.
     */
    @Test
    void aResumeSkipsTheSettingsAndPrewarmOfRecordedCellsAndAFinishedOneStartsNoServer(@TempDir Path results) throws Exception {
        ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(0, 2), List.of(ParallelSweep.Pool.GATHER, ParallelSweep.Pool.GATHER4), 1,
                List.of("q1.1"), "public", new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
        Path run;
        try (Target pg = new dev.kensho.core.server.TargetSpec().open()) {
            try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
                ParallelSweep sweep = new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), new PrintStream(OutputStream.nullOutputStream()));
                sweep.finish(dir, List.of(sweep.run(pg, dir)));
                run = dir.path();
            }
            Path trials = run.resolve(RunDirectory.TRIALS);
            List<String> lines = Files.readAllLines(trials);
            assertEquals(5, lines.size(), "the load and four cells: " + lines);
            // the control group, as the study's: max_parallel_workers_per_gather 0 with the pools as they were, one
            // setting for both patterns (gather's had max_worker_processes 0, and a restart into and out of it)
            List<Map<?, ?>> control = RunDirectory.readTrials(trials).stream().filter(t -> Integer.valueOf(0).equals(t.params().get("workers")))
                    .<Map<?, ?>>map(t -> (Map<?, ?>) t.extra().get("settings")).toList();
            assertEquals(2, control.size());
            assertEquals(control.get(0), control.get(1));
            assertTrue(Integer.parseInt(String.valueOf(control.get(0).get("max_worker_processes"))) >= 8, control.toString());
            // killed before its last cell (gather*4, 2 workers), with the server at that cell's settings
            Files.write(trials, lines.subList(0, 4));
            String started = startTime(pg);
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            try (RunDirectory dir = RunDirectory.resume(run)) {
                new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), new PrintStream(said, true, StandardCharsets.UTF_8)).run(pg, dir);
            }
            String err = said.toString(StandardCharsets.UTF_8);
            assertEquals(started, startTime(pg), "restarted for cells already recorded: " + err);
            assertEquals(1, err.lines().filter(l -> l.startsWith("ssb: prewarmed")).count(), err);
            assertEquals(5, RunDirectory.readTrials(trials).size());
        }

        Files.delete(run.resolve(RunDirectory.SUMMARY));
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.resume(run)) {
            new ParallelSweep(o, new PrintStream(table, true, StandardCharsets.UTF_8), new PrintStream(said, true, StandardCharsets.UTF_8))
                    .run(List.of(new dev.kensho.core.server.TargetSpec()), dir);
        }
        // the embedded server, had it started, would have said so ("ssb: PostgreSQL ...") and prewarmed
        assertEquals("ssb: every trial is already in " + run + "; nothing left to resume\n", said.toString(StandardCharsets.UTF_8));
        assertEquals(5, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size());
        List<String> csv = Files.readAllLines(run.resolve(RunDirectory.SUMMARY));
        assertEquals(5, csv.size(), "summary.csv written again: " + csv);
        assertEquals(5, table.toString(StandardCharsets.UTF_8).lines().count(), table.toString(StandardCharsets.UTF_8));
    }

    /**
     * A postmaster killed mid-run comes back by Kensho's restart with empty shared buffers: the sweep says so and prewarms
     * again (lineorder's scans use a ring buffer and never filled them: every later cell was timed half cold, "prewarmed").
     */
    @Test
    void aServerRestartedMidRunIsPrewarmedAgain(@TempDir Path results) throws Exception {
        ParallelSweep.Options o = new ParallelSweep.Options(0.05, List.of(0), List.of(ParallelSweep.Pool.ENOUGH), 3, List.of(),
                "public", new SsbDatabase.LoadOptions(0.05, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
        try (Target pg = new dev.kensho.core.server.TargetSpec().open()) {
            Path data = pg.control().dataDirectory().orElseThrow();
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
                Path trials = dir.path().resolve(RunDirectory.TRIALS);
                Thread killer = new Thread(() -> {
                    try {
                        // after the first query's first trial (the load's is the first line): the rest of the run follows
                        while (!Files.exists(trials) || Files.readAllLines(trials).size() < 2) Thread.sleep(5);
                        ProcessHandle.of(Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim()))
                                .ifPresent(ProcessHandle::destroyForcibly);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                killer.start();
                ParallelSweep sweep = new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), new PrintStream(said, true, StandardCharsets.UTF_8));
                sweep.run(pg, dir);
                killer.join();
                List<Trial> all = dir.trials();
                String err = said.toString(StandardCharsets.UTF_8);
                assertTrue(all.stream().anyMatch(t -> Boolean.TRUE.equals(t.extra().get("prewarmed_again"))), err);
                assertTrue(err.contains("restarted it before") && err.contains("; prewarming again"), err);
                assertEquals(2, err.lines().filter(l -> l.startsWith("ssb: prewarmed")).count(), err);
                // a timed run the kill failed is said as it fails (it printed nothing)
                for (Trial t : all) {
                    if ("failed".equals(t.status())) {
                        assertTrue(err.contains(" " + t.params().get("query") + " #" + (t.repeat() + 1) + " failed: " + t.extra().get("reason")), err);
                    }
                }
            }
        }
    }

    /** A cell's median of the repeats left says so on its row of the table (only the run's last line had a count). */
    @Test
    void aRowWithFailedRepeatsSaysSo(@TempDir Path results) {
        ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(0), List.of(), 2, List.of("q1.1"), "public",
                new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            String cell = "version=17;pool=enough;workers=0;query=q1.1";
            Map<String, Object> params = Map.of("version", "17", "pool", "enough", "workers", 0, "query", "q1.1");
            dir.append(Trial.of(cell, 0).params(params).metric("seconds", 0.5).metric("rows", 1L).metric("workers_planned", 0L)
                    .metric("workers_launched", 0L).build());
            dir.append(Trial.of(cell, 1).params(params).failed("ERROR: canceling statement due to lock timeout").build());
            new ParallelSweep(o, new PrintStream(out, true, StandardCharsets.UTF_8), null).finish(dir, List.of("17"));
        }
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.lines().anyMatch(l -> l.contains(" q1.1 ") && l.endsWith("(1 of 2 repeats failed: ERROR: canceling statement due to lock timeout)")),
                table);
    }

    private static String startTime(Target pg) throws Exception {
        try (var c = pg.connect(); var rs = c.createStatement().executeQuery("SELECT pg_postmaster_start_time()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void aRemoteServerRunsTheControlGroupOfAnyPool(@LocalPostgres Target remote, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(remote, "kensho_ssb_control_test_" + ProcessHandle.current().pid());
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            // gather: max_worker_processes = workers, which a remote server without --restart-command cannot take;
            // at workers=0 no Gather runs, so its pool does not matter and the control group is measured
            int n;   // a pool this server cannot hold: max_worker_processes must differ from it
            try (var c = remote.connect(); var rs = c.createStatement().executeQuery("SHOW max_worker_processes")) {
                rs.next();
                n = Integer.parseInt(rs.getString(1)) + 1;
            }
            ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(0, n), List.of(ParallelSweep.Pool.GATHER), 1,
                    List.of("q1.1"), db.schema(), new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), System.err).run(remote, dir);
            Map<Object, String> status = new java.util.HashMap<>();
            for (Trial t : dir.trials()) if (t.params().containsKey("query")) status.put(t.params().get("workers"), t.status());
            assertEquals("ok", status.get(0), dir.trials().toString());
            assertEquals("skipped", status.get(n), dir.trials().toString());
        } finally {
            db.drop();
        }
    }

    /**
     * The default pool ("enough") on a remote server that cannot start the workers asked for: --workers 10 against
     * max_parallel_workers 8 and max_worker_processes 8 (one held by the logical replication launcher) ran as pool
     * "enough", planned 10 and launched 7, with nothing said before its cells (scan says it). Now said once, on stderr
     * and in run.json's notes; a count the server can start says nothing.
     */
    @Test
    void aRemoteServerThatCannotStartTheWorkersAskedForIsSaid(@LocalPostgres Target remote, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(remote, "kensho_ssb_shortpool_test_" + ProcessHandle.current().pid());
        db.drop();
        int mwp = maxWorkerProcesses(remote);
        // beyond max_worker_processes, which a session cannot raise, whatever the server's other limits
        int n = mwp + 1;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(1, n), List.of(ParallelSweep.Pool.ENOUGH), 1,
                    List.of("q1.1"), db.schema(), new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8))
                    .run(remote, dir);
            String said = err.toString(StandardCharsets.UTF_8);
            String warning = "ssb: warning: " + ParallelSweep.versionLabel(remote) + ": --workers " + n + ": more than this server can start (";
            assertEquals(1, said.split(java.util.regex.Pattern.quote(warning), -1).length - 1, said);
            assertFalse(said.contains("--workers 1: more than"), said);
            assertTrue(dir.info().notes().stream().anyMatch(l -> l.startsWith(ParallelSweep.versionLabel(remote) + ": --workers " + n + ": more than this server can start")),
                    dir.info().notes().toString());
        } finally {
            db.drop();
        }
    }

    /**
     * --fetch-size reads through a cursor, whose plan PostgreSQL runs without parallel workers: workers=2 was timed serially
     * (0.060 s, as workers=0's 0.062 s, against 0.047 s without it, SF 0.1 q2.1) while the trial, summary and table said
     * "planned 2 launched 2" from the EXPLAIN without a word. The run now says so once, each such trial says
     * timed_without_workers and the table marks the cell.
     */
    @Test
    void aCursorsTimesAreMarkedAsTimedWithoutTheWorkersTheExplainShows(@LocalPostgres Target remote, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(remote, "kensho_ssb_cursor_test_" + ProcessHandle.current().pid());
        db.drop();
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            ParallelSweep.Options o = new ParallelSweep.Options(0.1, List.of(0, 2), List.of(ParallelSweep.Pool.ENOUGH), 1,
                    List.of("q2.1"), db.schema(), new SsbDatabase.LoadOptions(0.1, 2, false, false), false, false, 100);
            ParallelSweep sweep = new ParallelSweep(o, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            sweep.finish(dir, List.of(sweep.run(remote, dir)));
            Map<Object, Trial> byWorkers = new java.util.HashMap<>();
            for (Trial t : dir.trials()) if (t.params().containsKey("query")) byWorkers.put(t.params().get("workers"), t);
            Trial parallel = byWorkers.get(2);
            assertTrue(parallel.metric("workers_planned") >= 1, "q2.1 plans workers at SF 0.1: " + parallel.metrics());
            assertEquals(true, parallel.extra().get(ParallelSweep.TIMED_WITHOUT_WORKERS), parallel.extra().toString());
            assertEquals(null, byWorkers.get(0).extra().get(ParallelSweep.TIMED_WITHOUT_WORKERS), "workers=0 plans none");
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("ssb: warning: --fetch-size 100 reads every result through a cursor, "
                    + "which PostgreSQL runs without parallel workers"), err.toString(StandardCharsets.UTF_8));
            assertTrue(dir.info().notes().stream().anyMatch(n -> n.startsWith("--fetch-size 100 reads")), dir.info().notes().toString());
            String table = out.toString(StandardCharsets.UTF_8);
            assertTrue(table.lines().anyMatch(l -> l.contains(" 2 q2.1") && l.endsWith("timed without workers (--fetch-size)")), table);
            assertTrue(table.lines().noneMatch(l -> l.contains(" 0 q2.1") && l.contains("timed without")), table);
            // summary.csv says it beside the numbers (it was on the console only)
            List<String> summary = java.nio.file.Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY));
            assertTrue(summary.get(0).endsWith(",speedup_vs_first,timing,reason"), summary.get(0));
            assertTrue(summary.stream().anyMatch(l -> l.contains(",2,q2.1,") && l.endsWith(",timed without workers (--fetch-size),")), summary.toString());
            assertTrue(summary.stream().anyMatch(l -> l.contains(",0,q2.1,") && l.endsWith(",,")), summary.toString());
        } finally {
            db.drop();
        }
    }

    /**
     * On a server with JIT (PostgreSQL 12 and later turn it on) a plan above jit_above_cost was compiled in every timed run,
     * by the leader and by each worker (SF 0.1 q2.1 with jit_above_cost 10000: 108 functions and 150 ms at workers=2, slower
     * than workers=0), which nothing in the results said. Trials now record jit_functions and jit_ms, the run warns once and
     * the table marks the cells. jit_above_cost 0 stands for SF 1 and more, whose plans cost above the default 100000.
     */
    @Test
    void plansThatJitCompiledAreRecordedAndSaid(@LocalPostgres Target remote, @TempDir Path results) throws Exception {
        try (var c = remote.connect(); var rs = c.createStatement().executeQuery("SELECT pg_jit_available()")) {
            rs.next();
            org.junit.jupiter.api.Assumptions.assumeTrue(rs.getBoolean(1), remote.describe() + " has no JIT");
        }
        SsbDatabase db = new SsbDatabase(remote, "kensho_ssb_jitsweep_test_" + ProcessHandle.current().pid());
        db.drop();
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        dev.kensho.core.server.TargetSpec spec = new dev.kensho.core.server.TargetSpec()
                .url("jdbc:postgresql://" + remote.host() + ":" + remote.port() + "/" + remote.database()).user(remote.user())
                .set("jit_above_cost", "0");
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            ParallelSweep.Options o = new ParallelSweep.Options(0.1, List.of(0, 2), List.of(ParallelSweep.Pool.ENOUGH), 2,
                    List.of("q2.1"), db.schema(), new SsbDatabase.LoadOptions(0.1, 2, false, false), false, false, 0);
            new ParallelSweep(o, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                    .run(List.of(spec), dir);
            Map<Object, Integer> functions = new java.util.HashMap<>();
            for (Trial t : dir.trials()) {
                if (!t.params().containsKey("query")) continue;
                assertTrue(t.extra().get(ParallelSweep.JIT_FUNCTIONS) instanceof Integer f && f > 0, t.cell() + " " + t.extra());
                assertTrue(((Number) t.extra().get("jit_ms")).doubleValue() > 0, t.extra().toString());
                functions.put(t.params().get("workers"), (Integer) t.extra().get(ParallelSweep.JIT_FUNCTIONS));
            }
            assertTrue(functions.get(2) > functions.get(0), "each worker compiles its own code: " + functions);
            String said = err.toString(StandardCharsets.UTF_8);
            assertEquals(said.indexOf("ssb: warning: JIT compiled plans of this run"), said.lastIndexOf("ssb: warning: JIT compiled plans"), said);
            assertTrue(said.contains("ssb: warning: JIT compiled plans of this run"), said);
            assertTrue(dir.info().notes().contains(ParallelSweep.JIT_COMPILED), dir.info().notes().toString());
            String table = out.toString(StandardCharsets.UTF_8);
            assertEquals(2, table.lines().filter(l -> l.contains(" q2.1") && l.endsWith("JIT-compiled")).count(), table);
        } finally {
            db.drop();
        }
    }

    /**
     * Two servers of one major (here one server reached over TCP and over its socket, as two hosts would be): their cells
     * stay apart, each version label naming its target, where the bare major would have made them one cell.
     */
    @Test
    void twoServersOfOneMajorKeepTheirOwnCells(@LocalPostgres Target remote, @TempDir Path results) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/var/run/postgresql/.s.PGSQL.5432")), "no socket of the local server");
        SsbDatabase db = new SsbDatabase(remote, "kensho_ssb_two_test_" + ProcessHandle.current().pid());
        db.drop();
        List<dev.kensho.core.server.TargetSpec> specs = List.of(
                new dev.kensho.core.server.TargetSpec().url("jdbc:postgresql://127.0.0.1:5432/test").user("postgres"),
                new dev.kensho.core.server.TargetSpec().url("jdbc:postgresql:///test?host=/var/run/postgresql").user("postgres"));
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(0), List.of(ParallelSweep.Pool.ENOUGH), 1,
                    List.of("q1.1"), db.schema(), new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), System.err).run(specs, dir);
            String major = ParallelSweep.versionLabel(remote);
            List<Object> versions = dir.trials().stream().filter(t -> t.params().containsKey("query")).map(t -> t.params().get("version")).toList();
            assertEquals(List.of(major + " remote 127.0.0.1:5432/test", major + " remote /test?host=/var/run/postgresql"), versions);
            // each cell names its target as pgbench sweep's do: compare --by target found no such parameter
            assertEquals(List.of("remote 127.0.0.1:5432/test", "remote /test?host=/var/run/postgresql"), dir.trials().stream()
                    .filter(t -> t.params().containsKey("query")).map(t -> t.params().get("target")).toList());
            String csv = Files.readString(dir.path().resolve(RunDirectory.SUMMARY));
            assertEquals(3, csv.strip().split("\n").length, csv);
        } finally {
            db.drop();
        }
    }

    /**
     * Two remote servers with the same limits, both short of --workers: each is warned before its cells, naming itself. The
     * warning had no target in it and was said only where run.json's notes lacked it, so the second server's went unsaid.
     */
    @Test
    void eachRemoteServerShortOfWorkersIsWarnedByName(@LocalPostgres Target remote, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(remote, "kensho_ssb_short_two_test_" + ProcessHandle.current().pid());
        db.drop();
        int mwp = maxWorkerProcesses(remote);
        int n = mwp + 1;   // beyond what a session can raise, whatever the server's other limits
        List<dev.kensho.core.server.TargetSpec> specs = List.of(
                new dev.kensho.core.server.TargetSpec().url("jdbc:postgresql://127.0.0.1:5432/test").user("postgres"),
                new dev.kensho.core.server.TargetSpec().url("jdbc:postgresql://localhost:5432/test").user("postgres"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(n), List.of(ParallelSweep.Pool.ENOUGH), 1,
                    List.of("q1.1"), db.schema(), new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
            new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8))
                    .run(specs, dir);
            String said = err.toString(StandardCharsets.UTF_8);
            String major = ParallelSweep.versionLabel(remote);
            for (String version : List.of(major + " remote 127.0.0.1:5432/test", major + " remote localhost:5432/test")) {
                String warning = version + ": --workers " + n + ": more than this server can start (";
                assertEquals(1, said.lines().filter(l -> l.startsWith("ssb: warning: " + warning)).count(), said);
                assertTrue(dir.info().notes().stream().anyMatch(l -> l.startsWith(warning)), dir.info().notes().toString());
            }
        } finally {
            db.drop();
        }
    }

    private static int maxWorkerProcesses(Target t) throws Exception {
        try (var c = t.connect(); var rs = c.createStatement().executeQuery("SHOW max_worker_processes")) {
            rs.next();
            return Integer.parseInt(rs.getString(1));
        }
    }
}
