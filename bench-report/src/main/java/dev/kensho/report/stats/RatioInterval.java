package dev.kensho.report.stats;

import org.apache.commons.math3.stat.StatUtils;

/** The confidence interval of a ratio of two means, which compare gives beside each cell's ratio. */
public final class RatioInterval {
    private RatioInterval() {}

    /**
     * Fieller's 95 % interval for mean(b) / mean(a) with Welch–Satterthwaite degrees of freedom: the ratios r with
     * (mean b − r·mean a)² ≤ t² (var b/nb + r² var a/na). At r = 1 that is Welch's test, so the interval holds 1
     * exactly where Welch does not reject. {NaN, NaN} without two values a side or without variance. Where the
     * baseline's mean is within its own interval of 0 the set is not an interval: the ratios outside the two roots,
     * returned as {upper root, lower root} (low above high), or every ratio, {-∞, +∞}. Said "unbounded" for the former,
     * it read as anything possible beside a significant "worse".
     */
    public static double[] fieller(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) return new double[] {Double.NaN, Double.NaN};
        double ma = StatUtils.mean(a), mb = StatUtils.mean(b);
        double va = StatUtils.variance(a) / a.length, vb = StatUtils.variance(b) / b.length;
        if (va + vb == 0) return new double[] {Double.NaN, Double.NaN};
        double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
        // variances past 1e154 square to ∞ (or below 1e-154 to 0): df is NaN, and the t quantile threw out of compare
        if (!(df > 0) || Double.isInfinite(df)) return new double[] {Double.NaN, Double.NaN};
        double t = new org.apache.commons.math3.distribution.TDistribution(df).inverseCumulativeProbability(0.975);
        double t2 = t * t;
        double qa = ma * ma - t2 * va;   // > 0: the baseline mean is clearly away from 0
        double disc = ma * ma * mb * mb - qa * (mb * mb - t2 * vb);
        if (qa <= 0) {
            // the quadratic opens downward: below 0 outside its roots, or nowhere-bounded without real roots
            if (qa == 0 || disc <= 0) return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
            double r1 = (ma * mb - Math.sqrt(disc)) / qa, r2 = (ma * mb + Math.sqrt(disc)) / qa;
            return new double[] {Math.max(r1, r2), Math.min(r1, r2)};
        }
        double root = Math.sqrt(Math.max(0, disc));
        return new double[] {(ma * mb - root) / qa, (ma * mb + root) / qa};
    }
}
