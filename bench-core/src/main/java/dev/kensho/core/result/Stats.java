package dev.kensho.core.result;

import java.math.BigDecimal;
import java.util.Arrays;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/** Statistics shared by workloads and reports. */
public final class Stats {
    private Stats() {}

    private static final BigDecimal TWO = BigDecimal.valueOf(2);

    /**
     * The median as the studies take it: the middle value, the mean of the two middle ones for even n. That mean is
     * taken of the two values as they are written (in run.json, trials.jsonl): the medians of 0.05 and 0.054 ms and of
     * 0.1 and 0.2 are 0.052 and 0.15, where binary arithmetic made 0.052000000000000005 and 0.15000000000000002 of them in
     * summary.csv. Either is within one unit in the last place of the other.
     */
    public static double median(double[] values) {
        if (values.length == 0) return Double.NaN;
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        if (sorted.length % 2 == 1) return sorted[mid];
        double a = sorted[mid - 1], b = sorted[mid];
        if (!Double.isFinite(a) || !Double.isFinite(b)) return new Median().evaluate(values);
        // a decimal halved ends: the division is exact
        return new BigDecimal(Double.toString(a)).add(new BigDecimal(Double.toString(b))).divide(TWO).doubleValue();
    }
}
