package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JIT matrix against the machine's PostgreSQL 15 (built with LLVM), and the refusal on embedded. */
@KenshoTarget
class JitMatrixTest {

    /**
     * Set up before the load (and the type variants' table-sized copies): a run killed there has its summary.csv and
     * the cells it never reached in run.json; it had neither, and its report looked complete.
     */
    @Test
    void aRunCutAfterItsLoadHasItsSummaryAndPlan(@TempDir Path results) throws Exception {
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of(JitMatrix.COMMAND, List.of("test"), Map.of()))) {
            new JitMatrix(new JitMatrix.Options(List.of(3), 2, List.of("q1.1"), Map.of(), QueryTimer.DEFAULT_FETCH_SIZE), System.out, System.err).prepare(dir);
            dir.append(Trial.of("load;version=17", 0).param("step", "load").metric("seconds", 1.5).build());
            assertTrue(Files.exists(dir.path().resolve(RunDirectory.SUMMARY)));
            assertEquals(List.of("v3;query=q1.1;jit=off", "v3;query=q1.1;jit=on"), dir.plannedCells());
        }
    }

    @Test
    void embeddedServerIsRefusedWithAOneLineHint(Target pg) {
        KenshoException e = assertThrows(KenshoException.class, () -> JitMatrix.requireJit(pg));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertFalse(e.getMessage().contains("\n"));
        assertTrue(e.getMessage().contains("pg_jit_available() is false"), e.getMessage());
        assertTrue(e.getMessage().contains("--pg-bin") && e.getMessage().contains("--url"), e.getMessage());
    }

    /**
     * A --pg-bin server whose jit_provider does not load (a build without LLVM, here the embedded 18's tools; a
     * --set jit_provider): its refusal said to give --pg-bin, which it was already on, not why.
     */
    @Test
    void aPgBinServerWithoutJitIsToldWhyNotSentToPgBin() throws Exception {
        // one directory across runs: a server's initdb template is kept per bin directory
        java.nio.file.Path bin = dev.kensho.core.server.KenshoHome.dir().resolve("test-bin-without-llvm-18");
        if (!java.nio.file.Files.isDirectory(bin)) {
            java.nio.file.Files.createDirectories(bin);
            java.nio.file.Files.setPosixFilePermissions(bin, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            java.nio.file.Path real = dev.kensho.core.server.EmbeddedBinaries.binDirectory(18);
            for (String tool : List.of("initdb", "pg_ctl", "postgres")) java.nio.file.Files.createSymbolicLink(bin.resolve(tool), real.resolve(tool));
        }
        try (Target t = new dev.kensho.core.server.TargetSpec().pgBin(bin).open()) {
            KenshoException e = assertThrows(KenshoException.class, () -> JitMatrix.requireJit(t));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("this server has no JIT: pg_jit_available() is false, its jit_provider 'llvmjit' did not load (a --set"
                    + " jit_provider, or a build or package without LLVM: Debian's postgresql-NN has it)", e.getMessage());
        }
    }

    @Test
    void badQueriesAndCostsAreRefusedWhenTheOptionsAreMadeBeforeAnyServerStarts() {
        assertUsage("unknown SSB query q9.9", () -> new JitMatrix.Options(List.of(3), 1, List.of("q9.9"), Map.of(), 10));
        assertUsage("JitMatrix.Options queries selects queries of verification 3, which JitMatrix.Options verifications 1,2 leaves out",
                () -> new JitMatrix.Options(List.of(1, 2), 1, List.of("q1.1"), Map.of(), 10));
        for (String bad : List.of("abc", "-2", "1e", "Infinity", "10d")) {
            assertUsage("JitMatrix.Options costs jit_above_cost " + bad + ": expected a number >= -1",
                    () -> new JitMatrix.Options(List.of(1), 1, List.of(), Map.of("jit_above_cost", bad), 10));
        }
        for (String good : List.of("0", "-1", "1e5", "100000.5")) {
            new JitMatrix.Options(List.of(1), 1, List.of(), Map.of("jit_inline_above_cost", good), 10);
        }
    }

    /** A harness typed no option: the record's errors name its components, and bench ssb jit reads them back as its options. */
    @Test
    void theOptionsNameTheirComponentsToAHarness() {
        assertEquals("JitMatrix.Options repeat must be at least 1",
                assertThrows(KenshoException.class, () -> new JitMatrix.Options(List.of(1), 0, List.of(), Map.of(), 0)).getMessage());
        assertUsage("JitMatrix.Options fetchSize must not be negative", () -> new JitMatrix.Options(List.of(1), 1, List.of(), Map.of(), -1));
        assertEquals("JitMatrix.Options verifications 4: expected 1, 2 or 3",
                assertThrows(KenshoException.class, () -> new JitMatrix.Options(List.of(4), 1, List.of(), Map.of(), 0)).getMessage());
        // a cost bench ssb jit has no option for is named as the costs entry it is too
        assertUsage("JitMatrix.Options costs work_mem 1GB: expected a number >= -1",
                () -> new JitMatrix.Options(List.of(1), 1, List.of(), Map.of("work_mem", "1GB"), 0));
        for (String cli : List.of("--repeat must be at least 1", "--verification 4: expected 1, 2 or 3",
                "--query selects queries of verification 3, which --verification 1,2 leaves out",
                "--jit-optimize-above-cost x: expected a number >= -1 (-1 disables)",
                "--matrix jit_inline_above_cost and --jit-inline-above-cost: give its values in one of them")) {
            KenshoException named = KenshoException.usage(cli).naming(JitMatrix.Options.COMPONENT_NAMES);
            assertFalse(named.getMessage().contains("--"), named.getMessage());
            assertEquals(cli, named.namingBack(JitMatrix.Options.COMPONENT_NAMES).getMessage());
        }
    }

    private static void assertUsage(String start, org.junit.jupiter.api.function.Executable x) {
        KenshoException e = assertThrows(KenshoException.class, x);
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
    }

    @Test
    void jitThatCompilesNothingIsMarkedAndOffAndOnTakeTurnsAfterAWarmUp(@LocalPostgres Target pg, @TempDir Path results)
            throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_jitwarn_test_" + ProcessHandle.current().pid());
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb jit", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.01, 1, false, false), dir, "15", System.err);
            // no SSB query costs that much at SF 0.01: JIT stays off with jit=on
            Map<String, String> costs = Map.of("jit_above_cost", "1e9");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            JitMatrix m = new JitMatrix(new JitMatrix.Options(List.of(3), 2, List.of("q1.1"), costs, QueryTimer.DEFAULT_FETCH_SIZE),
                    new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
            long scans0 = lineorderScans(pg, db);
            m.run(db, dir);
            // warm-up + EXPLAIN off and on + 2 repeats x off and on: 7 executions; 6 would mean no warm-up.
            // A backend's counts reach the statistics as it ends, just after its connection closed.
            long scans = scans0;
            for (int i = 0; i < 300 && scans - scans0 < 7; i++) {   // 30 s: the backend's exit may come late on a loaded machine
                Thread.sleep(100);
                scans = lineorderScans(pg, db);
            }
            assertEquals(7, scans - scans0, "executions of q1.1");
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("ssb jit: warning: v3 q1.1: JIT not triggered (plan cost "),
                    err.toString(StandardCharsets.UTF_8));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("jit_above_cost 1e+09); lower --jit-above-cost"),
                    err.toString(StandardCharsets.UTF_8));
            assertTrue(dir.info().notes().contains(JitMatrix.PROCEDURE), dir.info().notes().toString());

            List<Trial> trials = dir.trials().stream().filter(t -> t.params().containsKey("jit")).toList();
            assertEquals(List.of("off@0", "on@0", "on@1", "off@1"), trials.stream().map(t -> t.params().get("jit") + "@" + t.repeat()).toList());
            for (int i = 0; i < trials.size(); i++) {
                Trial t = trials.get(i);
                assertTrue(t.ok(), t.cell() + " " + t.extra());
                // one after the other: each began after the one before it finished
                if (i > 0) assertFalse(t.started().isBefore(trials.get(i - 1).finished()), t.started() + " " + trials.get(i - 1).finished());
                assertEquals(t.repeat() == 0 ? "off,on" : "on,off", t.extra().get("pair_order"), t.cell());
                assertEquals(t.params().get("jit").equals(t.repeat() == 0 ? "off" : "on") ? 1 : 2, t.extra().get("position"), t.cell());
                if (t.params().get("jit").equals("on")) {
                    String warning = String.valueOf(t.extra().get("warning"));
                    assertTrue(warning.startsWith("JIT not triggered (plan cost ") && warning.endsWith("; lower --jit-above-cost"), warning);
                }
            }
            List<List<Object>> rows = m.finish(dir);
            assertEquals(2, rows.size());
            List<Object> on = rows.get(1);
            assertEquals(List.of(3, "q1.1", "on", 2, "ok"), on.subList(0, 5));
            assertEquals(0.0, on.get(9));
            assertNull(on.get(15), "no reduction rate without JIT: " + on);
            assertTrue(((String) on.get(16)).startsWith("JIT not triggered") && ((String) on.get(16)).endsWith("lower --jit-above-cost"),
                    on.toString());
        } finally {
            db.drop();
        }
    }

    /**
     * At SF 1 under the default thresholds every query compiles without inlining and optimization: the line named all 26
     * of verifications 1 to 3 with their plan costs, a thousand characters, where their range is what a user acts on.
     * A few queries, or some of many, are still named.
     */
    @Test
    void jitWithoutInliningInEveryQueryOfALongListGivesTheRangeOfTheirCosts() {
        String what = "without inlining (jit_inline_above_cost 500000) or optimization (jit_optimize_above_cost 500000)";
        List<Trial> trials = new java.util.ArrayList<>();
        String[] queries = {"q1.1", "q1.2", "q2.1", "q3.1", "q4.1"};
        for (int i = 0; i < queries.length; i++) {
            for (String jit : List.of("off", "on")) {
                for (int r = 0; r < 2; r++) {
                    Trial.Builder t = Trial.of("v3;query=" + queries[i] + ";jit=" + jit, r).param("verification", 3).param("query", queries[i])
                            .param("jit", jit).metric("seconds", 1.0);
                    if (jit.equals("on") && (i > 0 || r == 0)) t.extra(JitMatrix.JIT_PARTIAL, what).extra("plan_cost", String.valueOf(9000 - 100 * i));
                    trials.add(t.build());
                }
            }
        }
        String lower = "; lower --jit-inline-above-cost and --jit-optimize-above-cost";
        assertEquals(List.of("JIT " + what + ", where the study's plans had both, in all 5 queries (plan costs 8600 to 9000)" + lower),
                JitMatrix.partialJit(trials));
        // one of the five compiled in full: the four are named
        List<Trial> fourOfFive = trials.stream().filter(t -> !(t.params().get("query").equals("q1.1") && "on".equals(t.params().get("jit"))
                && t.extra() != null && t.extra().containsKey(JitMatrix.JIT_PARTIAL))).toList();
        assertEquals(List.of("JIT " + what + ", where the study's plans had both, in 4 queries: v3 q1.2 (plan cost 8900), v3 q2.1 (plan cost 8800), "
                + "v3 q3.1 (plan cost 8700), v3 q4.1 (plan cost 8600)" + lower), JitMatrix.partialJit(fourOfFive));
        // three of three: named
        List<Trial> three = trials.stream().filter(t -> List.of("q2.1", "q3.1", "q4.1").contains(t.params().get("query"))).toList();
        assertTrue(JitMatrix.partialJit(three).get(0).contains(" in 3 queries: v3 q2.1 (plan cost 8800), "), JitMatrix.partialJit(three).toString());
    }

    /**
     * Every plan of the study inlined and optimized (its costs were in the millions); a JIT under a lower
     * jit_above_cost alone does neither, and is another measurement: it keeps its reduction rate, and stderr, run.json's
     * notes and the table say once what it lacked, in which queries, and which options give it. It was said on every
     * query's line of stderr, every jit=on row of summary.csv and of the table, and every row of the report: at SF 1 the
     * same sentence thirteen times.
     */
    @Test
    void jitWithoutInliningOrOptimizationIsSaidOnceWithItsQueries(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_jitpartial_test_" + ProcessHandle.current().pid());
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb jit", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.01, 1, false, false), dir, "15", System.err);
            Map<String, String> costs = Map.of("jit_above_cost", "0", "jit_inline_above_cost", "1e9", "jit_optimize_above_cost", "1e9");
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            JitMatrix m = new JitMatrix(new JitMatrix.Options(List.of(3), 2, List.of("q1.1", "q1.2"), costs, QueryTimer.DEFAULT_FETCH_SIZE),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            m.run(db, dir);
            String said = Pattern.quote("JIT without inlining (jit_inline_above_cost 1e+09) or optimization (jit_optimize_above_cost 1e+09), "
                    + "where the study's plans had both, in 2 queries: v3 q1.1 (plan cost ") + "\\d+" + Pattern.quote("), v3 q1.2 (plan cost ")
                    + "\\d+" + Pattern.quote("); lower --jit-inline-above-cost and --jit-optimize-above-cost");
            List<String> log = err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("JIT without")).toList();
            assertEquals(1, log.size(), log.toString());
            assertTrue(log.get(0).matches("ssb jit: warning: " + said), log.get(0));
            List<String> notes = dir.info().notes().stream().filter(n -> n.contains("JIT without")).toList();
            assertEquals(1, notes.size(), notes.toString());
            assertTrue(notes.get(0).matches("ssb jit: " + said), notes.get(0));

            List<List<Object>> rows = m.finish(dir);
            List<String> h = JitMatrix.HEADER;
            assertEquals(4, rows.size());
            for (List<Object> r : rows) {
                assertTrue(r.get(h.indexOf("reason")) == null || r.get(h.indexOf("reason")).equals(""), "said once for the run, not on its row: " + r);
                if (!"on".equals(r.get(h.indexOf("jit")))) continue;
                assertTrue((Double) r.get(h.indexOf("jit_functions")) >= 1, r.toString());
                assertNotNull(r.get(h.indexOf("reduction_pct")), "JIT ran: its reduction rate is measured: " + r);
            }
            List<String> table = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("JIT without")).toList();
            assertEquals(1, table.size(), out.toString(StandardCharsets.UTF_8));
            assertTrue(table.get(0).matches(said), table.get(0));
            for (Trial t : dir.trials()) {
                if (!"on".equals(t.params().get("jit"))) continue;
                assertNull(t.extra().get("warning"), "the report prints a trial's warning on its row: " + t.extra());
                assertEquals("without inlining (jit_inline_above_cost 1e+09) or optimization (jit_optimize_above_cost 1e+09)",
                        t.extra().get(JitMatrix.JIT_PARTIAL), t.extra().toString());
            }
        } finally {
            db.drop();
        }
    }

    /**
     * Study 6.6.3.3's settings matrix: every query under each combination. Varying jit_above_cost shows that each
     * combination's settings were in force: JIT compiles under 0 and not under 1e9. A second run on the same
     * directory (--resume) finds every cell done and changes no setting.
     */
    @Test
    void settingsMatrixRunsEveryCombinationUnderItsSettings(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_jitmatrix_test_" + ProcessHandle.current().pid());
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb jit", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.01, 1, false, false), dir, "15", System.err);
            Map<String, List<String>> matrix = new LinkedHashMap<>();
            matrix.put("jit_above_cost", List.of("0", "1e9"));
            matrix.put("work_mem", List.of("4MB", "8MB"));
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            JitMatrix m = new JitMatrix(new JitMatrix.Options(List.of(3), 1, List.of("q1.1"), Map.of(), 0, matrix),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            m.run(db, dir);
            String log = err.toString(StandardCharsets.UTF_8);
            assertTrue(log.contains("ssb jit: jit_above_cost=0 work_mem=4MB (1/4)") && log.contains("ssb jit: jit_above_cost=1e9 work_mem=8MB (4/4)"), log);
            List<Trial> trials = dir.trials().stream().filter(t -> t.params().containsKey("jit")).toList();
            assertEquals(8, trials.size(), log);
            assertEquals("v3;query=q1.1;jit=off;jit_above_cost=0;work_mem=4MB", trials.get(0).cell());
            // the plan in run.json, for the report of a run cut short to name what it never reached
            assertEquals(trials.stream().map(Trial::cell).distinct().sorted().toList(), dir.plannedCells().stream().sorted().toList());
            // each trial records the settings its session had when it ran, not only the cell's name for them
            for (Trial t : trials) {
                @SuppressWarnings("unchecked")
                Map<String, Object> had = (Map<String, Object>) t.extra().get("settings");
                assertTrue(had != null, "no settings recorded: " + t.extra());
                assertEquals(t.params().get("jit"), had.get("jit"), t.cell());
                assertEquals(t.params().get("work_mem"), had.get("work_mem"), t.cell());
                assertEquals(t.params().get("jit_above_cost").equals("0") ? "0" : "1e+09", had.get("jit_above_cost"), t.cell());
                assertEquals("0", had.get("max_parallel_workers_per_gather"), t.cell());
                assertEquals(Set.of("jit", "jit_above_cost", "jit_inline_above_cost", "jit_optimize_above_cost",
                        "max_parallel_workers_per_gather", "work_mem"), had.keySet(), t.cell());
            }
            List<List<Object>> rows = m.finish(dir);
            List<String> h = JitMatrix.header(List.of("jit_above_cost", "work_mem"));
            assertEquals(h, List.of(Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY)).get(0).split(",")));
            assertEquals(8, rows.size());
            int cost = h.indexOf("jit_above_cost"), jit = h.indexOf("jit"), fn = h.indexOf("jit_functions"), red = h.indexOf("reduction_pct");
            for (List<Object> r : rows) {
                assertEquals("ok", r.get(h.indexOf("status")), r.toString());
                if (!r.get(jit).equals("on")) continue;
                if (r.get(cost).equals("0")) {
                    assertTrue((Double) r.get(fn) >= 1 && r.get(red) != null, "JIT under jit_above_cost=0: " + r);
                } else {
                    assertEquals(0.0, r.get(fn), "no JIT under jit_above_cost=1e9: " + r);
                    assertNull(r.get(red), r.toString());
                }
            }
            assertTrue(Files.isRegularFile(dir.path().resolve("plans/jit-on/jit_above_cost=1e9,work_mem=8MB/v3-q1.1.json")));
            String table = out.toString(StandardCharsets.UTF_8);
            assertTrue(table.contains("jit_above_cost=0 work_mem=8MB:\n3   q1.1"), table);

            ByteArrayOutputStream again = new ByteArrayOutputStream();
            new JitMatrix(new JitMatrix.Options(List.of(3), 1, List.of("q1.1"), Map.of(), 0, matrix),
                    new PrintStream(OutputStream.nullOutputStream()), new PrintStream(again, true, StandardCharsets.UTF_8)).run(db, dir);
            assertEquals(8, dir.trials().stream().filter(t -> t.params().containsKey("jit")).count());
            assertFalse(again.toString(StandardCharsets.UTF_8).contains("jit_above_cost="), again.toString(StandardCharsets.UTF_8));
        } finally {
            db.drop();
        }
    }

    /**
     * A matrix value the server refuses skips its cells, and the table said why twice on the pair's line (the jit=on row's
     * reason joined to the jit=off row's, the same); it says it once.
     */
    @Test
    void aRefusedMatrixValueSkipsItsCellsAndTheTableSaysWhyOnce(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_jitrefused_test_" + ProcessHandle.current().pid());
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb jit", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.01, 1, false, false), dir, "15", System.err);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JitMatrix m = new JitMatrix(new JitMatrix.Options(List.of(3), 1, List.of("q1.1"), Map.of(), 0,
                    Map.of("work_mem", List.of("4MB", "lots"))), new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(OutputStream.nullOutputStream()));
            m.run(db, dir);
            m.finish(dir);
            List<Trial> refused = dir.trials().stream().filter(t -> "lots".equals(t.params().get("work_mem"))).toList();
            assertEquals(2, refused.size(), dir.trials().toString());
            refused.forEach(t -> assertEquals("skipped", t.status(), t.toString()));
            assertEquals(2, dir.trials().stream().filter(t -> "4MB".equals(t.params().get("work_mem")) && t.ok()).count(), dir.trials().toString());
            String line = out.toString(StandardCharsets.UTF_8).lines().dropWhile(l -> !l.equals("work_mem=lots:")).skip(1).findFirst().orElse("");
            assertTrue(line.contains("(cannot apply work_mem=lots: "), out.toString(StandardCharsets.UTF_8));
            assertEquals(line.indexOf("cannot apply"), line.lastIndexOf("cannot apply"), line);
        } finally {
            db.drop();
        }
    }

    @Test
    void matrixOfWhatTheStudyFixesIsRefused() {
        assertUsage("JitMatrix.Options matrix jit: ssb jit sets jit itself", () -> new JitMatrix.Options(List.of(3), 1, List.of(), Map.of(), 0,
                Map.of("jit", List.of("on", "off"))));
        assertUsage("JitMatrix.Options matrix jit_above_cost and JitMatrix.Options costs jit_above_cost: give its values in one of them",
                () -> new JitMatrix.Options(List.of(3), 1, List.of(), Map.of("jit_above_cost", "0"), 0, Map.of("jit_above_cost", List.of("0", "10"))));
    }

    private static long lineorderScans(Target pg, SsbDatabase db) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT seq_scan FROM pg_stat_user_tables WHERE schemaname = '" + db.schema()
                     + "' AND relname = 'lineorder'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void jitOffAndOnWithReductionRatesAndJitTimings(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        // per JVM: other runs (CI, colleagues) may use the same server at the same time
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_test_" + ProcessHandle.current().pid());
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb jit", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.1, 2, false, false), dir, "15", System.err);
            // SF 0.1 costs less than the default thresholds: JIT everything, as the study's big tables did.
            Map<String, String> costs = Map.of("jit_above_cost", "0", "jit_inline_above_cost", "0", "jit_optimize_above_cost", "0");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JitMatrix m = new JitMatrix(new JitMatrix.Options(List.of(1, 2, 3), 1, List.of("q1.1", "q2.1", "q4.3"), costs, QueryTimer.DEFAULT_FETCH_SIZE),
                    new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            m.run(db, dir);
            List<List<Object>> rows = m.finish(dir);
            assertEquals(2 * (9 + 4 + 3), rows.size(), "a row per cell: query x jit");
            for (List<Object> r : rows) {
                String cell = JitMatrix.HEADER + " " + r;
                assertEquals("ok", r.get(4), cell);
                assertEquals(1, r.get(3), cell);
                assertNotNull(r.get(5), cell);
                assertTrue((Double) r.get(6) <= (Double) r.get(5) && (Double) r.get(5) <= (Double) r.get(7), cell);
                if (r.get(2).equals("on")) {
                    assertNotNull(r.get(15), "reduction rate " + cell);
                    assertTrue((Double) r.get(9) >= 1, "JIT functions with jit=on: " + cell);
                    assertTrue((Double) r.get(13) > 0, "emission time: " + cell);
                    assertEquals("", r.get(16), cell);
                } else {
                    assertNull(r.get(15), cell);
                    assertEquals(0.0, r.get(9), cell);
                }
            }
            String csv = Files.readString(dir.path().resolve(RunDirectory.SUMMARY));
            assertTrue(csv.startsWith("verification,query,jit,n,status,seconds_median,seconds_min,seconds_max,rows,jit_functions,"), csv);
            assertTrue(csv.lines().findFirst().orElseThrow().endsWith(",reduction_pct,reason"), csv);
            long lineorderRows = db.rowCounts().get("lineorder");
            for (Trial t : dir.trials()) {
                if (!t.params().containsKey("jit")) continue;
                assertTrue(t.ok(), t.cell() + " " + t.extra());
                if (t.params().get("jit").equals("off")) assertEquals(0.0, t.metric("jit_functions"), t.cell());
                assertEquals("off,on", t.extra().get("pair_order"), t.cell());
                assertEquals(t.params().get("jit").equals("off") ? 1 : 2, t.extra().get("position"), t.cell());
                assertEquals(JitMatrix.JIT_FROM, t.extra().get("jit_from"), t.cell());
                assertTrue(Files.isRegularFile(dir.path().resolve((String) t.extra().get("plan_file"))), t.cell());
                // the two verification-1 queries returning every row were streamed in full
                if (List.of("multiply", "subtract").contains(t.params().get("query"))) {
                    assertEquals((double) lineorderRows, t.metric("rows"), t.cell());
                }
            }
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("double precision"));
        } finally {
            db.drop();
        }
    }
}
