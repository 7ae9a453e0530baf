package dev.kensho.core.measure;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Count, sum, sum of squares and maximum of latencies in µs, exact, for any number of writers at once. A histogram's
 * mean and deviation come from its buckets' midpoints and its maximum is its top bucket's end (up to 32 µs off at
 * 50 ms with three digits); pgbench prints average, deviation and lag maximum from exact sums, and so must a report
 * meant to be read beside pgbench's.
 */
public final class LatencyMoments {
    private final LongAdder count = new LongAdder();
    // integral µs: a double holds their sum exactly up to 2^53 µs (285 years)
    private final DoubleAdder sum = new DoubleAdder(), sum2 = new DoubleAdder();
    private final LongAccumulator max = new LongAccumulator(Math::max, 0);

    public void record(long micros) {
        count.increment();
        sum.add(micros);
        sum2.add((double) micros * micros);
        max.accumulate(micros);
    }

    /** Not while others record. */
    public void reset() {
        count.reset();
        sum.reset();
        sum2.reset();
        max.reset();
    }

    public long count() {
        return count.sum();
    }

    /** 0 when nothing was recorded. */
    public double meanMicros() {
        long n = count.sum();
        return n == 0 ? 0 : sum.sum() / n;
    }

    /** The population deviation, as pgbench's {@code sqrt(sum2 / n - mean²)}; 0 when nothing was recorded. */
    public double stddevMicros() {
        long n = count.sum();
        if (n == 0) return 0;
        double mean = sum.sum() / n;
        return Math.sqrt(Math.max(0, sum2.sum() / n - mean * mean));
    }

    public long maxMicros() {
        return max.get();
    }
}
