package dev.kensho.report.stats;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.stat.ranking.NaNStrategy;
import org.apache.commons.math3.stat.ranking.NaturalRanking;
import org.apache.commons.math3.stat.ranking.TiesStrategy;

/**
 * Mann–Whitney U (Wilcoxon rank-sum), two-sided, computed as R's {@code wilcox.test}: the exact
 * distribution when both samples are under 50 and there are no ties (with 3 repeats the normal
 * approximation Commons Math's MannWhitneyUTest uses is far off: exact p ≥ 0.1), otherwise the
 * normal approximation with tie and continuity corrections.
 */
public final class RankSumTest {
    private RankSumTest() {}

    /** u is R's W: the rank sum of x minus nx(nx+1)/2. */
    public record Result(double u, double p, boolean exact) {}

    public static Result test(double[] x, double[] y) {
        int m = x.length, n = y.length;
        if (m == 0 || n == 0) return new Result(Double.NaN, Double.NaN, false);
        double[] all = new double[m + n];
        System.arraycopy(x, 0, all, 0, m);
        System.arraycopy(y, 0, all, m, n);
        double[] ranks = new NaturalRanking(NaNStrategy.FAILED, TiesStrategy.AVERAGE).rank(all);
        double rx = 0;
        for (int i = 0; i < m; i++) rx += ranks[i];
        double u = rx - m * (m + 1) / 2.0;
        boolean ties = java.util.Arrays.stream(all).distinct().count() < all.length;
        if (m < 50 && n < 50 && !ties) {
            double[] dist = distribution(m, n);
            double below = 0;
            for (int k = 0; k <= (int) u; k++) below += dist[k];
            double above = 0;
            for (int k = (int) u; k < dist.length; k++) above += dist[k];
            return new Result(u, Math.min(1, 2 * Math.min(below, above)), true);
        }
        double tieSum = 0;
        double[] sorted = all.clone();
        java.util.Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; ) {
            int j = i;
            while (j < sorted.length && sorted[j] == sorted[i]) j++;
            double t = j - i;
            tieSum += t * t * t - t;
            i = j;
        }
        int total = m + n;
        double mean = m * n / 2.0;
        double sd = Math.sqrt(m * n / 12.0 * ((total + 1) - tieSum / (total * (total - 1.0))));
        double z = u - mean;
        z = (z - Math.signum(z) * 0.5) / sd;
        double p = 2 * new NormalDistribution().cumulativeProbability(-Math.abs(z));
        return new Result(u, Math.min(1, p), false);
    }

    /** The exact two-sided Mann–Whitney p of two fully separated samples, 2/C(a+b, a): 0.1 for 3 against 3. */
    public static double smallestP(int a, int b) {
        double c = 1;
        for (int i = 1; i <= a; i++) c = c * (b + i) / i;
        return Math.min(1, 2 / c);
    }

    /** P(U = k) for k = 0..mn, by the recurrence on the largest observation. */
    private static double[] distribution(int m, int n) {
        // f[i][j][k]: probability that U = k with i and j observations
        double[][][] f = new double[m + 1][n + 1][];
        for (int i = 0; i <= m; i++) {
            for (int j = 0; j <= n; j++) {
                f[i][j] = new double[i * j + 1];
                if (i == 0 || j == 0) {
                    f[i][j][0] = 1;
                    continue;
                }
                double pi = (double) i / (i + j), pj = (double) j / (i + j);
                for (int k = 0; k <= i * j; k++) {
                    // the largest value is from x (adds j to U) or from y (adds nothing)
                    double a = k - j >= 0 && k - j < f[i - 1][j].length ? f[i - 1][j][k - j] : 0;
                    double b = k < f[i][j - 1].length ? f[i][j - 1][k] : 0;
                    f[i][j][k] = pi * a + pj * b;
                }
            }
        }
        return f[m][n];
    }
}
