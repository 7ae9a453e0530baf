package dev.kensho.report.stats;

import org.apache.commons.math3.special.Erf;
import org.apache.commons.math3.special.Gamma;

/**
 * The studentized range distribution (R's {@code ptukey}), for Tukey's adjustment of pairwise
 * contrasts: the range of k independent standard normal means divided by an independent estimate
 * of their standard deviation on df degrees of freedom.
 *
 * <p>P(Q ≤ q) = ∫ g(s) W(q·s) ds over the density g of s = √(χ²/df), where W(w) = k ∫ φ(z) (Φ(z) −
 * Φ(z − w))^(k−1) dz is the distribution of the range of k normals. Both integrals are smooth and
 * confined to a few standard deviations, so composite Gauss–Legendre on fixed panels suffices, with the s range
 * split where W rises (checked against R and SciPy; as 1 − P(Q ≤ q), p below about 1e-15 is not resolved).
 */
public final class StudentizedRange {
    private StudentizedRange() {}

    // 10-point Gauss–Legendre on [-1, 1]
    private static final double[] NODE = {-0.9739065285171717, -0.8650633666889845, -0.6794095682990244, -0.4333953941292472,
        -0.1488743389816312, 0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717};
    private static final double[] WEIGHT = {0.0666713443086881, 0.1494513491505806, 0.2190863625159820, 0.2692667193099963,
        0.2955242247147529, 0.2955242247147529, 0.2692667193099963, 0.2190863625159820, 0.1494513491505806, 0.0666713443086881};
    private static final int PANELS = 24;

    /** P(Q > q): the upper tail, the p-value of a studentized range q among k means. */
    public static double upperTail(double q, int k, double df) {
        if (Double.isNaN(q) || k < 2 || !(df > 0)) return Double.NaN;
        if (q <= 0) return 1;
        // the range distribution does not depend on s's density far from 1; bounds where it is below e^-40 of its peak
        double spread = Math.sqrt(1.0 / df);
        double lo = Math.max(0, 1 - 12 * spread), hi = 1 + 12 * spread + 12 * spread * spread;
        double logNorm = df / 2 * Math.log(df) - Gamma.logGamma(df / 2) - (df / 2 - 1) * Math.log(2);
        // W(q·s) climbs from 0 to 1 while q·s runs up to about 10 (the range of k normals): for a large q that is a
        // sliver near s = 0 which the panels over the whole s range did not resolve at small df (4e-4 off at df 2)
        double rise = Math.min(hi, Math.max(lo, 10 / q));
        double below = lowerPart(q, k, df, logNorm, lo, rise) + lowerPart(q, k, df, logNorm, rise, hi);
        return Math.min(1, Math.max(0, 1 - below));
    }

    /** ∫ g(s) W(q·s) ds over [a, b] by composite Gauss–Legendre. */
    private static double lowerPart(double q, int k, double df, double logNorm, double a, double b) {
        if (b <= a) return 0;
        double sum = 0;
        double h = (b - a) / PANELS;
        for (int p = 0; p < PANELS; p++) {
            double mid = a + (p + 0.5) * h;
            for (int i = 0; i < NODE.length; i++) {
                double s = mid + NODE[i] * h / 2;
                if (s <= 0) continue;
                double g = Math.exp(logNorm + (df - 1) * Math.log(s) - df * s * s / 2);
                sum += WEIGHT[i] * h / 2 * g * rangeCdf(q * s, k);
            }
        }
        return sum;
    }

    // rangeCdf's nodes z over [-8.5, 8.5] do not depend on w: z, Φ(z) and the weight times φ(z) are computed once (a
    // bench compare of two study-001 sweeps asks for hundreds of p values, 0.05 s each when Φ(z) was recomputed per call)
    private static final double[] Z = new double[PANELS * NODE.length];
    private static final double[] CDF_Z = new double[Z.length];
    private static final double[] WEIGHTED_DENSITY = new double[Z.length];

    static {
        double lo = -8.5, hi = 8.5;
        double h = (hi - lo) / PANELS;
        for (int p = 0; p < PANELS; p++) {
            double mid = lo + (p + 0.5) * h;
            for (int i = 0; i < NODE.length; i++) {
                int j = p * NODE.length + i;
                Z[j] = mid + NODE[i] * h / 2;
                CDF_Z[j] = normalCdf(Z[j]);
                WEIGHTED_DENSITY[j] = WEIGHT[i] * h / 2 * Math.exp(-Z[j] * Z[j] / 2) / Math.sqrt(2 * Math.PI);
            }
        }
    }

    // Φ(z − w) for every node of every call: commons-math's erfc (a regularized gamma) made a p value 18 ms, and a
    // compare of 20 sweeps 92 s. A table of Φ and φ every 1/1024 over [-40, 9] (Φ(-40) is 0 in a double; z − w never
    // passes 8.5) with cubic Hermite interpolation is within 3e-15 of it, below what 1 − P resolves anyway.
    private static final double TABLE_LO = -40, TABLE_HI = 9, TABLE_STEP = 1.0 / 1024;
    private static final double[] TABLE_CDF, TABLE_PDF;

    static {
        int n = (int) Math.round((TABLE_HI - TABLE_LO) / TABLE_STEP) + 1;
        TABLE_CDF = new double[n];
        TABLE_PDF = new double[n];
        for (int i = 0; i < n; i++) {
            double x = TABLE_LO + i * TABLE_STEP;
            TABLE_CDF[i] = normalCdf(x);
            TABLE_PDF[i] = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
        }
    }

    /** Φ(x) from the table. */
    static double tabledCdf(double x) {
        if (x <= TABLE_LO) return 0;
        double u = (x - TABLE_LO) / TABLE_STEP;
        int i = (int) u;
        if (i >= TABLE_CDF.length - 1) return normalCdf(x);
        double t = u - i, t2 = t * t, t3 = t2 * t;
        return (2 * t3 - 3 * t2 + 1) * TABLE_CDF[i] + (t3 - 2 * t2 + t) * TABLE_STEP * TABLE_PDF[i]
                + (-2 * t3 + 3 * t2) * TABLE_CDF[i + 1] + (t3 - t2) * TABLE_STEP * TABLE_PDF[i + 1];
    }

    /** P(range of k standard normals ≤ w). */
    static double rangeCdf(double w, int k) {
        double sum = 0;
        for (int j = 0; j < Z.length; j++) {
            double inside = CDF_Z[j] - tabledCdf(Z[j] - w);
            if (inside <= 0) continue;
            sum += WEIGHTED_DENSITY[j] * power(inside, k - 1);
        }
        return Math.min(1, k * sum);
    }

    /** x^n by squaring: Math.pow was the other half of a p value's time. */
    private static double power(double x, int n) {
        double r = 1;
        for (; n > 0; n >>= 1, x *= x) if ((n & 1) != 0) r *= x;
        return r;
    }

    private static double normalCdf(double x) {
        return 0.5 * Erf.erfc(-x / Math.sqrt(2));
    }
}
