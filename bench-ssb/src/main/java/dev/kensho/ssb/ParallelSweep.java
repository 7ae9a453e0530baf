package dev.kensho.ssb;

import java.util.Locale;
import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import dev.kensho.core.measure.Explain;
import dev.kensho.core.measure.ExplainResult;
import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.DisplayWidth;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.SettingsOutcome;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.core.server.WorkerSlots;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench ssb}: the 13 SSB queries over a matrix of versions × worker-pool patterns ×
 * max_parallel_workers_per_gather, as the parallel query study (chapter 7) ran them: data loaded
 * (or reused), the SSB tables and their indexes prewarmed, each query's full result streamed and
 * timed, repeats with medians, and one EXPLAIN (ANALYZE, BUFFERS) per cell recording Workers
 * Planned / Launched of every Gather node.
 */
public final class ParallelSweep {
    /** The run directory's command name for these runs: the report draws its charts by it. */
    public static final String COMMAND = "ssb";


    /**
     * How max_worker_processes / max_parallel_workers relate to the per-gather workers N.
     * ENOUGH: large enough for every planned worker (the default); GATHER: both = N;
     * GATHER4: both = 4N (the study's workers=gather and workers=gather*4 patterns).
     */
    public enum Pool {
        ENOUGH("enough"), GATHER("gather"), GATHER4("gather*4");

        private final String label;

        Pool(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Pool parse(String s) {
            for (Pool p : values()) if (p.label.equalsIgnoreCase(s.strip()) || p.name().equalsIgnoreCase(s.strip())) return p;
            throw KenshoException.usage("--worker-pool " + s + ": expected gather or gather*4");
        }

        /** max_worker_processes and max_parallel_workers for N workers per gather, or null for ENOUGH. */
        Integer poolSize(int n) {
            return switch (this) {
                case ENOUGH -> null;
                case GATHER -> n;
                case GATHER4 -> 4 * n;
            };
        }
    }

    /**
     * @param scale     SSB scale factor (dbgen -s)
     * @param workers   max_parallel_workers_per_gather values swept
     * @param pools     worker-pool patterns swept
     * @param repeat    timed runs per cell (median reported)
     * @param queries   query ids (empty: all 13)
     * @param schema    schema holding the tables (default public)
     * @param load      how to load when the data are missing (reload: replace Kensho's data)
     * @param useCache  reuse the embedded cache directory
     * @param fresh     drop the cache and reload
     * @param fetchSize rows per fetch while streaming results
     */
    public record Options(double scale, List<Integer> workers, List<Pool> pools, int repeat, List<String> queries,
                          String schema, SsbDatabase.LoadOptions load, boolean useCache, boolean fresh, int fetchSize) {
        /**
         * The command line's options as this record's components: a harness that wrote repeat 0 is told of its repeat,
         * not of a --repeat it never typed. bench ssb turns them back.
         */
        public static final Map<String, String> COMPONENT_NAMES = Map.of("--repeat", "ParallelSweep.Options repeat",
                "--fetch-size", "ParallelSweep.Options fetchSize", "--workers", "ParallelSweep.Options workers",
                "--schema", "ParallelSweep.Options schema", "--worker-pool", "ParallelSweep.Options pools");

        public Options {
            try {
                if (repeat < 1) throw KenshoException.usage("--repeat must be at least 1");
                if (fetchSize < 0) throw KenshoException.usage("--fetch-size must not be negative (0: one execution, the result streamed)");
                if (workers.isEmpty()) throw KenshoException.usage("--workers needs at least one value");
                for (int w : workers) if (w < 0 || w > 1024) throw KenshoException.usage("--workers " + w + ": expected 0..1024");
                for (int w : workers) if (workers.indexOf(w) != workers.lastIndexOf(w)) throw KenshoException.usage("--workers " + w + " is given twice");
                // as --workers: a pool given twice had been merged silently, and run.json kept both
                for (Pool p : pools) if (pools.indexOf(p) != pools.lastIndexOf(p)) throw KenshoException.usage("--worker-pool " + p.label() + " is given twice");
                SsbDatabase.checkSchema(schema);
            } catch (KenshoException e) {
                throw e.naming(COMPONENT_NAMES);
            }
            if (load.scale() != scale) throw new IllegalArgumentException("load options are for SF " + load.scale() + ", not " + scale);
            if (pools.isEmpty()) pools = List.of(Pool.ENOUGH);
            workers = List.copyOf(workers);
            pools = List.copyOf(pools);
            queries = queries == null ? List.of() : List.copyOf(queries);
            SsbQuery.ssb(queries); // an unknown id is refused here, before any server starts
        }
    }

