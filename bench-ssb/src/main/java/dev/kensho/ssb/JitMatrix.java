package dev.kensho.ssb;

import dev.kensho.core.KenshoException;
import dev.kensho.core.measure.Explain;
import dev.kensho.core.measure.ExplainResult;
import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.SettingsOutcome;
import dev.kensho.core.server.Target;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench ssb jit}: the JIT study's three verifications (chapter 6), each query with jit=off and
 * jit=on and max_parallel_workers_per_gather=0: 1 — single operations over lineorder (the first
 * two return every row and are streamed), 2 — sum(lo_extendedprice) over integer, numeric, real
 * and double precision, 3 — the 13 SSB queries. Reports the reduction rate
 * 100 × (t_off − t_on) / t_off and, from EXPLAIN, the JIT functions and Generation / Inlining /
 * Optimization / Emission times.
 */
public final class JitMatrix {
    /** Said (one line) when the server cannot JIT; names the options that point Kensho elsewhere. */
    public static final String NO_JIT = "this server has no JIT (pg_jit_available() is false; the embedded PostgreSQL "
            + "binaries are built without LLVM): point Kensho at a JIT-capable server with --pg-bin DIR (an installed "
            + "PostgreSQL built --with-llvm, e.g. /usr/lib/postgresql/15/bin) or --url jdbc:postgresql://HOST:PORT/DB";

    /** One query of a verification. */
    public record Item(int verification, String id, String sql) { }

    /**
     * @param verifications which of 1, 2, 3 to run
     * @param repeat        timed runs per query and jit value (median reported)
     * @param queries       SSB query ids for verification 3 (empty: all 13)
     * @param costs         jit_above_cost, jit_inline_above_cost, jit_optimize_above_cost as given (absent: server's)
     * @param fetchSize     rows per fetch while streaming
     */
    public record Options(List<Integer> verifications, int repeat, List<String> queries, Map<String, String> costs,
                          int fetchSize) {
        public Options {
            if (repeat < 1) throw KenshoException.usage("--repeat must be at least 1");
            if (fetchSize < 1) throw KenshoException.usage("--fetch-size must be at least 1 (0 would buffer whole results)");
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
        }
    }

    private final Options opts;
    private final PrintStream out;
    private final PrintStream err;

    public JitMatrix(Options opts, PrintStream out, PrintStream err) {
        this.opts = opts;
        this.out = out;
        this.err = err;
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
        if (verifications.contains(2)) l.addAll(List.of("lineorder_n", "lineorder_r", "lineorder_d"));
        return l;
    }

    /** Refuses (usage error, one line) when the server cannot JIT. */
    public static void requireJit(Target t) {
        try (Connection c = t.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_jit_available()")) {
            rs.next();
            if (!rs.getBoolean(1)) throw KenshoException.usage(NO_JIT);
        } catch (SQLException e) {
            throw KenshoException.target("cannot ask the server about JIT: " + KenshoException.firstLine(e), e);
        }
    }

    /** Measures every item with jit=off, then jit=on. The data must be loaded; the type variants are created here. */
    public void run(SsbDatabase db, RunDirectory dir) throws InterruptedException {
        Target t = db.target();
        requireJit(t);
        if (opts.verifications().contains(2)) {
            for (String v : List.of("lineorder_n", "lineorder_r", "lineorder_d")) db.ensureVariant(v);
        }
        List<Item> items = items(opts.verifications(), opts.queries());
        Map<String, String> want = new LinkedHashMap<>();
        want.put("max_parallel_workers_per_gather", "0");
        want.putAll(opts.costs());
        SettingsOutcome o = t.control().apply(want);
        if (!o.ok()) throw KenshoException.usage("cannot apply the JIT settings: " + o.refusalReason());
        o.actions().forEach(a -> dir.note("jit: " + a));
        db.prewarm(tables(opts.verifications()), err, dir);
        // off and on alternate query by query, so drift in the machine's load does not favour either
        List<Cell> cells = new ArrayList<>();
        for (Item it : items) for (String jit : List.of("off", "on")) cells.add(new Cell(it, jit));
        measure(db, cells, dir);
    }

    private record Cell(Item item, String jit) { }

