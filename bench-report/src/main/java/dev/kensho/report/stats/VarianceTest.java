package dev.kensho.report.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.special.Gamma;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.OneWayAnova;

/**
 * Homogeneity of variances across the cells of a sweep, before the ANOVA (study 001 ran Levene's
 * test and, finding unequal variances, went to the aligned rank transform).
 */
public final class VarianceTest {
    private VarianceTest() {}

    public record Result(String name, double statistic, double df1, double df2, double p) {}

    /** The method as the output names it: car::leveneTest's default centre, which Brown and Forsythe proposed. */
    public static final String LEVENE = "Levene (median-centred, Brown–Forsythe)";

    /**
     * Levene's test centred on the group medians (Brown–Forsythe), R's {@code car::leveneTest}
     * default: a one-way ANOVA of |y − median(group)|.
     */
    public static Result levene(List<double[]> groups) {
        // with two values per group both deviations from the median are equal: no within-group spread to test
        if (groups.stream().allMatch(g -> g.length <= 2)) {
            return new Result(LEVENE, Double.NaN, groups.size() - 1, Double.NaN, Double.NaN);
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
        double p = Double.isFinite(f) ? TwoWayAnova.fUpperTail(f, groups.size() - 1, n - groups.size()) : Double.NaN;
        return new Result(LEVENE, f, groups.size() - 1, n - groups.size(), p);
    }

    /** Bartlett's test (assumes normality; every group needs 2 or more values). */
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
        // one group without spread among groups with some: K² = ∞, p = 0, as R's bartlett.test; none with spread: NaN
        double p = stat == Double.POSITIVE_INFINITY ? 0
                : Double.isFinite(stat) ? Gamma.regularizedGammaQ((k - 1) / 2.0, stat / 2) : Double.NaN;
        return new Result("Bartlett", stat, k - 1, Double.NaN, p);
    }
}