    private final Options opts;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param opts what to measure
     * @param out  the summary table ({@link #finish}); null for none
     * @param err  progress: the load, the prewarm, a line per timed run; null for none
     */
    public ParallelSweep(Options opts, PrintStream out, PrintStream err) {
        this.opts = opts;
        // null silences a stream, as SsbDatabase.load's progress and PgbenchRun.output take it
        this.out = out != null ? out : new PrintStream(java.io.OutputStream.nullOutputStream());
        this.err = err != null ? err : new PrintStream(java.io.OutputStream.nullOutputStream());
    }

    /**
     * Settings every managed server gets at start (unless --set): the data fit in memory, fewer checkpoints while loading.
     * max_parallel_workers (PostgreSQL 10+, reloadable) is not among them: a 9.6 server would not start with it, and a
     * sweep sets it where the server has it (see poolSettings).
     */
    public static Map<String, String> managedDefaults(int maxWorkers) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("shared_buffers", "1GB");
        m.put("work_mem", "64MB");
        m.put("maintenance_work_mem", "512MB");
        m.put("max_wal_size", "4GB");
        m.put("max_worker_processes", Integer.toString(Math.max(8, maxWorkers) + 2));
        return m;
    }

    /** Runs the matrix on every spec in turn (one per --pg-version), then prints and writes the summary. */
    public void run(List<TargetSpec> specs, RunDirectory dir) throws InterruptedException {
        // before any server starts: a finished run's resume would apply every pool's settings (a restart each) and
        // prewarm, to skip each cell
        List<String> done = finishedVersions(dir, specs.size());
        if (done != null) {
            err.println("ssb: every trial is already in " + dir.path() + "; nothing left to resume");
            finish(dir, done);
            return;
        }
        int maxN = opts.workers().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<String> versions = new ArrayList<>();
        for (TargetSpec spec : specs) {
            try (SsbCache cache = SsbCache.open(spec, opts.scale(), opts.load().keys(), managedDefaults(maxN), opts.useCache(), opts.fresh(), err)) {
                target = spec.label();
                versions.add(run(cache.target(), dir, specs.size() == 1 ? versionLabel(cache.target()) : versionLabel(spec, cache.target())));
            } finally {
                target = null;
            }
        }
        finish(dir, versions);
    }

    /**
     * jit settings given (--set jit=on) on a server built without LLVM, zonky's embedded ones: the run measures no JIT,
     * and two runs with jit on and off compared the same plans. Null where that is not so, or cannot be asked (9.6).
     */
    static String jitWithoutLlvm(Target t, String version) {
        Map<String, String> applied = t.control().applied();
        List<String> jit = applied.keySet().stream().filter(k -> k.equals("jit") || k.startsWith("jit_")).sorted().toList();
        if (jit.isEmpty() || Environment.jitAvailable(t)) return null;
        return jit.stream().map(k -> "--set " + k + "=" + applied.get(k)).collect(java.util.stream.Collectors.joining(" "))
                + ": jit changes nothing on " + version + ", whose server was built without LLVM (pg_jit_available() is false);"
                + " give --pg-bin DIR of a PostgreSQL built with LLVM, or --url, to measure JIT";
    }

    /** Loads if needed and measures the whole matrix on one open target; returns its version label. */
    public String run(Target t, RunDirectory dir) throws InterruptedException {
        return run(t, dir, versionLabel(t));
    }

    private String run(Target t, RunDirectory dir, String version) throws InterruptedException {
        err.println("ssb: " + t.describe());
        String small = SsbDatabase.smallScaleWarning(opts.scale());
        if (small != null && !dir.info().notes().contains(small)) {
            err.println("ssb: warning: " + small);
            dir.noteOnce(small);
        }
        String serial = serialWarning();
        if (serial != null && !dir.info().notes().contains(serial)) {
            err.println("ssb: warning: " + serial);
            dir.noteOnce(serial);
        }
        dir.environment(version, Environment.capture(t));
        String noJit = jitWithoutLlvm(t, version);
        if (noJit != null && !dir.info().notes().contains(noJit)) {
            err.println("ssb: warning: " + noJit);
            dir.noteOnce(noJit);
        }
        SsbDatabase db = new SsbDatabase(t, opts.schema());
        // the versions so far in the order they ran (finish() is given them all): the first is the ratios' base; before
        // the load, whose trial is the first (a run killed after it had no summary.csv)
        dir.summarizeAfterEachTrial(d -> d.writeSummary(HEADER, summary(d.trials(), versionsRun(d.trials()))));
        // a version whose cells are all in (a resumed run of several) measures nothing: loading it would be for nothing
        if (!finishedOn(dir, version)) ensureLoaded(db, opts.load(), dir, version, target, err);
        measure(t, db, version, SsbQuery.ssb(opts.queries()), dir);
        return version;
    }

    /** A trial's extra where its plan was JIT-compiled: the functions (every process's, the workers' too), with jit_ms. */
    static final String JIT_FUNCTIONS = "jit_functions";
    /** Said once where a plan was JIT-compiled: the parallel-query study's releases had no JIT at work. */
    static final String JIT_COMPILED = "JIT compiled plans of this run (jit is on by default from PostgreSQL 12, above jit_above_cost), "
            + "and every parallel worker compiles its own code, so their times include the compilation, more of it the more "
            + "workers; the study's releases (9.6 to 11, jit off) had none (trials say jit_functions and jit_ms from the EXPLAIN "
            + "(ANALYZE)); --set jit=off measures without it";

    /** A trial's extra where its timed run read through a cursor while its EXPLAIN planned workers: the time is serial. */
    static final String TIMED_WITHOUT_WORKERS = "timed_without_workers";

    /**
     * Said once where --fetch-size meets --workers above 0: a cursor's plan runs without parallel workers, so the times are
     * the serial plan's while planned/launched, from the EXPLAIN (ANALYZE) run without a cursor, show the workers.
     */
    private String serialWarning() {
        if (opts.fetchSize() == 0 || opts.workers().stream().allMatch(w -> w == 0)) return null;
        return "--fetch-size " + opts.fetchSize() + " reads every result through a cursor, which PostgreSQL runs without parallel "
                + "workers: the times of workers above 0 are the serial plan's, while planned/launched are those of the EXPLAIN "
                + "(ANALYZE), which ran without a cursor (trials say " + TIMED_WITHOUT_WORKERS + "); leave --fetch-size out to time them";
    }

    /**
     * The versions of a resumed run whose every trial is in, in the order they ran, or null when a trial is left. A
     * target's version label needs its server (its major), so the run's own trials name them: one per target.
     */
    private List<String> finishedVersions(RunDirectory dir, int targets) {
        List<String> versions = versionsRun(dir.trials());
        if (versions.size() != targets) return null;
        for (String v : versions) if (!finishedOn(dir, v)) return null;
        return versions;
    }

    private boolean finishedOn(RunDirectory dir, String version) {
        for (Pool pool : opts.pools()) for (int n : opts.workers()) if (!finished(dir, version, pool, n)) return false;
        return true;
    }

    /** True when dir holds every trial of the cells of this pool and worker count. */
    private boolean finished(RunDirectory dir, String version, Pool pool, int n) {
        for (SsbQuery q : SsbQuery.ssb(opts.queries())) {
            for (int r = 0; r < opts.repeat(); r++) if (!dir.isFinished(cellKey(version, pool, n, q), r)) return false;
        }
        return true;
    }

    /**
     * The target of the cells being measured as the command line named it (embedded-17, remote db1:5432/bench), as pgbench
     * sweep records it: `compare --by target` of two --url servers found no such parameter. Null for a Target given
     * from Java, which has no such name.
     */
    private String target;

    private Map<String, Object> cellParams(String version, Pool pool, int n, SsbQuery q) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (target != null) m.put("target", target);
        m.put("version", version);
        m.put("pool", pool.label());
        m.put("workers", n);
        m.put("query", q.id());
        return m;
    }

