package dev.kensho.core.measure;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies in microseconds, recorded by one thread without locks and read by another per
 * interval (HdrHistogram's Recorder). Totals from several recorders merge exactly.
 */
public final class LatencyRecorder {
    /** One hour in µs: longer latencies are clamped (and counted) rather than lost. */
    public static final long HIGHEST_US = 3_600_000_000L;

    private final Recorder recorder = new Recorder(1, HIGHEST_US, 3);
    private final Histogram total = new Histogram(1, HIGHEST_US, 3);

    /** Records one latency given in nanoseconds. */
    public void recordNanos(long nanos) {
        recorder.recordValue(micros(nanos));
    }

    /** Nanoseconds as the microseconds these histograms hold: rounded, within [1, one hour]. */
    public static long micros(long nanos) {
        return Math.max(1, Math.min(HIGHEST_US, (nanos + 500) / 1000));
    }

    /**
     * The values recorded since the previous call (for -P progress lines); also folded into the
     * running total. Call from one reading thread.
     */
    public synchronized Histogram interval() {
        // a new histogram each time (no recycling): the caller may keep it
        Histogram h = recorder.getIntervalHistogram();
        total.add(h);
        return h;
    }

    /** Everything recorded so far (takes a final interval first). */
    public synchronized Histogram total() {
        interval();
        return total.copy();
    }

    /** Forgets everything recorded (e.g. a warm-up's values). Not while others record. */
    public synchronized void reset() {
        recorder.reset();
        total.reset();
    }

    /** Merges histograms from several threads or clients. */
    public static Histogram merge(Iterable<Histogram> parts) {
        Histogram h = new Histogram(1, HIGHEST_US, 3);
        for (Histogram p : parts) h.add(p);
        return h;
    }

    /** An empty histogram of the range every recorder uses, to {@link #merge} into. */
    public static Histogram empty() {
        return new Histogram(1, HIGHEST_US, 3);
    }

    /** An empty histogram of the same range for several writers at once; reading it never waits for them. */
    public static ConcurrentHistogram concurrent() {
        return new ConcurrentHistogram(1, HIGHEST_US, 3);
    }
}
