package dev.kensho.pgbench.run;

import dev.kensho.core.KenshoException;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.script.Command;
import dev.kensho.pgbench.script.PgbenchRandom;
import dev.kensho.pgbench.script.Script;
import dev.kensho.pgbench.script.Variables;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything one pgbench run needs, validated as pgbench validates its options. Built by
 * {@link dev.kensho.pgbench.PgbenchRun}; see there for what each option means.
 */
public record RunConfig(List<Script> scripts, int clients, int threads, int durationSeconds, long transactionsPerClient,
                        double rate, double latencyLimitMs, int progressSeconds, boolean perStatement, QueryMode mode,
                        boolean connectPerTransaction, boolean noVacuum, boolean vacuumAccounts, int maxTries,
                        boolean failuresDetailed, String randomSeed, Integer scale, List<String> defines,
                        boolean log, String logPrefix, Path logDirectory, int aggregateInterval, double samplingRate,
                        int warmupStatements, boolean progressTimestamp, boolean verboseErrors, boolean exitOnAbort,
                        boolean continueOnError, Engine engine, PrintStream out, PrintStream err) {

    public RunConfig {
        scripts = List.copyOf(scripts);
        defines = List.copyOf(defines);
    }

    /**
     * Throws a usage error naming the first bad option, in pgbench's words. Duration, transactions, rate, latency
     * limit, progress, aggregation interval and sampling rate are 0 when not given; {@link dev.kensho.pgbench.PgbenchRun}
     * has checked the given ones.
     */
    public void validate() {
        if (scripts.isEmpty()) throw KenshoException.usage("no script given (use -b NAME or -f FILE)");
        range(clients, "-c/--client");
        range(threads, "-j/--jobs");
        if (scale != null) range(scale, "-s/--scale");
        if (durationSeconds > 0 && transactionsPerClient > 0) {
            throw KenshoException.usage("specify either a number of transactions (-t) or a duration (-T), not both");
        }
        if (progressTimestamp && progressSeconds == 0) throw KenshoException.usage("--progress-timestamp is allowed only under --progress");
        if (randomSeed != null) {
            try {
                PgbenchRandom.parseSeed(randomSeed);
            } catch (IllegalArgumentException e) {
                throw KenshoException.usage(e.getMessage());
            }
        }
        Variables probe = new Variables();
        for (String d : defines) {
            try {
                probe.define(d);
            } catch (IllegalArgumentException e) {
                throw KenshoException.usage(e.getMessage());
            }
        }
        if (maxTries < 0) throw KenshoException.usage("invalid number of maximum tries: \"" + maxTries + "\"");
        if (maxTries == 0 && latencyLimitMs == 0 && durationSeconds == 0) {
            throw KenshoException.usage("an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)");
        }
        if (warmupStatements < 0) throw KenshoException.usage("invalid --warmup: \"" + warmupStatements + "\"");
        // pgbench 15's checks in its order and words
        if (samplingRate > 0 && !log) throw KenshoException.usage("log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
        if (aggregateInterval > 0 && samplingRate > 0) {
            throw KenshoException.usage("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
        }
        if (aggregateInterval > 0 && !log) throw KenshoException.usage("log aggregation is allowed only when actually logging transactions");
        if (logPrefix != null && !log) throw KenshoException.usage("log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
        if (durationSeconds > 0 && aggregateInterval > durationSeconds) {
            throw KenshoException.usage("number of seconds for aggregation (" + aggregateInterval + ") must not be higher than test duration ("
                    + durationSeconds + ")");
        }
        if (aggregateInterval > 0 && durationSeconds > 0 && durationSeconds % aggregateInterval != 0) {
            throw KenshoException.usage("duration (" + durationSeconds + ") must be a multiple of aggregation interval (" + aggregateInterval + ")");
        }
        if (engine != Engine.WIRE) {
            // refused before the run only where every transaction reaches it (the client that reaches one elsewhere aborts)
            for (Script s : scripts) {
                for (Command c : s.commands()) {
                    if (c.kind().pipeline() && s.alwaysReached(c)) {
                        throw KenshoException.usage(s.name() + ":" + c.line() + ":" + c.column() + ": " + c.text().strip()
                                + " needs --engine wire: pgjdbc has no pipeline mode");
                    }
                }
            }
        }
    }

    /** pgbench's check of an integer option: {@code -t/--transactions must be in range 1..2147483647}. */
    public static void range(long value, String option) {
        if (value < 1 || value > Integer.MAX_VALUE) throw KenshoException.usage(option + " must be in range 1.." + Integer.MAX_VALUE);
    }

    /** -R as typed; pgbench's error quotes the text ({@code invalid rate limit: "0.0"}). */
    public static double parseRate(String typed) {
        return checkRate(number(typed, "invalid rate limit"), typed);
    }

    /** -L as typed, in milliseconds. */
    public static double parseLatencyLimit(String typed) {
        return checkLatencyLimit(number(typed, "invalid latency limit"), typed);
    }

    /** --sampling-rate as typed. */
    public static double parseSamplingRate(String typed) {
        return checkSamplingRate(number(typed, "invalid sampling rate"), typed);
    }

    public static double checkRate(double v, String typed) {
        if (!(v > 0) || Double.isInfinite(v)) throw invalid("invalid rate limit", typed);
        return v;
    }

    public static double checkLatencyLimit(double v, String typed) {
        if (!(v > 0) || Double.isInfinite(v)) throw invalid("invalid latency limit", typed);
        return v;
    }

    public static double checkSamplingRate(double v, String typed) {
        if (!(v > 0 && v <= 1)) throw invalid("invalid sampling rate", typed);
        return v;
    }

    /** A number as a user would have typed it: -5, not -5.0. */
    public static String typed(double v) {
        return Double.isFinite(v) ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : Double.toString(v);
    }

    private static double number(String typed, String what) {
        try {
            return Double.parseDouble(typed.strip());
        } catch (NumberFormatException e) {
            throw invalid(what, typed);
        }
    }

    private static KenshoException invalid(String what, String typed) {
        return KenshoException.usage(what + ": \"" + typed + "\"");
    }

    /** pgbench runs 10 transactions per client when neither -t nor -T is given. */
    public long effectiveTransactions() {
        return durationSeconds == 0 && transactionsPerClient == 0 ? 10 : transactionsPerClient;
    }

    /** Threads never exceed clients (each thread needs at least one client). */
    public int effectiveThreads() {
        return Math.min(threads, clients);
    }

    /** True when a built-in script (-b) is among the scripts: pgbench then reads the scale from pgbench_branches. */
    public boolean builtinUsed() {
        return scripts.stream().anyMatch(s -> s.description().startsWith("<builtin:"));
    }
}