    private static String cellKey(String version, Pool pool, int n, SsbQuery q) {
        return "version=" + version + ";pool=" + pool.label() + ";workers=" + n + ";query=" + q.id();
    }

    /** summary.csv and the table on stdout; ratios against versions.get(0). */
    public List<List<Object>> finish(RunDirectory dir, List<String> versions) {
        List<List<Object>> rows = summary(dir.trials(), versions);
        dir.writeSummary(HEADER, rows);
        Set<List<Object>> compiled = new HashSet<>();
        for (Trial t : dir.trials()) {
            if (t.extra().get(JIT_FUNCTIONS) != null) compiled.add(tableKey(t.params().get("version"), t.params().get("pool"), t.params().get("workers"), t.params().get("query")));
        }
        printTable(rows, compiled);
        return rows;
    }

    /** Loads when the data are missing or incomplete; refuses other data unless --reload. */
    public static SsbDatabase.LoadReport ensureLoaded(SsbDatabase db, SsbDatabase.LoadOptions lo, RunDirectory dir,
                                                     String version, PrintStream err) {
        return ensureLoaded(db, lo, dir, version, null, err);
    }

    private static SsbDatabase.LoadReport ensureLoaded(SsbDatabase db, SsbDatabase.LoadOptions lo, RunDirectory dir,
                                                      String version, String target, PrintStream err) {
        SsbDatabase.Status st = db.status();
        // --reload replaces the data once per run: a --resume of a run that loaded already keeps what it measured on
        if (st.usable(lo) && (!lo.reload() || (dir != null && loadedIn(dir, version)))) {
            err.println("ssb: using " + st.describe() + " in schema " + db.schema());
            return null;
        }
        java.time.Instant began = java.time.Instant.now();
        SsbDatabase.LoadReport r = db.load(lo, err);
        err.printf(Locale.ROOT, "ssb: loaded SF %s: %,d rows, COPY %.1f s (%,.0f rows/s, %d jobs), %s, total %.1f s%n",
                SsbDatabase.fmt(r.scale()), r.rows(), r.copySeconds(), r.rowsPerSecond(), r.jobs(), afterCopy(r, lo), r.totalSeconds());
        if (dir != null) dir.append(loadTrial(r, version, target, dir).startedAt(began));
        return r;
    }

