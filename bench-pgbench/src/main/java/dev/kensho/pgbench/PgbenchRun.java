package dev.kensho.pgbench;

import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import dev.kensho.pgbench.RunWindow;
import dev.kensho.pgbench.run.Driver;
import dev.kensho.pgbench.run.RunConfig;
import dev.kensho.pgbench.script.Script;
import dev.kensho.pgbench.script.ScriptException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pgbench} (the run): clients each on their own connection run the scripts for -T seconds or
 * -t transactions and the report gives pgbench's numbers plus latency percentiles.
 *
 * <pre>
 * RunReport r = new PgbenchRun().builtin("select-only").clients(8).threads(4).seconds(10)
 *         .mode(QueryMode.PREPARED).run(target);
 * r.lines().forEach(System.out::println);
 * </pre>
 */
public final class PgbenchRun {
    /** The run directory's command name for these runs: the report draws its charts by it. */
    public static final String COMMAND = "pgbench run";
    /** The metrics summary.csv of a run gives (median, min, max), in this order. */
    public static final List<String> SUMMARY_METRICS = List.of("tps", "latency_avg_ms", "latency_p99_ms", "failed");
    /** Client warm-up transactions over all clients before the clock starts (see {@link #warmup}). */
    public static final int DEFAULT_WARMUP = 20_000;

    private final List<Script> scripts = new ArrayList<>();
    private int clients = 1;
    private int threads = 1;
    // null: not given (pgbench's defaults); a given value must be in pgbench's range
    private Integer seconds;
    private Long transactions;
    private Double rate;
    private Double latencyLimitMs;
    private Integer progress;
    private boolean perStatement;
    private QueryMode mode = QueryMode.SIMPLE;
    private boolean connectPerTransaction;
    private boolean noVacuum;
    private boolean vacuumAll;
    private int maxTries = 1;
    private boolean failuresDetailed;
    private String randomSeed;
    private Integer scale;
    private final List<String> defines = new ArrayList<>();
    private boolean log;
    private String logPrefix;
    private Path logDirectory;
    private Integer aggregateInterval;
    private Double samplingRate;
    private int warmup = DEFAULT_WARMUP;
    private Engine engine = Engine.PGJDBC;
    private boolean progressTimestamp;
    private boolean verboseErrors;
    private boolean exitOnAbort;
    private boolean continueOnError;
    private PrintStream out = System.out;
    private PrintStream err = System.err;

