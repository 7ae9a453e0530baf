package dev.kensho.ssb;

import java.util.Locale;
import dev.kensho.core.KenshoException;
import dev.kensho.core.measure.Prewarm;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.run.StudyLock;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.SettingsOutcome;
import dev.kensho.core.server.Target;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench ssb index-build}: the parallel query study's verification C — CREATE INDEX of a
 * composite B-tree on lineorder over 1 to 4 columns (lo_orderkey, +lo_custkey, +lo_partkey,
 * +lo_suppkey) for each max_parallel_maintenance_workers, timed, dropped after each build, with the
 * number of distinct key combinations the study used to explain the times.
 */
public final class IndexBuild implements SsbStudy {
    /** The run directory's command name for these runs: the report draws its charts by it. */
    public static final String COMMAND = "ssb index-build";
    public static final List<String> COLUMNS = List.of("lo_orderkey", "lo_custkey", "lo_partkey", "lo_suppkey");
    static final String INDEX = "kensho_ssb_index_build";
    /** The index's comment: what tells a later run that an index of this name is Kensho's to drop. */
    static final String MARK = "created by Kensho ssb index-build";

    /**
     * @param workers            max_parallel_maintenance_workers values
     * @param maxColumns         1..4: build the composites over the first 1..maxColumns columns
     * @param repeat             builds per cell (median reported)
     * @param maintenanceWorkMem maintenance_work_mem for the builds (parallel builds need 32MB per participant), or null
     */
    public record Options(List<Integer> workers, int maxColumns, int repeat, String maintenanceWorkMem) {
        /**
         * The command line's options as this record's components: a harness that wrote repeat 0 is told of its repeat,
         * not of a --repeat it never typed. bench ssb index-build turns them back.
         */
        public static final Map<String, String> COMPONENT_NAMES = Map.of("--maintenance-workers", "IndexBuild.Options workers",
                "--columns", "IndexBuild.Options maxColumns", "--repeat", "IndexBuild.Options repeat",
                "--maintenance-work-mem", "IndexBuild.Options maintenanceWorkMem");

        public Options {
            try {
                if (workers.isEmpty()) throw KenshoException.usage("--maintenance-workers needs at least one value");
                for (int w : workers) if (w < 0 || w > 1024) throw KenshoException.usage("--maintenance-workers " + w + ": expected 0..1024");
                for (int w : workers) if (workers.indexOf(w) != workers.lastIndexOf(w)) throw KenshoException.usage("--maintenance-workers " + w + " is given twice");
                if (maxColumns < 1 || maxColumns > 4) throw KenshoException.usage("--columns must be 1..4");
                if (repeat < 1) throw KenshoException.usage("--repeat must be at least 1");
                // refused here, not by the server after it started and loaded the data
                // maintenance_work_mem's own range (1MB .. 2147483647kB), not work_mem's 64kB: 64kB was let through to the server
                if (maintenanceWorkMem != null && (kilobytes(maintenanceWorkMem) < 1024 || kilobytes(maintenanceWorkMem) > Integer.MAX_VALUE)) {
                    throw KenshoException.usage("--maintenance-work-mem " + maintenanceWorkMem
                            + ": expected a size from 1MB to 2147483647kB, as PostgreSQL writes it (1GB, 512MB, 65536kB; no unit: kB)");
                }
            } catch (KenshoException e) {
                throw e.naming(COMPONENT_NAMES);
            }
            workers = List.copyOf(workers);
        }

