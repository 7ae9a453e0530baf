package dev.kensho.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {
    /**
     * 1, 2, …, 1001 µs (recorded exactly: below 2048 the histogram's buckets are 1 µs wide). By hand: mean 501 µs;
     * stddev over n as pgbench's, √((1001² − 1)/12) = √83500 = 288.9637 µs; nearest rank ⌈p/100 · 1001⌉ gives 501, 901,
     * 991 and 1000 µs at p50, p90, p99, p99.9; max 1001 µs.
     */
    @Test
    void millisecondsFromMicroseconds() {
        Histogram h = LatencyRecorder.empty();
        for (int v = 1; v <= 1001; v++) h.recordValue(v);
        LatencySummary s = LatencySummary.of(h);
        assertEquals(1001, s.count());
        assertEquals(0.501, s.avgMs(), 1e-12);
        assertEquals(Math.sqrt(83500) / 1000, s.stddevMs(), 1e-9);
        assertEquals(0.501, s.p50Ms(), 1e-12);
        assertEquals(0.901, s.p90Ms(), 1e-12);
        assertEquals(0.991, s.p99Ms(), 1e-12);
        assertEquals(1.000, s.p999Ms(), 1e-12);
        assertEquals(1.001, s.maxMs(), 1e-12);

        Map<String, Double> m = s.metrics("latency_");
        assertEquals(List.of("latency_avg_ms", "latency_stddev_ms", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms",
                "latency_p999_ms", "latency_max_ms"), List.copyOf(m.keySet()));
        assertEquals(List.of(0.501, s.stddevMs(), 0.501, 0.901, 0.991, 1.000, 1.001), List.copyOf(m.values()));
    }

    /** No transaction: zeros, not NaN or an exception (a run that only failed). */
    @Test
    void emptyIsZero() {
        LatencySummary s = LatencySummary.of(LatencyRecorder.empty());
        assertEquals(new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0), s);
    }

    /** Nanoseconds round to the nearest µs: 1499 ns → 1, 1500 ns → 2, 2_499_999 ns → 2500. */
    @Test
    void microsRoundHalfUp() {
        assertEquals(1, LatencyRecorder.micros(1499));
        assertEquals(2, LatencyRecorder.micros(1500));
        assertEquals(2500, LatencyRecorder.micros(2_499_999));
        assertEquals(1, LatencyRecorder.micros(0));
        assertEquals(LatencyRecorder.HIGHEST_US, LatencyRecorder.micros(LatencyRecorder.HIGHEST_US * 1000 + 1000));
    }
}