    /** -b NAME[@W]: a builtin (tpcb-like, simple-update, select-only, pgecons-read, pgecons-read-noagg, pgecons-update). */
    public PgbenchRun builtin(String nameAtWeight) { return add("-b" + KenshoException.given(nameAtWeight, "builtin()")); }
    /** -f FILE[@W]. */
    public PgbenchRun file(String fileAtWeight) { return add("-f" + KenshoException.given(fileAtWeight, "file()")); }
    /** A script already parsed ({@link Script#parse}; {@code withWeight(w)} gives it -f's @W). */
    public PgbenchRun script(Script s) { scripts.add(KenshoException.given(s, "script()")); return this; }
    /**
     * A script given as its text, as a -f file would hold it; name stands for the file's in errors
     * ({@code name:2:19: syntax error ...}, a usage {@link KenshoException}).
     */
    public PgbenchRun script(String name, String text) {
        try {
            return script(Script.parse(KenshoException.given(name, "script()'s name"), KenshoException.given(text, "script()'s text")));
        } catch (ScriptException e) {
            throw KenshoException.usage(e.getMessage());
        }
    }
    /** -S: select-only; -N: simple-update. */
    public PgbenchRun selectOnly() { return builtin("select-only"); }
    public PgbenchRun simpleUpdate() { return builtin("simple-update"); }
    /** -c: concurrent clients, each with its own connection. */
    public PgbenchRun clients(int n) { clients = n; return this; }
    /** -j: pgbench threads (groups of clients sharing script choice, -R schedule and log). */
    public PgbenchRun threads(int n) { threads = n; return this; }
    /** -T: run for this many seconds (at least 1; without -T and -t, 10 transactions per client as pgbench). */
    public PgbenchRun seconds(int s) { seconds = s; return this; }
    /** -t: transactions per client (1..2147483647). */
    public PgbenchRun transactions(long n) { transactions = n; return this; }
    /** -R: target rate in transactions per second over all clients (Poisson schedule); above 0. */
    public PgbenchRun rate(double tps) { rate = tps; return this; }
    /** -L / --latency-limit: transactions above it are counted late, or skipped with -R; above 0. */
    public PgbenchRun latencyLimitMs(double ms) { latencyLimitMs = ms; return this; }
    /** -P: progress line every N seconds (at least 1) on stderr. */
    public PgbenchRun progress(int s) { progress = s; return this; }
    /** --progress-timestamp: progress lines show the Unix epoch time (ms precision) instead of the time since the start. */
    public PgbenchRun progressTimestamp(boolean b) { progressTimestamp = b; return this; }
    /** --verbose-errors: a line for every failed try, the retried ones too, with the client and the try number. */
    public PgbenchRun verboseErrors(boolean b) { verboseErrors = b; return this; }
    /** --exit-on-abort (pgbench 17+): when one client aborts, all stop and the run fails at once, without a report. */
    public PgbenchRun exitOnAbort(boolean b) { exitOnAbort = b; return this; }
    /**
     * --continue-on-error (pgbench 19): an SQL error other than a serialization or deadlock failure (a unique violation,
     * say) fails the transaction, which is rolled back and not retried, and the client goes on with the next one
     * instead of aborting. A failed meta-command still aborts the client (a lost connection is Kensho's failed transaction
     * and reconnect either way).
     */
    public PgbenchRun continueOnError(boolean b) { continueOnError = b; return this; }
    /** -r: per-statement latencies and failures. */
    public PgbenchRun perStatement(boolean b) { perStatement = b; return this; }
    /** -M simple|extended|prepared (default simple, as pgbench). */
    public PgbenchRun mode(QueryMode m) { mode = KenshoException.given(m, "mode()"); return this; }
    /** -C: a new connection for every transaction. */
    public PgbenchRun connectPerTransaction(boolean b) { connectPerTransaction = b; return this; }
    /** -n: no vacuum before the run. */
    public PgbenchRun noVacuum(boolean b) { noVacuum = b; return this; }
    /** -v: vacuum pgbench_accounts too. */
    public PgbenchRun vacuumAll(boolean b) { vacuumAll = b; return this; }
    /** --max-tries: tries per transaction on serialization/deadlock failures (0 = unlimited within -T/-L). */
    public PgbenchRun maxTries(int n) { maxTries = n; return this; }
    /** --failures-detailed. */
    public PgbenchRun failuresDetailed(boolean b) { failuresDetailed = b; return this; }
    /** --random-seed: an unsigned integer, "time" or "rand". */
    public PgbenchRun randomSeed(String s) { randomSeed = s; return this; }
    /** -s: the :scale of custom scripts (builtins read it from pgbench_branches, as pgbench). */
    public PgbenchRun scale(Integer s) { scale = s; return this; }
    /** -D name=value. */
    public PgbenchRun define(String nameEqualsValue) { defines.add(KenshoException.given(nameEqualsValue, "define()")); return this; }
    /** -l: transaction log files pgbench_log.PID[.THREAD] in the log directory. */
    public PgbenchRun log(boolean b) { log = b; return this; }
    public PgbenchRun logPrefix(String p) { logPrefix = p; return this; }
    /** Where -l files go (default: the working directory, as pgbench). */
    public PgbenchRun logDirectory(Path d) { logDirectory = d; return this; }
    /** --aggregate-interval: one log line per N seconds. */
    public PgbenchRun aggregateInterval(int s) { aggregateInterval = s; return this; }
    /** --sampling-rate: fraction of transactions logged, in (0, 1]. */
    public PgbenchRun samplingRate(double r) { samplingRate = r; return this; }
    /**
     * --warmup: before the clock starts, the clients together run this many warm-up transactions in the -M mode:
     * the run's scripts with every SQL command that could touch a table replaced by a SELECT of its variables, or
     * a plain write of a table without triggers by the same write made to write no row (see {@link dev.kensho.pgbench.script.WarmupScript}; a random state of their own, a copy of the variables),
     * then wait until the JIT compilers are idle, so a short run measures the server, not the compiler; with maxTries
     * other than 1 or continueOnError, each client then runs one transaction that fails as a serialization failure
     * does, and retries it, so the error path is not cold.
     * 0 runs nothing, exactly as pgbench.
     */
    public PgbenchRun warmup(int statements) { warmup = statements; return this; }
    /**
     * --engine: {@link Engine#WIRE} (pgbench's thread model, Kensho's own protocol client) or {@link Engine#PGJDBC}
     * (a thread and a pgjdbc connection per client).
     */
    public PgbenchRun engine(Engine e) { engine = KenshoException.given(e, "engine()"); return this; }
    /**
     * Report (System.out by default) and progress/errors (System.err by default: the vacuum line, -P lines, client
     * errors) streams; null silences one.
     */
    public PgbenchRun output(PrintStream report, PrintStream errors) { out = orSilent(report); err = orSilent(errors); return this; }

    private static PrintStream orSilent(PrintStream s) {
        return s != null ? s : new PrintStream(java.io.OutputStream.nullOutputStream());
    }

