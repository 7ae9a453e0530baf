package dev.kensho.scan.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.scan.CacheState;
import dev.kensho.scan.Check;
import dev.kensho.scan.Crossover;
import dev.kensho.scan.Layout;
import dev.kensho.scan.Scan;
import dev.kensho.scan.table.ScanTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The arithmetic behind the report: interpolation, edge cases, expectation checks, plan and key rules. */
class CrossoverFinderTest {

    private static Crossover of(Layout l, double[][] pts) {
        List<CrossoverFinder.Point> p = java.util.Arrays.stream(pts).map(a -> new CrossoverFinder.Point(a[0], a[1], a[2])).toList();
        return CrossoverFinder.crossover("large", CacheState.WARM, l, p);
    }

    @Test
    void interpolatesBetweenTheLastFasterAndFirstSlowerPoint() {
        // index - full: -40 at 10 %, +20 at 20 % → equal at 10 + 10·40/60
        Crossover c = of(Layout.LOW, new double[][] {{1, 1, 100}, {10, 60, 100}, {20, 120, 100}, {30, 200, 100}});
        assertEquals(Crossover.Kind.CROSSED, c.kind());
        assertEquals(10 + 10 * 40.0 / 60, c.selectivity(), 1e-9);
        assertEquals(10.0, c.below());
        assertEquals(20.0, c.above());
        assertEquals(1, c.signChanges());
        // least squares: index ≈ 6.778·x − 8.11 (x̄ 15.25, Sxy 3190.75, Sxx 470.75); full flat at 100 → x ≈ 15.95
        assertEquals(15.95, c.fitted(), 0.01);
    }

    @Test
    void fittedLinesSmoothANoisyCrossing() {
        // index grows 10/pt, full flat at 500 with one low outlier at 20 % that makes a first crossing there
        Crossover c = of(Layout.LOW, new double[][] {{10, 100, 500}, {20, 200, 150}, {30, 300, 500}, {40, 400, 500},
                {50, 500, 500}, {60, 600, 500}, {70, 700, 500}});
        assertEquals(Crossover.Kind.CROSSED, c.kind());
        assertTrue(c.selectivity() < 20 && c.signChanges() == 3, c.toString());
        assertTrue(c.fitted() > 40 && c.fitted() < 55, c.toString());
    }

    @Test
    void reportsCurvesThatNeverCross() {
        Crossover faster = of(Layout.HIGH, new double[][] {{1, 1, 100}, {50, 50, 100}, {100, 99, 100}});
        assertEquals(Crossover.Kind.INDEX_FASTER_THROUGHOUT, faster.kind());
        assertNull(faster.selectivity());
        assertEquals("> 100 %", faster.describe(1, 100));
        Crossover slower = of(Layout.LOW, new double[][] {{1, 200, 100}, {50, 300, 100}});
        assertEquals(Crossover.Kind.INDEX_SLOWER_THROUGHOUT, slower.kind());
        assertEquals("", slower.caveat());
        assertEquals(Crossover.Kind.INSUFFICIENT, of(Layout.LOW, new double[][] {}).kind());
        // one point is enough to say which scan wins there (it was "n/a", its check undecided)
        Crossover one = of(Layout.LOW, new double[][] {{1, 2, 1358}});
        assertEquals(Crossover.Kind.INDEX_FASTER_THROUGHOUT, one.kind());
        assertEquals("> 1 %", one.describe(1, 1));
        assertEquals(Boolean.TRUE, CrossoverFinder.check(List.of(one), 1, 1).get(0).passed());
    }

    /** Slower at the first point only, then much faster: not "slower throughout" without a word. */
    @Test
    void slowerOnlyAtTheFirstPointSaysSo() {
        Crossover c = of(Layout.HIGH, new double[][] {{1, 60, 50}, {26, 10, 50}, {51, 10, 50}, {76, 10, 50}});
        assertEquals(Crossover.Kind.INDEX_SLOWER_THROUGHOUT, c.kind());
        assertEquals(1, c.signChanges());
        assertTrue(c.caveat().startsWith(" (curves cross once: the index scan is slower at the first point, not throughout; "), c.caveat());
        Check first = CrossoverFinder.check(List.of(c), 1, 76).get(0);
        assertFalse(first.passed());
        assertTrue(first.detail().endsWith(c.caveat()), first.detail());
    }

