package dev.kensho.core.measure;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The latency numbers every report prints, in milliseconds, from a µs histogram.
 */
public record LatencySummary(long count, double avgMs, double stddevMs, double p50Ms, double p90Ms,
                             double p99Ms, double p999Ms, double maxMs) {

    /**
     * Average, deviation and maximum exact from {@code m}, percentiles from {@code h} (the same latencies), each no
     * higher than the maximum: a histogram's percentile is its bucket's top, which can lie above the largest value.
     */
    public static LatencySummary of(Histogram h, LatencyMoments m) {
        if (m.count() == 0) return of(h);
        double max = m.maxMicros();
        return new LatencySummary(m.count(), m.meanMicros() / 1000.0, m.stddevMicros() / 1000.0,
                Math.min(h.getValueAtPercentile(50), max) / 1000.0, Math.min(h.getValueAtPercentile(90), max) / 1000.0,
                Math.min(h.getValueAtPercentile(99), max) / 1000.0, Math.min(h.getValueAtPercentile(99.9), max) / 1000.0,
                max / 1000.0);
    }

    /** Everything from the histogram's buckets (three digits): the mean from their midpoints, the maximum a bucket's top. */
    public static LatencySummary of(Histogram h) {
        if (h.getTotalCount() == 0) return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);
        return new LatencySummary(h.getTotalCount(), h.getMean() / 1000.0, h.getStdDeviation() / 1000.0,
                h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(90) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0, h.getMaxValue() / 1000.0);
    }

    /** As trial metrics: latency_avg_ms, latency_p99_ms, … */
    public Map<String, Double> metrics(String prefix) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(prefix + "avg_ms", avgMs);
        m.put(prefix + "stddev_ms", stddevMs);
        m.put(prefix + "p50_ms", p50Ms);
        m.put(prefix + "p90_ms", p90Ms);
        m.put(prefix + "p99_ms", p99Ms);
        m.put(prefix + "p999_ms", p999Ms);
        m.put(prefix + "max_ms", maxMs);
        return m;
    }
}
