package dev.kensho.core.run;

import dev.kensho.core.KenshoException;
import dev.kensho.core.measure.Explain;
import dev.kensho.core.measure.ExplainResult;
import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.SettingsOutcome;
import dev.kensho.core.server.Target;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Named queries × combinations of server settings, each timed with its full result streamed,
 * repeated, in sequential or random order (the micro query benchmarks of the 2006 patch study,
 * or any "this query under these settings" question). Settings a target refuses are recorded as
 * skipped cells with the reason; a query the server rejects is a failed trial with the error's first line.
 */
public final class QueryMatrix {


    /** One query to time. */
    public record Query(String name, String sql) { }

    /** A cell: a query under one combination of settings, on one labelled target. */
    public record Cell(String target, Query query, Map<String, String> settings) {
        public String key() {
            StringBuilder sb = new StringBuilder("target=").append(target).append(";query=").append(query.name());
            settings.forEach((k, v) -> sb.append(';').append(k).append('=').append(v));
            return sb.toString();
        }
    }

    /**
     * The settings of {@code --matrix NAME=V1,V2} options, in their order (the first varies slowest). Refused: no
     * name, a setting given twice (a second --matrix of it replaced the first unsaid) and a value
     * given twice (it ran a cell twice over).
     */
    public static Map<String, List<String>> settings(List<String> matrixOptions) {
        Map<String, List<String>> varied = new LinkedHashMap<>();
        for (String m : matrixOptions) {
            int eq = m.indexOf('=');
            if (eq <= 0 || m.substring(0, eq).isBlank()) throw KenshoException.usage("--matrix " + m + ": expected NAME=V1,V2");
            String name = m.substring(0, eq).strip();
            // an empty value is the server's to judge: "" is a value of some settings (default_tablespace)
            List<String> values = List.of(m.substring(eq + 1).split(","));
            if (varied.keySet().stream().anyMatch(n -> n.equalsIgnoreCase(name) && !n.equals(name))) {
                throw KenshoException.usage("--matrix " + name + " and --matrix " + varied.keySet().stream().filter(n -> n.equalsIgnoreCase(name))
                        .findFirst().orElseThrow() + " are one setting: list its values in one");
            }
            if (varied.containsKey(name)) {
                throw KenshoException.usage("--matrix " + name + " given twice: list its values in one (--matrix " + name + "="
                        + String.join(",", varied.get(name)) + "," + String.join(",", values) + ")");
            }
            if (values.stream().distinct().count() < values.size()) throw KenshoException.usage("--matrix " + m + ": a value is given twice");
            varied.put(name, values);
        }
        return varied;
    }