    /**
     * The load's steps after COPY as its line says them: "keys 1.6 s, VACUUM (ANALYZE) 0.4 s", or "no keys" and "no VACUUM
     * (ANALYZE)" where the options left them out (a --no-keys load's "keys 0.0 s" read as keys made in no time).
     */
    public static String afterCopy(SsbDatabase.LoadReport r, SsbDatabase.LoadOptions lo) {
        return (lo.keys() ? String.format(Locale.ROOT, "keys %.1f s", r.keysSeconds()) : "no keys") + ", "
                + (lo.analyze() ? String.format(Locale.ROOT, "VACUUM (ANALYZE) %.1f s", r.analyzeSeconds()) : "no VACUUM (ANALYZE)");
    }

    /** True when dir holds a finished load of this version (a --resume of the run must not load again). */
    public static boolean loadedIn(RunDirectory dir, String version) {
        return dir.isFinished(loadCell(version), 0);
    }

    /**
     * True when dir holds a finished load of any version: an ssb load run's one, asked before its server starts, whose
     * major is not known yet (its cell was named after the target until 0.1.0's later builds).
     */
    public static boolean loadedIn(RunDirectory dir) {
        return dir.trials().stream().map(Trial::cell).filter(c -> c.startsWith("load;version=")).distinct().anyMatch(c -> dir.isFinished(c, 0));
    }

    private static String loadCell(String version) {
        return "load;version=" + version;
    }

    /** The load as a trial: generate (client CPU), copy, keys, analyze and total seconds. */
    public static Trial loadTrial(SsbDatabase.LoadReport r, String version, RunDirectory dir) {
        return loadTrial(r, version, null, dir);
    }

    /** The same, with the target as the command line named it (remote db1:5432/bench), as the ssb cells record theirs. */
    public static Trial loadTrial(SsbDatabase.LoadReport r, String version, String target, RunDirectory dir) {
        String cell = loadCell(version);
        int repeat = (int) dir.trials().stream().filter(t -> t.cell().equals(cell)).count();
        Trial.Builder b = Trial.of(cell, repeat).param("step", "load");
        if (target != null) b.param("target", target);
        b.param("version", version).param("scale", r.scale()).param("jobs", r.jobs());
        r.metrics().forEach((k, v) -> {
            if (v instanceof Long l) b.metric(k, l); else b.metric(k, v.doubleValue());
        });
        b.extra("table_rows", r.tableRows());
        if (r.serverSettings() != null) b.extra("server_settings", r.serverSettings());
        return b.build();
    }

