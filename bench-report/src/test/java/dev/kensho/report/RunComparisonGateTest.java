package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** --fail-if-worse's predicates at their edges: "by more than pct %" is strict, a constant cell needs 2 repeats a side. */
class RunComparisonGateTest {

    private static RunComparison.Row row(String metric, double baselineMedian, double median, int baselineN, int n, String verdict) {
        double ratio = baselineMedian == 0 ? Double.NaN : median / baselineMedian;
        return new RunComparison.Row("clients=1", Map.of(), metric, "16", "17", baselineMedian, median, ratio, baselineN, n,
                Double.NaN, Double.NaN, Double.NaN, verdict, Double.NaN, Double.NaN);
    }

    @Test
    void toleranceIsExclusive() {
        // 1 - 50/100 and 1 + 50/100 are exact in binary: the edge itself is within the tolerance
        assertFalse(RunComparison.beyond(row("tps", 100, 50, 3, 3, "worse"), 50));
        assertTrue(RunComparison.beyond(row("tps", 100, 49, 3, 3, "worse"), 50));
        assertFalse(RunComparison.beyond(row("latency_ms", 100, 150, 3, 3, "worse"), 50));
        assertTrue(RunComparison.beyond(row("latency_ms", 100, 151, 3, 3, "worse"), 50));
        // no tolerance: any worsening is beyond it, no change is not
        assertTrue(RunComparison.beyond(row("tps", 100, 99.9, 3, 3, "worse"), 0));
        assertFalse(RunComparison.beyond(row("tps", 100, 100, 3, 3, "worse"), 0));
        assertFalse(RunComparison.beyond(row("latency_ms", 100, 100, 3, 3, "worse"), 0));
        // the direction is the metric's: a higher tps is never beyond, a lower latency neither
        assertFalse(RunComparison.beyond(row("tps", 100, 200, 3, 3, "better"), 0));
        assertFalse(RunComparison.beyond(row("latency_ms", 100, 50, 3, 3, "better"), 0));
        assertFalse(RunComparison.beyond(row("rows", 100, 50, 3, 3, "lower"), 0));
        assertTrue(RunComparison.beyond(row("failed", 0, 0, 3, 3, "worse"), 50));
    }

    @Test
    void constantCellsAreWorseWithTwoRepeatsASide() {
        String nv = "not testable (no variance)";
        assertTrue(RunComparison.constantlyWorse(row("failed", 100, 120, 2, 2, nv)));
        assertFalse(RunComparison.constantlyWorse(row("failed", 100, 120, 1, 2, nv)));
        assertFalse(RunComparison.constantlyWorse(row("failed", 100, 120, 2, 1, nv)));
        assertFalse(RunComparison.constantlyWorse(row("failed", 100, 100, 2, 2, nv)));
        assertFalse(RunComparison.constantlyWorse(row("failed", 100, 80, 2, 2, nv)));
        assertTrue(RunComparison.constantlyWorse(row("tps", 100, 80, 2, 2, nv)));
        assertFalse(RunComparison.constantlyWorse(row("tps", 100, 100, 2, 2, nv)));
        assertFalse(RunComparison.constantlyWorse(row("tps", 100, 120, 2, 2, nv)));
        assertFalse(RunComparison.constantlyWorse(row("rows", 100, 120, 2, 2, nv)));
        assertFalse(RunComparison.constantlyWorse(row("failed", 100, 120, 2, 2, "not testable (n=1)")));
    }
}
