package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.scan.sweep.SelectivitySweep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A warm cell is one whose table and index pg_prewarm put in shared buffers. Where shared_buffers cannot hold them (a
 * remote server's own setting, a small one) the cell reads from outside shared buffers, and it is said, not labelled warm.
 */
class WarmCacheTest {

    @Test
    void warmCellsThatSharedBuffersCannotHoldAreMarkedPartlyCold(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            // 100 000 rows: 19.5 MB of table and 4.8 MB of index, beyond 16 MB of shared buffers
            ScanCrossover.Options small = ScanCrossover.Options.builder().rows(100_000).from(100).to(100).layouts(List.of(Layout.HIGH))
                    .sharedBuffers(List.of("16MB", "large")).throughputMb(0).build();
            ScanCrossover.Result r = ScanCrossover.run(pg, small, results, List.of("scan"), null);
            List<Trial> trials = RunDirectory.readTrials(r.directory().resolve(RunDirectory.TRIALS));
            assertEquals(4, trials.size());
            for (Trial t : trials) {
                assertEquals("ok", t.status(), t.cell());
                Object partly = t.extra().get(SelectivitySweep.PARTLY_WARM);
                if (t.params().get("shared_buffers").equals("16MB")) {
                    assertTrue(t.metric("shared_read_blocks") > 0, "16MB cannot hold the table: " + t.metrics());
                    assertTrue(String.valueOf(partly).matches("table and index 3\\d{3} blocks, shared_buffers 2048 blocks"), t.cell() + ": " + partly);
                } else {
                    assertEquals(0, t.metric("shared_read_blocks"), t.cell() + " " + t.metrics());
                    assertNull(partly, t.cell());
                }
            }
            assertEquals(List.of("16MB"), List.copyOf(r.partlyWarm().keySet()));
            assertTrue(r.report().stream().anyMatch(l -> l.startsWith("warm cells with shared_buffers 16MB are partly cold: table and index 3")),
                    r.report().toString());
            assertTrue(Files.readString(r.directory().resolve("crossover.json")).matches("(?s).*\"partly_warm\" ?: ?\\{\\s*\"16MB\" ?: ?\"table and index.*"));
            String run = Files.readString(r.directory().resolve(RunDirectory.RUN));
            assertTrue(run.contains("warm cells with shared_buffers 16MB are partly cold"), run);
            // one selectivity says which scan won there (either, half cold on a busy machine: an index scan won at 100 %
            // once); the 16MB one says its warm cells were not warm
            assertTrue(run.matches("(?s).*\"crossover\" ?: ?\"[<>] 100 % \\(warm cells partly cold: table and index 3\\d{3} blocks.*"), run);
        }
    }
}
