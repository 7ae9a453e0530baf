package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** tps_cv_pct: which intervals count. Expected: sd(x)/mean(x)·100 with R's sd (n − 1), by hand. */
class TimelineTest {
    static Timeline of(double[] t, double[] tps) {
        Timeline.Builder b = new Timeline.Builder();
        for (int i = 0; i < t.length; i++) b.interval(t[i]).put("tps", tps[i]);
        return b.build();
    }

    /** Every interval a full second: all four count, sd(c(100, 300, 200, 200)) / 200 = 40.8248 %. */
    @Test
    void fullLastIntervalIsKept() {
        Timeline tl = of(new double[] {1, 2, 3, 4}, new double[] {100, 300, 200, 200});
        assertEquals(4, tl.size());
        assertEquals(40.8248290463863, tl.variationPercent("tps"), 1e-9);
    }

    /** Three intervals, the last 0.5 s: it is left out, sd(c(100, 300)) / 200 = 70.7107 %. */
    @Test
    void shortLastOfThreeIsLeftOut() {
        assertEquals(70.71067811865476, of(new double[] {1, 2, 2.5}, new double[] {100, 300, 5000}).variationPercent("tps"), 1e-9);
    }

    /** Two intervals are the fewest with a spread (the shorter last one is kept: one alone would say nothing). */
    @Test
    void twoIntervalsAndOne() {
        assertEquals(70.71067811865476, of(new double[] {1, 2}, new double[] {100, 300}).variationPercent("tps"), 1e-9);
        assertTrue(Double.isNaN(of(new double[] {1}, new double[] {100}).variationPercent("tps")));
        assertTrue(Double.isNaN(of(new double[] {1, 2}, new double[] {0, 0}).variationPercent("tps")), "mean 0");
        Timeline none = new Timeline.Builder().build();
        assertEquals(0, none.size());
        assertTrue(Double.isNaN(none.variationPercent("tps")), "no intervals: NaN, not 0");
    }
}