    /** Every combination of the settings' values, the first setting varying slowest; one empty map without any. */
    public static List<Map<String, String>> combinations(Map<String, List<String>> varied) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (var e : varied.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : out) {
                for (String v : e.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(partial);
                    m.put(e.getKey(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    private final List<Query> queries;
    private final Map<String, List<String>> varied;
    private final int repeats;
    private final int warmups;
    private final TrialMatrix.Order order;
    private final long seed;
    private final boolean explain;
    private final int fetchSize;
    /** Per target, the "name=value"s checkSettings saw it reject, with the server's words: their cells are skipped. */
    private final Map<String, Map<String, String>> rejectedOn = new java.util.HashMap<>();
    /** Per target, the queries that write and what makes them ({@link #writingQueries}). */
    private final Map<String, Map<String, String>> writingOn = new java.util.HashMap<>();

    public QueryMatrix(List<Query> queries, Map<String, List<String>> varied, int repeats, int warmups,
                       TrialMatrix.Order order, long seed, boolean explain, int fetchSize) {
        this.queries = List.copyOf(queries);
        this.varied = new LinkedHashMap<>(varied);
        this.repeats = repeats;
        this.warmups = warmups;
        this.order = order;
        this.seed = seed;
        this.explain = explain;
        this.fetchSize = fetchSize;
    }

    /** Every combination of the varied settings (cartesian product, in option order). */
    public List<Map<String, String>> combinations() {
        return combinations(varied);
    }

    public List<Cell> cells(String targetLabel) {
        List<Cell> cells = new ArrayList<>();
        for (Map<String, String> s : combinations()) for (Query q : queries) cells.add(new Cell(targetLabel, q, s));
        return cells;
    }

    /**
     * Whether dir holds every repeat of every cell on these targets (a finished run's --resume): it then has nothing to
     * run, and its targets need not be opened, nor its --setup run again.
     */
    public boolean finishedIn(RunDirectory dir, List<String> targetLabels) {
        for (String label : targetLabels) {
            for (Cell c : cells(label)) for (int r = 0; r < repeats; r++) if (!dir.isFinished(c.key(), r)) return false;
        }
        return true;
    }

    /**
     * Refuses, before any cell runs, a varied setting this server does not know (only when namesMustExist, i.e. one
     * target: among several versions one may lack a setting the others have, and its cells are then skipped with the
     * reason) and a value it rejects, in the server's words. A value is tried with SET LOCAL in a transaction rolled
     * back, so only the settings a session may set are tried; the others meet the server when applied. Among
     * several targets a value one of them rejects (an enum value a later version added) only skips that target's
     * cells with the reason, as a missing name does; what was rejected is returned ("name=value" → the server's words).
     */
    public Map<String, String> checkSettings(Target target, String targetLabel, boolean namesMustExist) {
        Map<String, String> rejected = new LinkedHashMap<>();
        if (varied.isEmpty()) return rejected;
        try (Connection c = target.connect()) {
            Map<String, String> contexts = new LinkedHashMap<>();
            // a setting's name in any case, as the server takes it (ENABLE_INDEXSCAN, timezone)
            try (var ps = c.prepareStatement("SELECT lower(name), context FROM pg_settings WHERE lower(name) = ANY (?)")) {
                ps.setArray(1, c.createArrayOf("text", varied.keySet().stream().map(n -> n.toLowerCase(java.util.Locale.ROOT)).toArray()));
                try (var rs = ps.executeQuery()) {
                    while (rs.next()) contexts.put(rs.getString(1), rs.getString(2));
                }
            }
            for (var e : varied.entrySet()) {
                String ctx = contexts.get(e.getKey().toLowerCase(java.util.Locale.ROOT));
                if (ctx == null && namesMustExist) {
                    throw KenshoException.usage("--matrix " + e.getKey() + ": unrecognized configuration parameter (not in pg_settings of "
                            + targetLabel + ")");
                }
                if (ctx == null) {
                    for (String v : e.getValue()) rejected.put(e.getKey() + "=" + v, "unrecognized configuration parameter");
                    continue;
                }
                if (!"user".equals(ctx) && !"superuser".equals(ctx)) continue;
                // pgjdbc closes a session whose DateStyle output is not ISO, even for a SET LOCAL rolled back: its values
                // meet the server when a cell applies them (JdbcTarget keeps their day/month order for pgjdbc's sessions)
                if (e.getKey().equalsIgnoreCase("DateStyle")) continue;
                c.setAutoCommit(false);
                // SET LOCAL as the transaction's first statement: a SELECT would take a snapshot first, after which
                // transaction_isolation and the like refuse any value. The name is pg_settings' own.
                try (var st = c.createStatement()) {
                    for (String v : e.getValue()) {
                        try {
                            st.execute("SET LOCAL " + e.getKey() + " TO " + dev.kensho.core.server.SqlIdentifier.literal(v));
                            c.rollback();
                        } catch (SQLException no) {
                            c.rollback();
                            // not allowed to this user: apply() refuses it and its cells are skipped with the reason
                            if ("42501".equals(no.getSQLState())) break;
                            if (namesMustExist) throw KenshoException.usage("--matrix " + e.getKey() + "=" + v + ": " + serverWords(no));
                            rejected.put(e.getKey() + "=" + v, serverWords(no));
                        }
                    }
                } finally {
                    c.rollback();
                    c.setAutoCommit(true);
                }
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot check the --matrix settings on " + targetLabel + ": " + KenshoException.firstLine(e), e);
        }
        rejectedOn.put(targetLabel, rejected);
        return rejected;
    }

    /** The server's message without pgjdbc's "ERROR: " and second lines. */
    private static String serverWords(SQLException e) {
        if (e instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                && p.getServerErrorMessage().getMessage() != null) {
            return KenshoException.firstLine(p.getServerErrorMessage().getMessage());
        }
        return KenshoException.firstLine(e);
    }

    /**
     * The queries that write on this target, by name, with what makes them write ({@link QueryTimer#writes}): each runs
     * on every warm-up and repeat of its cells, and its EXPLAIN ANALYZE (--explain) is rolled back.
     */
    public Map<String, String> writingQueries(Target target, String targetLabel) {
        Map<String, String> writing = new LinkedHashMap<>();
        try (Connection c = target.connect()) {
            for (Query q : queries) {
                String w = QueryTimer.writes(c, q.sql());
                if (w != null) writing.put(q.name(), w);
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot connect to " + targetLabel + ": " + KenshoException.firstLine(e), e);
        }
        writingOn.put(targetLabel, writing);
        return writing;
    }

    /** How often one cell's statement runs: its warm-ups and repeats. */
    public int runsPerCell() {
        return warmups + repeats;
    }

    /** Runs every cell on target, appending trials to dir. */
    public void run(Target target, String targetLabel, RunDirectory dir, TrialMatrix.Listener<Cell> listener)
            throws InterruptedException {
        Map<String, String> writing = writingOn.containsKey(targetLabel) ? writingOn.get(targetLabel) : writingQueries(target, targetLabel);
        Map<String, Boolean> warmed = new LinkedHashMap<>();
        new TrialMatrix<>(cells(targetLabel), Cell::key, repeats, order, seed).run(dir, p -> {
            Cell cell = p.cell();
            Trial.Builder t = Trial.of(p.key(), p.repeat()).param("target", cell.target()).param("query", cell.query().name());
            cell.settings().forEach(t::param);
            String writes = writing.get(cell.query().name());
            if (writes != null) t.extra("writes", writes);
            // a value checkSettings saw this server reject: applying it would only fail (a managed server refuses it)
            for (var s : cell.settings().entrySet()) {
                String why = rejectedOn.getOrDefault(targetLabel, Map.of()).get(s.getKey() + "=" + s.getValue());
                if (why != null) return t.skipped(s.getKey() + "=" + s.getValue() + ": " + why).build();
            }
            try {
                // a server that crashed under an earlier cell is back in seconds: its cells are not lost in milliseconds each
                TrialMatrix.awaitServer(target, targetLabel, p.key(), t, dir);
            } catch (SQLException e) {
                return t.failed(KenshoException.firstLine(e)).build();
            }
            if (!cell.settings().isEmpty()) {
                SettingsOutcome o = target.control().apply(cell.settings());
                if (!o.ok()) return t.skipped(o.refusalReason()).build();
                if (o.restarted()) t.extra("restarted", true);
            }
            try (Connection c = target.connect()) {
                if (warmed.putIfAbsent(p.key(), true) == null) {
                    for (int i = 0; i < warmups; i++) QueryTimer.time(c, cell.query().sql(), fetchSize);
                }
                QueryTimer.Timing timing = QueryTimer.time(c, cell.query().sql(), fetchSize);
                t.metric("ms", timing.millis()).metric("rows", timing.rows()).metric("bytes", timing.bytes())
                        .metric("first_row_ms", timing.firstRowNanos() / 1e6);
                if (explain && p.repeat() == 0 && !Explain.explainable(cell.query().sql())) {
                    // EXPLAIN SHOW ... is a syntax error: the statement that ran fine was recorded as failed with it
                    t.extra("plan_skipped", "EXPLAIN does not take " + KenshoException.firstLine(cell.query().sql()).split("\\s+", 2)[0].toUpperCase(java.util.Locale.ROOT));
                } else if (explain && p.repeat() == 0) {
                    ExplainResult e;
                    if (writes != null) {
                        // EXPLAIN ANALYZE runs the statement: once more than the repeats, its writes are rolled back
                        c.setAutoCommit(false);
                        try {
                            e = Explain.analyze(c, cell.query().sql());
                        } finally {
                            c.rollback();
                            c.setAutoCommit(true);
                        }
                        t.extra("plan_rolled_back", true);
                    } else {
                        e = Explain.analyze(c, cell.query().sql());
                    }
                    t.extra("plan", e.json());
                    t.metric("workers_planned", e.workersPlanned()).metric("workers_launched", e.workersLaunched());
                    if (e.jit() != null) t.metric("jit_total_ms", e.jit().totalMs());
                }
            } catch (SQLException e) {
                // one line ("ERROR: syntax error at or near …", without pgjdbc's "\n  Position: 1"), with the cell's params
                return t.failed(KenshoException.firstLine(e)).build();
            }
            return t.build();
        }, listener);
    }
}
