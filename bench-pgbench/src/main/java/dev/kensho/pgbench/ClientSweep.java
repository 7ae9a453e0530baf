package dev.kensho.pgbench;

import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import dev.kensho.core.env.HostTimeline;
import dev.kensho.core.measure.Prewarm;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.OwnStatements;
import dev.kensho.core.server.SqlIdentifier;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import dev.kensho.pgbench.run.ClientLimits;
import dev.kensho.pgbench.run.Driver;
import dev.kensho.pgbench.script.Script;
import dev.kensho.pgbench.sweep.ThreadsExpression;
import dev.kensho.pgbench.sweep.TrialSampler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The PGECons fixed-point observation: one script at each client count, on one or more targets
 * (e.g. embedded 16 and 17), every cell repeated, in random or sequential order. Before each trial:
 * CHECKPOINT and pg_prewarm of pgbench_accounts (after a rebuild with --reinit-each-trial; a role that may do neither
 * runs without, said once and kept in each trial). During
 * each trial the server is sampled ({@link TrialSampler}). Every repeat is kept in trials.jsonl;
 * summary.csv gives per cell the median, min and max.
 *
 * <pre>
 * new ClientSweep().clients(List.of(1, 4, 16)).threads("clients/2").repeats(3).seconds(60)
 *         .builtin("select-only").scale(100).run(Map.of("embedded-17", target), dir);
 * </pre>
 */
public final class ClientSweep {
    /** The run directory's command name for these runs: the report draws its charts by it. */
    public static final String COMMAND = "pgbench sweep";

    /**
     * The command line's options as this class's builder methods: a harness that called repeats(0) is told repeats(),
     * not --repeat, which it never typed. bench pgbench sweep turns them back. The init's and each trial's own checks
     * keep pgbench's option names (-s/--scale, -c/--client), as PgbenchInit's and PgbenchRun's builders do.
     */
    public static final Map<String, String> BUILDER_NAMES = Map.of("--clients", "clients()", "--threads", "threads()",
            "--repeat", "repeats()", "--duration", "seconds()", "--reinit-each-trial", "reinitEachTrial()", "-s SCALE", "scale()",
            "-F", "fillfactor()", "--wait-sample-ms", "waitSampleMillis()");

    /** The metrics summary.csv lists first, in this order. */
    public static final List<String> SUMMARY_METRICS = List.of("tps", "latency_avg_ms", "latency_p50_ms", "latency_p90_ms",
            "latency_p99_ms", "latency_p999_ms", "latency_max_ms", "failed", "tps_cv_pct", "db_xact_commit", "db_xact_rollback", "db_blks_read",
            "db_blks_hit", "db_temp_files", "db_temp_bytes", "db_deadlocks", "cpu_busy_pct", "cpu_user_pct", "cpu_system_pct", "cpu_softirq_pct",
            "cpu_iowait_pct", "server_cpu_pct", "kensho_cpu_pct", "other_cpu_pct", "mem_used_mb", "driver_cpu_pct");

    /** Another program's share of the host (other_cpu_pct) from which a trial is said to have shared the machine. */
    static final double SHARED_HOST_PCT = 10;

    private List<Integer> clients = List.of(1);
    /** The command's default: a Java sweep without threads() measures what the same command line would. */
    private ThreadsExpression threads = ThreadsExpression.parse("clients/2");
    private int repeats = 1;
    private TrialMatrix.Order order = TrialMatrix.Order.RANDOM;
    private Long seed;
    private int seconds = 60;
    private final List<Source> scripts = new ArrayList<>();
    private QueryMode mode = QueryMode.SIMPLE;
    private dev.kensho.pgbench.Engine engine = dev.kensho.pgbench.Engine.PGJDBC;
    private Double rate;
    private Double latencyLimitMs;
    private Integer scale;
    private boolean reinitEachTrial;
    private boolean prewarm = true;
    private int waitSampleMillis = TrialSampler.DEFAULT_PERIOD_MS;
    private boolean noVacuum;
    private int warmup = PgbenchRun.DEFAULT_WARMUP;
    private final List<String> defines = new ArrayList<>();
    private int maxTries = 1;
    private String randomSeed;
    private Integer progress;
    /** "[3/12]   ": the trial under way, for its progress lines. */
    private String trialPrefix = "";
    private PrintStream err = dev.kensho.core.Credentials.masking(System.err);
    /** Targets whose host could not be observed, said once each. */
    private final java.util.Set<String> hostUnseen = new java.util.HashSet<>();
    /** Targets whose wait events were said to be 9.6's fewer kinds (once each). */
    private final java.util.Set<String> waitsBefore10 = new java.util.HashSet<>();
    /** Targets whose pgbench_accounts was said to be larger than their shared buffers (once each, not per trial). */
    private final java.util.Set<String> coldSaid = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** "target;checkpoint" or "target;prewarm": what the target's role may not do, and the server's reason. */
    private final Map<String, String> refused = new java.util.concurrent.ConcurrentHashMap<>();
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private PgbenchInit initTemplate;
    private Integer fillfactor;