    private void measure(Target t, SsbDatabase db, String version, List<SsbQuery> queries, RunDirectory dir)
            throws InterruptedException {
        // managed servers, and remote ones whose --restart-command permits postmaster-level changes
        boolean managed = t.kind().managed() || t.control().canRestart();
        // 9.6 bounds parallel workers by max_worker_processes alone (the study's patterns set max_parallel_workers "from 10 on")
        boolean mpwSetting = poolSettings(ServerVersion.of(t)).contains("max_parallel_workers");
        boolean warm = false;
        // the pools as the sweep found them: a pattern's control group runs with these, whatever cell came before
        Map<String, String> startPools = current(db, poolSettings(ServerVersion.of(t)));
        for (Pool pool : opts.pools()) {
            for (int n : opts.workers()) {
                // a resumed run's finished cells: their settings would restart a managed server, and prewarm it, for nothing
                if (finished(dir, version, pool, n)) continue;
                Map<String, String> want = new LinkedHashMap<>();
                want.put("max_parallel_workers_per_gather", Integer.toString(n));
                String skip = null;
                Integer size = pool.poolSize(n);
                // the control group (no workers per Gather) runs alike whatever the pool, as the study's (7.4.1.4): only
                // max_parallel_workers_per_gather=0, the pools the server's. A managed server was given max_worker_processes=0
                // for it, and restarted twice over for two pools' identical cells
                if (n == 0) size = null;
                if (n == 0 && managed && pool != Pool.ENOUGH) want.putAll(startPools);
                Map<String, String> current = current(db, poolSettings(ServerVersion.of(t)));
                if (size != null) {
                    if (managed) {
                        want.put("max_worker_processes", size.toString());
                        if (mpwSetting) want.put("max_parallel_workers", size.toString());
                    } else if (!size.toString().equals(current.get("max_worker_processes"))) {
                        skip = "pattern " + pool.label() + " needs max_worker_processes=" + size + " but this server has "
                                + current.get("max_worker_processes") + " and Kensho does not restart it (--restart-command permits)";
                    } else if (mpwSetting) {
                        want.put("max_parallel_workers", size.toString());
                    }
                } else {
                    int mwp = Integer.parseInt(current.get("max_worker_processes"));
                    int mpw = mpwSetting ? Integer.parseInt(current.get("max_parallel_workers")) : Integer.MAX_VALUE;
                    if (managed) {
                        // room for every planned worker plus the background workers PostgreSQL starts itself
                        if (mwp < n + 2) want.put("max_worker_processes", Integer.toString(Math.max(8, n) + 2));
                        if (mpw < n) want.put("max_parallel_workers", Integer.toString(Math.max(8, n)));
                    } else {
                        if (mpw < n) want.put("max_parallel_workers", Integer.toString(Math.min(n, mwp)));
                        // said per target and count, before its cells: the table's "launched fewer than planned" came after,
                        // without why; named, since a second --url with the same limits had its warning taken for the first's
                        String shortfall = remoteShortfall(db, n, mpw < n ? Math.min(n, mwp) : mpw);
                        if (shortfall != null) {
                            err.println("ssb: warning: " + version + ": " + shortfall);
                            dir.noteOnce(version + ": " + shortfall);
                        }
                    }
                }
                SettingsOutcome outcome = null;
                if (skip == null) {
                    outcome = t.control().apply(want);
                    if (!outcome.ok()) skip = outcome.refusalReason();
                }
                if (skip == null && (!warm || outcome.restarted())) {
                    db.prewarm(SsbDatabase.TABLES, err, dir);
                    warm = true;
                }
                List<String> recorded = new ArrayList<>(poolSettings(ServerVersion.of(t)));
                recorded.add("max_parallel_workers_per_gather");
                runCell(db, version, pool, n, queries, dir, skip, skip == null ? current(db, recorded) : Map.of());
            }
        }
    }

    /**
     * Where a remote server (never reconfigured) cannot start the workers a cell asks for, with the session's
     * max_parallel_workers at {@code sessionMpw}: the pool "enough" then is not, and a Gather planned with more launches
     * fewer. Null where the server can start them.
     */
    static String remoteShortfall(SsbDatabase db, int n, int sessionMpw) {
        WorkerSlots slots;
        try (Connection c = db.connect()) {
            slots = WorkerSlots.of(c).withMaxParallelWorkers(sessionMpw);
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_settings: " + KenshoException.firstLine(e), e);
        }
        List<String> limits = slots.shortFor(n);
        if (limits.isEmpty()) return null;
        return "--workers " + n + ": more than this server can start (" + String.join("; ", limits) + "), and Kensho does not restart"
                + " it (--restart-command permits): a Gather planned with more workers launches fewer (the table marks it)";
    }

    /** The settings that bound a server's parallel workers: max_worker_processes, and max_parallel_workers from 10 on. */
    static List<String> poolSettings(ServerVersion v) {
        return v.atLeast(10) ? List.of("max_worker_processes", "max_parallel_workers") : List.of("max_worker_processes");
    }

