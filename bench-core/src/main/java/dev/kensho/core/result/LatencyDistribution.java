package dev.kensho.core.result;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Every latency of a trial, not only its percentiles: the HdrHistogram (values in µs) kept in the
 * trial's extra in HdrHistogram's compressed form, base64 ({@code "latency_histogram_us"}), the
 * encoding HdrHistogram's own log files use. Repeats merge exactly, so a cell's p99.9 is that of all
 * its transactions, and any tool that reads HdrHistogram reads it.
 */
public final class LatencyDistribution {
    /** Where a trial keeps it. */
    public static final String KEY = "latency_histogram_us";

    private LatencyDistribution() {}

    public static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    }

    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram: " + e.getMessage(), e);
        }
    }

    /** The trial's histogram, or null when it has none (older runs, other commands) or it does not decode. */
    public static Histogram of(Trial t) {
        Object v = t.extra() == null ? null : t.extra().get(KEY);
        if (!(v instanceof String s)) return null;
        try {
            return decode(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The trials' histograms merged (those that have one); null when none has. */
    public static Histogram merged(Collection<Trial> trials) {
        Histogram all = null;
        for (Trial t : trials) {
            Histogram h = of(t);
            if (h == null) continue;
            if (all == null) all = h.copy();
            else all.add(h);
        }
        return all;
    }

    /**
     * The trials' largest latency in ms as they recorded it (latency_max_ms), else the histogram's: that is its bucket's
     * upper end (230.399 for 230.389), which a percentile read off the merged histogram can reach too.
     */
    public static double maxMs(Collection<Trial> trials, Histogram merged) {
        return trials.stream().map(t -> t.metric("latency_max_ms")).filter(java.util.Objects::nonNull)
                .mapToDouble(Double::doubleValue).max().orElse(merged.getMaxValue() / 1000.0);
    }

    /** A percentile of the merged histogram in ms, no higher than maxMs: a p99.99 above the max the report prints beside it. */
    public static double percentileMs(Histogram merged, double percentile, double maxMs) {
        return Math.min(merged.getValueAtPercentile(percentile) / 1000.0, maxMs);
    }
}
