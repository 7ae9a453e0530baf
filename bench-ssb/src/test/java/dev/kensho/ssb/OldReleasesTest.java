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
import dev.kensho.core.server.OldPostgres;
import dev.kensho.core.server.Target;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parallel query study on PostgreSQL 9.6, one of the releases it compared: parallel workers bounded by
 * max_worker_processes alone (max_parallel_workers came with 10), every index built serially, and no JIT.
 */
class OldReleasesTest {
    static final PrintStream SINK = new PrintStream(OutputStream.nullOutputStream());
    static SsbCache server;
    static Target pg;

    @BeforeEach
    void needs96() {
        OldPostgres.assumeLocal(OldPostgres.PG96);
    }

    @BeforeAll
    static void start() {
        if (!OldPostgres.isLocal(OldPostgres.PG96)) return;
        // as every ssb command opens a managed server: with managedDefaults, which 9.6 refused to start with
        server = SsbCache.open(OldPostgres.spec(OldPostgres.PG96), 0.1, ParallelSweep.managedDefaults(2), false, false, SINK);
        pg = server.target();
        ParallelSweep.ensureLoaded(new SsbDatabase(pg, "public"), new SsbDatabase.LoadOptions(0.1, 1, true, false), null, "9.6", SINK);
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
    }

    static RunDirectory run(Path tmp, String command) {
        return RunDirectory.create(tmp, RunInfo.of(command, List.of(command), Map.of()));
    }

    /**
     * The study's patterns: workers = gather sets max_worker_processes = N, gather*4 = 4N; there is no max_parallel_workers.
     * Their control group (N = 0) is the study's: the pool as the run found it, for both patterns.
     */
    @Test
    @SuppressWarnings("unchecked")
    void workerPoolPatterns(@TempDir Path tmp) throws Exception {
        ParallelSweep.Options o = new ParallelSweep.Options(0.1, List.of(0, 2), List.of(ParallelSweep.Pool.GATHER, ParallelSweep.Pool.GATHER4),
                1, List.of("q1.1"), "public", new SsbDatabase.LoadOptions(0.1, 1, true, false), false, false, QueryTimer.DEFAULT_FETCH_SIZE);
        String found;
        try (var c = pg.connect(); var rs = c.createStatement().executeQuery("SHOW max_worker_processes")) {
            rs.next();
            found = rs.getString(1);
        }
        try (RunDirectory dir = run(tmp, "ssb")) {
            ParallelSweep sweep = new ParallelSweep(o, SINK, SINK);
            assertEquals("9.6", sweep.run(pg, dir), "the release's major as PostgreSQL names it (was \"9\")");
            List<Trial> trials = dir.trials();
            assertEquals(4, trials.size(), trials.toString());
            for (Trial t : trials) {
                assertTrue(t.ok(), t.toString());
                int n = (Integer) t.params().get("workers");
                Map<String, String> settings = (Map<String, String>) t.extra().get("settings");
                assertFalse(settings.containsKey("max_parallel_workers"), settings.toString());
                assertEquals(n == 0 ? found : Integer.toString("gather".equals(t.params().get("pool")) ? n : 4 * n), settings.get("max_worker_processes"));
                assertEquals(Integer.toString(n), settings.get("max_parallel_workers_per_gather"));
                if (n == 2) assertTrue(t.metric("workers_launched") > 0, "a parallel plan at workers=2 on 9.6: " + t);
            }
        }
    }

    /** Parallel CREATE INDEX came with 11: workers 0 is what 9.6 always does; any other count is skipped with the reason. */
    @Test
    void indexBuildsSerially(@TempDir Path tmp) throws Exception {
        try (RunDirectory dir = run(tmp, "ssb index-build")) {
            new IndexBuild(new IndexBuild.Options(List.of(0, 2), 1, 1, null), SINK, SINK).run(new SsbDatabase(pg, "public"), dir);
            Map<Object, Trial> byWorkers = new java.util.HashMap<>();
            for (Trial t : dir.trials()) byWorkers.put(t.params().get("maintenance_workers"), t);
            assertTrue(byWorkers.get(0).ok() && byWorkers.get(0).metric("seconds") > 0, byWorkers.toString());
            assertEquals("skipped", byWorkers.get(2).status());
            assertEquals("parallel CREATE INDEX (--maintenance-workers 2) needs PostgreSQL 11 or later (this server is 9.6.24)",
                    byWorkers.get(2).extra().get("reason"));
        }
    }

    @Test
    void jitIsRefusedNamingTheRelease() {
        KenshoException e = assertThrows(KenshoException.class, () -> JitMatrix.requireJit(pg));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("this server has no JIT: JIT needs PostgreSQL 11 or later (this server is 9.6.24); "
                + "point Kensho at a JIT-capable server"), e.getMessage());
    }
}
