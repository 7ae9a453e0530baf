package dev.kensho.core.result;

import org.apache.commons.math3.stat.descriptive.rank.Median;

/** Statistics shared by workloads; the arithmetic is Commons Math's. */
public final class Stats {
    private Stats() {}

    /** The median as the studies take it: the middle value, the mean of the two middle ones for even n. */
    public static double median(double[] values) {
        return values.length == 0 ? Double.NaN : new Median().evaluate(values);
    }
}
