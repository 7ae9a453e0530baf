package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.scan.sweep.CrossoverFinder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sizes in the console report: one decimal, pg_size_pretty's units, never a truncated "0 MB". */
class ScanReportTest {

    @Test
    void sizesKeepOneDecimal() {
        assertEquals("3.9 MB", ScanCrossover.size(4_096_000));
        assertEquals("448.0 kB", ScanCrossover.size(448 * 1024));
        assertEquals("812 bytes", ScanCrossover.size(812));
        assertEquals("1.0 MB", ScanCrossover.size(1024 * 1024 - 1));
        assertEquals("1.5 GB", ScanCrossover.size(3L << 29));
    }

    /** run.json carries the crossovers with the console's caveat and the study's checks, for bench report. */
    @Test
    void findingsAreRecordedAsTheConsoleWordsThem(@TempDir Path tmp) {
        Crossover noisy = new Crossover(Layout.HIGH, CacheState.WARM, "128MB", Crossover.Kind.CROSSED, 5.9, 5.0, 6.0, 4, 40, null);
        Crossover clean = new Crossover(Layout.LOW, CacheState.WARM, "128MB", Crossover.Kind.CROSSED, 24.8, 24.0, 25.0, 1, 40, 25.1);
        List<Check> checks = CrossoverFinder.check(List.of(noisy, clean), 1, 40);
        Path dir;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of(ScanCrossover.COMMAND, List.of("bench", "scan"), Map.of()))) {
            ScanCrossover.record(rd, List.of(noisy, clean), checks, 1, 40, Map.of());
            dir = rd.path();
        }
        Map<String, Object> p = RunDirectory.read(dir).info().parameters();
        assertEquals(List.of(
                Map.of("shared_buffers", "128MB", "cache", "warm", "layout", "high",
                        "crossover", "5.9 % (curves cross 4 times; fitted lines do not meet inside the sweep)"),
                Map.of("shared_buffers", "128MB", "cache", "warm", "layout", "low", "crossover", "24.8 %")), p.get(ScanCrossover.CROSSOVERS));
        assertEquals(Map.of("verdict", "NOT as expected",
                        "expectation", "crossover at a larger selectivity for high clustering than for low (warm, shared_buffers 128MB)",
                        "detail", "high 5.9 % (curves cross 4 times; fitted lines do not meet inside the sweep), low 24.8 %"),
                ((List<?>) p.get(ScanCrossover.CHECKS)).get(2));
        // the crossing that is doubtful says so beside its check's verdict too, not only in the crossovers' list
        assertEquals("crossover 5.9 % (curves cross 4 times; fitted lines do not meet inside the sweep)", checks.get(0).detail());
        assertEquals("crossover 24.8 %", checks.get(1).detail());
    }
}
