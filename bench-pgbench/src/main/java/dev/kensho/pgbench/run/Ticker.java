package dev.kensho.pgbench.run;

import dev.kensho.core.result.Timeline;
import dev.kensho.pgbench.script.expr.CFormat;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The run second by second, always ({@link Timeline}, kept with the trial), and every -P seconds pgbench's
 * progress line, both from the seconds {@link RunSeconds} files the transactions under: what -P prints is what is
 * kept (a last part-second shorter than {@link #SHORTEST_NANOS} joins the interval before it). Whichever thread
 * reads the seconds (a client, or this one when none has) calls {@link #progress} and {@link #timeline}.
 */
final class Ticker extends Thread {
    /** A remainder shorter than this at the end joins the interval before it (its rate alone would be noise). */
    private static final long SHORTEST_NANOS = 100_000_000L;
    private final RunConfig cfg;
    /** The run's start, in System.nanoTime() and as the log's wall clock (µs). */
    private final long startNanos, startEpochMicros;
    /** Says that this thread stopped, and marks the run aborted. */
    private final Consumer<Throwable> stopped;
    final RunSeconds seconds;
    // guarded by the seconds' reading lock, then read by finish()
    private final Timeline.Builder builder = new Timeline.Builder();
    /** Handed over but not yet written: the end of the run may still join it. */
    private Interval pending;
    /** -P: the seconds since the last line. */
    private double progressSum, progressSum2, progressLagSum;
    private long progressCount, progressLagCount, progressFailed, progressSkipped, progressRetried, progressRetries;
    /** Ends the loop: set by finish(), or by cancel() for a run that stops on its caller's interrupt. */
    private volatile boolean finished;

    /** One second of the run, or the last two when the run's last part-second joins the one before. */
    private static final class Interval {
        final long start;
        long end, failed, skipped, retried;
        double latencySum, lagSum;
        final Histogram latency, lag;

        Interval(RunSeconds.Second s) {
            start = s.start;
            end = s.end;
            latency = s.latency;
            lag = s.lag;
            latencySum = s.latencySum.sum();
            lagSum = s.lagSum.sum();
            failed = s.failed.sum();
            skipped = s.skipped.sum();
            retried = s.retried.sum();
        }

        void absorb(Interval later) {
            end = later.end;
            latency.add(later.latency);
            if (lag != null) lag.add(later.lag);
            latencySum += later.latencySum;
            lagSum += later.lagSum;
            failed += later.failed;
            skipped += later.skipped;
            retried += later.retried;
        }
    }

    Ticker(RunConfig cfg, long startNanos, long startEpochMicros, Consumer<Throwable> stopped) {
        super("pgbench-ticker");
        setDaemon(true);
        this.cfg = cfg;
        this.startNanos = startNanos;
        this.startEpochMicros = startEpochMicros;
        this.stopped = stopped;
        this.seconds = new RunSeconds(startNanos, cfg.rate() > 0, this::progress, this::timeline);
    }

    /** Reads the seconds when no client has (an idle or throttled run, or clients all busy elsewhere). */
    @Override
    public void run() {
        try {
            while (!finished) {
                long now = System.nanoTime(), due = seconds.due();
                if (now >= due) {
                    try {
                        seconds.read(now, true);
                    } catch (OutOfMemoryError e) {
                        // a client's result filled the heap: that client stops and says so, and its memory comes back;
                        // the second is read again then (anything allocated here, a message included, would fail too)
                        LockSupport.parkNanos(10_000_000L);
                    }
                    continue;
                }
                LockSupport.parkNanos(due - now);
            }
        } catch (RuntimeException | Error e) {
            // the seconds a client does not read go unread (-P silent, the timeline short): the run is not whole
            stopped.accept(e);
        }
    }

    /**
     * Stops ticking and takes the seconds not taken yet, up to the end of the run (every client has finished):
     * every transaction is in exactly one interval. -P prints the whole seconds among them, not the last part-second.
     */
    Timeline finish(long end) throws InterruptedException {
        finished = true;
        interrupt();
        join();
        seconds.sealAll(end);
        if (pending != null) write(pending);
        return builder.build();
    }

    /** Stops ticking without taking the seconds: the run stopped on its caller's interrupt and reports nothing. */
    void cancel() {
        finished = true;
        interrupt();
    }

    /** Every latency of the run. */
    Histogram total() {
        return seconds.total();
    }

    Histogram totalLag() {
        return seconds.totalLag();
    }

    /** A second for the timeline; the run's last part-second joins the one before when it is very short. */
    private void timeline(RunSeconds.Second s) {
        Interval i = new Interval(s);
        if (!s.whole() && i.end - i.start < SHORTEST_NANOS && pending != null) {
            pending.absorb(i);
            return;
        }
        if (pending != null) write(pending);
        pending = i;
    }

    private void write(Interval i) {
        Histogram h = i.latency, lg = i.lag;
        long n = h.getTotalCount(), nLag = lg == null ? 0 : lg.getTotalCount();
        builder.interval(round((i.end - startNanos) / 1e9)).put("transactions", n).put("tps", round(n / ((i.end - i.start) / 1e9)))
                .put("latency_avg_ms", round(n == 0 ? 0 : i.latencySum / n / 1000))
                .put("latency_p50_ms", n == 0 ? 0 : h.getValueAtPercentile(50) / 1000.0)
                .put("latency_p99_ms", n == 0 ? 0 : h.getValueAtPercentile(99) / 1000.0)
                .put("latency_max_ms", n == 0 ? 0 : h.getMaxValue() / 1000.0)
                .put("failed", i.failed);
        if (cfg.rate() > 0) builder.put("lag_avg_ms", round(nLag == 0 ? 0 : i.lagSum / nLag / 1000));
        if (cfg.rate() > 0 && cfg.latencyLimitMs() > 0) builder.put("skipped", i.skipped);
        if (cfg.maxTries() != 1) builder.put("retried", i.retried);
    }

    /**
     * Adds a second to the next -P line and prints the line after every -P whole seconds (the run's last
     * part-second is not printed). Called by whichever thread reads the seconds. A second a writer is still inside
     * (a preempted client thread; see {@link RunSeconds}) is read as it stands.
     */
    private void progress(RunSeconds.Second s) {
        long every = cfg.progressSeconds();
        if (every <= 0) return;
        progressCount += s.latency.getTotalCount();
        progressSum += s.latencySum.sum();
        progressSum2 += s.latencySum2.sum();
        if (s.lag != null) {
            progressLagCount += s.lag.getTotalCount();
            progressLagSum += s.lagSum.sum();
        }
        progressFailed += s.failed.sum();
        progressSkipped += s.skipped.sum();
        progressRetried += s.retried.sum();
        progressRetries += s.retries.sum();
        long t = s.index + 1;
        if (!s.whole() || t % every != 0) return;
        // on Ctrl-C the hook's line is the last: a second the server's stop cut short ("2 failed") is not the workload's
        if (dev.kensho.core.JvmShutdown.begun()) return;
        // pgbench's average and deviation: from sums, in ms
        double n = progressCount, mean = n == 0 ? 0 : progressSum / n;
        double stddev = n == 0 ? 0 : Math.sqrt(Math.max(0, progressSum2 / n - mean * mean));
        // --progress-timestamp: the Unix epoch time at ms precision, as pgbench
        String when = cfg.progressTimestamp()
                ? CFormat.printf("%.3f", (startEpochMicros + t * 1_000_000) / 1e6)
                : CFormat.printf("%.1f", (double) t);
        StringBuilder sb = new StringBuilder(CFormat.printf("progress: %s s, %.1f tps, lat %.3f ms stddev %.3f, %d failed",
                when, n / every, mean / 1000, stddev / 1000, progressFailed));
        if (cfg.rate() > 0) {
            sb.append(CFormat.printf(", lag %.3f ms", progressLagCount == 0 ? 0 : progressLagSum / progressLagCount / 1000));
            if (cfg.latencyLimitMs() > 0) sb.append(", ").append(progressSkipped).append(" skipped");
        }
        if (cfg.maxTries() != 1) sb.append(", ").append(progressRetried).append(" retried, ").append(progressRetries).append(" retries");
        cfg.err().println(sb);
        progressSum = progressSum2 = progressLagSum = 0;
        progressCount = progressLagCount = progressFailed = progressSkipped = progressRetried = progressRetries = 0;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