    static Map<String, String> current(SsbDatabase db, List<String> names) {
        Map<String, String> m = new LinkedHashMap<>();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (String n : names) {
                try (ResultSet rs = s.executeQuery("SELECT current_setting('" + n + "')")) {
                    rs.next();
                    m.put(n, rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot read settings: " + KenshoException.firstLine(e), e);
        }
        return m;
    }

    private void runCell(SsbDatabase db, String version, Pool pool, int n, List<SsbQuery> queries, RunDirectory dir,
                         String skip, Map<String, String> settings) throws InterruptedException {
        Map<String, ExplainResult> plans = new HashMap<>();
        // a failed trial's parameters as a measured one's: workers a number, not its key's text
        TrialMatrix<SsbQuery> m = new TrialMatrix<>(queries, q -> cellKey(version, pool, n, q), q -> cellParams(version, pool, n, q),
                opts.repeat(), TrialMatrix.Order.SEQUENTIAL, 0);
        Connection[] conn = new Connection[1];
        try {
            m.run(dir, p -> {
                SsbQuery q = p.cell();
                Trial.Builder b = Trial.of(p.key(), p.repeat()).params(cellParams(version, pool, n, q));
                if (skip != null) return b.skipped(skip).build();
                if (conn[0] != null && !conn[0].isValid(5)) {
                    // the server crashed under an earlier query (its connection went with it): a new one once it is back
                    try {
                        conn[0].close();
                    } catch (SQLException ignored) {
                        // already broken
                    }
                    conn[0] = null;
                }
                if (conn[0] == null) {
                    String back = TrialMatrix.awaitServer(db.target(), "version " + version, p.key(), b, dir);
                    conn[0] = db.connect();
                    if (back != null) {
                        // restarted or recovered, its shared buffers are empty: lineorder's scans go through a ring buffer and
                        // would never fill them, so every later cell was timed half cold under the run's "prewarmed"
                        err.println("ssb: warning: " + back + "; prewarming again");
                        db.prewarm(SsbDatabase.TABLES, err, dir);
                        b.extra("prewarmed_again", true);
                    }
                }
                ExplainResult plan = plans.get(q.id());
                if (plan == null) {
                    // EXPLAIN ANALYZE first: it warms the query and records what the planner and executor did.
                    plan = Explain.analyze(conn[0], q.sql());
                    plans.put(q.id(), plan);
                    String file = "plans/" + version + "/" + pool.label().replace('*', 'x') + "-w" + n + "/" + q.id() + ".json";
                    dir.writeJson(file, plan.json());
                    b.extra("plan_file", file);
                }
                QueryTimer.Timing timing = QueryTimer.time(conn[0], q.sql(), opts.fetchSize());
                List<Map<String, Object>> gathers = new ArrayList<>();
                for (ExplainResult.Gather g : plan.gathers()) {
                    Map<String, Object> gm = new LinkedHashMap<>();
                    gm.put("node", g.nodeType());
                    gm.put("planned", g.planned());
                    gm.put("launched", g.launched());
                    gathers.add(gm);
                }
                b.metric("seconds", timing.seconds()).metric("rows", timing.rows())
                        .metric("workers_planned", plan.workersPlanned()).metric("workers_launched", plan.workersLaunched())
                        .metric("explain_ms", plan.executionMs())
                        .extra("gathers", gathers).extra("settings", settings);
                if (opts.fetchSize() > 0 && plan.workersPlanned() > 0) b.extra(TIMED_WITHOUT_WORKERS, true);
                if (plan.jit() != null && plan.jit().functions() > 0) {
                    b.extra(JIT_FUNCTIONS, plan.jit().functions()).extra("jit_ms", plan.jit().totalMs());
                    if (!dir.info().notes().contains(JIT_COMPILED)) {
                        err.println("ssb: warning: " + JIT_COMPILED);
                        dir.noteOnce(JIT_COMPILED);
                    }
                }
                Trial tr = b.build();
                // the workers are the cell's EXPLAIN (ANALYZE)'s, run once before its repeats: said so, not as if each repeat's
                err.printf(Locale.ROOT, "ssb %s %s workers=%d %s #%d: %s, %d rows, workers planned %d launched %d (EXPLAIN ANALYZE)%s%n", version,
                        pool.label(), n, q.id(), p.repeat() + 1, SecondsColumn.text(timing.seconds()), timing.rows(), plan.workersPlanned(),
                        plan.workersLaunched(), JitMatrix.NOT_KEPT.get());
                return tr;
            }, new TrialMatrix.Listener<>() {
                @Override
                public void finished(TrialMatrix.Planned<SsbQuery> p, Trial t, int index, int total) {
                    // a timed run the server failed printed nothing at the time: the table at the end showed its cell's
                    // median of the repeats left, and only the run's last line a count
                    if ("failed".equals(t.status())) {
                        err.printf(Locale.ROOT, "ssb %s %s workers=%d %s #%d failed: %s%n", version, pool.label(), n, p.cell().id(), p.repeat() + 1,
                                t.extra().get("reason"));
                    }
                }
            });
        } finally {
            if (conn[0] != null) {
                try {
                    conn[0].close();
                } catch (SQLException ignored) {
                    // measurement is over
                }
            }
        }
    }

    /** The server's major as PostgreSQL writes it: "9.6", "17". */
    public static String versionLabel(Target t) {
        return dev.kensho.core.server.ServerVersion.of(t).major();
    }

    /**
     * The label of one of several targets, the cells' "version": unique among them, since cells of the same label would
     * be one. An embedded release as asked for ("16.6" beside "16.15"); two servers of one major (two hosts, two builds)
     * each with its target ("16 remote db1:5432/bench").
     */
    static String versionLabel(TargetSpec spec, Target t) {
        if (spec.kind() == dev.kensho.core.server.TargetKind.EMBEDDED && spec.pgVersion() != null) return spec.pgVersion().toString();
        return versionLabel(t) + " " + spec.label();
    }

    static final List<String> HEADER = List.of("version", "pool", "workers", "query", "n", "status", "seconds_median",
            "seconds_min", "seconds_max", "rows", "workers_planned", "workers_launched", "gathers", "speedup_vs_first",
            "timing", "reason");

    /**
     * One row per cell: median/min/max seconds, Workers Planned/Launched, and the study's performance
     * improvement ratio against the first version (t_first / t_this).
     */
    static List<List<Object>> summary(List<Trial> trials, List<String> versions) {
        List<Trial> qs = trials.stream().filter(t -> t.params().containsKey("query")).toList();
        List<CellSummary> cells = CellSummary.of(qs);
        Map<String, Double> firstVersion = new HashMap<>();
        String first = versions.isEmpty() ? null : versions.get(0);
        for (CellSummary c : cells) {
            if (String.valueOf(c.params().get("version")).equals(first) && c.median().containsKey("seconds")) {
                firstVersion.put(c.params().get("pool") + "|" + c.params().get("workers") + "|" + c.params().get("query"),
                        c.median().get("seconds"));
            }
        }
        Map<String, Object> gathersByCell = new HashMap<>();
        for (Trial t : qs) if (t.extra().get("gathers") != null) gathersByCell.put(t.cell(), t.extra().get("gathers"));
        List<List<Object>> rows = new ArrayList<>();
        for (CellSummary c : cells) {
            List<Object> r = timedCell(c, List.of("version", "pool", "workers", "query"));
            r.add(c.median().get("workers_planned") == null ? null : c.median().get("workers_planned").intValue());
            r.add(c.median().get("workers_launched") == null ? null : c.median().get("workers_launched").intValue());
            r.add(gatherText(gathersByCell.get(c.cell())));
            Double base = firstVersion.get(c.params().get("pool") + "|" + c.params().get("workers") + "|" + c.params().get("query"));
            Double mine = c.median().get("seconds");
            r.add(base != null && mine != null && mine > 0 ? base / mine : null);
            // what the console's line says of the cell, kept with its numbers (it was on stdout only)
            r.add(timingNote(qs, c.cell()));
            r.add(c.reason());
            rows.add(r);
        }
        return rows;
    }

    /** "timed without workers (--fetch-size)", "JIT-compiled", both, or "" for a cell's trials. */
    static String timingNote(List<Trial> trials, String cell) {
        boolean cursor = false, jit = false;
        for (Trial t : trials) {
            if (!t.cell().equals(cell)) continue;
            cursor |= Boolean.TRUE.equals(t.extra().get(TIMED_WITHOUT_WORKERS));
            jit |= t.extra().get(JIT_FUNCTIONS) != null;
        }
        List<String> notes = new ArrayList<>();
        if (cursor) notes.add("timed without workers (--fetch-size)");
        if (jit) notes.add("JIT-compiled");
        return String.join("; ", notes);
    }

    private static List<String> versionsRun(List<Trial> trials) {
        return trials.stream().filter(t -> t.params().containsKey("query")).map(t -> String.valueOf(t.params().get("version")))
                .distinct().toList();
    }

    /** The start of a query cell's summary row: its parameters, n, status, median/min/max seconds and the rows returned. */
    static List<Object> timedCell(CellSummary c, List<String> params) {
        List<Object> r = new ArrayList<>();
        for (String p : params) r.add(c.params().get(p));
        r.add(c.n());
        r.add(c.status());
        r.add(c.median().get("seconds"));
        r.add(c.min().get("seconds"));
        r.add(c.max().get("seconds"));
        r.add(c.median().get("rows") == null ? null : c.median().get("rows").longValue());
        return r;
    }

    @SuppressWarnings("unchecked")
    static String gatherText(Object gathers) {
        if (!(gathers instanceof List<?> l) || l.isEmpty()) return "";
        List<String> parts = new ArrayList<>();
        for (Object o : l) {
            Map<String, Object> g = (Map<String, Object>) o;
            parts.add(g.get("node") + " " + g.get("planned") + "/" + g.get("launched"));
        }
        return String.join("; ", parts);
    }

    private static List<Object> tableKey(Object version, Object pool, Object workers, Object query) {
        return List.of(String.valueOf(version), String.valueOf(pool), String.valueOf(workers), String.valueOf(query));
    }

    private static int workersOf(Object label) {
        if (label instanceof Number n) return n.intValue();
        try {
            return Integer.parseInt(String.valueOf(label));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** @param compiled the cells (tableKey) whose plan was JIT-compiled */
    private void printTable(List<List<Object>> rows, Set<List<Object>> compiled) {
        boolean versions = rows.stream().map(r -> r.get(0)).distinct().count() > 1;
        // as wide as the longest label, in terminal columns: two hosts' "15 remote db1:5432/bench" pushed every later
        // column out of line, and a Japanese database name (two columns a character) its own rows
        int w = Math.max(8, rows.stream().mapToInt(r -> DisplayWidth.of(String.valueOf(r.get(0)))).max().orElse(0));
        SecondsColumn time = SecondsColumn.of(rows.stream().filter(r -> "ok".equals(r.get(5))).map(r -> r.get(6)).toList());
        line("%s %-8s %7s %-5s %10s %10s %9s %8s  %s", DisplayWidth.padRight("version", w), "pool", "workers", "query", time.header("median"),
                "rows", "planned", "launched", versions ? "vs_first" : "");
        // a note every query of a version, pool and workers count carries (at SF 1 --workers 8 plans at most 4 workers
        // for every query) is said once below the table, not on each of its 13 rows
        Map<List<Object>, List<String>> notes = new LinkedHashMap<>();
        Map<List<Object>, List<String>> shared = new LinkedHashMap<>();
        Map<List<Object>, Integer> okRows = new HashMap<>();
        for (List<Object> r : rows) {
            if (!"ok".equals(r.get(5))) continue;
            List<String> n = cellNotes(r, compiled);
            notes.put(r, n);
            List<Object> group = noteGroup(r);
            okRows.merge(group, 1, Integer::sum);
            shared.merge(group, new ArrayList<>(n), (a, b) -> {
                a.retainAll(b);
                return a;
            });
        }
        shared.entrySet().removeIf(e -> e.getValue().isEmpty() || okRows.get(e.getKey()) < 2);
        for (List<Object> r : rows) {
            String version = DisplayWidth.padRight(String.valueOf(r.get(0)), w);
            if (!"ok".equals(r.get(5))) {
                line("%s %-8s %7s %-5s %s: %s", version, r.get(1), r.get(2), r.get(3), r.get(5), r.get(HEADER.indexOf("reason")));
                continue;
            }
            List<String> own = new ArrayList<>(notes.get(r));
            own.removeAll(shared.getOrDefault(noteGroup(r), List.of()));
            String ratio = !versions || r.get(13) == null ? "" : String.format(Locale.ROOT, "x%.2f", (Double) r.get(13));
            // a median of the repeats left says so on its row, as micro's and ssb jit's tables do (only the last line had a count)
            Object partly = r.get(HEADER.indexOf("reason"));
            String failedRepeats = partly == null || String.valueOf(partly).isEmpty() ? "" : "(" + partly + ")";
            line("%s %-8s %7s %-5s %10s %10s %9s %8s  %s", version, r.get(1), r.get(2), r.get(3),
                    time.cell(r.get(6)), r.get(9), r.get(10), r.get(11), String.join("  ", java.util.stream.Stream.concat(
                            java.util.stream.Stream.concat(java.util.stream.Stream.of(ratio), own.stream()), java.util.stream.Stream.of(failedRepeats))
                            .filter(x -> !x.isEmpty()).toList()));
        }
        shared.forEach((g, n) -> line("every query of %s %s workers=%s: %s", g.get(0), g.get(1), g.get(2), String.join("; ", n)));
    }

    /** The rows a shared note speaks for: one version, pool and workers count. */
    private static List<Object> noteGroup(List<Object> r) {
        return List.of(String.valueOf(r.get(0)), String.valueOf(r.get(1)), String.valueOf(r.get(2)));
    }

    /** What the table says of an ok row's cell beside its numbers: its workers, its timing. */
    private List<String> cellNotes(List<Object> r, Set<List<Object>> compiled) {
        List<String> notes = new ArrayList<>();
        if (opts.fetchSize() > 0 && r.get(10) instanceof Integer p && p > 0) {
            notes.add("timed without workers (--fetch-size)");   // the cursor's run had none of the workers the EXPLAIN shows
        } else {
            // one the planner gave fewer than its label (a small table, the per-table limit): the cell is not that parallel
            if (r.get(10) instanceof Integer p && workersOf(r.get(2)) > p) notes.add("planned fewer than " + workersOf(r.get(2)));
            // the study's 7.6.2.1: a Gather that launched fewer workers than planned ran with less parallelism than its label
            if (r.get(10) instanceof Integer p && r.get(11) instanceof Integer l && l < p) notes.add("launched fewer than planned");
        }
        if (compiled.contains(tableKey(r.get(0), r.get(1), r.get(2), r.get(3)))) notes.add("JIT-compiled");
        return notes;
    }

    /** One line of the table, without the blanks an empty last column leaves. */
    private void line(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args).stripTrailing());
    }

}
