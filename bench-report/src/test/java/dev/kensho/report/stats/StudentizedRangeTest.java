package dev.kensho.report.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StudentizedRangeTest {
    /**
     * q, k (means), df, and R 4.2.2's ptukey(q, k, df, lower.tail = FALSE); R's own accuracy is about 1e-8 (and
     * worse at df = 2: ptukey(0.5, 2, 2, lower.tail = FALSE) = 0.7574579 where the exact value is 0.7574644, see below).
     */
    static final double[][] R = {
        {3.5, 16, 32, 0.511429315394615},
        {3.9279220242229, 8, 16, 0.169008106300419},
        {1, 2, 5, 0.511084080430356},
        {6, 16, 16, 0.0323725052316544},
        {4, 3, 1000, 0.0132283076168479},
        {5.5, 20, 60, 0.0299342829854304},
        {8, 16, 32, 0.000279901756300216},
    };

    @Test
    void upperTailMatchesPtukey() {
        for (double[] r : R) {
            double p = StudentizedRange.upperTail(r[0], (int) r[1], r[2]);
            assertEquals(r[3], p, 2e-8, () -> "ptukey(" + r[0] + ", " + r[1] + ", " + r[2] + ")");
        }
    }

    /** Two means: the studentized range is √2·|t|, so Tukey's p equals the t-test's. */
    @Test
    void twoMeansIsTheTTest() {
        double t = 2.3;
        double p = 2 * new org.apache.commons.math3.distribution.TDistribution(12).cumulativeProbability(-t);
        assertEquals(p, StudentizedRange.upperTail(Math.sqrt(2) * t, 2, 12), 1e-9);
    }

    /** df = 2, two means: 2·pt(−0.5/√2, 2) = 1 − t/√(2 + t²) with t = 0.5/√2, exactly. */
    @Test
    void smallDfExact() {
        double t = 0.5 / Math.sqrt(2);
        assertEquals(1 - t / Math.sqrt(2 + t * t), StudentizedRange.upperTail(0.5, 2, 2), 1e-10);
    }

    @Test
    void edges() {
        assertEquals(1, StudentizedRange.upperTail(0, 5, 10));
        assertTrue(Double.isNaN(StudentizedRange.upperTail(1, 1, 10)));
        assertTrue(Double.isNaN(StudentizedRange.upperTail(Double.NaN, 3, 10)));
    }
}
