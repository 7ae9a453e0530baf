package dev.kensho.ssb;

import java.util.Locale;
import dev.kensho.core.KenshoException;
import dev.kensho.core.measure.Explain;
import dev.kensho.core.measure.ExplainResult;
import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.QueryMatrix;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.SettingsOutcome;
import dev.kensho.core.server.Target;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench ssb jit}: the JIT study's three verifications (chapter 6), each query with jit=off and
 * jit=on and max_parallel_workers_per_gather=0: 1 — single operations over lineorder (the first
 * two return every row and are streamed), 2 — sum(lo_extendedprice) over integer, numeric, real
 * and double precision, 3 — the 13 SSB queries. Reports the reduction rate
 * 100 × (t_off − t_on) / t_off (none, with a warning, where jit=on compiled nothing) and, from an
 * EXPLAIN (ANALYZE) after a warm-up run, the JIT functions and Generation / Inlining / Optimization /
 * Emission times. With a settings matrix (6.6.3.3: work_mem 1, 2, 4 GB × maintenance_work_mem 8, 16, 32 GB, to
 * see whether a low reduction rate depends on them) every verification runs under each combination in turn.
 */
public final class JitMatrix implements SsbStudy {
    /** The run directory's command name for these runs: the report draws its charts by it. */
    public static final String COMMAND = "ssb jit";
    /** Said (one line) when the server cannot JIT; names the options that point Kensho elsewhere. */
    public static final String NO_JIT = "this server has no JIT (pg_jit_available() is false; the embedded PostgreSQL "
            + "binaries are built without LLVM): " + JitMatrix.elsewhere();

    /**
     * Said before an embedded server is started for nothing (and an SSB cache made for it): no zonky build has JIT, the
     * releases before 11 none at all.
     */
    public static final String NO_EMBEDDED_JIT = "the embedded PostgreSQL servers have no JIT (their binaries are built without "
            + "LLVM, and PostgreSQL had none before 11): " + JitMatrix.elsewhere();

    /** How to point Kensho at a server that can JIT. */
    private static String elsewhere() {
        return "point Kensho at a JIT-capable server with --pg-bin DIR (an installed PostgreSQL 11 or later built --with-llvm, "
                + "e.g. /usr/lib/postgresql/15/bin) or --url jdbc:postgresql://HOST:PORT/DB";
    }

    /** Verification 2's copies of lineorder, in its order. */
    public static final List<String> VARIANTS = List.of("lineorder_n", "lineorder_r", "lineorder_d");

    /** One query of a verification. */
    public record Item(int verification, String id, String sql) { }

