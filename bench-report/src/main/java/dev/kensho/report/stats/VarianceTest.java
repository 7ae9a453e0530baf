package dev.kensho.report.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.OneWayAnova;

/**
 * Homogeneity of variances across the cells of a sweep, before the ANOVA (study 001 ran Levene's
 * test and, finding unequal variances, went to the aligned rank transform).
 */
public final class VarianceTest {
    private VarianceTest() {}

    public record Result(String name, double statistic, double df1, double df2, double p) {}

    /**
     * Levene's test centred on the group medians (Brown–Forsythe), R's {@code car::leveneTest}
     * default: a one-way ANOVA of |y − median(group)|.
     */
    public static Result levene(List<double[]> groups) {
        // with two values per group both deviations from the median are equal: no within-group spread to test
        if (groups.stream().allMatch(g -> g.length <= 2)) {
            return new Result("Levene (median)", Double.NaN, groups.size() - 1, Double.NaN, Double.NaN);
        }
        List<double[]> dev = new ArrayList<>();
        int n = 0;
        for (double[] g : groups) {
            double med = new org.apache.commons.math3.stat.descriptive.rank.Median().evaluate(g);
            dev.add(Arrays.stream(g).map(v -> Math.abs(v - med)).toArray());
            n += g.length;
        }
        OneWayAnova anova = new OneWayAnova();
        double f = anova.anovaFValue(dev);
        double p = Double.isFinite(f) ? anova.anovaPValue(dev) : Double.NaN;
        return new Result("Levene (median)", f, groups.size() - 1, n - groups.size(), p);
    }

    /** Bartlett's test (assumes normality; NaN when a group has zero variance). */
    public static Result bartlett(List<double[]> groups) {
        int k = groups.size();
        int n = 0;
        double pooledNum = 0, sumLog = 0, sumInv = 0;
        for (double[] g : groups) {
            int ni = g.length;
            double v = StatUtils.variance(g);
            n += ni;
            pooledNum += (ni - 1) * v;
            sumLog += (ni - 1) * Math.log(v);
            sumInv += 1.0 / (ni - 1);
        }
        double sp = pooledNum / (n - k);
        double stat = ((n - k) * Math.log(sp) - sumLog) / (1 + (sumInv - 1.0 / (n - k)) / (3.0 * (k - 1)));
        double p = Double.isFinite(stat) ? 1 - new ChiSquaredDistribution(k - 1).cumulativeProbability(stat) : Double.NaN;
        return new Result("Bartlett", stat, k - 1, Double.NaN, p);
    }
}
