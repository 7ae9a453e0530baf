package dev.kensho.pgbench.run;

import dev.kensho.core.measure.LatencyMoments;
import dev.kensho.core.measure.LatencyRecorder;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * A run second by second: each finished transaction is filed under the second of the run in which it ended, so the
 * timeline's intervals and -P's lines are whole seconds however late the thread that reads them gets to run.
 *
 * <p>Nobody waits for anybody. HdrHistogram's Recorder, used before, makes its reader wait for every writer inside
 * recordValue; with a thousand client threads on two cores a writer preempted there may not run again for seconds,
 * and -P went quiet for up to 13 s at a time. Here a second is sealed once it is over: a writer that finds its second sealed
 * files under the first open one (the transaction moves a second later, it is not lost), the timeline takes a sealed
 * second once no writer is left inside it, and -P, if one still is after {@link #PATIENCE_NANOS}, reads it as it stands.
 *
 * <p>Reading (sealing, and handing the seconds to -P and the timeline) is done by whoever comes first once it is due:
 * the ticker thread, or a client right after filing a transaction. A lone ticker thread among a thousand busy client
 * threads got a core only every few seconds (and the seconds waiting for it piled up in the heap); some client always
 * runs, as pgbench's thread 0 prints -P from its own loop.
 *
 * <p>A second's histograms keep two significant digits (53 KB, not 376): its p50/p99/max to 1 %. The run's own
 * histogram, for the report and the trial, keeps three; writers add to it directly, and it is read once they are done.
 */
final class RunSeconds {
    static final long SECOND_NANOS = 1_000_000_000L;
    /** A second is sealed this long after it ended: the few µs between a transaction's end and its filing. */
    static final long GRACE_NANOS = 20_000_000L;
    /** -P reads a second that a writer is still inside after this long, rather than keep waiting for the writer. */
    static final long PATIENCE_NANOS = 100_000_000L;

    /** One second of the run; its counts are final once it is sealed and {@link #quiet()}. */
    static final class Second {
        final long index;
        /** Two significant digits; lag is null without -R. */
        final Histogram latency, lag;
        /** Averages and -P's deviation, as pgbench's: sums in µs, not the histogram's buckets (exact, cheap to read). */
        final DoubleAdder latencySum = new DoubleAdder(), latencySum2 = new DoubleAdder(), lagSum = new DoubleAdder();
        final LongAdder failed = new LongAdder(), skipped = new LongAdder(), retried = new LongAdder(), retries = new LongAdder();
        /** Writers inside; the reader takes the second for the timeline at 0. */
        final AtomicInteger writers = new AtomicInteger();
        /** Set when sealed: where it starts and ends (the run's last second ends with the run). */
        long start, end, sealedAt;
        boolean progressed;

        Second(long index, boolean withLag) {
            this.index = index;
            this.latency = perSecond();
            this.lag = withLag ? perSecond() : null;
        }

        boolean quiet() {
            return writers.get() == 0;
        }

        void retried(int retries) {
            if (retries > 0) {
                retried.increment();
                this.retries.add(retries);
            }
        }

        /** Whether it lasted a whole second (all do but the run's last). */
        boolean whole() {
            return end - start == SECOND_NANOS;
        }
    }

    private static Histogram perSecond() {
        return new ConcurrentHistogram(1, LatencyRecorder.HIGHEST_US, 2);
    }

    private final long origin;
    private final boolean withLag;
    /** Every latency of the run, three digits. */
    private final Histogram total = LatencyRecorder.concurrent(), totalLag;
    /** The report's average, deviation and maxima, exact as pgbench's; lag's is null without -R. */
    private final LatencyMoments totalMoments = new LatencyMoments(), lagMoments;
    /** Open seconds by index, for the writers; the reader removes each as it seals it. */
    private final ConcurrentHashMap<Long, Second> open = new ConcurrentHashMap<>();
    /** The writers' cache of the newest open second (a map lookup boxes its key). */
    private volatile Second latest;
    /** Seconds before this one are sealed. */
    private volatile long firstOpen;
    /** Readers, one at a time: sealed seconds not yet handed to the timeline, oldest first. */
    private final ArrayDeque<Second> sealed = new ArrayDeque<>();
    private final ReentrantLock reading = new ReentrantLock();
    /** When reading is next due: the end of the first open second (plus grace), sooner while a sealed one waits. */
    private volatile long due;
    /** Get each second once, in order, from whichever thread reads (one at a time). */
    private final Consumer<Second> progress, timeline;

    /**
     * @param withLag  also files schedule lag (-R)
     * @param progress gets each sealed second once no writer is inside it any more, or after {@link #PATIENCE_NANOS}
     *                 as it then stands
     * @param timeline gets each sealed second once no writer is inside it any more, after {@code progress}
     */
    RunSeconds(long originNanos, boolean withLag, Consumer<Second> progress, Consumer<Second> timeline) {
        this.origin = originNanos;
        this.withLag = withLag;
        this.totalLag = withLag ? LatencyRecorder.concurrent() : null;
        this.lagMoments = withLag ? new LatencyMoments() : null;
        this.progress = progress;
        this.timeline = timeline;
        this.due = originNanos + SECOND_NANOS + GRACE_NANOS;
    }

    /** Every latency of the run (µs, three digits); complete once every writer has finished. */
    Histogram total() {
        return total;
    }

    /** Every schedule lag (-R), or an empty histogram. */
    Histogram totalLag() {
        return totalLag == null ? LatencyRecorder.empty() : totalLag;
    }

    /** Every latency of the run, summed; complete once every writer has finished. */
    LatencyMoments totalMoments() {
        return totalMoments;
    }

    /** Every schedule lag (-R), summed; empty without -R. */
    LatencyMoments lagMoments() {
        return lagMoments == null ? new LatencyMoments() : lagMoments;
    }

    /** A transaction that succeeded and ended at {@code endNanos}; lag &lt; 0 when it was not throttled. */
    void ok(long endNanos, long latencyNanos, long lagNanos, int retries) {
        Second s = enter(endNanos);
        try {
            long us = LatencyRecorder.micros(latencyNanos);
            total.recordValue(us);
            totalMoments.record(us);
            s.latency.recordValue(us);
            s.latencySum.add(us);
            s.latencySum2.add((double) us * us);
            if (lagNanos >= 0 && s.lag != null) {
                long lag = LatencyRecorder.micros(lagNanos);
                totalLag.recordValue(lag);
                lagMoments.record(lag);
                s.lag.recordValue(lag);
                s.lagSum.add(lag);
            }
            s.retried(retries);
        } finally {
            exit(s, endNanos);
        }
    }

    /** A transaction that failed (serialization, deadlock, lost connection or an error) after its tries. */
    void failed(long endNanos, int retries) {
        Second s = enter(endNanos);
        try {
            s.failed.increment();
            s.retried(retries);
        } finally {
            exit(s, endNanos);
        }
    }

    /** -R with -L: a transaction skipped at {@code atNanos} because it was already late. */
    void skipped(long atNanos) {
        Second s = enter(atNanos);
        try {
            s.skipped.increment();
        } finally {
            exit(s, atNanos);
        }
    }

    /**
     * The open second a writer files under, with the writer counted inside it. Writer and reader each write one
     * volatile and then read the other's (writers, firstOpen): at least one of them sees the other, so either the
     * writer moves on or the reader knows it is inside.
     */
    Second enter(long atNanos) {
        long k = Math.max(Math.max(0, atNanos - origin) / SECOND_NANOS, firstOpen);
        while (true) {
            Second s = latest;
            if (s == null || s.index != k) {
                s = open.computeIfAbsent(k, i -> new Second(i, withLag));
                Second l = latest;
                if (l == null || l.index < k) latest = s;
            }
            s.writers.incrementAndGet();
            if (k >= firstOpen) return s;
            s.writers.decrementAndGet();
            // sealed meanwhile; a second made after the reader took k is an orphan nobody reads
            open.remove(k, s);
            k = Math.max(k + 1, firstOpen);
        }
    }

    /** The writer leaves its second; then, if reading is due, it reads unless another thread already is. */
    void exit(Second s, long atNanos) {
        s.writers.decrementAndGet();
        if (atNanos >= due) read(atNanos, false);
    }

    /**
     * Seals every second that ended at least {@link #GRACE_NANOS} before {@code now} and hands -P what it may have.
     * With {@code wait} false (a client) it does nothing if another thread is reading.
     */
    void read(long now, boolean wait) {
        if (wait) reading.lock();
        else if (!reading.tryLock()) return;
        try {
            sealThrough((now - GRACE_NANOS - origin) / SECOND_NANOS - 1, now);
            handOver(now);
        } finally {
            reading.unlock();
        }
    }

    /** Once every writer has finished: seals everything, the part-second {@code end} falls in too, and hands it all over. */
    void sealAll(long end) {
        reading.lock();
        try {
            sealThrough(Math.max(0, end - origin) / SECOND_NANOS, end);
            handOver(Long.MAX_VALUE);
        } finally {
            reading.unlock();
        }
    }

    private void sealThrough(long last, long now) {
        for (long k = firstOpen; k <= last; k++) {
            // made before anything changes: a heap exhausted here (a client's result, see Ticker) leaves the second
            // open for the next read, where made after the seal it was lost
            Second fresh = open.containsKey(k) ? null : new Second(k, withLag);
            firstOpen = k + 1;
            Second s = open.remove(k);
            if (s == null) s = fresh != null ? fresh : new Second(k, withLag);   // a second without a transaction is still a second
            s.start = origin + k * SECOND_NANOS;
            s.end = Math.max(s.start + 1, Math.min(now, s.start + SECOND_NANOS));
            s.sealedAt = now;
            sealed.add(s);
        }
    }

    /**
     * The sealed seconds in order to -P, up to the first one a writer is still inside (unless it has waited long
     * enough), and to the timeline up to the first one a writer is still inside.
     */
    private void handOver(long now) {
        boolean waiting = false;
        for (Second s : sealed) {
            if (s.progressed) continue;
            if (!s.quiet() && now - s.sealedAt < PATIENCE_NANOS) {
                waiting = true;
                break;
            }
            s.progressed = true;
            progress.accept(s);
        }
        while (!sealed.isEmpty() && sealed.peekFirst().progressed && sealed.peekFirst().quiet()) timeline.accept(sealed.pollFirst());
        // look again soon while a second waits for a writer, else when the next second is over
        due = waiting || !sealed.isEmpty() ? now + 1_000_000L : origin + (firstOpen + 1) * SECOND_NANOS + GRACE_NANOS;
    }

    /** When reading is next due (the ticker sleeps until then). */
    long due() {
        return due;
    }
}