    /**
     * @param verifications which of 1, 2, 3 to run
     * @param repeat        timed runs per query and jit value (median reported)
     * @param queries       SSB query ids for verification 3 (empty: all 13)
     * @param costs         jit_above_cost, jit_inline_above_cost, jit_optimize_above_cost as given (absent: server's)
     * @param fetchSize     rows per fetch while streaming
     * @param matrix        settings to vary (name → values, see {@link QueryMatrix#settings}); every combination is run
     */
    public record Options(List<Integer> verifications, int repeat, List<String> queries, Map<String, String> costs,
                          int fetchSize, Map<String, List<String>> matrix) {
        /**
         * The command line's options as this record's components: a harness that wrote repeat 0 is told of its repeat,
         * not of a --repeat it never typed, and a cost it put in costs as that entry. bench ssb jit turns them back.
         */
        public static final Map<String, String> COMPONENT_NAMES = names(List.of("jit_above_cost", "jit_inline_above_cost", "jit_optimize_above_cost"));

        /** The options' names as components, each of these cost settings' option ("--jit-above-cost") as its costs entry. */
        private static Map<String, String> names(java.util.Collection<String> costs) {
            Map<String, String> m = new LinkedHashMap<>(Map.of("--repeat", "JitMatrix.Options repeat", "--fetch-size", "JitMatrix.Options fetchSize",
                    "--verification", "JitMatrix.Options verifications", "--query", "JitMatrix.Options queries", "--matrix", "JitMatrix.Options matrix"));
            for (String c : costs) m.putIfAbsent("--" + c.replace('_', '-'), "JitMatrix.Options costs " + c);
            return java.util.Collections.unmodifiableMap(m);
        }

        public Options(List<Integer> verifications, int repeat, List<String> queries, Map<String, String> costs, int fetchSize) {
            this(verifications, repeat, queries, costs, fetchSize, Map.of());
        }

        public Options {
            try {
                if (repeat < 1) throw KenshoException.usage("--repeat must be at least 1");
                if (fetchSize < 0) throw KenshoException.usage("--fetch-size must not be negative (0: one execution, the result streamed)");
                if (verifications == null || verifications.isEmpty()) verifications = List.of(1, 2, 3);
                for (int v : verifications) {
                    if (v < 1 || v > 3) throw KenshoException.usage("--verification " + v + ": expected 1, 2 or 3");
                }
                verifications = List.copyOf(verifications);
                queries = queries == null ? List.of() : List.copyOf(queries);
                // refused here, before any server starts or data load
                SsbQuery.ssb(queries);
                if (!queries.isEmpty() && !verifications.contains(3)) {
                    throw KenshoException.usage("--query selects queries of verification 3, which --verification " + verifications
                            .stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")) + " leaves out");
                }
                costs = Map.copyOf(costs == null ? Map.of() : costs);
                costs.forEach((name, value) -> {
                    String v = value.strip();
                    if (!v.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?") || Double.parseDouble(v) < -1) {
                        throw KenshoException.usage("--" + name.replace('_', '-') + " " + value + ": expected a number >= -1 (-1 disables)");
                    }
                });
                Map<String, List<String>> m = new LinkedHashMap<>();
                for (var e : (matrix == null ? Map.<String, List<String>>of() : matrix).entrySet()) {
                    String name = e.getKey();
                    // jit is what each cell compares; the study ran every query without parallel workers
                    if (name.equals("jit") || name.equals("max_parallel_workers_per_gather")) {
                        throw KenshoException.usage("--matrix " + name + ": ssb jit sets " + name + " itself (jit off and on in every cell, "
                                + "max_parallel_workers_per_gather 0)");
                    }
                    if (costs.containsKey(name)) {
                        throw KenshoException.usage("--matrix " + name + " and --" + name.replace('_', '-') + ": give its values in one of them");
                    }
                    m.put(name, List.copyOf(e.getValue()));
                }
                matrix = java.util.Collections.unmodifiableMap(m);
            } catch (KenshoException e) {
                // a harness's costs may hold any setting, not only those bench ssb jit has an option for
                throw e.naming(names(costs == null ? List.of() : costs.keySet()));
            }
        }
    }

    private final Options opts;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param opts what to measure
     * @param out  the summary table ({@link #finish}); null for none
     * @param err  progress; null for none
     */
    public JitMatrix(Options opts, PrintStream out, PrintStream err) {
        this.opts = opts;
        // null silences a stream, as SsbDatabase.load's progress and PgbenchRun.output take it
        this.out = out != null ? out : new PrintStream(java.io.OutputStream.nullOutputStream());
        this.err = err != null ? err : new PrintStream(java.io.OutputStream.nullOutputStream());
    }

    /** The study's queries, in its order. */
    public static List<Item> items(List<Integer> verifications, List<String> ssbQueries) {
        List<Item> l = new ArrayList<>();
        if (verifications.contains(1)) {
            l.add(new Item(1, "multiply", "select lo_extendedprice * lo_discount from lineorder"));
            l.add(new Item(1, "subtract", "select lo_revenue - lo_supplycost from lineorder"));
            for (String f : List.of("sum", "avg", "count", "max", "stddev", "var_samp")) {
                l.add(new Item(1, f, "select " + f + "(lo_extendedprice) from lineorder"));
            }
            l.add(new Item(1, "count(*)", "select count(*) from lineorder"));
        }
        if (verifications.contains(2)) {
            l.add(new Item(2, "integer", "select sum(lo_extendedprice) from lineorder"));
            l.add(new Item(2, "numeric", "select sum(lo_extendedprice) from lineorder_n"));
            l.add(new Item(2, "real", "select sum(lo_extendedprice) from lineorder_r"));
            l.add(new Item(2, "double precision", "select sum(lo_extendedprice) from lineorder_d"));
        }
        if (verifications.contains(3)) {
            for (SsbQuery q : SsbQuery.ssb(ssbQueries)) l.add(new Item(3, q.id(), q.sql()));
        }
        return l;
    }

    /** The tables the verifications read: prewarming others would only evict these. */
    static List<String> tables(List<Integer> verifications) {
        List<String> l = new ArrayList<>();
        if (verifications.contains(3)) l.addAll(SsbDatabase.TABLES);
        else l.add("lineorder");
        if (verifications.contains(2)) l.addAll(VARIANTS);
        return l;
    }

    /** Refuses (usage error, one line) when the server cannot JIT. */
    public static void requireJit(Target t) {
        // JIT came with 11: an older server has no pg_jit_available() to ask
        ServerVersion v = ServerVersion.of(t);
        if (!v.atLeast(11)) throw KenshoException.usage("this server has no JIT: " + v.lacks("JIT", 11) + "; " + elsewhere());
        try (Connection c = t.connect(); Statement s = c.createStatement()) {
            if (!dev.kensho.core.env.Environment.jitAvailable(c)) {
                // the embedded binaries have no LLVM; a --pg-bin or remote server whose jit_provider did not load
                // (a --set jit_provider, a missing llvmjit package) was sent to the --pg-bin it was already on
                if (t.kind() == dev.kensho.core.server.TargetKind.EMBEDDED) throw KenshoException.usage(NO_JIT);
                String provider;
                try (ResultSet p = s.executeQuery("SELECT current_setting('jit_provider')")) {
                    p.next();
                    provider = p.getString(1);
                }
                throw KenshoException.usage("this server has no JIT: pg_jit_available() is false, its jit_provider '" + provider
                        + "' did not load (a --set jit_provider, or a build or package without LLVM: Debian's postgresql-NN has it)");
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot ask the server about JIT: " + KenshoException.firstLine(e), e);
        }
    }

    /**
     * What a trial's line adds when it ends after Ctrl-C or a kill: the run keeps no trial from then on (its server is
     * stopping), and the line read as a result that the files then did not have.
     */
    static final java.util.function.Supplier<String> NOT_KEPT = () -> dev.kensho.core.JvmShutdown.begun()
            ? " (not kept: the run is stopping; --resume measures it again)" : "";

    /** Measures every item with jit=off and jit=on. The data must be loaded; the type variants are created here. */
    /**
     * Sets the run directory up before anything is measured (the command calls it before the load and the type
     * variants' copies): summary.csv after every trial, and the cells in run.json, which a report of an interrupted run
     * names where it never reached them. A run killed after its load had neither, and its report looked complete.
     */
    @Override
    public void prepare(RunDirectory dir) {
        dir.summarizeAfterEachTrial(JitMatrix::writeSummary);
        List<String> planned = new java.util.ArrayList<>();
        for (Map<String, String> combo : QueryMatrix.combinations(opts.matrix())) {
            for (Item it : items(opts.verifications(), opts.queries())) for (String jit : List.of("off", "on")) planned.add(key(it, jit, combo));
        }
        if (!dir.plannedCells().containsAll(planned)) dir.plannedCells(planned);
    }

    @Override
    public String command() {
        return COMMAND;
    }

    @Override
    public void run(SsbDatabase db, RunDirectory dir) throws InterruptedException {
        Target t = db.target();
        requireJit(t);
        prepare(dir);
        if (opts.verifications().contains(2)) {
            for (String v : VARIANTS) db.ensureVariant(v);
        }
        List<Item> items = items(opts.verifications(), opts.queries());
        dir.noteOnce(PROCEDURE);
        // verifications 1 and 2 read lineorder alone; the SSB queries join the date table, which shrinks below SF 1
        String small = opts.verifications().contains(3) ? SsbDatabase.smallScaleWarning(db.status().scale()) : null;
        if (small != null && !dir.info().notes().contains(small)) {
            err.println("ssb jit: warning: " + small);
            dir.noteOnce(small);
        }
        List<Map<String, String>> combos = QueryMatrix.combinations(opts.matrix());
        for (int i = 0; i < combos.size(); i++) {
            Map<String, String> combo = combos.get(i);
            if (finished(items, combo, dir)) continue;   // --resume: no restart for settings nothing is left to run under
            Map<String, String> want = new LinkedHashMap<>();
            want.put("max_parallel_workers_per_gather", "0");
            want.putAll(opts.costs());
            want.putAll(combo);
            if (!combo.isEmpty()) err.printf(Locale.ROOT, "ssb jit: %s (%d/%d)%n", label(combo), i + 1, combos.size());
            SettingsOutcome o;
            try {
                o = t.control().apply(want);
            } catch (KenshoException e) {
                // a value the server rejects outright (a remote session's "invalid value for parameter"): the run ended
                // there, half measured; it is the combination's when the fixed settings alone apply, and skips its cells
                if (combo.isEmpty() || e.exitCode() != KenshoException.USAGE) throw e;
                Map<String, String> fixed = new LinkedHashMap<>(want);
                fixed.keySet().removeAll(combo.keySet());
                t.control().apply(fixed);   // throws again when the fault is theirs
                String why = "cannot apply " + label(combo) + ": " + KenshoException.firstLine(e);
                err.println("ssb jit: " + why + " (its cells are skipped)");
                skip(items, combo, why, dir);
                continue;
            }
            if (!o.ok()) {
                // a value of the matrix this server refuses skips its cells; a refused fixed setting stops the run
                if (combo.isEmpty() || !combo.keySet().containsAll(o.refused().keySet())) {
                    throw KenshoException.usage("cannot apply the JIT settings: " + o.refusalReason());
                }
                String why = "cannot apply " + label(combo) + ": " + o.refusalReason();
                err.println("ssb jit: " + why + " (its cells are skipped)");
                skip(items, combo, why, dir);
                continue;
            }
            // after a restart (a postmaster-level setting in the matrix) the cache is cold again
            db.prewarm(tables(opts.verifications()), err, dir);
            measure(db, items, combo, dir);
            // once per combination, with every query it concerns (a resumed one's earlier queries too)
            List<Trial> ofCombo = dir.trials().stream().filter(tr -> tr.params().containsKey("jit") && combo(tr).equals(combo)).toList();
            for (String line : partialJit(ofCombo)) {
                err.println("ssb jit: warning: " + line);
                dir.noteOnce("ssb jit: " + line);
            }
        }
    }

    /** The matrix settings a trial ran under, in their order. */
    private static Map<String, String> combo(Trial t) {
        Map<String, String> m = new LinkedHashMap<>();
        t.params().forEach((k, v) -> {
            if (!FIXED.contains(k)) m.put(k, String.valueOf(v));
        });
        return m;
    }

    /**
     * A line per matrix combination and what JIT lacked, naming the jit=on queries it concerns with their plan costs (all
     * of more than three: the range of their costs): every query at SF 1 compiles without inlining and optimization under
     * the default thresholds, and a line per query said the same thirteen times.
     */
    static List<String> partialJit(List<Trial> trials) {
        Map<List<String>, List<String>> queries = new LinkedHashMap<>();
        Map<List<String>, List<Double>> costs = new LinkedHashMap<>();
        Map<String, Set<String>> measured = new LinkedHashMap<>();   // per combination: every jit=on query
        for (Trial t : trials) {
            if (!"on".equals(t.params().get("jit"))) continue;
            String name = "v" + t.params().get("verification") + " " + t.params().get("query");
            measured.computeIfAbsent(label(combo(t)), c -> new HashSet<>()).add(name);
            if (t.extra() == null || !(t.extra().get(JIT_PARTIAL) instanceof String what)) continue;
            List<String> group = List.of(label(combo(t)), what);
            Object cost = t.extra().get("plan_cost");
            String q = name + (cost == null ? "" : " (plan cost " + cost + ")");
            List<String> qs = queries.computeIfAbsent(group, g -> new ArrayList<>());
            if (qs.contains(q)) continue;   // once, whatever the repeats
            qs.add(q);
            if (cost != null) costs.computeIfAbsent(group, g -> new ArrayList<>()).add(Double.parseDouble(cost.toString()));
        }
        List<String> lines = new ArrayList<>();
        queries.forEach((group, qs) -> {
            List<String> options = new ArrayList<>();
            if (group.get(1).contains("inlining")) options.add("--jit-inline-above-cost");
            if (group.get(1).contains("optimization")) options.add("--jit-optimize-above-cost");
            List<Double> c = costs.getOrDefault(group, List.of());
            // every query of a long list (all 13 SSB queries, or 26 with verifications 1 and 2, at SF 1 under the default
            // thresholds): the range of their costs says what to lower the thresholds below; the names said nothing more
            String which = qs.size() > 3 && qs.size() == measured.get(group.get(0)).size() && c.size() == qs.size()
                    ? "all " + qs.size() + " queries (plan costs " + String.format(Locale.ROOT, "%.0f to %.0f", Collections.min(c), Collections.max(c)) + ")"
                    : qs.size() + (qs.size() == 1 ? " query: " : " queries: ") + String.join(", ", qs);
            lines.add((group.get(0).isEmpty() ? "" : group.get(0) + ": ") + "JIT " + group.get(1) + ", where the study's plans had both, in "
                    + which + "; lower " + String.join(" and ", options));
        });
        return lines;
    }

    /** "work_mem=1GB maintenance_work_mem=8GB". */
    static String label(Map<String, String> combo) {
        return combo.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(java.util.stream.Collectors.joining(" "));
    }

    /** Whether dir holds every trial of this matrix (a finished run's --resume: nothing to load, set or run). */
    @Override
    public boolean finishedIn(RunDirectory dir) {
        List<Item> items = items(opts.verifications(), opts.queries());
        for (Map<String, String> combo : QueryMatrix.combinations(opts.matrix())) if (!finished(items, combo, dir)) return false;
        return true;
    }

    private boolean finished(List<Item> items, Map<String, String> combo, RunDirectory dir) {
        for (int r = 0; r < opts.repeat(); r++) {
            for (Item it : items) {
                for (String jit : List.of("off", "on")) if (!dir.isFinished(key(it, jit, combo), r)) return false;
            }
        }
        return true;
    }

    private void skip(List<Item> items, Map<String, String> combo, String why, RunDirectory dir) {
        for (int r = 0; r < opts.repeat(); r++) {
            for (Item it : items) {
                for (String jit : List.of("off", "on")) {
                    if (dir.isFinished(key(it, jit, combo), r)) continue;
                    dir.append(builder(it, jit, combo, r).skipped(why).build());
                }
            }
        }
    }

    private static Trial.Builder builder(Item it, String jit, Map<String, String> combo, int repeat) {
        Trial.Builder b = Trial.of(key(it, jit, combo), repeat).param("verification", it.verification()).param("query", it.id());
        combo.forEach(b::param);
        return b.param("jit", jit);
    }

    /** What each query goes through, noted in run.json. */
    public static final String PROCEDURE = "jit: per query one unrecorded warm-up run (jit=on), then EXPLAIN (ANALYZE) with "
            + "jit=off and jit=on (the source of the JIT functions and times), then the timed pairs: off,on in repeats 1, 3, "
            + "5..., on,off in repeats 2, 4, 6... (trials record pair_order)";
    /**
     * A jit=on trial's extra where its JIT compiled without inlining or optimization: which, and the thresholds that left
     * them out (with its plan_cost). Said once per run, with the queries, not on each row (see {@link #partialJit}).
     */
    public static final String JIT_PARTIAL = "jit_partial";
    /** Where the JIT functions and times of a trial come from (its extra jit_from). */
    public static final String JIT_FROM = "EXPLAIN (ANALYZE) after the warm-up run, before the timed runs";
    /** Why a jit=on cell that compiled nothing gets no reduction rate. */
    public static final String NOT_TRIGGERED = "JIT not triggered; lower --jit-above-cost";

    static String key(Item it, String jit, Map<String, String> combo) {
        StringBuilder k = new StringBuilder("v").append(it.verification()).append(";query=").append(it.id()).append(";jit=").append(jit);
        combo.forEach((name, value) -> k.append(';').append(name).append('=').append(value));
        return k.toString();
    }

    /**
     * Repeat by repeat (as the studies' scripts), each query's pair: off then on in the first repeat, on then off in
     * the second, and so on, so neither value is always the one that runs first. Before a query's first pair: a
     * warm-up run and the EXPLAINs, so no timed run is the first execution of its query (cold caches, LLVM loading
     * into the backend).
     */
    private void measure(SsbDatabase db, List<Item> items, Map<String, String> combo, RunDirectory dir) throws InterruptedException {
        Map<Item, Map<String, Plan>> plans = new HashMap<>();
        Connection conn = null;
        try {
            for (int r = 0; r < opts.repeat(); r++) {
                List<String> order = r % 2 == 0 ? List.of("off", "on") : List.of("on", "off");
                for (Item it : items) {
                    int repeat = r;
                    if (order.stream().allMatch(jit -> dir.isFinished(key(it, jit, combo), repeat))) continue;
                    String failure = null;
                    try {
                        if (conn == null) conn = db.connect();
                        if (!plans.containsKey(it)) plans.put(it, prepare(conn, it, combo, dir));
                    } catch (SQLException | RuntimeException e) {
                        failure = reason(e);
                        conn = dropIfBroken(conn, plans);
                    }
                    for (int pos = 0; pos < 2; pos++) {
                        if (Thread.interrupted()) throw new InterruptedException();
                        String jit = order.get(pos);
                        if (dir.isFinished(key(it, jit, combo), r)) continue;
                        Trial.Builder b = builder(it, jit, combo, r).started(java.time.Instant.now())
                                .extra("pair_order", String.join(",", order)).extra("position", pos + 1);
                        Trial trial;
                        if (failure != null) {
                            trial = b.failed(failure).build();
                        } else {
                            try {
                                trial = timed(conn, it, jit, r, plans.get(it).get(jit), b, combo.keySet());
                            } catch (SQLException | RuntimeException e) {
                                trial = b.failed(reason(e)).build();
                                conn = dropIfBroken(conn, plans);
                            }
                        }
                        dir.append(trial);
                        // as ssb's: a failed run said nothing at the time, its repeat's line just missing. Not when the
                        // run is stopping: Ctrl-C cancelled that statement ("canceling statement due to user request"),
                        // and the trial is not kept
                        if ("failed".equals(trial.status()) && !dev.kensho.core.JvmShutdown.begun()) {
                            err.printf(Locale.ROOT, "ssb jit=%s v%d %s #%d failed: %s%n", jit, it.verification(), it.id(), r + 1, trial.extra().get("reason"));
                        }
                    }
                }
            }
        } finally {
            if (conn != null) {
                try {
                    conn.close();
                } catch (SQLException ignored) {
                    // measurement is over
                }
            }
        }
    }

    /** A dead connection is replaced; the new backend is cold again, so every query gets its warm-up again. */
    private static Connection dropIfBroken(Connection c, Map<Item, Map<String, Plan>> plans) {
        try {
            if (c == null || c.isValid(5)) return c;
            c.close();
        } catch (SQLException ignored) {
            // replaced either way
        }
        plans.clear();
        return null;
    }

    private record Plan(ExplainResult result, String file, String warning, String partial) { }

    /** A usage error stops the run; anything else fails the trials it concerns, and the run goes on. */
    private static String reason(Exception e) {
        if (e instanceof KenshoException k && k.exitCode() == KenshoException.USAGE) throw k;
        if (e instanceof SQLException se) return KenshoException.firstLine(se);
        return e instanceof KenshoException ? KenshoException.firstLine(e) : e.getClass().getSimpleName() + ": " + KenshoException.firstLine(e);
    }

    /** The warm-up run and the EXPLAIN (ANALYZE) of both jit values; warns when jit=on compiles nothing. */
    private Map<String, Plan> prepare(Connection c, Item it, Map<String, String> combo, RunDirectory dir) throws SQLException {
        setJit(c, "on");
        QueryTimer.time(c, it.sql(), opts.fetchSize());
        Map<String, Plan> m = new HashMap<>();
        for (String jit : List.of("off", "on")) {
            setJit(c, jit);
            ExplainResult plan = Explain.analyze(c, it.sql());
            String under = combo.isEmpty() ? "" : "/" + label(combo).replace(' ', ',').replaceAll("[^A-Za-z0-9.=,_-]+", "_");
            String file = "plans/jit-" + jit + under + "/v" + it.verification() + "-" + it.id().replaceAll("[^A-Za-z0-9.]+", "_") + ".json";
            dir.writeJson(file, plan.json());
            String warning = null, partial = null;
            if (jit.equals("on") && (plan.jit() == null || plan.jit().functions() == 0)) {
                warning = "JIT not triggered (plan cost " + cost(plan) + ", jit_above_cost " + setting(c, "jit_above_cost")
                        + "); lower --jit-above-cost";
                err.printf(Locale.ROOT, "ssb jit: warning: v%d %s%s: %s (no reduction rate for it)%n", it.verification(), it.id(),
                        combo.isEmpty() ? "" : " (" + label(combo) + ")", warning);
            } else if (jit.equals("on") && !(plan.jit().inlining() && plan.jit().optimization())) {
                // every plan of the study's (SF 100, costs in the millions) inlined and optimized; at a smaller scale the
                // same thresholds give a cheaper JIT, whose reduction rate is another measurement
                // said once for the combination, with every query it concerns, after its trials (see run())
                partial = partial(plan, c);
            }
            m.put(jit, new Plan(plan, file, warning, partial));
        }
        return m;
    }

    /** What a jit=on plan compiled without, naming the thresholds that left it out: "without inlining (jit_inline_above_cost 500000)". */
    private static String partial(ExplainResult plan, Connection c) throws SQLException {
        List<String> missing = new ArrayList<>();
        if (!plan.jit().inlining()) missing.add("inlining (jit_inline_above_cost " + setting(c, "jit_inline_above_cost") + ")");
        if (!plan.jit().optimization()) missing.add("optimization (jit_optimize_above_cost " + setting(c, "jit_optimize_above_cost") + ")");
        return "without " + String.join(" or ", missing);
    }

    /** The settings a timed run's session reads, recorded per trial as it had them (not as asked). */
    static final List<String> RECORDED = List.of("jit", "jit_above_cost", "jit_inline_above_cost", "jit_optimize_above_cost",
            "max_parallel_workers_per_gather");

    private Trial timed(Connection c, Item it, String jit, int repeat, Plan plan, Trial.Builder b, java.util.Collection<String> matrix)
            throws SQLException {
        setJit(c, jit);
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : RECORDED) settings.put(name, setting(c, name));
        for (String name : matrix) settings.putIfAbsent(name, setting(c, name));
        b.extra("settings", settings);
        QueryTimer.Timing timing = QueryTimer.time(c, it.sql(), opts.fetchSize());
        ExplainResult.Jit j = plan.result().jit();
        b.metric("seconds", timing.seconds()).metric("rows", timing.rows())
                .metric("jit_functions", j == null ? 0 : j.functions())
                .metric("jit_generation_ms", j == null ? 0 : j.generationMs())
                .metric("jit_inlining_ms", j == null ? 0 : j.inliningMs())
                .metric("jit_optimization_ms", j == null ? 0 : j.optimizationMs())
                .metric("jit_emission_ms", j == null ? 0 : j.emissionMs())
                .metric("jit_total_ms", j == null ? 0 : j.totalMs())
                .extra("plan_file", plan.file()).extra("jit_from", JIT_FROM);
        if (j != null) b.extra("jit_inlining", j.inlining()).extra("jit_optimization", j.optimization());
        if (plan.warning() != null) b.extra("warning", plan.warning());
        if (plan.partial() != null) b.extra(JIT_PARTIAL, plan.partial()).extra("plan_cost", cost(plan.result()));
        err.printf(Locale.ROOT, "ssb jit=%s v%d %s #%d: %s, %d rows%s%s%n", jit, it.verification(), it.id(), repeat + 1,
                SecondsColumn.text(timing.seconds()), timing.rows(), j == null ? "" : ", " + j.functions() + " JIT functions", NOT_KEPT.get());
        return b.build();
    }

    private static void setJit(Connection c, String jit) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET jit = " + jit); // user-level: the same on managed and remote servers
        }
    }

    private static String setting(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT current_setting('" + name + "')")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String cost(ExplainResult plan) {
        var top = plan.json().isArray() ? plan.json().get(0) : plan.json();
        return String.format(Locale.ROOT, "%.0f", top.path("Plan").path("Total Cost").asDouble());
    }

    /** summary.csv: one row per cell (query × jit), as CellSummary.write, with the reduction rate on the jit=on row. */
    public static final List<String> HEADER = header(List.of());
    private static final List<String> JIT_METRICS = List.of("jit_functions", "jit_generation_ms", "jit_inlining_ms",
            "jit_optimization_ms", "jit_emission_ms", "jit_total_ms");
    private static final List<String> FIXED = List.of("verification", "query", "jit");

    /** summary.csv's columns with a matrix's settings after query. */
    public static List<String> header(List<String> settings) {
        List<String> h = new ArrayList<>(List.of("verification", "query"));
        h.addAll(settings);
        h.addAll(List.of("jit", "n", "status", "seconds_median", "seconds_min", "seconds_max", "rows", "jit_functions",
                "jit_generation_ms", "jit_inlining_ms", "jit_optimization_ms", "jit_emission_ms", "jit_total_ms", "reduction_pct", "reason"));
        return List.copyOf(h);
    }

    /** The matrix settings the trials were measured under, in their order: every parameter but the fixed three. */
    static List<String> settings(List<Trial> trials) {
        java.util.LinkedHashSet<String> s = new java.util.LinkedHashSet<>();
        for (Trial t : trials) for (String p : t.params().keySet()) if (!FIXED.contains(p)) s.add(p);
        return List.copyOf(s);
    }

    /**
     * Rows of summary.csv ({@link #header} of {@link #settings}): per cell median/min/max seconds, the JIT facts (one
     * EXPLAIN per cell, see JIT_FROM), and on the jit=on row the reduction rate 100 × (median off − median on) /
     * median off; none where JIT compiled nothing.
     */
    public static List<List<Object>> summary(List<Trial> trials) {
        List<Trial> jitTrials = trials.stream().filter(t -> t.params().containsKey("jit")).toList();
        List<String> settings = settings(jitTrials);
        List<String> columns = new ArrayList<>(List.of("verification", "query"));
        columns.addAll(settings);
        columns.add("jit");
        List<CellSummary> cells = CellSummary.of(jitTrials);
        Map<String, CellSummary> off = new HashMap<>();
        for (CellSummary c : cells) if ("off".equals(c.params().get("jit"))) off.put(pairKey(c, settings), c);
        Map<String, String> warnings = new HashMap<>();
        for (Trial t : trials) if (t.extra().get("warning") != null) warnings.put(t.cell(), t.extra().get("warning").toString());
        List<List<Object>> rows = new ArrayList<>();
        for (CellSummary c : cells) {
            boolean on = "on".equals(c.params().get("jit"));
            List<Object> r = ParallelSweep.timedCell(c, columns);
            for (String m : JIT_METRICS) r.add(c.median().get(m));
            String reason = c.reason();
            Double reduction = null;
            if (on && c.n() > 0) {
                Double tOn = c.median().get("seconds");
                CellSummary pair = off.get(pairKey(c, settings));
                Double tOff = pair == null ? null : pair.median().get("seconds");
                if (c.median().getOrDefault("jit_functions", 0.0) == 0) {
                    reason = join(warnings.getOrDefault(c.cell(), NOT_TRIGGERED), reason);
                } else {
                    // a JIT without inlining or optimization is measured, and its row says which it lacked
                    if (warnings.containsKey(c.cell())) reason = join(warnings.get(c.cell()), reason);
                    if (tOff != null && tOn != null && tOff > 0) reduction = 100 * (tOff - tOn) / tOff;
                }
            }
            r.add(reduction);
            r.add(reason);
            rows.add(r);
        }
        return rows;
    }

    private static String pairKey(CellSummary c, List<String> settings) {
        StringBuilder k = new StringBuilder().append(c.params().get("verification")).append('|').append(c.params().get("query"));
        for (String s : settings) k.append('|').append(c.params().get(s));
        return k.toString();
    }

    private static String join(String a, String b) {
        if (a == null || a.isEmpty()) return b == null ? "" : b;
        return b == null || b.isEmpty() ? a : a + "; " + b;
    }

    /** summary.csv and the table on stdout (a line per query, off and on side by side; a block per matrix combination). */
    @Override
    public List<List<Object>> finish(RunDirectory dir) {
        List<Trial> trials = dir.trials();
        List<List<Object>> rows = writeSummary(dir);
        List<String> settings = settings(trials.stream().filter(t -> t.params().containsKey("jit")).toList());
        List<String> h = header(settings);
        int v = h.indexOf("verification"), q = h.indexOf("query"), jit = h.indexOf("jit"), med = h.indexOf("seconds_median");
        int fn = h.indexOf("jit_functions"), red = h.indexOf("reduction_pct"), why = h.indexOf("reason");
        Map<List<Object>, List<Object>> on = new HashMap<>();
        for (List<Object> r : rows) if ("on".equals(r.get(jit))) on.put(pair(r, jit), r);
        SecondsColumn time = SecondsColumn.of(rows.stream().map(r -> r.get(med)).toList());
        out.printf(Locale.ROOT, "%-3s %-17s %10s %10s %10s %9s %9s %9s %9s %9s%n", "v", "query", time.header("jit_off"), time.header("jit_on"), "reduction",
                "functions", "gen_ms", "inline_ms", "opt_ms", "emit_ms");
        List<Object> combo = null;
        for (List<Object> a : rows) {
            if (!"off".equals(a.get(jit))) continue;
            if (!settings.isEmpty() && !a.subList(q + 1, jit).equals(combo)) {
                combo = a.subList(q + 1, jit);
                List<String> parts = new ArrayList<>();
                for (int i = 0; i < settings.size(); i++) parts.add(settings.get(i) + "=" + combo.get(i));
                out.println(String.join(" ", parts) + ":");
            }
            List<Object> b = on.getOrDefault(pair(a, jit), Collections.nCopies(h.size(), null));
            // a skipped pair has one reason on both rows (a matrix value the server refused): said once
            // which side a repeat failed on: the same "1 of 15 repeats failed: ..." twice said neither
            String onWhy = text(b.get(why)), offWhy = text(a.get(why));
            String note = onWhy.equals(offWhy) && !onWhy.contains(" repeats failed") ? offWhy
                    : join(onWhy.contains(" repeats failed") ? "jit=on: " + onWhy : onWhy, offWhy.contains(" repeats failed") ? "jit=off: " + offWhy : offWhy);
            out.printf(Locale.ROOT, "%-3s %-17s %10s %10s %10s %9s %9s %9s %9s %9s%s%n", a.get(v), a.get(q), time.cell(a.get(med)), time.cell(b.get(med)),
                    b.get(red) instanceof Double d ? String.format(Locale.ROOT, "%.1f%%", d) : "", b.get(fn) instanceof Double d ? d.intValue() : "",
                    f1(b.get(fn + 1)), f1(b.get(fn + 2)), f1(b.get(fn + 3)), f1(b.get(fn + 4)), note.isEmpty() ? "" : "  (" + note + ")");
        }
        out.println("JIT functions and times: " + JIT_FROM + " (plans/jit-on/); off and on alternate which runs first, repeat by repeat.");
        partialJit(trials).forEach(out::println);
        return rows;
    }

    /** Writes summary.csv from the trials so far, with the matrix's settings as columns; returns its rows. */
    private static List<List<Object>> writeSummary(RunDirectory dir) {
        List<Trial> trials = dir.trials();
        List<List<Object>> rows = summary(trials);
        dir.writeSummary(header(settings(trials.stream().filter(t -> t.params().containsKey("jit")).toList())), rows);
        return rows;
    }

    /** A row's cell without its jit value: the pair it belongs to. */
    private static List<Object> pair(List<Object> row, int jit) {
        return new ArrayList<>(row.subList(0, jit));
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }

    private static String f1(Object o) {
        return o instanceof Double d ? String.format(Locale.ROOT, "%.1f", d) : "";
    }
}