    private void measure(SsbDatabase db, List<Cell> cells, RunDirectory dir) throws InterruptedException {
        Map<String, ExplainResult> plans = new HashMap<>();
        TrialMatrix<Cell> m = new TrialMatrix<>(cells, c -> "v" + c.item().verification() + ";query=" + c.item().id() + ";jit=" + c.jit(),
                opts.repeat(), TrialMatrix.Order.SEQUENTIAL, 0);
        Connection[] conn = new Connection[1];
        try {
            m.run(dir, p -> {
                Item it = p.cell().item();
                String jit = p.cell().jit();
                if (conn[0] == null) conn[0] = db.connect();
                try (Statement st = conn[0].createStatement()) {
                    st.execute("SET jit = " + jit); // user-level: the same on managed and remote servers
                }
                Trial.Builder b = Trial.of(p.key(), p.repeat()).param("verification", it.verification())
                        .param("query", it.id()).param("jit", jit);
                ExplainResult plan = plans.get(p.key());
                if (plan == null) {
                    plan = Explain.analyze(conn[0], it.sql());
                    plans.put(p.key(), plan);
                    String file = "plans/jit-" + jit + "/v" + it.verification() + "-" + it.id().replaceAll("[^A-Za-z0-9.]+", "_") + ".json";
                    dir.writeJson(file, plan.json());
                    b.extra("plan_file", file);
                }
                QueryTimer.Timing timing = QueryTimer.time(conn[0], it.sql(), opts.fetchSize());
                ExplainResult.Jit j = plan.jit();
                b.metric("seconds", timing.seconds()).metric("rows", timing.rows())
                        .metric("jit_functions", j == null ? 0 : j.functions())
                        .metric("jit_generation_ms", j == null ? 0 : j.generationMs())
                        .metric("jit_inlining_ms", j == null ? 0 : j.inliningMs())
                        .metric("jit_optimization_ms", j == null ? 0 : j.optimizationMs())
                        .metric("jit_emission_ms", j == null ? 0 : j.emissionMs())
                        .metric("jit_total_ms", j == null ? 0 : j.totalMs());
                if (j != null) b.extra("jit_inlining", j.inlining()).extra("jit_optimization", j.optimization());
                err.printf("ssb jit=%s v%d %s #%d: %.3f s, %d rows%s%n", jit, it.verification(), it.id(), p.repeat() + 1,
                        timing.seconds(), timing.rows(), j == null ? "" : ", " + j.functions() + " JIT functions");
                return b.build();
            }, new TrialMatrix.Listener<>() { });
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

    public static final List<String> HEADER = List.of("verification", "query", "off_seconds", "on_seconds", "reduction_pct",
            "jit_functions", "generation_ms", "inlining_ms", "optimization_ms", "emission_ms", "jit_total_ms", "rows", "n");

    /** One row per query: medians off/on, reduction rate, and the JIT facts of the jit=on run. */
    public static List<List<Object>> summary(List<Trial> trials) {
        Map<String, CellSummary> off = new LinkedHashMap<>();
        Map<String, CellSummary> on = new LinkedHashMap<>();
        for (CellSummary c : CellSummary.of(trials)) {
            if (!c.params().containsKey("jit")) continue;
            String key = c.params().get("verification") + "|" + c.params().get("query");
            ("on".equals(c.params().get("jit")) ? on : off).put(key, c);
        }
        List<List<Object>> rows = new ArrayList<>();
        for (var e : off.entrySet()) {
            CellSummary a = e.getValue();
            CellSummary b = on.get(e.getKey());
            Double tOff = a.median().get("seconds");
            Double tOn = b == null ? null : b.median().get("seconds");
            List<Object> r = new ArrayList<>();
            r.add(a.params().get("verification"));
            r.add(a.params().get("query"));
            r.add(tOff);
            r.add(tOn);
            r.add(tOff != null && tOn != null && tOff > 0 ? 100 * (tOff - tOn) / tOff : null);
            for (String m : List.of("jit_functions", "jit_generation_ms", "jit_inlining_ms", "jit_optimization_ms",
                    "jit_emission_ms", "jit_total_ms")) {
                r.add(b == null ? null : b.median().get(m));
            }
            r.add(a.median().get("rows") == null ? null : a.median().get("rows").longValue());
            r.add(Math.min(a.n(), b == null ? 0 : b.n()));
            rows.add(r);
        }
        return rows;
    }

    /** summary.csv and the table on stdout. */
    public List<List<Object>> finish(RunDirectory dir) {
        List<List<Object>> rows = summary(dir.trials());
        dir.writeSummary(HEADER, rows);
        out.printf("%-3s %-17s %10s %10s %10s %9s %9s %9s %9s %9s%n", "v", "query", "jit_off_s", "jit_on_s", "reduction",
                "functions", "gen_ms", "inline_ms", "opt_ms", "emit_ms");
        for (List<Object> r : rows) {
            out.printf("%-3s %-17s %10s %10s %10s %9s %9s %9s %9s %9s%n", r.get(0), r.get(1), f3(r.get(2)), f3(r.get(3)),
                    r.get(4) == null ? "" : String.format("%.1f%%", (Double) r.get(4)), r.get(5) == null ? "" : ((Double) r.get(5)).intValue(),
                    f1(r.get(6)), f1(r.get(7)), f1(r.get(8)), f1(r.get(9)));
        }
        return rows;
    }

    private static String f3(Object o) {
        return o instanceof Double d ? String.format("%.3f", d) : "";
    }

    private static String f1(Object o) {
        return o instanceof Double d ? String.format("%.1f", d) : "";
    }
}
