package dev.kensho.report.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/** --repeat 2, the fewest the gate asks for, has an interval: Welch has a p with two values a side, so Fieller has bounds. */
class FiellerTwoRepeatsTest {

    @Test
    void twoValuesASideGiveAnInterval() {
        double[] a = {10, 12}, b = {20, 23};
        double[] ci = RatioInterval.fieller(a, b);
        assertTrue(Double.isFinite(ci[0]) && Double.isFinite(ci[1]) && ci[0] < ci[1], java.util.Arrays.toString(ci));
        // means 11 and 21.5, variances of the means 1 and 2.25; Welch's df = 3.25² / (1² + 2.25²)
        double va = 1, vb = 2.25;
        double df = (va + vb) * (va + vb) / (va * va + vb * vb);
        double t = new TDistribution(df).inverseCumulativeProbability(0.975);
        for (double r : ci) assertEquals(t * t * (vb + r * r * va), (21.5 - r * 11) * (21.5 - r * 11), 1e-6, "root " + r);
    }
}
