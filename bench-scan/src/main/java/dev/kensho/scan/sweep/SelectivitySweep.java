package dev.kensho.scan.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kensho.core.measure.Explain;
import dev.kensho.core.measure.ExplainResult;
import dev.kensho.core.measure.Prewarm;
import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.SettingsOutcome;
import dev.kensho.core.server.Target;
import dev.kensho.scan.CacheState;
import dev.kensho.scan.Scan;
import dev.kensho.scan.cache.PageCache;
import dev.kensho.core.run.StudyLock;
import dev.kensho.scan.table.ScanTable;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the cells of a sweep: brings the server to the cell's shared_buffers, makes the cache cold
 * (restart, drop the OS page cache) or warm (pg_prewarm), times the query and checks its plan.
 */
public final class SelectivitySweep {
    /** How a cell's time is taken. */
    public enum Timing {
        /** Every row received by the client in one execution, as psql's SELECT * would (the study's view). */
        CLIENT,
        /** EXPLAIN (ANALYZE, TIMING OFF, BUFFERS): server execution time, no result transfer; adds buffer counts. */
        SERVER
    }

    public static final String SERVER_VALUE = "server";
    /** Why a cold cell is skipped on a server Kensho may not restart. */
    public static final String NO_RESTART = "the server may not be restarted (no --restart-command)";
    /**
     * A warm trial's extra when its table and index exceed shared_buffers: pg_prewarm could not hold them, so part of the
     * scan reads from outside shared buffers (the OS cache or the disk), as in the study's small-cache case.
     */
    public static final String PARTLY_WARM = "partly_warm";

    private final Target target;
    private final long rows;
    private final Timing timing;
    private final Integer parallelWorkers;
    private String osCacheUnavailable;
    private StudyLock lock;
    /** shared_buffers before the sweep's first cell: what cells labelled "server" run with. */
    private String serverSharedBuffers;

    /**
     * @param dropOsCache       drop the OS page cache for cold cells (only effective on the server's host)
     * @param parallelWorkers   max_parallel_workers_per_gather for both queries, null = server's value
     */
    public SelectivitySweep(Target target, long rows, Timing timing, Integer parallelWorkers, boolean dropOsCache) {
        this.target = target;
        this.rows = rows;
        this.timing = timing;
        this.parallelWorkers = parallelWorkers;
        if (!dropOsCache) osCacheUnavailable = "OS page cache drop disabled by option";
        else if (!target.sameHost()) osCacheUnavailable = "the server runs on another host";
    }

    /** The scan's lock on its database, taken again after a restart ends the session that held it. */
    public SelectivitySweep holding(StudyLock lock) {
        this.lock = lock;
        return this;
    }

    /** Why cold cells will be "server-cold only", or null when the OS cache is dropped (a trial drop succeeded). */
    public String osCacheStatus() {
        if (osCacheUnavailable == null) {
            String r = PageCache.unavailableReason();
            if (r != null) osCacheUnavailable = r;
        }
        return osCacheUnavailable;
    }

    /** Where to note a pg_prewarm extension the sweep had to create (null outside run()). */
    private RunDirectory notes;

    public void run(RunDirectory dir, List<Cell> cells, int repeats, PrintStream progress) throws InterruptedException {
        notes = dir;
        TrialMatrix<Cell> m = new TrialMatrix<>(cells, Cell::key, Cell::params, repeats, TrialMatrix.Order.SEQUENTIAL, 0);
        TrialMatrix.Listener<Cell> listener = progress == null ? new TrialMatrix.Listener<>() { } : new ProgressBar(progress);
        m.run(dir, this::measure, listener);
    }

