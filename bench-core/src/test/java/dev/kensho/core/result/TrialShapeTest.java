package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trial's timeline and latency histogram survive trials.jsonl exactly, and repeats merge. */
class TrialShapeTest {
    @TempDir Path root;

    @Test
    void timelineAndHistogramRoundTripThroughTrialsJsonl() throws Exception {
        Histogram a = new Histogram(1, 3_600_000_000L, 3), b = new Histogram(1, 3_600_000_000L, 3);
        a.recordValueWithCount(100, 900);
        a.recordValueWithCount(1000, 100);
        b.recordValueWithCount(200, 1000);
        Timeline tl = new Timeline.Builder().interval(1.0).put("tps", 100).interval(2.0).put("tps", 300)
                .interval(3.0).put("tps", 200).interval(3.1).put("tps", 5000).build();
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench run", List.of("x"), Map.of()))) {
            dir.append(Trial.of("c", 0).metric("tps", 1).extra(Timeline.KEY, tl.columns())
                    .extra(LatencyDistribution.KEY, LatencyDistribution.encode(a)).build());
            dir.append(Trial.of("c", 1).metric("tps", 1).extra(LatencyDistribution.KEY, LatencyDistribution.encode(b)).build());
            dir.append(Trial.of("c", 2).metric("tps", 1).build());
            List<Trial> back = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));

            Timeline read = Timeline.of(back.get(0));
            assertEquals(tl, read);
            assertEquals(List.of(1.0, 2.0, 3.0, 3.1), read.column(Timeline.T));
            // the short last interval (0.1 s at 5000 tps) is left out: the steady three give 50 %
            assertEquals(50.0, read.variationPercent("tps"), 1e-9);
            assertNull(Timeline.of(back.get(1)));

            assertEquals(a, LatencyDistribution.of(back.get(0)));
            Histogram merged = LatencyDistribution.merged(back);
            assertEquals(2000, merged.getTotalCount());
            // of all 2000 values, not a median of the repeats' percentiles (1000 and 200 µs at p99)
            assertEquals(200, merged.getValueAtPercentile(50));
            assertEquals(1000, merged.getValueAtPercentile(99), 1);
            assertNull(LatencyDistribution.merged(back.subList(2, 3)));
        }
        assertThrows(IllegalArgumentException.class, () -> LatencyDistribution.decode("bm90IGEgaGlzdG9ncmFt"));
    }
}