    /** --clients 1,4,16,…: one cell per count. */
    public ClientSweep clients(List<Integer> c) {
        if (KenshoException.given(c, "clients()").stream().anyMatch(java.util.Objects::isNull)) throw KenshoException.usage("clients() must not hold null");
        clients = List.copyOf(c);
        return this;
    }
    /** --threads: a number or an expression of clients ("clients/2"); at least 1. */
    public ClientSweep threads(String expression) {
        try {
            threads = ThreadsExpression.parse(KenshoException.given(expression, "threads()"));
        } catch (KenshoException e) {
            throw e.naming(BUILDER_NAMES);
        }
        return this;
    }
    /** --repeat: trials per cell. */
    public ClientSweep repeats(int n) { repeats = n; return this; }

    /**
     * --wait-sample-ms: between two samples of pg_stat_activity's wait events during a trial (default 100); 0 samples
     * none. Each sample takes the server a moment: on a saturated host it shows in p99.9 (see README).
     */
    public ClientSweep waitSampleMillis(int ms) {
        if (ms < 0) throw KenshoException.usage("waitSampleMillis() must be 0 (no sampling) or more, got " + ms);
        waitSampleMillis = ms;
        return this;
    }
    /** --order random|sequential. */
    public ClientSweep order(TrialMatrix.Order o) { order = KenshoException.given(o, "order()"); return this; }
    /**
     * Seed of the random trial order, recorded in run.json. Not given: the one the run directory recorded (a resume
     * replays its plan), else a new one for every run, as bench pgbench sweep draws it (a fixed default would give
     * every sweep the same order, and the random order would guard against nothing).
     */
    public ClientSweep orderSeed(long s) { seed = s; return this; }
    /** --duration: seconds per trial (pgbench -T). */
    public ClientSweep seconds(int s) { seconds = s; return this; }
    /** -b NAME[@W] (default tpcb-like when no script is given). */
    public ClientSweep builtin(String nameAtWeight) { scripts.add(new Source("-b" + KenshoException.given(nameAtWeight, "builtin()"), null)); return this; }
    /** -f FILE[@W]. */
    public ClientSweep file(String fileAtWeight) { scripts.add(new Source("-f" + KenshoException.given(fileAtWeight, "file()"), null)); return this; }
    /** A script already parsed, as {@link PgbenchRun#script(Script)}; run.json records its name and weight. */
    public ClientSweep script(Script s) { scripts.add(new Source(null, KenshoException.given(s, "script()"))); return this; }
    /** A script given as its text, as {@link PgbenchRun#script(String, String)}. */
    public ClientSweep script(String name, String text) {
        return script(new PgbenchRun().script(name, text).config().scripts().get(0));
    }
    /** -M (default simple, as pgbench and the studies (whose read scripts fail under extended and prepared)). */
    public ClientSweep mode(QueryMode m) { mode = KenshoException.given(m, "mode()"); return this; }
    /** How each trial's clients talk to the server (see {@link dev.kensho.pgbench.Engine}). */
    public ClientSweep engine(dev.kensho.pgbench.Engine e) { engine = KenshoException.given(e, "engine()"); return this; }
    /** -R: target rate of every trial in transactions per second over all its clients (not set: as fast as possible). */
    public ClientSweep rate(double tps) { rate = tps; return this; }
    /** -L: every trial counts transactions above this latency (with -R skips those already late). */
    public ClientSweep latencyLimitMs(double ms) { latencyLimitMs = ms; return this; }
    /** -s: initialise every target at this scale before the sweep (and custom scripts' :scale); null uses the tables already there. */
    public ClientSweep scale(Integer s) { scale = s; return this; }
    /** --reinit-each-trial: rebuild the tables before every trial (the studies do for update scripts). */
    public ClientSweep reinitEachTrial(boolean b) { reinitEachTrial = b; return this; }
    /** Initialisation options (fillfactor, partitions…) used with {@link #scale}; its scale is overridden. */
    public ClientSweep init(PgbenchInit template) { initTemplate = template; return this; }
    /** -F: the fillfactor of the tables -s makes (the studies' update sweeps: 80, room for HOT updates); needs -s. */
    public ClientSweep fillfactor(Integer percent) { fillfactor = percent; return this; }
    /** --no-prewarm: skip pg_prewarm of pgbench_accounts before each trial. */
    public ClientSweep prewarm(boolean b) { prewarm = b; return this; }

    /** How to turn the prewarm off, for the command line and for a harness that built this sweep (which has no --no-prewarm). */
    static final String NO_PREWARM = "--no-prewarm, from Java prewarm(false),";
    /** -n: no pgbench vacuum before each trial. */
    public ClientSweep noVacuum(boolean b) { noVacuum = b; return this; }
    /** --warmup: each trial's warm-up before its clock, as {@link PgbenchRun#warmup}'s (0: none, as pgbench). */
    public ClientSweep warmup(int transactions) { warmup = transactions; return this; }
    /** -D: a script variable of every trial (repeatable). */
    public ClientSweep define(String nameEqualsValue) { defines.add(KenshoException.given(nameEqualsValue, "define()")); return this; }
    /** --max-tries: tries per transaction on a serialization or deadlock failure, in every trial (0: unlimited within -T). */
    public ClientSweep maxTries(int n) { maxTries = n; return this; }
    /**
     * --random-seed: every trial's seed (an unsigned integer, "time" or "rand", as pgbench); with a number, every trial
     * draws the same values per client. Without it each trial's seed is its own, kept in the trial (random_seed).
     */
    public ClientSweep randomSeed(String seed) { randomSeed = seed; return this; }
    /**
     * -P: a progress line every N seconds of each trial on the log, as pgbench -P ("[3/12]   progress: 5.0 s, ..."): a
     * study's trials run for minutes. Only shown: not a parameter of the run, so a resume may give another.
     */
    public ClientSweep progress(Integer seconds) { progress = seconds; return this; }
    /** Where trial lines go (stderr); null for none, as {@link PgbenchInit#log} and {@link PgbenchRun#output} take it. */
    public ClientSweep log(PrintStream e) {
        err = e != null ? dev.kensho.core.Credentials.masking(e) : new PrintStream(java.io.OutputStream.nullOutputStream());
        return this;
    }

