package dev.kensho.pgbench.run;

import dev.kensho.core.KenshoException;
import dev.kensho.pgbench.script.Command;
import dev.kensho.pgbench.script.QueryMode;
import dev.kensho.pgbench.script.Script;
import java.io.PrintStream;
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
                        Engine engine, PrintStream out, PrintStream err) {

    public RunConfig {
        scripts = List.copyOf(scripts);
        defines = List.copyOf(defines);
    }

    /** Throws a usage error naming the first bad option, in pgbench's words where it has them. */
    public void validate() {
        if (scripts.isEmpty()) throw KenshoException.usage("no script given (use -b NAME or -f FILE)");
        if (clients < 1) throw KenshoException.usage("invalid number of clients: \"" + clients + "\"");
        if (threads < 1) throw KenshoException.usage("invalid number of threads: \"" + threads + "\"");
        if (durationSeconds < 0) throw KenshoException.usage("invalid duration: \"" + durationSeconds + "\"");
        if (durationSeconds > 0 && transactionsPerClient > 0) {
            throw KenshoException.usage("specify either a number of transactions (-t) or a duration (-T), not both");
        }
        if (rate < 0) throw KenshoException.usage("invalid rate limit: \"" + rate + "\"");
        if (latencyLimitMs < 0) throw KenshoException.usage("invalid latency limit: \"" + latencyLimitMs + "\"");
        if (progressSeconds < 0) throw KenshoException.usage("invalid thread progress delay: \"" + progressSeconds + "\"");
        if (maxTries < 0) throw KenshoException.usage("invalid number of maximum tries: \"" + maxTries + "\"");
        if (maxTries == 0 && latencyLimitMs == 0 && durationSeconds == 0) {
            throw KenshoException.usage("an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)");
        }
        if (samplingRate < 0 || samplingRate > 1) throw KenshoException.usage("invalid sampling rate: \"" + samplingRate + "\"");
        if (warmupStatements < 0) throw KenshoException.usage("invalid --warmup: \"" + warmupStatements + "\"");
        if (aggregateInterval < 0) throw KenshoException.usage("invalid number of seconds for aggregation: \"" + aggregateInterval + "\"");
        if (!log && (aggregateInterval > 0 || samplingRate > 0 || logPrefix != null)) {
            throw KenshoException.usage("log sampling (--sampling-rate), aggregation (--aggregate-interval) and --log-prefix are allowed only when logging transactions (-l)");
        }
        if (aggregateInterval > 0 && samplingRate > 0) {
            throw KenshoException.usage("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
        }
        if (aggregateInterval > 0 && durationSeconds > 0 && durationSeconds % aggregateInterval != 0) {
            throw KenshoException.usage("duration (" + durationSeconds + ") must be a multiple of aggregation interval (" + aggregateInterval + ")");
        }
        if (engine != Engine.WIRE) {
            for (Script s : scripts) {
                Command c = s.firstPipelineCommand();
                if (c != null) {
                    throw KenshoException.usage(s.name() + ":" + c.line() + ":" + c.column() + ": " + c.text().strip()
                            + " needs --engine wire: pgjdbc has no pipeline mode");
                }
            }
        }
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
