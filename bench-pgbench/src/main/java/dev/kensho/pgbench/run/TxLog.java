package dev.kensho.pgbench.run;

import dev.kensho.core.KenshoException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One pgbench thread's -l transaction log, in pgbench's format: {@code prefix.PID} for thread 0,
 * {@code prefix.PID.N} for thread N. Per transaction:
 * {@code client_id transaction_no time script_no time_epoch time_us [schedule_lag] [retries]} where
 * time is the latency in µs or skipped / failed (serialization / deadlock / other with --failures-detailed).
 * With --aggregate-interval, one line per interval with pgbench 15-17's 15 fields:
 * {@code interval_start num_transactions sum_latency sum_latency_2 min_latency max_latency sum_lag sum_lag_2
 * min_lag max_lag skipped retried retries serialization_failures deadlock_failures} (lag only with -R, skipped
 * only with -L, retries only with --max-tries, failures only with --failures-detailed; 0 otherwise). With
 * --continue-on-error a 16th, other_sql_failures, as pgbench 19 writes it. The first interval begins at the whole
 * second the run started in.
 * Transactions are numbered from 1 per client, as pgbench counts them before logging. The clients of one thread share it, hence the synchronized writes.
 * A write that fails (a full disk) ends the log there, said once, and the run goes on: its measurement does not depend
 * on the log (pgbench ignores the failure silently; a client dying of it lost the whole run).
 */
final class TxLog implements AutoCloseable {
    private final BufferedWriter out;
    private final Path file;
    /** Told once, at the first failed write, why the log ends there. */
    private final Consumer<String> onFailure;
    /** Why the log ends early ("could not write logfile ..."), null while it is whole. */
    private volatile String failure;
    private final boolean rate;
    private final boolean latencyLimit;
    private final boolean showRetries;
    private final boolean detailed;
    /** --continue-on-error: pgbench 19's 16th aggregate field. */
    private final boolean otherColumn;
    private final long aggregateMicros;
    private final StringBuilder line = new StringBuilder(96);

    // current aggregation interval
    private long aggStart = -1;
    private long cnt, failures, serialization, deadlock, other, skipped, retried, retries;
    private double latSum, latSum2, latMin, latMax, lagSum, lagSum2, lagMin, lagMax;

    TxLog(Path file, boolean rate, boolean latencyLimit, boolean showRetries, boolean detailed, boolean otherColumn, int aggregateInterval,
          Consumer<String> onFailure) {
        try {
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw KenshoException.usage(failed("open", file, e));
        }
        this.file = file;
        this.onFailure = onFailure;
        this.rate = rate;
        this.latencyLimit = latencyLimit;
        this.showRetries = showRetries;
        this.detailed = detailed;
        this.otherColumn = otherColumn;
        this.aggregateMicros = aggregateInterval * 1_000_000L;
        resetAgg();
    }

    /** The wall clock in µs, as pgbench's log stamps it (currentTimeMillis would put every stamp up to 1 ms early). */
    static long nowEpochMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    /** @param dir null for the working directory: the file is named as pgbench names it, without a "./" */
    static Path path(Path dir, String prefix, long pid, int thread) {
        String name = prefix + "." + pid + (thread == 0 ? "" : "." + thread);
        return dir == null ? Path.of(name) : dir.resolve(name);
    }

    /**
     * @param result null for a successful transaction, else "skipped", "failed", "serialization", "deadlock", "other"
     */
    synchronized void transaction(int client, long txNo, long latencyUs, String result, int script, long epochMicros,
                                  long lagUs, int tries, String failureKind) {
        if (aggregateMicros > 0) {
            aggregate(latencyUs, result, lagUs, tries, failureKind, epochMicros);
            return;
        }
        line.setLength(0);
        line.append(client).append(' ').append(txNo).append(' ');
        if (result == null) line.append(latencyUs);
        else line.append(result);
        line.append(' ').append(script).append(' ').append(epochMicros / 1_000_000).append(' ').append(epochMicros % 1_000_000);
        // pgbench computes the lag of a successful transaction only: 0 for a skipped or failed one
        if (rate) line.append(' ').append(result == null ? lagUs : 0);
        if (showRetries) line.append(' ').append(tries - 1);
        line.append('\n');
        write(line);
    }

    /**
     * As {@link #transaction}, stamped by {@code epochMicros} under the lock. The pgjdbc engine's clients of one
     * thread group share this log from threads of their own: one that stamped first but wrote second would write its
     * line out of order, and in an aggregate file add its transaction to the interval after its own.
     */
    synchronized void transactionNow(int client, long txNo, long latencyUs, String result, int script, LongSupplier epochMicros,
                                     long lagUs, int tries, String failureKind) {
        transaction(client, txNo, latencyUs, result, script, epochMicros.getAsLong(), lagUs, tries, failureKind);
    }