    Trial measure(TrialMatrix.Planned<Cell> p) throws Exception {
        Cell cell = p.cell();
        Trial.Builder b = Trial.of(p.key(), p.repeat()).params(cell.params());
        // a server down before the cell (a restart whose start failed, its port taken meanwhile): started again, as the
        // other commands do; else every later cell failed in milliseconds on "Connection refused", the cold ones too
        TrialMatrix.awaitServer(target, "scan", p.key() + " #" + (p.repeat() + 1), b, notes);
        // read before this sweep changes it: "server" cells after a "small" sweep ran with small's value under server's name
        if (serverSharedBuffers == null) serverSharedBuffers = sharedBuffersNow();
        if (cell.cache() == CacheState.COLD && !target.control().canRestart()) return b.skipped("cold: " + NO_RESTART).build();
        boolean server = cell.sharedBuffers().equals(SERVER_VALUE);
        String wanted = server ? serverSharedBuffers : cell.sharedBuffers();
        if (server) b.extra("shared_buffers_server", serverSharedBuffers);
        if (!hasSharedBuffers(wanted)) {
            SettingsOutcome o = target.control().apply(Map.of("shared_buffers", wanted));
            if (!o.ok()) return b.skipped("shared_buffers " + cell.sharedBuffers() + ": " + o.refusalReason()).build();
            if (o.restarted()) b.extra("settings", o.actions());
        }
        String table = ScanTable.name(cell.layout());
        if (cell.cache() == CacheState.COLD) {
            long t0 = System.nanoTime();
            target.control().restart();
            b.metric("restart_ms", (System.nanoTime() - t0) / 1e6);
            if (osCacheUnavailable == null) {
                PageCache.Drop d = PageCache.drop();
                if (!d.dropped()) osCacheUnavailable = d.reason();
                b.extra("os_cached_kb_before", d.cachedKbBefore()).extra("os_cached_kb_after", d.cachedKbAfter());
            }
            boolean dropped = osCacheUnavailable == null;
            b.extra("os_cache_dropped", dropped);
            b.extra("cold", dropped ? "server restarted, OS page cache dropped" : "server-cold only: " + osCacheUnavailable);
        }
        if (lock != null) lock.hold();
        try (Connection c = target.connect()) {
            if (cell.cache() == CacheState.WARM) {
                Prewarm.Result r = dev.kensho.core.server.OwnStatements.run(c, own -> Prewarm.tables(c, List.of(table)));
                b.extra("prewarmed_blocks", r.blocks());
                // pg_prewarm reads every block whatever shared_buffers holds: the excess evicts the first ones read
                long buffers = sharedBufferBlocks(c);
                if (r.blocks() > buffers) {
                    b.extra(PARTLY_WARM, "table and index " + r.blocks() + " blocks, shared_buffers " + buffers + " blocks");
                }
                // a change to the user's database (a remote one too): it goes on record
                if (r.createdExtension() && notes != null) {
                    notes.note("created extension pg_prewarm in schema public of database " + target.database()
                            + " to prewarm the scan table (DROP EXTENSION pg_prewarm removes it)");
                }
            }
            ScanQuery.configure(c, parallelWorkers);
            String sql = ScanQuery.sql(cell.scan(), table, rows, cell.percent());
            long expected = ScanQuery.upperKey(rows, cell.percent());
            ExplainResult plan;
            long got;
            if (timing == Timing.CLIENT) {
                QueryTimer.Timing t = QueryTimer.time(c, sql);
                got = t.rows();
                b.metric("time_ms", t.millis()).metric("first_row_ms", t.firstRowNanos() / 1e6).metric("rows", t.rows());
                // Planned after the timed run so a cold cell's first read is the query's own.
                plan = Explain.plan(c, sql);
            } else {
                plan = analyze(c, sql);
                JsonNode top = plan.json().get(0).path("Plan");
                got = top.path("Actual Rows").asLong();
                b.metric("time_ms", plan.executionMs()).metric("planning_ms", plan.planningMs()).metric("rows", got)
                        .metric("shared_hit_blocks", top.path("Shared Hit Blocks").asLong())
                        .metric("shared_read_blocks", top.path("Shared Read Blocks").asLong());
            }
            b.extra("plan", String.join(" > ", plan.nodeTypes()));
            b.extra("workers_planned", plan.workersPlanned());
            // known where the timed run is the EXPLAIN ANALYZE (server timing); a plain EXPLAIN says -1
            int launched = plan.workersLaunched();
            if (plan.workersPlanned() > 0 && launched >= 0) b.extra("workers_launched", launched);
            if (plan.jit() != null) b.extra("jit_functions", plan.jit().functions());
            String wrong = planProblem(cell.scan(), plan);
            // planned workers that did not start (max_parallel_workers, slots other queries hold) ran the scan serially:
            // kept as a parallel cell, its serial time lowered nothing and moved the crossover
            if (wrong == null && plan.workersPlanned() > 0 && launched >= 0 && launched < plan.workersPlanned()) {
                wrong = "launched " + launched + " of the " + plan.workersPlanned() + " parallel workers planned (max_parallel_workers, or"
                        + " max_worker_processes' slots, which other sessions and the server's own workers hold too)";
            }
            if (wrong == null && got != expected) wrong = "returned " + got + " rows, expected " + expected;
            Trial t = b.build();
            if (wrong == null) return t;
            Map<String, Object> extra = new LinkedHashMap<>(t.extra());
            extra.put("reason", wrong);
            return new Trial(t.cell(), t.repeat(), t.params(), t.metrics(), extra, "invalid", t.started(), t.finished());
        }
    }