    private PgbenchRun add(String spec) {
        try {
            scripts.add(Script.fromSpec(spec));
        } catch (ScriptException e) {
            throw KenshoException.usage(e.getMessage());
        }
        return this;
    }

    /** Checks the options as pgbench does, before any server is needed (a usage error names the first bad one). */
    public PgbenchRun validate() {
        config();
        return this;
    }

    /**
     * The engine's view of the options, validated as {@link #validate()} does. {@code dev.kensho.pgbench.run} is the
     * engine: its types may change between releases; this class's builder methods are the API.
     */
    public RunConfig config() {
        List<Script> s = scripts.isEmpty() ? List.of(builtinOrFail("tpcb-like")) : scripts;
        try {
            Script.checkList(s);
        } catch (ScriptException e) {
            throw KenshoException.usage(e.getMessage());
        }
        // pgbench's checks of each option as given, in its words (a value not given is pgbench's default)
        if (seconds != null) RunConfig.range(seconds, "-T/--time");
        if (transactions != null) RunConfig.range(transactions, "-t/--transactions");
        if (rate != null) RunConfig.checkRate(rate, RunConfig.typed(rate));
        if (latencyLimitMs != null) RunConfig.checkLatencyLimit(latencyLimitMs, RunConfig.typed(latencyLimitMs));
        if (progress != null) RunConfig.range(progress, "-P/--progress");
        if (aggregateInterval != null) RunConfig.range(aggregateInterval, "--aggregate-interval");
        if (samplingRate != null) RunConfig.checkSamplingRate(samplingRate, RunConfig.typed(samplingRate));
        RunConfig c = new RunConfig(s, clients, threads, orZero(seconds), transactions == null ? 0 : transactions, orZero(rate),
                orZero(latencyLimitMs), orZero(progress), perStatement, mode, connectPerTransaction, noVacuum, vacuumAll, maxTries,
                failuresDetailed, randomSeed, scale, defines, log, logPrefix, logDirectory, orZero(aggregateInterval), orZero(samplingRate),
                warmup, progressTimestamp, verboseErrors, exitOnAbort, continueOnError, engine,
                // a client's abort quotes its statement (ALTER ROLE ... PASSWORD '...', a dblink conninfo)
                Credentials.masking(out), Credentials.masking(err));
        c.validate();
        return c;
    }

    private static int orZero(Integer v) {
        return v == null ? 0 : v;
    }

    private static double orZero(Double v) {
        return v == null ? 0 : v;
    }