    /**
     * The first interval starts at the run's start rounded down to a whole second, the next ones every interval
     * after it, as pgbench's (14 on): the logged start is a whole second, so the interval must begin there.
     */
    synchronized void begin(long epochMicros) {
        aggStart = epochMicros / 1_000_000 * 1_000_000;
    }

    /** Writes every interval that ended by now (pgbench prints empty ones too). */
    private void flushUntil(long epochMicros) {
        if (aggStart < 0) begin(epochMicros);
        while (aggStart + aggregateMicros <= epochMicros) {
            flushAgg();
            aggStart += aggregateMicros;
        }
    }

    private void aggregate(long latencyUs, String result, long lagUs, int tries, String failureKind, long epochMicros) {
        flushUntil(epochMicros);
        if ("skipped".equals(result)) {
            skipped++;
        } else if (result != null) {
            failures++;
            if ("serialization".equals(failureKind)) serialization++;
            else if ("deadlock".equals(failureKind)) deadlock++;
            else if ("other".equals(failureKind)) other++;
        } else {
            cnt++;
            latSum += latencyUs;
            latSum2 += (double) latencyUs * latencyUs;
            latMin = Math.min(latMin, latencyUs);
            latMax = Math.max(latMax, latencyUs);
            if (rate) {
                lagSum += lagUs;
                lagSum2 += (double) lagUs * lagUs;
                lagMin = Math.min(lagMin, lagUs);
                lagMax = Math.max(lagMax, lagUs);
            }
        }
        if (tries > 1) {
            retried++;
            retries += tries - 1;
        }
    }

    private void flushAgg() {
        // pgbench 15-17 always writes these 15 fields; those of options not in use stay 0
        line.setLength(0);
        line.append(aggStart / 1_000_000).append(' ').append(cnt).append(' ').append(fmt(latSum)).append(' ').append(fmt(latSum2))
                .append(' ').append(fmt(cnt == 0 ? 0 : latMin)).append(' ').append(fmt(cnt == 0 ? 0 : latMax));
        boolean lag = rate && cnt > 0;
        line.append(' ').append(fmt(rate ? lagSum : 0)).append(' ').append(fmt(rate ? lagSum2 : 0)).append(' ')
                .append(fmt(lag ? lagMin : 0)).append(' ').append(fmt(lag ? lagMax : 0));
        line.append(' ').append(latencyLimit ? skipped : 0);
        line.append(' ').append(showRetries ? retried : 0).append(' ').append(showRetries ? retries : 0);
        line.append(' ').append(detailed ? serialization : 0).append(' ').append(detailed ? deadlock : 0);
        if (otherColumn) line.append(' ').append(detailed ? other : 0);
        line.append('\n');
        write(line);
        resetAgg();
    }

    /** C's %.0f: the double's exact value rounded (Java's %.0f pads its shortest digits with zeros past 2^53). */
    private static String fmt(double d) {
        return new java.math.BigDecimal(d).setScale(0, java.math.RoundingMode.HALF_EVEN).toPlainString();
    }

    private void resetAgg() {
        cnt = failures = serialization = deadlock = other = skipped = retried = retries = 0;
        latSum = latSum2 = lagSum = lagSum2 = 0;
        latMin = lagMin = Double.MAX_VALUE;
        latMax = lagMax = 0;
    }

    /** pgbench's words, the system's reason capitalised as strerror writes it (NIO's message is the path again). */
    private static String failed(String what, Path file, IOException e) {
        String reason = KenshoException.ioReason(e);
        return "could not " + what + " logfile \"" + file + "\": " + Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
    }

    private void write(CharSequence s) {
        if (failure != null) return;
        try {
            out.append(s);
        } catch (IOException e) {
            fail(e);
        }
    }

    private void fail(IOException e) {
        if (failure != null) return;
        failure = failed("write", file, e);
        onFailure.accept(failure + "; the log ends there, the run goes on");
    }

    /** Why the log ends before the run did, or null when it holds every line. */
    String failure() {
        return failure;
    }

    /** Ends the log at the run's end: finished intervals are written, a partial last one is not (as pgbench). */
    synchronized void finish(long epochMicros) {
        if (aggregateMicros > 0 && aggStart >= 0) flushUntil(epochMicros);
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            // the last buffer's flush: the same full disk, found only now
            fail(e);
        }
    }
}
