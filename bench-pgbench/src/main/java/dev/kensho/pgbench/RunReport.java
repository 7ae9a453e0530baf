package dev.kensho.pgbench;

import dev.kensho.core.measure.LatencySummary;
import dev.kensho.core.result.LatencyDistribution;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.result.Trial;
import dev.kensho.pgbench.script.expr.CFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The outcome of one pgbench run: pgbench's report lines, HdrHistogram percentiles, and the same
 * numbers as a trial, with the run second by second ({@link Timeline}) and every latency
 * ({@link LatencyDistribution}). Latency is always measured per transaction (pgbench derives its average from
 * the run time unless -P, -R or -L is given); {@link #lines()} says so. {@code driverCpuSeconds} is the CPU time this
 * JVM used while the clock ran (NaN where the JVM cannot tell): on a server sharing the host, CPU the server lacked.
 * {@code abortReason} is the first client abort's error on one line (pgbench's "client 0 script 0 aborted in command 1
 * query 0: ERROR: ...", its lines joined by "; "), null when no client aborted ({@code aborted} false).
 * {@code logFailure} says why the -l log ends before the run did (a full disk), null when it is whole or not asked for.
 * {@code driverThrottledPct} is the share of the run's periods in which a cgroup's CPU quota held this JVM back (a
 * CI pod's), NaN where no quota confines it. {@code driverPageFaults} is the minor page faults this JVM took while the
 * clock ran, -1 where the platform does not tell (no /proc).
 */
public record RunReport(String transactionType, int scale, String partitionMethod, int partitions, String queryMode, int clients, int threads, int maxTries,
                        int durationSeconds, long transactionsPerClient, long processed, long failed,
                        long serializationFailures, long deadlockFailures, long otherFailures, boolean continueOnError,
                        long connectionFailures,
                        long skipped, long retried, long retries, long late, double latencyLimitMs, double rate,
                        LatencySummary latency, LatencySummary lag, boolean connectPerTransaction,
                        double connectionMs, double benchSeconds, double tps, boolean failuresDetailed,
                        List<ScriptReport> scripts, boolean perStatement, boolean aborted, long reconnects,
                        long warmupPerClient, int warmupAskedPerClient, Engine engine, Timeline timeline, Histogram histogram, long randomSeed,
                        double driverCpuSeconds, String abortReason, String logFailure, double driverThrottledPct,
                        long driverPageFaults) {

    /**
     * Page faults a second of a warmed-up driver above which the report names them: with its heap written before the
     * clock (see the warm-up), a JVM takes tens a second; hundreds or thousands mean memory new to it (a heap that
     * grew) or pages the kernel took back while it ran (DAMON's kdamond did, every half second, on the VMs this was
     * measured on), and each fault is client CPU.
     */
    static final double MANY_FAULTS_PER_SECOND = 500;

    /** The report's last line when a client aborted; printed on stderr, as pgbench's error, and kept in the stored report. */
    public static final String ABORTED = "Run was aborted; the above results are incomplete.";

    /** Per script (-f/-b): its share, counts, latency, and with -r the per-command latencies. */
    public record ScriptReport(String description, int weight, long totalWeight, long processed, long failed, long skipped,
                               long serializationFailures, long deadlockFailures, long otherFailures, long retried, long retries,
                               LatencySummary latency, List<CommandReport> commands) { }

    /** One command of a script for -r: average latency over its executions and the failures it caused. */
    public record CommandReport(String text, double avgMs, long failures, long retries) {
        /** Masked, as the report's lines are: a command's text may set a password (ALTER ROLE ... PASSWORD '...'). */
        @Override
        public String toString() {
            return "CommandReport[text=" + dev.kensho.core.Credentials.maskText(text) + ", avgMs=" + avgMs + ", failures=" + failures
                    + ", retries=" + retries + "]";
        }
    }

    /** C's printf, as pgbench prints: a double's %f rounded as C rounds it (see {@link CFormat#printf}). */
    private static String f(String fmt, Object... a) {
        return CFormat.printf(fmt, a);
    }

    private double pct(long n, long of) {
        return of == 0 ? 0 : 100.0 * n / of;
    }

    /** pgbench 15-17's report (the C pgbench 15 on this project's machines is the reference), then percentiles. */
    public List<String> lines() {
        List<String> l = new ArrayList<>();
        long total = processed + failed + skipped;   // pgbench's total_cnt, the base of its percentages
        l.add("transaction type: " + transactionType);
        l.add("scaling factor: " + scale);
        if (partitionMethod != null) {
            l.add("partition method: " + partitionMethod);
            l.add("partitions: " + partitions);
        }
        l.add("query mode: " + queryMode);
        l.add("number of clients: " + clients);
        l.add("number of threads: " + threads);
        if (maxTries != 0) l.add("maximum number of tries: " + maxTries);
        if (durationSeconds > 0) {
            l.add("duration: " + durationSeconds + " s");
            l.add("number of transactions actually processed: " + processed);
        } else {
            l.add("number of transactions per client: " + transactionsPerClient);
            l.add("number of transactions actually processed: " + processed + "/" + (long) clients * transactionsPerClient);
        }
        if (total == 0 && continueOnError) {
            // pgbench 19, whose option it is, stops here when no transaction ended
            if (aborted) l.add(ABORTED);
            return l;
        }
        // pgbench 15-18 go on when no transaction ended (each client aborted in its first, or -T was over before one
        // ended): the failure lines' shares are then 0/0, which pgbench prints as NaN, so 100.0 * n / total, not pct
        l.add(f("number of failed transactions: %d (%.3f%%)", failed, 100.0 * failed / total));
        if (failuresDetailed) {
            l.add(f("number of serialization failures: %d (%.3f%%)", serializationFailures, 100.0 * serializationFailures / total));
            l.add(f("number of deadlock failures: %d (%.3f%%)", deadlockFailures, 100.0 * deadlockFailures / total));
            // pgbench 19 prints it with every --failures-detailed; here only where it can be other than 0 (15-17's report otherwise)
            if (continueOnError) l.add(f("number of other failures: %d (%.3f%%)", otherFailures, pct(otherFailures, total)));
        }
        // Kensho's own (pgbench aborts the client instead), so only where it has something to say: the line between
        // pgbench's would otherwise set its report apart from pgbench's in every --failures-detailed run
        if (connectionFailures > 0) {
            l.add(f("number of connection failures: %d (%.3f%%), reconnections: %d", connectionFailures,
                    pct(connectionFailures, total), reconnects));
        }
        if (maxTries != 1) {
            l.add(f("number of transactions retried: %d (%.3f%%)", retried, 100.0 * retried / total));
            l.add("total number of retries: " + retries);
        }
        if (processed + skipped <= 0) {
            // as pgbench: with every transaction failed there is no latency or tps to report
            if (aborted) l.add(ABORTED);
            return l;
        }
        if (rate > 0 && latencyLimitMs > 0) l.add(f("number of transactions skipped: %d (%.3f%%)", skipped, pct(skipped, total)));
        if (latencyLimitMs > 0) {
            l.add(f("number of transactions above the %.1f ms latency limit: %d/%d (%.3f%%)", latencyLimitMs, late, processed, pct(late, processed)));
        }
        // as pgbench's printSimpleStats: no latency where no transaction succeeded (every one skipped), and its lag
        // average is then 0/0, printed as NaN
        if (latency.count() > 0) {
            l.add(f("latency average = %.3f ms", latency.avgMs()));
            l.add(f("latency stddev = %.3f ms", latency.stddevMs()));
        }
        if (rate > 0) l.add(f("rate limit schedule lag: avg %.3f (max %.3f) ms", processed > 0 ? lag.avgMs() : Double.NaN, lag.maxMs()));
        if (connectPerTransaction) l.add(f("average connection time = %.3f ms", connectionMs));
        else l.add(f("initial connection time = %.3f ms", connectionMs));
        l.add(f("tps = %f (%s)", tps, connectPerTransaction ? "including reconnection times" : "without initial connection time"));
        boolean many = scripts.size() > 1;
        for (int i = 0; i < scripts.size(); i++) {
            ScriptReport s = scripts.get(i);
            if (many) {
                long st = s.processed() + s.failed() + s.skipped();
                l.add(f("SQL script %d: %s", i + 1, s.description()));
                l.add(f(" - weight: %d (targets %.1f%% of total)", s.weight(), 100.0 * s.weight() / Math.max(1, s.totalWeight())));
                // as pgbench: the share is of the successful transactions; a script that ran none prints 0/0 as NaN
                l.add(f(" - %d transactions (%.1f%% of total, tps = %f)", s.processed(), 100.0 * s.processed() / processed,
                        benchSeconds > 0 ? s.processed() / benchSeconds : 0));
                l.add(f(" - number of failed transactions: %d (%.3f%%)", s.failed(), 100.0 * s.failed() / st));
                if (failuresDetailed) {
                    l.add(f(" - number of serialization failures: %d (%.3f%%)", s.serializationFailures(), 100.0 * s.serializationFailures() / st));
                    l.add(f(" - number of deadlock failures: %d (%.3f%%)", s.deadlockFailures(), 100.0 * s.deadlockFailures() / st));
                    if (continueOnError) l.add(f(" - number of other failures: %d (%.3f%%)", s.otherFailures(), 100.0 * s.otherFailures() / st));
                }
                if (maxTries != 1) {
                    l.add(f(" - number of transactions retried: %d (%.3f%%)", s.retried(), 100.0 * s.retried() / st));
                    l.add(" - total number of retries: " + s.retries());
                }
                if (rate > 0 && latencyLimitMs > 0 && st > 0) {
                    l.add(f(" - number of transactions skipped: %d (%.3f%%)", s.skipped(), pct(s.skipped(), st)));
                }
                // pgbench's printSimpleStats: no latency without a successful transaction
                if (s.latency().count() > 0) {
                    l.add(f(" - latency average = %.3f ms", s.latency().avgMs()));
                    l.add(f(" - latency stddev = %.3f ms", s.latency().stddevMs()));
                }
            }
            if (perStatement) {
                l.add((many ? " - " : "") + "statement latencies in milliseconds" + (maxTries == 1 ? " and failures:" : ", failures and retries:"));
                for (CommandReport c : s.commands()) {
                    // a script's ALTER ROLE ... PASSWORD '...' is not shown nor stored
                    String text = dev.kensho.core.Credentials.maskSql(c.text());
                    l.add(maxTries == 1 ? f("   %11.3f  %10d  %s", c.avgMs(), c.failures(), text)
                            : f("   %11.3f  %10d  %10d  %s", c.avgMs(), c.failures(), c.retries(), text));
                }
            }
        }
        // Kensho's own lines after all of pgbench's (its per-script and per-statement lines included), so a reader
        // of pgbench's output finds its lines in pgbench's order; the abort line stays last, as pgbench's stderr line
        if (latency.count() > 0) {
            l.add(f("latency percentiles: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms",
                    latency.p50Ms(), latency.p90Ms(), latency.p99Ms(), latency.p999Ms(), latency.maxMs()));
        }
        l.add("(latency is measured for every transaction, from its " + (rate > 0 ? "scheduled" : "actual")
                + " start to its end, into an HdrHistogram; pgbench derives its average from the run time unless -P, -R or -L is given)");
        l.add(engine == Engine.WIRE
                ? "(engine: wire; each thread waited on its clients' connections at once, as pgbench's threads do)"
                : "(engine: pgjdbc; each client ran on a thread of its own with a pgjdbc connection)");
        // pgbench prints nothing like it; on a shared host it says how much of the machine the client took
        if (driverCpuSeconds >= 0 && benchSeconds > 0) {
            long ended = processed + failed;
            l.add(f("(this driver's process used %.2f CPU-seconds while the clock ran: %.0f%% of one CPU%s%s; CPU a server on this host did not have)",
                    driverCpuSeconds, 100 * driverCpuSeconds / benchSeconds,
                    ended > 0 ? f(", %.1f us per transaction", 1e6 * driverCpuSeconds / ended) : "",
                    driverPageFaults >= 0 ? f(", %.0f page faults a second", driverPageFaults / benchSeconds) : ""));
        }
        if (driverPageFaults >= 0 && benchSeconds > 0 && warmupAskedPerClient > 0
                && driverPageFaults / benchSeconds >= MANY_FAULTS_PER_SECOND) {
            // measured on a 2-core VM with DAMON sampling every 0.5 s: 3-6 k faults a second, 15-25 % of the client's
            // CPU; with either flag below, 10 a second and the CPU of a host without DAMON
            l.add("(the JVM faulted on memory while the clock ran, after the warm-up had written its heap: its heap grew, or"
                    + " the kernel took pages back in the background, as DAMON does (/sys/kernel/mm/damon); each fault is client"
                    + " CPU. Where it is DAMON, `java -XX:+UseTransparentHugePages -jar bench.jar` (transparent huge pages madvise"
                    + " or always) or a young generation of a few tens of MB (`-Xmn32m`) avoids them)");
        }
        if (driverThrottledPct > 0) {
            // "35% of one CPU" read as a driver at ease, where a half-CPU quota had stopped it in most periods
            l.add(f("(a cgroup's CPU quota held this process back in %.0f%% of the run's periods: the driver was capped, and its numbers with it)",
                    driverThrottledPct));
        }
        if (warmupAskedPerClient > 0) {
            // the line said the count asked for when the warm-up's 10 s limit had stopped it at a fraction of that
            l.add("(before the clock started each client ran " + (warmupPerClient < warmupAskedPerClient ? "at least " + warmupPerClient
                    + " warm-up transactions (of the " + warmupAskedPerClient + " asked: the warm-up ends after 10 s, or at a client's first"
                    + " failure)" : warmupPerClient
                    + " warm-up transactions") + " for the JVM's JIT (its scripts with every table access replaced by a SELECT of the"
                    + " same variables, or by the same write made to write no row) and waited for the compilers to finish"
                    + (maxTries != 1 || continueOnError ? ", then one that fails as a serialization failure does, and its retry" : "")
                    + "; then the"
                    + " JVM's young generation was written once, so that the clients' allocations do not fault in fresh memory"
                    + " while the clock runs; --warmup 0 does neither)");
        }
        if (aborted) l.add(ABORTED);
        return l;
    }

    /**
     * Why the run is no measurement of its cell: its clients aborted, or every transaction that ended failed (a lost
     * server, a serialization failure every time); null when some succeeded. pgbench reports a 0 tps then; as a
     * trial it would be a median's worth of nothing, so it is recorded as failed and the command exits 1.
     */
    public String unmeasured(String firstError) {
        if (aborted) {
            String why = abortReason != null ? abortReason : firstError;
            return "run aborted: " + (why == null ? "a client stopped on an error" : why);
        }
        if (processed == 0 && failed > 0) {
            return "no transaction succeeded: all " + failed + " failed" + (connectionFailures > 0 ? ", " + connectionFailures
                    + " of them on a lost connection" : "") + (firstError == null ? "" : " (" + firstError + ")");
        }
        return null;
    }

    /** The metrics a trial records (medians are taken over these). */
    public Map<String, Number> metrics() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("tps", tps);
        m.put("transactions", processed);
        m.put("failed", failed);
        m.put("connection_failures", connectionFailures);
        m.put("serialization_failures", serializationFailures);
        m.put("deadlock_failures", deadlockFailures);
        if (continueOnError) m.put("other_failures", otherFailures);
        // counted only under -L (skipped: -R with -L), as pgbench reports them: a 0 without it claimed a measurement
        if (rate > 0 && latencyLimitMs > 0) m.put("skipped", skipped);
        m.put("retries", retries);
        if (latencyLimitMs > 0) m.put("late", late);
        // none processed (a rate-limited run whose every transaction was skipped): no latency, not a latency of 0 in the medians
        if (latency.count() > 0) latency.metrics("latency_").forEach(m::put);
        if (rate > 0) {
            m.put("lag_avg_ms", lag.avgMs());
            m.put("lag_max_ms", lag.maxMs());
        }
        m.put(connectPerTransaction ? "avg_connection_ms" : "initial_connection_ms", connectionMs);
        m.put("seconds", benchSeconds);
        if (driverCpuSeconds >= 0 && benchSeconds > 0) {
            m.put("driver_cpu_pct", Math.round(1000 * driverCpuSeconds / benchSeconds) / 10.0);
            long ended = processed + failed;
            if (ended > 0) m.put("driver_cpu_us_per_tx", Math.round(1e7 * driverCpuSeconds / ended) / 10.0);
        }
        if (!Double.isNaN(driverThrottledPct)) m.put("driver_throttled_pct", Math.round(10 * driverThrottledPct) / 10.0);
        if (driverPageFaults >= 0 && benchSeconds > 0) m.put("driver_page_faults_per_s", Math.round(10 * driverPageFaults / benchSeconds) / 10.0);
        // how steady the run was: a checkpoint or vacuum stall shows here before it shows in the mean
        double cv = timeline.variationPercent("tps");
        if (!Double.isNaN(cv)) m.put("tps_cv_pct", Math.round(cv * 100) / 100.0);
        return m;
    }

    /** This run as a trial: params describe the run, metrics are {@link #metrics()}, the report lines go in extra. */
    public Trial trial(String cell, int repeat, Map<String, ?> params) {
        Trial.Builder b = Trial.of(cell, repeat).params(params).metrics(metrics()).extra("report", lines());
        if (aborted) b.extra("aborted", true);
        b.extra("engine", engine.optionName());
        // as pgbench's unsigned seed: --random-seed with it draws the same values (also where the environment gave it)
        b.extra("random_seed", Long.toUnsignedString(randomSeed));
        b.extra(Timeline.KEY, timeline.columns());
        if (histogram.getTotalCount() > 0) b.extra(LatencyDistribution.KEY, LatencyDistribution.encode(histogram));
        return b.build();
    }
}
