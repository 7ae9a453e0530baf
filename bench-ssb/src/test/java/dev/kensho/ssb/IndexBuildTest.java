package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.run.StudyLock;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetKind;
import dev.kensho.junit.KenshoTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.io.OutputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verification C at SF 0.1: builds, drops, distinct key combinations grow with the columns. */
@KenshoTarget
class IndexBuildTest {

    /**
     * The server's words for a build: index.c's request, then trace_sort's participant sorts (the leader's among them
     * where it participates). Two workers asked for and one started: 2 planned, 1 launched; none started: the build ran
     * serially (worker -1 only), 0 launched; without trace_sort's lines the launch is unknown.
     */
    @Test
    void workersAreReadFromTheServersMessages() {
        String request = "building index \"kensho_ssb_index_build\" on table \"lineorder\" with request for 2 parallel workers";
        List<String> oneOfTwo = List.of(request, "begin index sort: unique = f, workMem = 349525, randomAccess = f",
                "performsort of worker 0 starting: CPU: user: 0.03 s", "performsort of worker 1 starting: CPU: user: 0.01 s",
                "performsort of worker -1 starting: CPU: user: 0.00 s");
        assertEquals(new IndexBuild.BuildWorkers(2, 1), IndexBuild.BuildWorkers.of(oneOfTwo, true));
        assertEquals(new IndexBuild.BuildWorkers(2, 2), IndexBuild.BuildWorkers.of(oneOfTwo, false));
        assertEquals(new IndexBuild.BuildWorkers(2, 0), IndexBuild.BuildWorkers.of(List.of(request,
                "performsort of worker -1 starting: CPU: user: 0.00 s"), true));
        assertEquals(new IndexBuild.BuildWorkers(2, null), IndexBuild.BuildWorkers.of(List.of(request), true));
        assertEquals(new IndexBuild.BuildWorkers(0, 0), IndexBuild.BuildWorkers.of(List.of(
                "building index \"kensho_ssb_index_build\" on table \"lineorder\" serially"), true));
        assertEquals(new IndexBuild.BuildWorkers(null, null), IndexBuild.BuildWorkers.of(List.of(), true));
    }