    /** shared_buffers in blocks, as the server runs. */
    private static long sharedBufferBlocks(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The server's shared_buffers as a setting's value (128MB; kB where not whole MB). */
    private String sharedBuffersNow() throws SQLException {
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT setting::bigint * current_setting('block_size')::bigint FROM pg_settings WHERE name = 'shared_buffers'")) {
            rs.next();
            long bytes = rs.getLong(1);
            return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + "MB" : bytes / 1024 + "kB";
        }
    }

    /** True when the server already runs with this shared_buffers (no restart needed to get it). */
    private boolean hasSharedBuffers(String value) throws SQLException {
        // a bare number is blocks, as the server reads it (a run that recorded 16384 before it was labelled 128MB)
        boolean blocks = value.strip().matches("\\d+");
        try (Connection c = target.connect();
             java.sql.PreparedStatement ps = c.prepareStatement(blocks ? "SELECT ?::bigint = setting::bigint FROM pg_settings "
                     + "WHERE name = 'shared_buffers'" : "SELECT pg_size_bytes(?) = setting::bigint * "
                     + "current_setting('block_size')::bigint FROM pg_settings WHERE name = 'shared_buffers'")) {
            ps.setString(1, value.strip());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static ExplainResult analyze(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, FORMAT JSON) " + sql)) {
            rs.next();
            return Explain.parse(rs.getString(1));
        }
    }

    /** Null when the plan is the intended one and not JIT-compiled (the session set jit = off), else what it was. */
    static String planProblem(Scan scan, ExplainResult plan) {
        String wrong = planProblem(scan, plan.nodeTypes());
        if (wrong == null && plan.jit() != null) {
            wrong = "plan was JIT-compiled (" + plan.jit().functions() + " functions), expected no JIT";
        }
        return wrong;
    }

    /** Null when the plan's nodes are the intended ones, else what they were. */
    static String planProblem(Scan scan, List<String> nodeTypes) {
        List<String> forbidden = new ArrayList<>(List.of("Bitmap Heap Scan", "Bitmap Index Scan", "Index Only Scan"));
        forbidden.add(scan == Scan.INDEX ? "Seq Scan" : "Index Scan");
        boolean ok = nodeTypes.contains(scan.nodeType()) && nodeTypes.stream().noneMatch(forbidden::contains);
        return ok ? null : "plan was " + String.join(" > ", nodeTypes) + ", expected " + scan.nodeType();
    }
}