        /** A memory size as postgresql.conf takes it, in kB; -1 where it is not one. */
        static double kilobytes(String size) {
            var m = java.util.regex.Pattern.compile("\\s*([0-9]*\\.?[0-9]+)\\s*(B|kB|MB|GB|TB)?\\s*").matcher(size);
            if (!m.matches()) return -1;
            double v = Double.parseDouble(m.group(1));
            return switch (m.group(2) == null ? "kB" : m.group(2)) {
                case "B" -> v / 1024;
                case "MB" -> v * 1024;
                case "GB" -> v * 1024 * 1024;
                case "TB" -> v * 1024 * 1024 * 1024;
                default -> v;
            };
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
    public IndexBuild(Options opts, PrintStream out, PrintStream err) {
        this.opts = opts;
        // null silences a stream, as SsbDatabase.load's progress and PgbenchRun.output take it
        this.out = out != null ? out : new PrintStream(java.io.OutputStream.nullOutputStream());
        this.err = err != null ? err : new PrintStream(java.io.OutputStream.nullOutputStream());
    }

    @Override
    public String command() {
        return COMMAND;
    }

    /** Builds and measures, holding the database's index-build lock: a second build at once dropped this one's index. */
    @Override
    public void run(SsbDatabase db, RunDirectory dir) {
        try (StudyLock lock = StudyLock.take(db.target(), StudyLock.INDEX_BUILD, "ssb index-build",
                "it would drop this one's index and share its build's CPU and I/O")) {
            runHolding(db, dir);
        }
    }

    /**
     * Sets the run directory up before anything is measured (the command calls it before the load, whose trial comes
     * first): summary.csv after every trial, and the build cells in run.json, which a report of an interrupted run names
     * where it never reached them. A run killed after the load had no summary.csv, and its report looked complete.
     */
    @Override
    public void prepare(RunDirectory dir) {
        dir.summarizeAfterEachTrial(d -> d.writeSummary(HEADER, summary(d.trials())));
        List<String> cells = new ArrayList<>();
        for (int w : opts.workers()) for (int k = 1; k <= opts.maxColumns(); k++) cells.add(cell(w, k));
        if (!dir.plannedCells().containsAll(cells)) dir.plannedCells(cells);
    }

    /**
     * Whether dir holds every build of every cell (a finished run's --resume): it then has nothing to build, and its
     * server is not started, loaded or set (each worker count's settings were applied before its cells were skipped).
     */
    @Override
    public boolean finishedIn(RunDirectory dir) {
        for (int w : opts.workers()) {
            for (int k = 1; k <= opts.maxColumns(); k++) for (int r = 0; r < opts.repeat(); r++) if (!dir.isFinished(cell(w, k), r)) return false;
        }
        return true;
    }

    private static String cell(int workers, int columns) {
        return "index-build;workers=" + workers + ";columns=" + columns;
    }

    private void runHolding(SsbDatabase db, RunDirectory dir) {
        Target t = db.target();
        prepare(dir);
        Map<Integer, Long> distinct = new HashMap<>();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            requireOwner(db, c);
            if (db.exists(c, INDEX)) {
                if (!leftByKensho(db, c)) {
                    // one an interrupted run left is Kensho's, dropped just below: this one is someone's, and they were
                    // told to drop it
                    throw KenshoException.usage("a relation named " + INDEX + " exists in schema " + db.schema()
                            + " that Kensho did not create; Kensho never drops it: run ssb index-build on SSB data in another schema");
                }
                s.execute("DROP INDEX " + qualified(db));
                err.println("ssb index-build: dropped index " + INDEX + " in schema " + db.schema() + ", left by an interrupted run");
            }
            // --resume: a count a finished build recorded is reused (at SF 100 each is a sort of 600 million rows)
            for (Trial done : dir.trials()) {
                if (done.ok() && done.cell().startsWith("index-build;") && done.metric("distinct_keys") != null
                        && done.params().get("columns") instanceof Number k) {
                    distinct.put(k.intValue(), done.metric("distinct_keys").longValue());
                }
            }
            for (int k = 1; k <= opts.maxColumns(); k++) {
                String cols = String.join(", ", COLUMNS.subList(0, k));
                if (distinct.containsKey(k)) continue;
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT DISTINCT " + cols + " FROM " + SsbDatabase.ident(db.schema()) + ".lineorder) d")) {
                    rs.next();
                    distinct.put(k, rs.getLong(1));
                }
                err.printf(Locale.ROOT, "ssb index-build: %d distinct (%s)%n", distinct.get(k), cols);
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot read lineorder: " + KenshoException.firstLine(e), e);
        }
        // once through SsbDatabase: it creates pg_prewarm in public (not in the SSB schema) and reports doing so
        db.prewarm(List.of("lineorder"), err, dir);
        boolean managed = t.kind().managed() || t.control().canRestart();
        ServerVersion version = ServerVersion.of(t);
        // before 11 every CREATE INDEX is serial and max_parallel_maintenance_workers does not exist: workers 0 is what
        // such a server always does, any other count is a build it cannot make
        boolean parallelBuilds = version.atLeast(11);
        for (int w : opts.workers()) {
            Map<String, String> want = new LinkedHashMap<>();
            if (parallelBuilds) want.put("max_parallel_maintenance_workers", Integer.toString(w));
            if (opts.maintenanceWorkMem() != null) want.put("maintenance_work_mem", opts.maintenanceWorkMem());
            String cannot = !parallelBuilds && w > 0 ? version.lacks("parallel CREATE INDEX (--maintenance-workers " + w + ")", 11) : null;
            if (parallelBuilds) {
                Map<String, String> cur = ParallelSweep.current(db, List.of("max_worker_processes", "max_parallel_workers"));
                if (managed && Integer.parseInt(cur.get("max_worker_processes")) < w + 2) {
                    want.put("max_worker_processes", Integer.toString(Math.max(8, w) + 2));
                }
                if (Integer.parseInt(cur.get("max_parallel_workers")) < w) want.put("max_parallel_workers", Integer.toString(Math.max(8, w)));
            }
            SettingsOutcome o = cannot == null ? t.control().apply(want) : null;
            for (int k = 1; k <= opts.maxColumns(); k++) {
                String cols = String.join(", ", COLUMNS.subList(0, k));
                String cell = cell(w, k);
                for (int r = 0; r < opts.repeat(); r++) {
                    if (dir.isFinished(cell, r)) continue;
                    // the settings in force, as an ssb trial records them: the report showed the environment's one
                    // max_parallel_maintenance_workers (the last applied) as if it held for the whole run
                    Trial.Builder b = Trial.of(cell, r).param("maintenance_workers", w).param("columns", k).param("key", cols)
                            .extra("settings", want);
                    if (cannot != null || !o.ok()) {
                        dir.append(b.skipped(cannot != null ? cannot : o.refusalReason()).build());
                        continue;
                    }
                    Trial built = build(db, cols, b.metric("distinct_keys", distinct.get(k)).started(java.time.Instant.now()), parallelBuilds);
                    dir.append(built);
                    // after the append, and only where it was kept: a time said before it, then a Ctrl-C, was no result
                    if (built.ok() && !dev.kensho.core.JvmShutdown.begun()) {
                        // the cell and repeat, as ssb's and query's lines name theirs: two worker counts' lines read alike
                        err.printf(Locale.ROOT, "ssb index-build workers=%d #%d (%s): %s%n", w, r + 1, cols, SecondsColumn.text(built.metric("seconds")));
                    }
                }
            }
        }
    }