    /** A script as given: a -b or -f spec, or a script the harness parsed itself. */
    private record Source(String spec, Script parsed) {
        /** As run.json records it: the spec, or a parsed script's name and weight. */
        String recorded() {
            return parsed == null ? spec : "script " + parsed.name() + "@" + parsed.weight();
        }

        boolean builtin() {
            return parsed == null ? spec.startsWith("-b") : parsed.isBuiltin();
        }
    }

    /** A cell: one target at one client count. */
    public record Cell(String target, int clients, int threads) {
        public String key() {
            return "target=" + target + ";clients=" + clients;
        }
    }

    /**
     * Checks the sweep's options and scripts as pgbench would check each trial's, so that a mistake is a usage error
     * before any target is opened.
     */
    public void validate() {
        try {
            validateOwn();
        } catch (KenshoException e) {
            throw e.naming(BUILDER_NAMES);
        }
        if (scale != null) init().validate();   // -s 0 said "initialising at scale 0..." on a started target first
        template(maxClients()).config();
    }

    private void validateOwn() {
        if (clients.isEmpty() || clients.stream().anyMatch(c -> c < 1)) throw KenshoException.usage("--clients: every count must be at least 1");
        for (int c : clients) {
            if (clients.indexOf(c) != clients.lastIndexOf(c)) throw KenshoException.usage("--clients gives " + c + " twice");
        }
        if (repeats < 1) throw KenshoException.usage("--repeat must be at least 1");
        if (seconds < 1) throw KenshoException.usage("--duration must be at least 1 s");
        if (reinitEachTrial && scale == null) throw KenshoException.usage("--reinit-each-trial needs -s SCALE");
        if (fillfactor != null && scale == null) throw KenshoException.usage("-F needs -s SCALE (the fillfactor is the init's)");
    }

    private int maxClients() {
        return clients.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /** {@link #validate()}, and the targets: what would refuse one when it opens is refused before the first starts. */
    public void validate(List<TargetSpec> specs) {
        validate();
        specs.forEach(TargetSpec::validate);   // open() checks the same, but only once earlier targets have started
        List<String> labels = specs.stream().map(TargetSpec::label).toList();
        for (String label : labels) {
            if (labels.indexOf(label) != labels.lastIndexOf(label)) throw KenshoException.usage("target " + label + " given twice");
        }
    }

    /**
     * Opens each spec (e.g. {@code spec.withPgVersion(16)}), runs the sweep over all of them, closes them. Trials go to
     * dir as they finish (a trial the server fails is recorded as failed and the sweep goes on); summary.csv is
     * written with each.
     *
     * @throws KenshoException what {@link #validate(List)} or opening a target refuses, before the first trial; a usage
     *         error a trial meets
     * @throws InterruptedException the calling thread was interrupted; the trials so far stay in dir, to resume
     */
    public void run(List<TargetSpec> specs, RunDirectory dir) throws InterruptedException {
        validate(specs);
        // before any server starts: a finished run's resume has nothing to initialise or run
        if (finished(specs.stream().map(TargetSpec::label).toList(), dir)) return;
        // a server Kensho makes anew has no tables: said before every version was fetched and started, where a builtin
        // script reads them (custom scripts need none, as with pgbench: requireTables says so once the server is up)
        String reader = tableReader();
        for (TargetSpec s : specs) {
            if (scale == null && reader != null && !s.isRemote() && s.keepData() == null) {
                throw KenshoException.usage(s.label() + " is a new server with no pgbench tables, which " + reader
                        + " reads: give -s SCALE to initialise them");
            }
        }
        Map<String, Target> open = new LinkedHashMap<>();
        try {
            for (TargetSpec s : specs) {
                err.println("starting target " + s.label() + "...");
                open.put(s.label(), s.open());
            }
            run(open, dir);
        } finally {
            for (Target t : open.values()) t.close();
        }
    }

    /**
     * What the sweep measures, as run.json records it: a run resumed with other values would mix two sweeps in one
     * summary, so the command line compares these with the recorded ones before it resumes.
     */
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("clients", clients);
        p.put("threads", threads.toString());
        p.put("repeat", repeats);
        p.put("order", order.name().toLowerCase(Locale.ROOT));
        // null when not given: run() draws one for a random order (or takes the one a resumed run recorded)
        p.put("order_seed", seed);
        p.put("duration_s", seconds);
        p.put("scripts", scripts.isEmpty() ? List.of("-btpcb-like") : scripts.stream().map(Source::recorded).toList());
        // what the scripts say, not only their names: a -f file edited between a sweep and its --resume made one cell
        // of a SELECT's trials and an UPDATE's
        p.put("script_digests", template(1).config().scripts().stream().map(Script::digest).toList());
        p.put("mode", mode.pgbenchName());
        p.put("rate", rate);   // null when not given: a resume that adds one is another sweep
        p.put("latency_limit_ms", latencyLimitMs);
        p.put("reinit_each_trial", reinitEachTrial);
        p.put("scale", scale);
        if (fillfactor != null) p.put("fillfactor", fillfactor);   // absent when not given: earlier runs resume as they were
        p.put("prewarm", prewarm);
        // an earlier Kensho's run, which sampled every 100 ms and recorded nothing, resumes at 100 (ResultOptions)
        p.put("wait_sample_ms", waitSampleMillis);
        p.put("vacuum", !noVacuum);
        p.put("warmup", warmup);
        p.put("defines", List.copyOf(defines));
        p.put("max_tries", maxTries);
        p.put("random_seed", randomSeed);   // null when not given
        return p;
    }

