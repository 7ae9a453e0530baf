package dev.kensho.cli.pgbench;

import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import dev.kensho.core.env.Environment;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import dev.kensho.pgbench.run.RunConfig;
import dev.kensho.pgbench.script.Script;
import dev.kensho.pgbench.script.ScriptException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench pgbench run: pgbench's benchmark run with its options, its report and latency percentiles. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run pgbench scripts with pgbench's options and print pgbench's report plus p50/p90/p99/p99.9/max "
                + "(latency is measured for every transaction). One connection per client. The run is also recorded as a trial.",
                "Example:",
                "  bench pgbench run -S -M prepared -c 8 -j 4 -T 60 -P 5 \\",
                "      --url jdbc:postgresql://127.0.0.1:5432/test -U postgres",
                "On an embedded server (data gone when it stops) add --init to create the tables first."})
final class PgbenchRunCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;
    @Mixin ScriptOptions scripts;

    @Option(names = {"-c", "--client"}, paramLabel = "N", defaultValue = "1", description = "Concurrent clients (default ${DEFAULT-VALUE}).")
    int clients;
    @Option(names = {"-j", "--jobs"}, paramLabel = "N", defaultValue = "1", description = "pgbench threads: groups of clients sharing script choice, -R schedule and log (default ${DEFAULT-VALUE}).")
    int threads;
    // not given (null) is pgbench's default; a given value is checked as pgbench checks it, 0 included
    @Option(names = {"-T", "--time", "--duration"}, paramLabel = "SECONDS", description = "Duration in seconds (--duration as sweep spells it).")
    Integer seconds;
    @Option(names = {"-t", "--transactions"}, paramLabel = "N", description = "Transactions per client (default 10 without -T).")
    Long transactions;
    @Option(names = {"-R", "--rate"}, paramLabel = "TPS", description = "Target rate in transactions per second (Poisson schedule; lag is reported).")
    String rate;
    @Option(names = {"-L", "--latency-limit"}, paramLabel = "MS", description = "Count transactions above this latency; with -R skip those already late.")
    String latencyLimit;
    @Option(names = {"-P", "--progress"}, paramLabel = "SEC", description = "Progress line every SEC seconds.")
    Integer progress;
    @Option(names = "--progress-timestamp", description = "Progress lines (-P) show the Unix epoch time in seconds with milliseconds "
            + "(\"progress: 1700000000.123 s, ...\") instead of the time since the start, as pgbench.")
    boolean progressTimestamp;
    @Option(names = {"-r", "--report-per-command"}, description = "Per-statement latencies, failures and retries.")
    boolean perStatement;
    @Option(names = {"-M", "--protocol"}, defaultValue = "simple", paramLabel = "MODE", description = "simple, extended or prepared (default ${DEFAULT-VALUE}).")
    String mode;
    @Option(names = {"-C", "--connect"}, description = "New connection for every transaction.")
    boolean connect;
    @Option(names = {"-n", "--no-vacuum"}, description = "Do not vacuum before the run.")
    boolean noVacuum;
    @Option(names = {"-v", "--vacuum-all"}, description = "Vacuum pgbench_accounts too before the run.")
    boolean vacuumAll;
    @Option(names = "--max-tries", paramLabel = "N", defaultValue = "1", description = "Tries per transaction on serialization or deadlock failure (0: unlimited within -T/-L).")
    int maxTries;
    @Option(names = "--verbose-errors", description = "Print a line for every serialization or deadlock failure, retried ones included, and every error --continue-on-error goes past: "
            + "the client, command, script and error, then whether the transaction is repeated or ends failed and the try number "
            + "(\"client 1 repeats the transaction after the error (try 1/10)\"), as pgbench.")
    boolean verboseErrors;
    @Option(names = "--exit-on-abort", description = "When any client aborts (an SQL error other than a serialization or deadlock "
            + "failure, a failed meta-command), stop all clients at once and exit non-zero without a report, as pgbench 17+. "
            + "Without it the other clients go on and the report says the run was aborted.")
    boolean exitOnAbort;
    @Option(names = "--continue-on-error", description = "Continue running after an SQL error, as pgbench 19: an error other than a "
            + "serialization or deadlock failure (e.g. a unique violation) fails the transaction, which is rolled back and not retried, "
            + "and the client goes on with the next one; --failures-detailed counts them as other failures. A failed meta-command "
            + "still aborts the client (a lost connection is a failed transaction either way: the client reconnects).")
    boolean continueOnError;
    @Option(names = "--failures-detailed", description = "Report serialization and deadlock failures separately (and, with --continue-on-error, the other failures).")
    boolean failuresDetailed;
    @Option(names = "--random-seed", paramLabel = "SEED", defaultValue = "${env:PGBENCH_RANDOM_SEED}",
            description = "Unsigned integer, 'time' (default) or 'rand'; without it, PGBENCH_RANDOM_SEED's value, as pgbench.")
    String randomSeed;
    @Option(names = {"-s", "--scale"}, paramLabel = "SCALE", description = "The :scale of custom scripts (builtins read pgbench_branches), and the scale of --init.")
    Integer scale;
    @Option(names = {"-D", "--define"}, paramLabel = "NAME=VALUE", description = "Script variable (repeatable).")
    List<String> defines = new ArrayList<>();
    @Option(names = {"-l", "--log"}, description = "Write per-transaction log files pgbench_log.PID[.THREAD].")
    boolean log;
    @Option(names = "--log-prefix", paramLabel = "PREFIX", description = "Log file name prefix (default pgbench_log).")
    String logPrefix;
    @Option(names = "--aggregate-interval", paramLabel = "SEC", description = "Log one aggregated line per SEC seconds.")
    Integer aggregateInterval;
    @Option(names = "--sampling-rate", paramLabel = "RATE", description = "Fraction of transactions to log (e.g. 0.01).")
    String samplingRate;
    @Option(names = "--warmup", defaultValue = "" + PgbenchRun.DEFAULT_WARMUP, paramLabel = "N",
            description = "Before the clock starts, the clients together run N warm-up transactions (at least 50 each, within 10 s; the scripts with every SQL command that "
                    + "could touch a table replaced by a SELECT of its variables, or a plain write by itself made to write no row), then wait for the JIT compilers to go idle, so the JVM's "
                    + "JIT has compiled the client path (with --max-tries other than 1 or --continue-on-error, then each runs one transaction that "
                    + "fails as a serialization failure does, and its retry); 0 runs none, exactly as pgbench (default ${DEFAULT-VALUE}).")
    int warmup;
    @Mixin
    EngineOption engine;
    @Option(names = "--show-script", paramLabel = "NAME",
            description = "Print the builtin script NAME (or an unambiguous prefix) as pgbench does (\"-- tpcb-like: <builtin: TPC-B (sort of)>\" "
                    + "then the script) and exit; 'list' lists the builtins, the studies' pgecons-read, pgecons-read-noagg and "
                    + "pgecons-update included (as -b list). Printed on stdout, so it can be saved as a -f script (pgbench uses stderr).")
    String showScript;
    @Option(names = "--init", description = "Initialise the pgbench tables first (as 'pgbench init -s SCALE', which drops and makes anew the four "
            + "pgbench_* tables; default scale 1).")
    boolean init;

    @Override
    public Integer call() {
        if (showScript != null || scripts.specs.contains("-blist")) {
            showScript(showScript == null ? "list" : showScript);
            return 0;
        }
        QueryMode m;
        try {
            m = QueryMode.parse(mode);
        } catch (IllegalArgumentException e) {
            throw KenshoException.usage(e.getMessage());
        }
        PgbenchRun run = new PgbenchRun().engine(engine.engine()).clients(clients).threads(threads)
                .progressTimestamp(progressTimestamp).perStatement(perStatement).mode(m).connectPerTransaction(connect)
                .noVacuum(noVacuum).vacuumAll(vacuumAll).maxTries(maxTries).failuresDetailed(failuresDetailed).verboseErrors(verboseErrors).exitOnAbort(exitOnAbort).continueOnError(continueOnError).randomSeed(randomSeed)
                .scale(init && scripts.builtinUsed() ? null : scale).log(log).logPrefix(logPrefix).logDirectory(Path.of(".")).warmup(warmup);
        if (seconds != null) run.seconds(seconds);
        if (transactions != null) run.transactions(transactions);
        if (rate != null) run.rate(RunConfig.parseRate(rate));
        if (latencyLimit != null) run.latencyLimitMs(RunConfig.parseLatencyLimit(latencyLimit));
        if (progress != null) run.progress(progress);
        if (aggregateInterval != null) run.aggregateInterval(aggregateInterval);
        if (samplingRate != null) run.samplingRate(RunConfig.parseSamplingRate(samplingRate));
        for (String s : scripts.specs) {
            if (s.startsWith("-b")) run.builtin(s.substring(2));
            else run.file(s.substring(2));
        }
        for (String d : defines) run.define(d);
        run.validate();   // option errors before a server starts
        // --init's own (-s 0): said after a server's start and a connection, where pgbench -i refuses at once
        if (init) new PgbenchInit().scale(scale == null ? 1 : scale).validate();
        TargetSpec spec = target.single();
        Map<String, Object> params = new LinkedHashMap<>(run.params());
        // what --resume compares: a run resumed on another server or with other settings is another run
        params.put("target", spec.label());
        params.put("settings", target.settings());
        // recorded when not given too (null): a run resumed with -R, -L or another warm-up, or with its -f file edited, is
        // another run (a trial's own parameters name -R and -L only when given)
        RunConfig given = run.config();
        params.put("rate", given.rate() > 0 ? given.rate() : null);
        params.put("latency_limit_ms", given.latencyLimitMs() > 0 ? given.latencyLimitMs() : null);
        params.put("warmup", given.warmupStatements());
        params.put("script_digests", given.scripts().stream().map(dev.kensho.pgbench.script.Script::digest).toList());
        // the run directory first: a --resume refused is refused before a server starts
        try (RunDirectory dir = results.open(PgbenchRun.COMMAND, params, System.err); Target t = spec.open()) {
            List<String> metrics = PgbenchRun.SUMMARY_METRICS;
            // with its trial: a kill between the two left a run without summary.csv, which a resume, finding the trial, never wrote
            dir.summarizeAfterEachTrial(d -> CellSummary.write(d, metrics));
            if (run.recordedIn(dir)) {
                CellSummary.write(dir, metrics);
                // one trial per run: resuming it again would add a second measurement of the same cell and repeat
                System.err.println("pgbench run: its trial is already in " + dir.path() + "; nothing left to resume");
                return 0;
            }
            Map<String, Object> env = Environment.capture(t);
            dir.environment(spec.label(), env);
            // pgbench's first line, naming the client and the server it measures ("pgbench (16.1, server 15.4)")
            if (env.get("server") instanceof Map<?, ?> server && server.get("server_version") != null) {
                System.out.println("pgbench (Kensho " + KenshoVersion.version() + ", server " + server.get("server_version") + ")");
            }
            if (init) {
                // the clients' connections are checked before the load, not after it: at the studies' scales that is
                // a wasted half hour (the run checks again)
                try (java.sql.Connection c = t.connect()) {
                    dev.kensho.pgbench.run.ClientLimits.checkConnections(c, clients, 0, false, "-c");
                } catch (java.sql.SQLException e) {
                    // the init meets and says whatever is wrong with the server
                }
                new PgbenchInit().scale(scale == null ? 1 : scale).quiet(true).run(t);
            }
            RunReport r;
            try {
                r = run.runAndRecord(t, dir);
            } catch (KenshoException e) {
                throw dev.kensho.pgbench.run.ClientLimits.onCommandLine(e, "-c");   // the library's words as this command's options
            }
            CellSummary.write(dir, metrics);
            // Kensho's 1 where pgbench exits 2 for aborted clients (2 is a usage error here); a run in which every
            // transaction failed measured nothing, where pgbench exits 0
            String unmeasured = r.unmeasured(null);
            // an abort has said so ("Run was aborted"); a run whose every transaction failed exits 1 where pgbench exits 0: say why
            if (unmeasured != null && !r.aborted()) System.err.println("error: " + unmeasured + " (nothing was measured)");
            // the measurement stands and is kept; the log asked for is not whole, which a script reading it must learn
            if (r.logFailure() != null) System.err.println("error: -l: " + r.logFailure() + "; the log is incomplete, the run's results are kept");
            return unmeasured != null || r.logFailure() != null ? KenshoException.FAILURE : 0;
        }
    }

    /** pgbench's --show-script (and -b list): no target is opened. */
    static void showScript(String name) {
        if (name.equals("list")) {
            int width = 2 + Script.BUILTINS.stream().mapToInt(String::length).max().orElse(0);
            StringBuilder sb = new StringBuilder("Available builtin scripts:\n");
            for (String b : Script.BUILTINS) sb.append(String.format(Locale.ROOT, "%" + width + "s: %s\n", b, Script.builtinDescription(b)));
            System.out.println(sb);
            return;
        }
        String found;
        try {
            found = Script.builtinName(name);
        } catch (ScriptException e) {
            throw KenshoException.usage(e.getMessage());
        }
        System.out.println("-- " + found + ": " + Script.builtinDescription(found) + "\n" + Script.builtinText(found));
    }
}