    /** A maintenance_work_mem the server would refuse is refused before any server starts or data load. */
    @Test
    void badMaintenanceWorkMemIsRefusedBeforeTheRun() {
        // 64kB is work_mem's minimum, not maintenance_work_mem's (1MB); 3000GB is over its maximum: the server refused both after the prewarm
        for (String bad : List.of("lots", "10kB", "64kB", "1023kB", "3000GB", "1 GiB", "-1", "")) {
            KenshoException e = assertThrows(KenshoException.class, () -> new IndexBuild.Options(List.of(0), 1, 1, bad), bad);
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("IndexBuild.Options maintenanceWorkMem " + bad + ": expected a size from 1MB to 2147483647kB"), e.getMessage());
        }
        for (String good : List.of("1GB", "512MB", "65536", "1MB", "1024kB", "1.5GB", "2147483647kB")) new IndexBuild.Options(List.of(0), 1, 1, good);
    }

    /** A harness typed no option: the record's errors name its components, and bench ssb index-build reads them back as its options. */
    @Test
    void theOptionsNameTheirComponentsToAHarness() {
        assertEquals("IndexBuild.Options workers needs at least one value",
                assertThrows(KenshoException.class, () -> new IndexBuild.Options(List.of(), 1, 1, null)).getMessage());
        assertEquals("IndexBuild.Options workers 1025: expected 0..1024",
                assertThrows(KenshoException.class, () -> new IndexBuild.Options(List.of(1025), 1, 1, null)).getMessage());
        assertEquals("IndexBuild.Options workers 2 is given twice",
                assertThrows(KenshoException.class, () -> new IndexBuild.Options(List.of(2, 0, 2), 1, 1, null)).getMessage());
        assertEquals("IndexBuild.Options maxColumns must be 1..4",
                assertThrows(KenshoException.class, () -> new IndexBuild.Options(List.of(0), 5, 1, null)).getMessage());
        KenshoException repeat = assertThrows(KenshoException.class, () -> new IndexBuild.Options(List.of(0), 1, 0, null));
        assertEquals(KenshoException.USAGE, repeat.exitCode());
        assertEquals("IndexBuild.Options repeat must be at least 1", repeat.getMessage());
        for (String cli : List.of("--maintenance-workers needs at least one value", "--maintenance-workers 1025: expected 0..1024",
                "--columns must be 1..4", "--repeat must be at least 1", "--maintenance-work-mem 10kB: expected a size from 1MB to 2147483647kB",
                "--maintenance-workers 2 is given twice")) {
            KenshoException named = KenshoException.usage(cli).naming(IndexBuild.Options.COMPONENT_NAMES);
            assertFalse(named.getMessage().contains("--"), named.getMessage());
            assertEquals(cli, named.namingBack(IndexBuild.Options.COMPONENT_NAMES).getMessage());
        }
    }

    /**
     * Set up before the load, the run has its summary.csv once the load's trial is in: a run killed during its first
     * build had none (the summary was set up after the load), beside a trials.jsonl with the load.
     */
    @Test
    void aRunCutAfterItsLoadHasItsSummary(@TempDir Path results) throws Exception {
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb index-build", List.of("test"), Map.of()))) {
            new IndexBuild(new IndexBuild.Options(List.of(0), 2, 3, "64MB"), System.out, System.err).prepare(dir);
            dir.append(Trial.of("load;version=17", 0).param("step", "load").metric("seconds", 1.5).build());
            assertEquals(List.of(String.join(",", IndexBuild.HEADER)), java.nio.file.Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY)));
            assertEquals(List.of("index-build;workers=0;columns=1", "index-build;workers=0;columns=2"), dir.plannedCells());
        }
    }

    @Test
    void buildsEachCompositeIndexAndDropsIt(Target pg, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_index_test");
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb index-build", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.1, 2, false, false), null, "x", System.err);
            if (pg.kind() == TargetKind.EMBEDDED) {
                // this JVM's own server: without the extension, the build must create it where drop() leaves it alone
                try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                    s.execute("DROP EXTENSION IF EXISTS pg_prewarm");
                }
            }
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            IndexBuild ib = new IndexBuild(new IndexBuild.Options(List.of(0, 2, 4), 4, 1, "256MB"), new PrintStream(OutputStream.nullOutputStream()),
                    new PrintStream(said, true, StandardCharsets.UTF_8));
            ib.run(db, dir);
            // each build's line names its cell: the worker counts' lines read alike
            assertTrue(said.toString(StandardCharsets.UTF_8).matches("(?s).*ssb index-build workers=2 #1 \\(lo_orderkey, lo_custkey\\): [0-9.]+ m?s\n.*"),
                    said.toString(StandardCharsets.UTF_8));
            List<List<Object>> rows = ib.finish(dir);
            assertEquals(12, rows.size());
            // in run.json from the start: a report of an interrupted build names the cells it never reached
            assertEquals(List.of(0, 2, 4).stream().flatMap(w -> java.util.stream.IntStream.rangeClosed(1, 4)
                    .mapToObj(k -> "index-build;workers=" + w + ";columns=" + k)).toList(), dir.plannedCells());
            List<Trial> trials = dir.trials();
            assertEquals(12, trials.size());
            long lines = db.rowCounts().get("lineorder");
            long orders = new dev.kensho.ssb.gen.SsbGenerator(0.1).units(dev.kensho.ssb.gen.SsbTable.LINEORDER);
            for (Trial t : trials) {
                assertTrue(t.ok(), t.cell() + " " + t.extra());
                assertTrue(t.metric("seconds") > 0);
                // the build's span holds its timed seconds
                assertTrue(java.time.Duration.between(t.started(), t.finished()).toNanos() >= t.metric("seconds") * 1e9, t.started() + " " + t);
                long distinct = t.metric("distinct_keys").longValue();
                int k = (Integer) t.params().get("columns");
                // orderkey alone (and with its customer) is one key per order; adding partkey makes lines distinct
                if (k <= 2) assertEquals(orders, distinct, t.cell());
                else assertTrue(distinct > orders && distinct <= lines, t.cell() + " " + distinct);
                // what ran, not only the setting: lineorder at SF 0.1 (about 60 MB) gets at most 2 workers from the planner
                int w = (Integer) t.params().get("maintenance_workers");
                assertEquals(Math.min(w, 2), t.metric("workers_planned").intValue(), t.cell());
                assertEquals(Math.min(w, 2), t.metric("workers_launched").intValue(), t.cell());
                // the settings each build ran with, for the report (it showed the last one applied as the run's)
                Map<?, ?> settings = (Map<?, ?>) t.extra().get("settings");
                assertEquals(String.valueOf(w), settings.get("max_parallel_maintenance_workers"), t.extra().toString());
                assertEquals("256MB", settings.get("maintenance_work_mem"), t.extra().toString());
            }
            // --resume with one more worker count: the counts the finished builds recorded are not taken again
            ByteArrayOutputStream again = new ByteArrayOutputStream();
            IndexBuild more = new IndexBuild(new IndexBuild.Options(List.of(0, 2, 4, 6), 4, 1, "256MB"), new PrintStream(OutputStream.nullOutputStream()),
                    new PrintStream(again, true, StandardCharsets.UTF_8));
            more.run(db, dir);
            assertEquals(16, dir.trials().size());
            assertTrue(again.toString(StandardCharsets.UTF_8).lines().noneMatch(l -> l.contains(" distinct (")), again.toString(StandardCharsets.UTF_8));
            for (Trial t : dir.trials().subList(12, 16)) {
                assertEquals(trials.get((Integer) t.params().get("columns") - 1).metric("distinct_keys"), t.metric("distinct_keys"), t.cell());
            }
            try (Connection c = db.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_indexes WHERE schemaname = 'kensho_ssb_index_test'")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "every built index was dropped");
            }
            try (Connection c = db.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_prewarm'")) {
                assertTrue(rs.next());
                assertEquals("public", rs.getString(1), "pg_prewarm outside Kensho's schema");
            }
            if (pg.kind() == TargetKind.EMBEDDED) {
                assertTrue(dir.info().notes().stream().anyMatch(n -> n.startsWith("created extension pg_prewarm in schema public")),
                        dir.info().notes().toString());
            }
        } finally {
            db.drop();
        }
    }

    /**
     * An index a killed build left (marked, on Kensho's lineorder) is dropped by the next run, which then builds;
     * an index of that name Kensho did not make (unmarked, or on another table) is refused and left alone.
     */
    @Test
    void dropsOnlyTheIndexAnInterruptedBuildLeft(Target pg, @TempDir Path results) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_index_left");
        db.drop();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        IndexBuild ib = new IndexBuild(new IndexBuild.Options(List.of(0), 1, 1, "64MB"), new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb index-build", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.01, 2, false, false), null, "x", System.err);
            try (Connection c = db.connect()) {
                IndexBuild.createMarked(db, c, "lo_orderkey, lo_custkey");   // what a build had committed when it was killed
            }
            // another build on the database: it would have dropped that one's index (two at once failed each other's trials)
            try (StudyLock other = StudyLock.take(pg, StudyLock.INDEX_BUILD, "ssb index-build", "x")) {
                KenshoException busy = assertThrows(KenshoException.class, () -> ib.run(db, dir));
                assertEquals(KenshoException.USAGE, busy.exitCode());
                assertTrue(busy.getMessage().startsWith("another ssb index-build is measuring in database \"" + pg.database() + "\" now"), busy.getMessage());
                assertEquals(1, indexes(db), "the other's index is left alone");
            }
            ib.run(db, dir);
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("dropped index kensho_ssb_index_build in schema kensho_ssb_index_left, "
                    + "left by an interrupted run"), err.toString(StandardCharsets.UTF_8));
            assertEquals(1, dir.trials().size());
            assertTrue(dir.trials().get(0).ok(), dir.trials().get(0).extra().toString());
            assertEquals(0, indexes(db), "the leftover and the build's own index are gone");

            for (String foreign : List.of("CREATE INDEX kensho_ssb_index_build ON lineorder (lo_custkey)",
                    "CREATE INDEX kensho_ssb_index_build ON part (p_partkey); COMMENT ON INDEX kensho_ssb_index_build IS '" + IndexBuild.MARK + "'")) {
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    s.execute(foreign);
                }
                KenshoException refused = assertThrows(KenshoException.class, () -> ib.run(db, dir), foreign);
                assertEquals(KenshoException.USAGE, refused.exitCode());
                // not told to drop it, as if an interrupted run had left it: that one would have been dropped by Kensho
                assertEquals("a relation named kensho_ssb_index_build exists in schema kensho_ssb_index_left that Kensho did not create; "
                        + "Kensho never drops it: run ssb index-build on SSB data in another schema", refused.getMessage());
                assertEquals(1, indexes(db), "not Kensho's: left alone (" + foreign + ")");
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    s.execute("DROP INDEX kensho_ssb_index_build");
                }
            }
        } finally {
            db.drop();
        }
    }

    private static int indexes(SsbDatabase db) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_indexes WHERE schemaname = 'kensho_ssb_index_left' "
                     + "AND indexname = 'kensho_ssb_index_build'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