    /**
     * Runs the sweep on targets already open (label → target), appending trials to dir and writing summary.csv; the
     * targets stay open, the caller's to close. The label names the target's cells; --order sequential and the inits
     * follow the map's iteration order (a {@code LinkedHashMap}'s, not {@code Map.of}'s).
     *
     * @throws InterruptedException the calling thread was interrupted; the trials so far stay in dir, to resume
     */
    public void run(Map<String, Target> targets, RunDirectory dir) throws InterruptedException {
        validate();
        if (finished(List.copyOf(targets.keySet()), dir)) return;
        // every target must hold the largest cell (and the sampler) before any trial runs: none fails half-way
        for (var e : targets.entrySet()) checkConnections(e.getKey(), e.getValue());
        // and this process's open files, before any init, for every cell's clients and threads (each trial checks its own
        // too: counting one thread here, a --clients 1,60 with 30 threads at 60 failed after its first cell)
        for (int c : clients) ClientLimits.checkOpenFiles(c + 2, threads.threadsFor(c), ClientLimits.filesPerThread(engine, false), "clients()");
        String crowded = ClientLimits.threadPerClientLoad(maxClients(), engine, Runtime.getRuntime().availableProcessors(), "up to ");
        if (crowded != null) {
            err.println("warning: " + crowded);
            dir.noteOnce(crowded);
        }
        // a sequential order draws nothing, so it records no seed (one a resumed run recorded stays, as it must to resume)
        Long orderSeed = seed != null ? seed
                : dir.info().parameters().get("order_seed") instanceof Number n ? Long.valueOf(n.longValue())
                : order == TrialMatrix.Order.SEQUENTIAL ? null : Long.valueOf(System.nanoTime());
        Map<String, Object> params = parameters();
        params.put("order_seed", orderSeed);
        params.forEach(dir::parameter);
        List<Cell> cells = new ArrayList<>();
        for (var e : targets.entrySet()) {
            dir.environment(e.getKey(), Environment.capture(e.getValue()));
            if (scale == null) requireTables(e.getKey(), e.getValue(), dir);
            if (reinitEachTrial && !finishedOn(e.getKey(), dir)) {
                try {
                    init().checkBeforeRepeatedInits(e.getValue());
                } catch (KenshoException k) {
                    throw new KenshoException(k.exitCode(), e.getKey() + ": " + k.getMessage(), k);
                }
            }
            // a resumed run's target whose trials are all in: -s would drop and rebuild its tables for nothing
            if (scale != null && !reinitEachTrial && !finishedOn(e.getKey(), dir)) {
                err.println(e.getKey() + ": initialising at scale " + scale + "...");
                PgbenchInit.Result r = init().run(e.getValue());
                err.println(e.getKey() + ": " + r.line());
                dir.note(e.getKey() + ": " + r.line());
            }
            for (int c : clients) cells.add(new Cell(e.getKey(), c, threads.threadsFor(c)));
        }
        TrialMatrix<Cell> matrix = new TrialMatrix<>(cells, Cell::key, repeats, order, orderSeed == null ? 0 : orderSeed);
        // the seed that repeats this order (run.json had it, the console not: a sweep stopped early could not be rerun alike)
        if (order != TrialMatrix.Order.SEQUENTIAL) {
            err.println("order: " + order.name().toLowerCase(Locale.ROOT) + ", seed " + orderSeed + " (run.json's order_seed)");
        }
        // the scripts with the first trial, not before: a sweep that measured nothing leaves no run directory
        List<Script> ran = template(1).config().scripts();
        java.util.concurrent.atomic.AtomicBoolean copied = new java.util.concurrent.atomic.AtomicBoolean();
        dir.summarizeAfterEachTrial(d -> {
            CellSummary.write(d, SUMMARY_METRICS);
            if (copied.compareAndSet(false, true)) ScriptCopies.write(d, ran);
        });
        matrix.run(dir, p -> trial(targets.get(p.cell().target()), p, dir), new TrialMatrix.Listener<>() {
            @Override
            public void starting(TrialMatrix.Planned<Cell> p, int index, int total) {
                trialPrefix = String.format(Locale.ROOT, "[%d/%d]   ", index, total);
                err.printf(Locale.ROOT, "[%d/%d] %s clients=%d threads=%d repeat %d...%n", index, total, p.cell().target(),
                        p.cell().clients(), p.cell().threads(), p.repeat() + 1);
            }

            @Override
            public void finished(TrialMatrix.Planned<Cell> p, Trial t, int index, int total) {
                if (t.ok()) {
                    Double cv = t.metric("tps_cv_pct");
                    // how steady the trial was: a stall (checkpoint, autovacuum) shows here before it shows in the medians
                    // a run whose every transaction was skipped (-R with -L out of reach) has no latency to print
                    String latency = t.metric("latency_avg_ms") == null ? "no latency (no transaction processed)"
                            : String.format(Locale.ROOT, "latency avg %.3f ms, p99 %.3f ms", t.metric("latency_avg_ms"), t.metric("latency_p99_ms"));
                    err.printf(Locale.ROOT, "[%d/%d]   tps %.1f, %s, failed %d%s%n", index, total,
                            t.metric("tps"), latency, t.metric("failed").longValue(),
                            cv == null ? "" : String.format(Locale.ROOT, ", tps per second varied %.1f %%", cv));
                } else {
                    err.printf(Locale.ROOT, "[%d/%d]   %s: %s%n", index, total, t.status(), t.extra().get("reason"));
                }
            }

            @Override
            public void alreadyDone(TrialMatrix.Planned<Cell> p) {
                err.printf(Locale.ROOT, "%s clients=%d repeat %d: already in %s%n", p.cell().target(), p.cell().clients(),
                        p.repeat() + 1, dir.path());
            }
        });
        CellSummary.write(dir, SUMMARY_METRICS);
    }

