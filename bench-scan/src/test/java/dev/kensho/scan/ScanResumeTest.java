package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --resume measures the cells the interrupted run had left, under the keys it gave them. */
class ScanResumeTest {

    /**
     * "large" is at least the server's current shared_buffers, so it depends on the server's state: a run killed while
     * it ran with a larger value (a kept data directory, a remote server with --restart-command) resumed with "large"
     * resolved to that value, and measured the remaining cells under other keys than the run's own.
     */
    @Test
    void aResumedRunKeepsTheSharedBuffersItResolved(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(2_000).from(10).to(90).step(80).layouts(List.of(Layout.HIGH))
                    .sharedBuffers(List.of("large")).throughputMb(0).build();
            ScanCrossover.Result first = ScanCrossover.run(pg, o, results, List.of("scan"), null);
            Path trials = first.directory().resolve(RunDirectory.TRIALS);
            List<String> lines = Files.readAllLines(trials);
            assertEquals(4, lines.size());
            String resolved = (String) RunDirectory.readTrials(trials).get(0).params().get("shared_buffers");
            // interrupted after its first two cells, with the server left at a larger shared_buffers
            Files.write(trials, lines.subList(0, 2));
            long larger = Long.parseLong(resolved.replace("MB", "")) + 32;
            pg.control().apply(Map.of("shared_buffers", larger + "MB"));

            ScanCrossover.Result resumed = ScanCrossover.resume(pg, first.directory(), null);
            List<Trial> all = RunDirectory.readTrials(trials);
            assertEquals(4, all.size(), all.toString());
            assertEquals(new TreeSet<>(List.of(resolved)), new TreeSet<>(all.stream().map(t -> String.valueOf(t.params().get("shared_buffers"))).toList()));
            assertEquals(1, resumed.crossovers().size());
        }
    }
}
