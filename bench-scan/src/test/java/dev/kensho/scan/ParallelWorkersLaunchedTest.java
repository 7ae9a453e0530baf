package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cell whose planned parallel workers did not start ran its scan serially: it was kept as a parallel cell (the plan
 * said Gather, its time was the serial one) and moved the crossover. Such a cell is now invalid, saying why.
 */
class ParallelWorkersLaunchedTest {

    @Test
    void workersPlannedButNotLaunchedMakeTheCellInvalid(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().set("max_parallel_workers", "0").open()) {
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(200_000).layouts(List.of(Layout.HIGH)).from(91).to(91).step(10)
                    .caches(List.of(CacheState.WARM)).parallelWorkers(2).repeat(1).build();
            java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
            ScanCrossover.Result r = ScanCrossover.run(pg, o, results, List.of("bench", "scan"), new java.io.PrintStream(said, true, "UTF-8"));
            // said once, before the cells: every parallel cell of the sweep would be invalid
            String progress = said.toString("UTF-8");
            String warning = "scan: --parallel-workers 2: more than can start (max_parallel_workers 0): ";
            assertEquals(1, progress.split(java.util.regex.Pattern.quote(warning), -1).length - 1, progress);
            assertTrue(RunDirectory.read(r.directory()).info().notes().stream().anyMatch(n -> n.startsWith(warning)),
                    RunDirectory.read(r.directory()).info().notes().toString());
            List<Trial> trials = RunDirectory.readTrials(r.directory().resolve(RunDirectory.TRIALS));
            List<Trial> gathered = trials.stream().filter(t -> ((Number) t.extra().getOrDefault("workers_planned", 0)).intValue() > 0).toList();
            assertFalse(gathered.isEmpty(), "a parallel plan was made: " + trials);
            for (Trial t : gathered) {
                assertEquals(0, ((Number) t.extra().get("workers_launched")).intValue(), t.toString());
                assertEquals("invalid", t.status(), t.toString());
                assertTrue(String.valueOf(t.extra().get("reason")).startsWith("launched 0 of the "), t.toString());
            }
        }
    }

    /** Slots the server's own background workers hold (the logical replication launcher) are not free for a query's. */
    @Test
    void workerSlotsTheServerHoldsAreCounted(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().set("max_worker_processes", "2").open()) {
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(20_000).layouts(List.of(Layout.HIGH)).from(91).to(91).step(10)
                    .caches(List.of(CacheState.WARM)).parallelWorkers(2).repeat(1).build();
            java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
            ScanCrossover.run(pg, o, results, List.of("bench", "scan"), new java.io.PrintStream(said, true, "UTF-8"));
            assertTrue(said.toString("UTF-8").contains("scan: --parallel-workers 2: more than can start (max_worker_processes 2, 1 of them "
                    + "held by the server's own workers): a cell planned with more workers than start is invalid; on a server Kensho "
                    + "manages, --set max_worker_processes=3, or ask for fewer"), said.toString("UTF-8"));
        }
    }
}