    private static Script builtinOrFail(String name) {
        try {
            return Script.builtin(name);
        } catch (ScriptException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs and returns the report (not printed; the vacuum and progress lines go to the errors stream, see
     * {@link #output}). A run whose clients aborted returns one too: {@link RunReport#aborted()} true and
     * {@link RunReport#abortReason()} the first abort's error. Blocks the calling thread for the run; one builder may
     * run again, but not from two threads at once.
     *
     * @return pgbench's numbers, the {@link RunReport#timeline()} and the latency {@link RunReport#histogram()}
     * @throws KenshoException a usage one for options pgbench would refuse, before any connection; a target one where
     *         the server cannot be reached; "pgbench run interrupted" when the calling thread is interrupted, once its
     *         clients have stopped and closed their connections (the interrupt stays set)
     */
    public RunReport run(Target target) {
        return run(target, 0);
    }

    /**
     * As {@link #run(Target)}, with extra connections the caller has open already and holds during the run (counted
     * against max_connections).
     */
    public RunReport run(Target target, int extraConnections) {
        return run(target, extraConnections, RunWindow.NONE);
    }

    /**
     * As {@link #run(Target)}, with extra connections held open by the caller, telling window when the measured
     * interval begins and ends (after connecting, vacuum and warm-up; after every client has closed its connection).
     */
    public RunReport run(Target target, int extraConnections, RunWindow window) {
        try {
            return new Driver(target, config(), extraConnections, window).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KenshoException(KenshoException.FAILURE, "pgbench run interrupted");
        }
    }

    /** The parameters that identify this run in results (clients, threads, script, mode, duration…). */
    public Map<String, Object> params() {
        RunConfig c = config();
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("script", c.scripts().size() == 1 ? c.scripts().get(0).name() : c.scripts().toString());
        p.put("clients", c.clients());
        p.put("threads", c.effectiveThreads());
        p.put("mode", c.mode().pgbenchName());
        p.put("engine", c.engine().optionName());
        if (c.durationSeconds() > 0) p.put("duration_s", c.durationSeconds());
        else p.put("transactions_per_client", c.effectiveTransactions());
        if (c.rate() > 0) p.put("rate", c.rate());
        if (c.latencyLimitMs() > 0) p.put("latency_limit_ms", c.latencyLimitMs());
        if (c.connectPerTransaction()) p.put("connect_per_transaction", true);
        return p;
    }

    /**
     * Runs, prints the report to the output stream and appends it as a trial of dir (when dir is not null), with the
     * target's environment unless the caller recorded one already, and summary.csv ({@link #SUMMARY_METRICS} of every
     * cell in dir) unless the caller said how to write it ({@link RunDirectory#summarizeAfterEachTrial}). Returns
     * and throws as {@link #run(Target)}.
     */
    public RunReport runAndRecord(Target target, RunDirectory dir) {
        if (dir != null && dir.info().environment().isEmpty()) dir.environment(Credentials.mask(target.describe()), Environment.capture(target));
        // a run directory has a summary.csv: with the trial, as the CLI writes it (a kill in between leaves none)
        if (dir != null && !dir.summarizesAfterEachTrial()) dir.summarizeAfterEachTrial(d -> CellSummary.write(d, SUMMARY_METRICS));
        PrintStream given = err;
        FirstError first = new FirstError(given);
        err = new PrintStream(first, true, java.nio.charset.StandardCharsets.UTF_8);
        RunReport r;
        java.time.Instant began = java.time.Instant.now();
        try {
            r = run(target);
        } finally {
            err.flush();
            err = given;
        }
        // pgbench's "pgbench: error: Run was aborted; ..." goes to stderr: a report read off stdout ends as pgbench's does
        for (String l : r.lines()) {
            if (l.equals(RunReport.ABORTED)) err.println("error: " + l);
            else out.println(l);
        }
        if (dir != null) {
            Map<String, Object> p = params();
            p.put("scale", r.scale());
            Trial t = r.trial(cell(p), 0, p).startedAt(began);
            String unmeasured = r.unmeasured(first.line());
            if (unmeasured != null) {
                // as the sweep records it, and as the exit status says: no measurement of its cell
                Map<String, Object> extra = new LinkedHashMap<>(t.extra());
                extra.put("reason", unmeasured);
                t = new Trial(t.cell(), t.repeat(), t.params(), t.metrics(), extra, "failed", t.started(), t.finished());
            }
            // said on stderr only, the change of session went unrecorded beside the numbers it changed
            if (first.engine() != null) dir.noteOnce(first.engine());
            if (first.dateStyle() != null) dir.noteOnce(first.dateStyle());
            // with its trial, not before: a run that cannot start leaves no run directory
            ScriptCopies.write(dir, config().scripts());
            dir.append(t);
        }
        return r;
    }

    /**
     * The errors stream passed through, its first "error: " line (a client's abort) kept for the trial's reason. Passed
     * on as text, a line at a time (or what there is at a flush): written as bytes, its UTF-8 went into a stderr of
     * another encoding (-Dsun.stderr.encoding=MS932) beside lines Kensho printed in that one.
     */
    private static final class FirstError extends java.io.OutputStream {
        private final PrintStream to;
        private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();
        private final StringBuilder line = new StringBuilder();
        private volatile String first;

        FirstError(PrintStream to) {
            this.to = to;
        }

        /** What the wire engine did otherwise than asked (UTF8 for text Java would change, pgjdbc for a login): run.json's. */
        private volatile String engine;
        /** The pgjdbc engine printing dates in ISO where the database's DateStyle asks otherwise: run.json's too. */
        private volatile String dateStyle;

        @Override
        public synchronized void write(int b) {
            pending.write(b);
            if (b == '\n') pass();
        }

        /** What has come so far: a print's bytes arrive whole before its flush, so no character is cut in two. */
        private void pass() {
            if (pending.size() == 0) return;
            String s = pending.toString(java.nio.charset.StandardCharsets.UTF_8);
            pending.reset();
            to.print(s);
            if (first != null && engine != null && dateStyle != null) return;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c != '\n') {
                    line.append(c);
                    continue;
                }
                String l = line.toString();
                line.setLength(0);
                if (first == null && l.startsWith("error: ")) first = l.substring("error: ".length());
                if (engine == null && l.startsWith("warning: --engine wire: ")) engine = l.substring("warning: ".length());
                if (dateStyle == null && l.startsWith(Driver.DATE_STYLE_WARNING)) dateStyle = l.substring("warning: ".length());
            }
        }

        String engine() {
            return engine;
        }

        String dateStyle() {
            return dateStyle;
        }

        @Override
        public synchronized void flush() {
            pass();
            to.flush();
        }

        String line() {
            return first;
        }
    }

    /** True when dir holds this run's trial already (a --resume of a run that finished has nothing left to run). */
    public boolean recordedIn(RunDirectory dir) {
        return dir.isFinished(cell(params()), 0);
    }

    private static String cell(Map<String, Object> p) {
        return "clients=" + p.get("clients") + ";threads=" + p.get("threads") + ";script=" + p.get("script") + ";mode=" + p.get("mode");
    }
}