    /**
     * Whether the index of our name is one a build of Kensho's left: marked, on the lineorder Kensho created here.
     * Anything else of that name is someone's, and stays.
     */
    static boolean leftByKensho(SsbDatabase db, Connection c) throws SQLException {
        if (!db.status().tables().contains("lineorder")) return false;
        try (var ps = c.prepareStatement("SELECT obj_description(i.indexrelid, 'pg_class'), i.indrelid = ?::regclass FROM pg_index i "
                + "JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_namespace n ON n.oid = ic.relnamespace "
                + "WHERE n.nspname = ? AND ic.relname = ?")) {
            ps.setString(1, SsbDatabase.ident(db.schema()) + ".lineorder");
            ps.setString(2, db.schema());
            ps.setString(3, INDEX);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && MARK.equals(rs.getString(1)) && rs.getBoolean(2);
            }
        }
    }

    private static String qualified(SsbDatabase db) {
        return SsbDatabase.ident(db.schema()) + "." + SsbDatabase.ident(INDEX);
    }

    /**
     * CREATE INDEX and its mark commit together, so no index of this name exists without the mark; a client gone
     * before the commit (Ctrl-C, SIGKILL) leaves no index at all. Returns the seconds to the commit.
     */
    static double createMarked(SsbDatabase db, Connection c, String cols) throws SQLException {
        return createMarked(db, c, cols, new ArrayList<>());
    }

    /** As above, adding the server's messages about the CREATE INDEX (its notices, DEBUG and LOG lines) to messages. */
    static double createMarked(SsbDatabase db, Connection c, String cols, List<String> messages) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            long t0 = System.nanoTime();
            s.execute("CREATE INDEX " + SsbDatabase.ident(INDEX) + " ON " + SsbDatabase.ident(db.schema()) + ".lineorder (" + cols + ")");
            for (java.sql.SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) messages.add(w.getMessage());
            s.execute("COMMENT ON INDEX " + qualified(db) + " IS " + SsbDatabase.literal(MARK));
            c.commit();
            return (System.nanoTime() - t0) / 1e9;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException gone) {
                e.addSuppressed(gone); // a lost connection rolls back by itself
            }
            throw e;
        } finally {
            if (!c.isClosed()) c.setAutoCommit(auto);
        }
    }

    /**
     * CREATE INDEX needs lineorder's owner (or a member of its role): a role that may only read it, in a database
     * someone else loaded, is told so once, where every build failed on it.
     */
    private static void requireOwner(SsbDatabase db, Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_get_userbyid(relowner), current_user, pg_has_role(current_user, relowner, 'USAGE') "
                + "FROM pg_class WHERE oid = to_regclass(?)")) {
            ps.setString(1, SsbDatabase.ident(db.schema()) + ".lineorder");
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getBoolean(3)) return;
                throw KenshoException.target("ssb index-build creates indexes on " + db.schema() + ".lineorder, which only its owner "
                        + rs.getString(1) + " may, not " + rs.getString(2) + ": run it as " + rs.getString(1)
                        + ", or load the SSB into a database or schema of " + rs.getString(2) + "'s own (ssb load)", null);
            }
        }
    }

    private Trial build(SsbDatabase db, String cols, Trial.Builder b, boolean parallelBuilds) {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            if (db.canPrewarm()) dev.kensho.core.server.OwnStatements.run(c, own -> Prewarm.tables(c, List.of(SsbDatabase.ident(db.schema()) + ".lineorder")));
            boolean leaderSorts = false;
            if (parallelBuilds) {
                // the planner's request (DEBUG1) and the sorts that ran (trace_sort's LOG lines), sent to this session only
                s.execute("SET client_min_messages = debug1");
                // the messages are read by their English words: a server speaking another language (the studies' were
                // Japanese) would leave both counts unrecorded; only a superuser may set this, others keep the server's
                try (ResultSet rs = s.executeQuery("SELECT current_setting('lc_messages') !~* '^(c|posix|en|)([._@].*)?$'")) {
                    rs.next();
                    if (rs.getBoolean(1)) s.execute("SET lc_messages = 'C'");
                } catch (SQLException notAllowed) {
                    // unrecorded where the server's language is not English, as before
                }
                try {
                    s.execute("SET trace_sort = on");
                } catch (SQLException noTraceSort) {
                    // a server built without TRACE_SORT (before 18 a build option): the launch goes unrecorded, the build on
                }
                try (ResultSet rs = s.executeQuery("SELECT current_setting('parallel_leader_participation')::bool")) {
                    rs.next();
                    leaderSorts = rs.getBoolean(1);
                }
            }
            List<String> messages = new ArrayList<>();
            double secs = createMarked(db, c, cols, messages);
            if (parallelBuilds) {
                s.execute("RESET client_min_messages");
                BuildWorkers w = BuildWorkers.of(messages, leaderSorts);
                if (w.planned() != null) b.metric("workers_planned", w.planned());
                if (w.launched() != null) b.metric("workers_launched", w.launched());
            } else {
                b.metric("workers_planned", 0).metric("workers_launched", 0);
            }
            long pages;
            try (ResultSet rs = s.executeQuery("SELECT pg_relation_size(" + SsbDatabase.literal(qualified(db)) + "::regclass)")) {
                rs.next();
                pages = rs.getLong(1);
            }
            s.execute("DROP INDEX " + qualified(db));
            return b.metric("seconds", secs).metric("index_bytes", pages).build();
        } catch (SQLException e) {
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                if (leftByKensho(db, c)) s.execute("DROP INDEX " + qualified(db)); // ours: created by this build
            } catch (SQLException ignored) {
                // reported below
            }
            return b.failed(KenshoException.firstLine(e)).build();
        }
    }

    /**
     * The workers a build asked for and those that sorted, from the server's messages: index.c's DEBUG1 "building index
     * ... with request for N parallel workers" (or "serially"), and trace_sort's "performsort of worker K starting" per
     * participant sort, the leader's among them where it participates (a build whose workers all failed to start is
     * serial, worker -1 only). Null where the messages are missing.
     */
    record BuildWorkers(Integer planned, Integer launched) {
        private static final java.util.regex.Pattern REQUEST = java.util.regex.Pattern.compile("with request for (\\d+) parallel workers");
        private static final java.util.regex.Pattern SORT = java.util.regex.Pattern.compile("performsort of worker (\\d+) starting");

        static BuildWorkers of(List<String> messages, boolean leaderSorts) {
            Integer planned = null;
            java.util.Set<String> sorts = new java.util.HashSet<>();
            boolean traced = false;
            for (String m : messages) {
                if (m == null) continue;
                var r = REQUEST.matcher(m);
                if (r.find()) planned = Integer.parseInt(r.group(1));
                else if (m.startsWith("building index") && m.endsWith("serially")) planned = 0;
                if (m.contains("performsort of worker")) traced = true;
                var w = SORT.matcher(m);
                if (w.find()) sorts.add(w.group(1));
            }
            Integer launched = planned == null ? null : planned == 0 ? Integer.valueOf(0)
                    : traced ? Integer.valueOf(Math.max(0, sorts.size() - (leaderSorts ? 1 : 0))) : null;
            return new BuildWorkers(planned, launched);
        }
    }

    public static final List<String> HEADER = List.of("maintenance_workers", "columns", "key", "distinct_keys", "n",
            "seconds_median", "seconds_min", "seconds_max", "index_bytes", "workers_planned", "workers_launched", "status", "reason");

    @Override
    public List<List<Object>> finish(RunDirectory dir) {
        List<List<Object>> rows = summary(dir.trials());
        dir.writeSummary(HEADER, rows);
        int status = HEADER.indexOf("status"), planned = HEADER.indexOf("workers_planned");
        SecondsColumn time = SecondsColumn.of(rows.stream().map(r -> r.get(5)).toList());
        out.printf(Locale.ROOT, "%8s %7s %12s %10s %8s %8s  %s%n", "workers", "columns", "distinct", time.header("median"), "planned", "launched", "key");
        for (List<Object> r : rows) {
            // the build's label is the setting; what ran is the planner's request (capped by the table's size) and its launch
            String fewer = r.get(planned) instanceof Integer p && r.get(0) instanceof Number w && p < w.intValue()
                    ? "  (planned fewer than " + w + ")" : "";
            if (r.get(planned + 1) instanceof Integer l && r.get(planned) instanceof Integer p && l < p) fewer += "  (launched fewer than planned)";
            out.printf(Locale.ROOT, "%8s %7s %12s %10s %8s %8s  %s%s%s%n", r.get(0), r.get(1), r.get(3),
                    time.cell(r.get(5)), text(r.get(planned)), text(r.get(planned + 1)), r.get(2),
                    fewer, "ok".equals(r.get(status)) ? "" : "  (" + r.get(status) + ": " + r.get(status + 1) + ")");
        }
        return rows;
    }

    /** summary.csv's rows: one per index build cell (maintenance workers × columns). */
    static List<List<Object>> summary(List<Trial> trials) {
        List<List<Object>> rows = new ArrayList<>();
        for (CellSummary c : CellSummary.of(trials)) {
            if (!c.cell().startsWith("index-build;")) continue;
            List<Object> r = new ArrayList<>();
            r.add(c.params().get("maintenance_workers"));
            r.add(c.params().get("columns"));
            r.add(c.params().get("key"));
            r.add(c.median().get("distinct_keys") == null ? null : c.median().get("distinct_keys").longValue());
            r.add(c.n());
            r.add(c.median().get("seconds"));
            r.add(c.min().get("seconds"));
            r.add(c.max().get("seconds"));
            r.add(c.median().get("index_bytes") == null ? null : c.median().get("index_bytes").longValue());
            r.add(c.median().get("workers_planned") == null ? null : c.median().get("workers_planned").intValue());
            r.add(c.median().get("workers_launched") == null ? null : c.median().get("workers_launched").intValue());
            r.add(c.status());
            r.add(c.reason());
            rows.add(r);
        }
        return rows;
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }
}