    /**
     * True, with summary.csv written and said, when dir holds every trial of the sweep on these targets: a --resume of a
     * finished run initialised the tables again (at the studies' -s 2000, 30 GB) and then found no trial left.
     */
    private boolean finished(List<String> labels, RunDirectory dir) {
        if (!labels.stream().allMatch(l -> finishedOn(l, dir))) return false;
        List<String> cells = new ArrayList<>();   // summary.csv's rows in the command's order, not the trials' random one
        for (String l : labels) for (int c : clients) cells.add(new Cell(l, c, threads.threadsFor(c)).key());
        dir.plannedCells(cells);
        CellSummary.write(dir, SUMMARY_METRICS);
        err.println("pgbench sweep: every trial is already in " + dir.path() + "; nothing left to resume");
        return true;
    }

    private boolean finishedOn(String label, RunDirectory dir) {
        for (int c : clients) {
            for (int r = 0; r < repeats; r++) if (!dir.isFinished(new Cell(label, c, threads.threadsFor(c)).key(), r)) return false;
        }
        return true;
    }

    /**
     * The largest client count plus the trial's sampler must fit in the connections the target has free: the sampler's
     * two for a server on another host (the second reads its host's files), whether or not its role may read them.
     */
    private void checkConnections(String label, Target t) {
        try (Connection c = t.connect()) {
            ClientLimits.checkConnections(c, maxClients(), t.sameHost() ? 1 : 2, false, "clients()");
        } catch (KenshoException e) {
            throw new KenshoException(e.exitCode(), label + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new KenshoException(KenshoException.TARGET, label + ": " + KenshoException.firstLine(e), e);
        }
    }

    /**
     * Without -s the sweep uses the tables already there; say so before any trial instead of failing each. A builtin
     * script reads them (its :scale counts pgbench_branches); custom scripts need none, as with pgbench: without
     * pgbench_accounts their trials run without the prewarm, said once.
     */
    private void requireTables(String label, Target t, RunDirectory dir) {
        try (Connection c = t.connect(); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT to_regclass('pgbench_branches') IS NOT NULL AND to_regclass('pgbench_accounts') IS NOT NULL,"
                     + " to_regclass('pgbench_accounts') IS NOT NULL, array_to_string(ARRAY(SELECT t FROM unnest(ARRAY['pgbench_branches',"
                     + " 'pgbench_tellers', 'pgbench_history']) t WHERE to_regclass(t) IS NULL), ', ')")) {
            rs.next();
            // no early return where branches and accounts are there: tellers or history may not be (a database of the
            // user's making), and the vacuum below fails on those
            String reader = tableReader();
            if (!rs.getBoolean(1) && reader != null) {
                throw KenshoException.usage(label + " has no pgbench tables in database " + t.database() + ", which " + reader
                        + " reads: give -s SCALE to initialise them");
            }
            if (prewarm && !rs.getBoolean(2)) {
                refusedOnce(label, "prewarm", "no pgbench_accounts", "no pgbench_accounts in database " + t.database()
                        + ": the trials run without its prewarm (the scripts are custom; -s SCALE makes the pgbench tables)", dir);
            }
            // each trial's errors kept the pre-run vacuum's three failures, and the console said nothing of them
            String missing = rs.getString(3);
            if (!noVacuum && !missing.isEmpty()) {
                refusedOnce(label, "vacuum", "no pgbench tables", "no " + missing + " in database " + t.database()
                        + ": each trial's pre-run vacuum fails on " + (missing.contains(",") ? "them" : "it")
                        + " and goes on, as pgbench's does (-n skips it)", dir);
            }
        } catch (SQLException e) {
            throw new KenshoException(KenshoException.TARGET, label + ": " + KenshoException.firstLine(e), e);
        }
    }

    /**
     * The builtin script that reads the pgbench tables (its :scale counts pgbench_branches), as given; null where every
     * script is custom. Named in the refusal: "custom scripts need none" left a mixed list's refusal unexplained.
     */
    private String tableReader() {
        if (scripts.isEmpty()) return "the default -b tpcb-like";
        return scripts.stream().filter(Source::builtin).findFirst()
                .map(b -> b.parsed() == null ? "-b " + b.spec().substring(2) : "builtin " + b.parsed().name()).orElse(null);
    }