    /** Equal medians count as the index scan not yet slower: the crossing is after the tie, not before it. */
    @Test
    void aTieIsNotYetSlower() {
        // index - full: -10 at 10 %, 0 at 20 %, +10 at 30 % → crossed between 20 and 30, at 20 (where it is 0)
        Crossover c = of(Layout.LOW, new double[][] {{10, 90, 100}, {20, 100, 100}, {30, 110, 100}});
        assertEquals(Crossover.Kind.CROSSED, c.kind());
        assertEquals(20.0, c.selectivity(), 1e-12);
        assertEquals(20.0, c.below());
        assertEquals(30.0, c.above());
        assertEquals(1, c.signChanges());
        // a tie at the first point is not "slower throughout"
        assertEquals(Crossover.Kind.CROSSED, of(Layout.LOW, new double[][] {{10, 100, 100}, {20, 130, 100}}).kind());
    }

    /** The fitted lines may meet on the first or last point: still inside the sweep. */
    @Test
    void fittedCrossingOnAnEndPointCounts() {
        // index = x, full = 2x − 2 at x = 2, 4, 6: exact lines (Sxx 24/3), meeting at x = 2, the first point
        assertEquals(2.0, of(Layout.LOW, new double[][] {{2, 2, 2}, {4, 4, 6}, {6, 6, 10}}).fitted(), 1e-12);
        // index = x, full = 2x − 6: meeting at x = 6, the last point
        assertEquals(6.0, of(Layout.LOW, new double[][] {{2, 2, -2}, {4, 4, 2}, {6, 6, 6}}).fitted(), 1e-12);
    }

    /** The same crossover for both layouts does not satisfy "larger for high clustering". */
    @Test
    void equalCrossoversFailTheOrderingCheck() {
        Crossover high = of(Layout.HIGH, new double[][] {{1, 1, 100}, {10, 60, 100}, {20, 120, 100}});
        Crossover low = of(Layout.LOW, new double[][] {{1, 1, 100}, {10, 60, 100}, {20, 120, 100}});
        assertEquals(Boolean.FALSE, CrossoverFinder.check(List.of(high, low), 1, 100).get(2).passed());
    }

    @Test
    void checksTheStudysExpectations() {
        Crossover high = of(Layout.HIGH, new double[][] {{1, 1, 100}, {50, 50, 100}, {100, 99, 100}});
        Crossover low = of(Layout.LOW, new double[][] {{1, 1, 100}, {10, 60, 100}, {20, 120, 100}});
        List<Check> ok = CrossoverFinder.check(List.of(high, low), 1, 100);
        assertEquals(3, ok.size());
        assertTrue(ok.stream().allMatch(k -> Boolean.TRUE.equals(k.passed())), ok.toString());
        List<Check> reversed = CrossoverFinder.check(List.of(of(Layout.HIGH, new double[][] {{1, 1, 100}, {10, 60, 100}, {20, 120, 100}}),
                of(Layout.LOW, new double[][] {{1, 1, 100}, {50, 50, 100}, {100, 99, 100}})), 1, 100);
        assertEquals(Boolean.FALSE, reversed.get(2).passed());
    }

    @Test
    void planMustBeTheIntendedScan() {
        assertNull(SelectivitySweep.planProblem(Scan.INDEX, List.of("Index Scan")));
        assertNull(SelectivitySweep.planProblem(Scan.FULL, List.of("Gather", "Seq Scan")));
        assertTrue(SelectivitySweep.planProblem(Scan.INDEX, List.of("Bitmap Heap Scan", "Bitmap Index Scan")).contains("Bitmap Heap Scan"));
        assertFalse(SelectivitySweep.planProblem(Scan.FULL, List.of("Index Scan")) == null);
    }

    @Test
    void queriesSelectKeysOneToK() {
        assertEquals(250_000, ScanQuery.upperKey(10_000_000, 2.5));
        String idx = ScanQuery.sql(Scan.INDEX, "scan_high", 1000, 10);
        assertTrue(idx.endsWith("col01 >= '000000000000000000000000000001' AND col01 <= '000000000000000000000000000100'"), idx);
        String full = ScanQuery.sql(Scan.FULL, "scan_high", 1000, 10);
        assertTrue(full.contains("col01 || '_' <= '000000000000000000000000000100' || '_'"), full);
        // the low-clustering multiplier is a permutation of 0..N-1
        for (long n : new long[] {100, 1000, 200_000, 1_000_000}) {
            long p = ScanTable.multiplier(Layout.LOW, n);
            assertEquals(1, java.math.BigInteger.valueOf(p).gcd(java.math.BigInteger.valueOf(n)).intValue());
        }
        long n = 1000;
        long p = ScanTable.multiplier(Layout.LOW, n);
        boolean[] seen = new boolean[(int) n];
        for (long i = 0; i < n; i++) seen[(int) (i * p % n)] = true;
        for (boolean b : seen) assertTrue(b);
    }
}
