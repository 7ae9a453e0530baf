package dev.kensho.core.measure;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The latency numbers every report prints, in milliseconds, from a µs histogram.
 */
public record LatencySummary(long count, double avgMs, double stddevMs, double p50Ms, double p90Ms,
                             double p99Ms, double p999Ms, double maxMs) {

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