    private PgbenchInit init() {
        PgbenchInit i = initTemplate == null ? new PgbenchInit() : initTemplate.copy();
        if (fillfactor != null) i.fillfactor(fillfactor);
        return i.scale(scale == null ? 1 : scale).quiet(true).log(null);
    }

    private PgbenchRun template(int clientCount) {
        PgbenchRun r = new PgbenchRun();
        for (Source s : scripts) {
            if (s.parsed() != null) r.script(s.parsed());
            else if (s.spec().startsWith("-b")) r.builtin(s.spec().substring(2));
            else r.file(s.spec().substring(2));
        }
        if (rate != null) r.rate(rate);
        if (latencyLimitMs != null) r.latencyLimitMs(latencyLimitMs);
        r.clients(clientCount).threads(threads.threadsFor(clientCount)).seconds(seconds).mode(mode).engine(engine).noVacuum(noVacuum)
                .warmup(warmup).maxTries(maxTries);
        for (String d : defines) r.define(d);
        // the tables were made at -s: a custom script's :scale, as pgbench run -s gives it (a builtin counts pgbench_branches,
        // and would warn that -s is ignored every trial)
        if (scale != null && !scripts.isEmpty() && scripts.stream().noneMatch(Source::builtin)) r.scale(scale);
        if (randomSeed != null) r.randomSeed(randomSeed);
        if (progress != null) r.progress(progress);
        return r;
    }

    /** Whether a failure was a connection's loss or refusal (SQLSTATE class 08, or 57P: the server shutting down, recovering). */
    private static boolean connectionLost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException q && q.getSQLState() != null && (q.getSQLState().startsWith("08") || q.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }

    /** The server's crash line as the trial says it; signal 9 is most often the kernel's OOM killer. */
    static String crashed(String line) {
        return "the server crashed during the trial: " + line + (line.contains("signal 9") ? " (the kernel's OOM killer, unless someone "
                + "sent a kill -9: the kernel log says)" : "");
    }

