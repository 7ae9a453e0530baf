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
        // large df, where s's density is narrow: the integration bounds and panel widths matter here
        {6, 16, 10000, 0.00236165688775447},
        {8, 16, 200, 6.17312767192679e-06},
        {4, 3, 5000, 0.0130356427107718},
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

    /**
     * A large q at small df, where W(q·s) rises in a sliver near s = 0: for two means the exact t identity, for 16
     * SciPy's studentized_range.sf (0.00811, 0.00130, 0.00253; the fixed panels gave 0.00747, 0.00094, 0.00246).
     */
    @Test
    void largeRangeAtSmallDf() {
        for (double q : new double[] {10, 40, 100}) {
            double t = q / Math.sqrt(2);
            assertEquals(1 - t / Math.sqrt(2 + t * t), StudentizedRange.upperTail(q, 2, 2), 1e-9, "q " + q);
        }
        assertEquals(0.00811, StudentizedRange.upperTail(40, 16, 2), 1e-5);
        assertEquals(0.00130, StudentizedRange.upperTail(100, 16, 2), 1e-5);
        assertEquals(0.00253, StudentizedRange.upperTail(30, 16, 3), 1e-5);
    }

    /** The interpolated Φ the integral uses stays within 5e-15 of commons-math's, between the table's nodes and beyond its ends. */
    @Test
    void theTabledNormalCdfIsTheNormalCdf() {
        org.apache.commons.math3.distribution.NormalDistribution normal = new org.apache.commons.math3.distribution.NormalDistribution();
        for (double x = -45; x <= 12; x += 0.000731) {
            assertEquals(normal.cumulativeProbability(x), StudentizedRange.tabledCdf(x), 5e-15, "x " + x);
        }
    }

    @Test
    void edges() {
        assertEquals(1, StudentizedRange.upperTail(0, 5, 10));
        assertTrue(Double.isNaN(StudentizedRange.upperTail(1, 1, 10)));
        assertTrue(Double.isNaN(StudentizedRange.upperTail(Double.NaN, 3, 10)));
        assertTrue(Double.isNaN(StudentizedRange.upperTail(3, 3, 0)));
    }
}