    private Trial trial(Target target, TrialMatrix.Planned<Cell> p, RunDirectory dir) throws SQLException {
        Cell cell = p.cell();
        Trial.Builder extra = Trial.of(p.key(), p.repeat());
        // a server that crashed in an earlier trial (1024 clients, the OOM killer) is back in a second or two
        String waited = TrialMatrix.awaitServer(target, cell.target(), p.key() + " #" + p.repeat(), extra, dir);
        if (waited != null) err.println(waited);
        if (reinitEachTrial) {
            // at the studies' scale 2000 minutes pass here: said before and after, not left silent
            err.println(trialPrefix + "rebuilding the pgbench tables at scale " + scale + "...");
            PgbenchInit.Result r = init().run(target);
            err.println(trialPrefix + r.line());
            extra.extra("init", r.line()).metric("init_s", r.totalSeconds());
        }
        try (Connection c = target.connect()) {
            String noCheckpoint = refused.get(cell.target() + ";checkpoint");
            if (noCheckpoint == null) {
                try {
                    // without the database's or role's timeouts, which are the workload's (see OwnStatements)
                    OwnStatements.run(c, own -> own.execute("CHECKPOINT"));
                } catch (SQLException e) {
                    if (!INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) throw e;
                    noCheckpoint = KenshoException.firstLine(e) + " (" + checkpointGrant(c) + ")";
                    refusedOnce(cell.target(), "checkpoint", noCheckpoint, "no CHECKPOINT before the trials: " + noCheckpoint, dir);
                }
            }
            // the trial says it ran without the checkpoint the method asks for, so its numbers are read for what they are
            if (noCheckpoint != null) extra.extra("checkpoint_skipped", noCheckpoint);
            String noPrewarm = refused.get(cell.target() + ";prewarm");
            if (prewarm && noPrewarm != null) extra.extra("prewarm_error", noPrewarm);
            if (prewarm && noPrewarm == null) {
                boolean created = false;
                try {
                    // apart from the prewarm: an extension created before a prewarm that failed (a view for
                    // pgbench_accounts) stayed in the user's database unsaid
                    created = OwnStatements.run(c, own -> Prewarm.ensureExtension(c));
                    Prewarm.Result pr = OwnStatements.run(c, own -> Prewarm.tables(c, List.of("pgbench_accounts")));
                    extra.extra("prewarm_blocks", pr.blocks());
                    String cold = pr.partlyCold(p.cell().target() + ": pgbench_accounts and its index");
                    if (cold != null) {
                        extra.extra("prewarm_partly_cold", true);
                        if (coldSaid.add(p.cell().target())) {
                            err.println("warning: " + cold);
                            dir.noteOnce(cold);
                        }
                    }
                } catch (SQLException e) {
                    extra.extra("prewarm_error", KenshoException.firstLine(e));
                    if (Prewarm.cannotBeHad(e)) {
                        refusedOnce(cell.target(), "prewarm", KenshoException.firstLine(e), "pgbench_accounts is not prewarmed before the trials: "
                                + KenshoException.firstLine(e) + "; " + NO_PREWARM + " runs without it", dir);
                    } else {
                        // the trial runs unprewarmed: said, not left to trials.jsonl
                        err.println(trialPrefix + "warning: pgbench_accounts not prewarmed: " + KenshoException.firstLine(e));
                    }
                }
                if (created) {
                    // the sweep changed the target's database: say so where the user and the results will see it
                    String note = p.cell().target() + ": created extension pg_prewarm in database " + target.database()
                            + " to prewarm pgbench_accounts before each trial (" + NO_PREWARM + " skips this; DROP EXTENSION pg_prewarm removes it)";
                    err.println(note);
                    dir.note(note);
                }
            }
        }
        RunStderr runErr = new RunStderr(err, trialPrefix);
        PgbenchRun run = template(cell.clients()).output(new PrintStream(java.io.OutputStream.nullOutputStream()),
                new PrintStream(runErr, true, StandardCharsets.UTF_8));
        RunReport report;
        TrialSampler.Observation seen;
        long logMark = target.control().logMark();
        try (TrialSampler sampler = new TrialSampler(target, waitSampleMillis)) {
            report = run.run(target, sampler.connections(), sampler);
            seen = sampler.observation();
        } catch (RuntimeException | SQLException e) {
            // "the database system is in recovery mode" was the trial's reason where the OOM killer had killed a backend: the
            // cause was a note in run.json, found only when the server stopped
            if (!(e instanceof KenshoException k && k.exitCode() == KenshoException.USAGE)) {
                // a lost connection may be a crash the postmaster logs a moment later; another failure is looked up at once
                Optional<String> crash = target.control().crashSince(logMark, connectionLost(e) ? 3000 : 0);
                if (crash.isPresent()) {
                    String why = e instanceof KenshoException ? e.getMessage()
                            : (e instanceof SQLException ? "" : e.getClass().getSimpleName() + ": ") + KenshoException.firstLine(e);
                    throw new KenshoException(KenshoException.FAILURE, why + " (" + crashed(crash.get()) + ")", e);
                }
            }
            throw e;
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("target", cell.target());
        params.putAll(run.params());
        params.put("scale", report.scale());
        Trial t = report.trial(p.key(), p.repeat(), params);
        Trial built = extra.build();
        Map<String, Object> metrics = new LinkedHashMap<>(t.metrics());
        metrics.putAll(built.metrics());
        metrics.putAll(seen.metrics());
        Map<String, Object> ex = new LinkedHashMap<>(t.extra());
        ex.putAll(built.extra());
        ex.put("wait_events", seen.waitProfile());
        if (!seen.waitProfile().containsKey(TrialSampler.OFF) && !dev.kensho.core.server.ServerVersion.of(target).atLeast(10) && waitsBefore10.add(cell.target())) {
            // 9.6's pg_stat_activity has wait events of locks and LWLocks only: its shares read as 10's would mislead
            String note = cell.target() + ": PostgreSQL " + dev.kensho.core.server.ServerVersion.of(target).release() + " reports no Client,"
                    + " IO or IPC wait events (they came with 10): a backend waiting for its client is sampled as Idle:idle (or Idle:idle"
                    + " in transaction), one waiting for I/O or another process as CPU, so its wait-event shares do not compare with 10's and later's";
            err.println(note);
            dir.noteOnce(note);
        }
        if (seen.waitProfile().get(TrialSampler.THIN) instanceof String thin) err.println(trialPrefix + "warning: the wait-event profile has " + thin);
        if (seen.error() != null) {
            // it had said "the sampler got few turns on a busy host", and the trial's db_* figures went missing unsaid
            err.println(trialPrefix + "warning: the sampler's connection failed (" + seen.error() + "): the wait-event profile stops there"
                    + (seen.databaseDelta().isEmpty() ? ", and this trial has no pg_stat_database figures" : "; pg_stat_database's figures "
                    + "were read on a new connection"));
        }
        // a backend killed during the trial (the OOM killer) that the run rode out: its failures and its low tps had no cause
        Optional<String> crash = target.control().crashSince(logMark, 0);
        if (crash.isPresent()) {
            ex.put("server_crash", crash.get());
            err.println(trialPrefix + "warning: " + crashed(crash.get()));
        }
        if (crash.isPresent() || seen.databaseReset()) {
            // the counts began again from 0 (a crash discards them, pg_stat_reset() zeroes them): the "deltas" were negative
            // block and tuple counts, and 0 commits for a trial that committed
            metrics.keySet().removeIf(k -> k.startsWith("db_"));
            ex.put("pg_stat_database_reset", crash.isPresent() ? "by the server's crash" : "during the trial (pg_stat_reset(), or a crash)");
            err.println(trialPrefix + "warning: pg_stat_database's counts were reset during the trial: this trial has no pg_stat_database figures");
        } else {
            ex.put("pg_stat_database_delta", seen.databaseDelta());
        }
        if (!seen.cpu().isEmpty()) ex.put("cpu_split_pct", seen.cpu());
        if (metrics.get("other_cpu_pct") instanceof Double other && other >= SHARED_HOST_PCT) {
            // the trial's numbers are the server's and another program's: said as it finishes, not found later in a column
            err.println(trialPrefix + String.format(Locale.ROOT, "warning: other processes took %.0f %% of the host's CPU during this trial"
                    + " (the server's %.0f %%): it shared the machine", other, metrics.get("server_cpu_pct")));
        }
        if (!seen.memoryKb().isEmpty()) ex.put("memory_kb", seen.memoryKb());
        ex.put("host", seen.host());
        if (seen.host().get("unavailable") != null && hostUnseen.add(cell.target())) {
            String note = cell.target() + ": the server host's CPUs, disks and network are not recorded: " + seen.host().get("unavailable");
            err.println(note);
            dir.noteOnce(note);
        }
        if (seen.waitProfile().containsKey(TrialSampler.BACKENDS)) {
            refusedOnce(cell.target(), "waits", "own backends only", "the wait-event profile counts " + target.user()
                    + "'s backends only, pg_stat_activity hiding other roles' from it (GRANT pg_read_all_stats TO " + SqlIdentifier.quoteIdent(target.user())
                    + " shows them)", dir);
        }
        if (seen.hostTimeline() != null && seen.hostTimeline().size() > 0) ex.put(HostTimeline.KEY, seen.hostTimeline().columns());
        if (seen.error() != null) ex.put("sampler_error", seen.error());
        // "starting vacuum..." is printed without its end of line: what the server said first follows it on that line
        List<String> said = runErr.text().lines().map(l -> l.startsWith("starting vacuum") && l.contains("...") ? l.substring(l.indexOf("...") + 3) : l)
                .toList();
        // pgbench run prints each; a sweep of 1024 clients would print a screenful: one line, with the first reason
        List<String> lost = said.stream().filter(l -> l.startsWith("warning: client ") && l.contains(" lost its connection")).toList();
        if (!lost.isEmpty()) {
            ex.put("lost_connections", lost.size());
            String first = lost.get(0).substring("warning: ".length());
            ex.put("lost_connection_first", first);   // the reason kept with the count, not on the console only
            long clients = lost.stream().map(l -> l.split(" ")[2]).distinct().count();
            err.println(trialPrefix + "warning: " + (lost.size() == 1 ? first : lost.size() + " connections lost, by " + clients
                    + (clients == 1 ? " client" : " clients") + "; the first: " + first));
        }
        // what the wire engine did otherwise than asked (UTF8 for text Java would change, pgjdbc for a login it cannot
        // make) changes what every trial measures: said once per target and noted in run.json (it had gone nowhere)
        said.stream().filter(l -> l.startsWith("warning: --engine wire: ")).findFirst()
                .ifPresent(l -> refusedOnce(cell.target(), "wire", "engine", l.substring("warning: ".length()), dir));
        // the pgjdbc engine's ISO dates where the database's DateStyle asks otherwise (the sweep had kept it to itself)
        said.stream().filter(l -> l.startsWith(Driver.DATE_STYLE_WARNING)).findFirst()
                .ifPresent(l -> refusedOnce(cell.target(), "datestyle", "iso", l.substring("warning: ".length()), dir));
        // a user's pgbench_history the pre-run vacuum left alone (pgbench run says it; the sweep had kept it to itself)
        said.stream().filter(l -> l.startsWith("warning: ") && l.contains("pgbench_history not truncated: ")).findFirst()
                .ifPresent(l -> refusedOnce(cell.target(), "history", "kept", l.substring("warning: ".length()), dir));
        String errors = said.stream().filter(l -> l.startsWith("error:")).reduce((a, b) -> a + "\n" + b).orElse(null);
        if (errors != null) ex.put("errors", errors);
        // the server's warnings, e.g. pgbench's vacuum skipping tables the role does not own: the trial ran unvacuumed
        String warnings = said.stream().filter(l -> l.startsWith("WARNING:")).reduce((a, b) -> a + "\n" + b).orElse(null);
        if (warnings != null) {
            ex.put("warnings", warnings);
            refusedOnce(cell.target(), "warnings", "warned", "the server warned (kept in each trial as warnings): "
                    + warnings.lines().findFirst().orElse(""), dir);
        }
        String unmeasured = report.unmeasured(errors == null ? null : errors.lines().findFirst().orElse(null));
        String status = unmeasured != null ? "failed" : "ok";
        if (unmeasured != null) ex.put("reason", unmeasured);
        return new Trial(p.key(), p.repeat(), t.params(), metrics, ex, status, t.started(), t.finished());
    }

    /**
     * A preparation the target's role may not do (CHECKPOINT, pg_prewarm): said once per target on the log and in
     * run.json's notes, then not tried again (each refusal would be an ERROR in the server's log).
     */
    private void refusedOnce(String target, String what, String reason, String message, RunDirectory dir) {
        if (refused.putIfAbsent(target + ";" + what, reason) != null) return;
        String note = target + ": " + message;
        err.println(note);
        dir.noteOnce(note);
    }

    /** Who may CHECKPOINT: pg_checkpoint's members from 15 on, before that only a superuser. */
    private static String checkpointGrant(Connection c) throws SQLException {
        String user = c.getMetaData().getUserName();
        return c.getMetaData().getDatabaseMajorVersion() >= 15 ? "GRANT pg_checkpoint TO " + SqlIdentifier.quoteIdent(user) + " allows it"
                : "only a superuser may before PostgreSQL 15";
    }

    /** A trial run's stderr: kept whole for the trial's errors; its progress lines passed on to the sweep's log as they come. */
    private static final class RunStderr extends java.io.OutputStream {
        private final ByteArrayOutputStream all = new ByteArrayOutputStream(), line = new ByteArrayOutputStream();
        private final PrintStream log;
        private final String prefix;

        RunStderr(PrintStream log, String prefix) {
            this.log = log;
            this.prefix = prefix;
        }

        @Override
        public synchronized void write(int b) {
            all.write(b);
            if (b != '\n') {
                line.write(b);
                return;
            }
            String l = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (l.startsWith("progress: ")) log.println(prefix + l);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) write(b[i]);
        }

        synchronized String text() {
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
