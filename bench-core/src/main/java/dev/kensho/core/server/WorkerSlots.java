package dev.kensho.core.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * How many parallel workers a server can start: its max_parallel_workers (null before 10, which has none), its
 * max_worker_processes, and the slots of those its own background workers hold now (the logical replication
 * launcher, an extension's workers). A Gather planned with more workers than these allow launches fewer, and the
 * measurement is then not the one asked for. {@code heldUnseenBy}: the role that could not see every backend's type,
 * whose held count is then a guess; null where it saw all.
 */
public record WorkerSlots(Integer maxParallelWorkers, int maxWorkerProcesses, int held, String heldUnseenBy) {

    /** The server's limits as the session sees them. */
    public static WorkerSlots of(Connection c) throws SQLException {
        Integer parallel = null;
        int processes = 0, held = 0;
        String unseenBy = null;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT name, setting::int FROM pg_settings "
                    + "WHERE name IN ('max_parallel_workers', 'max_worker_processes')")) {
                while (rs.next()) {
                    if (rs.getString(1).equals("max_parallel_workers")) parallel = rs.getInt(2);
                    else processes = rs.getInt(2);
                }
            }
            if (ServerVersion.of(c).atLeast(10)) {
                // background workers running now, each in a max_worker_processes slot (their backend_type is their own name;
                // other queries' parallel workers come and go, and 10 names every worker "background worker")
                // a role without pg_read_all_stats sees other sessions' backend_type as NULL: the launcher's slot went uncounted.
                // Of those, a backend with a role but no database is a background worker or a physical walsender, which holds
                // a max_wal_senders slot, not one of these: pg_stat_replication names its pid to every role
                try (ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE backend_type NOT IN ('client backend', "
                        + "'autovacuum launcher', 'autovacuum worker', 'background writer', 'checkpointer', 'walwriter', 'startup', "
                        + "'walsender', 'walreceiver', 'archiver', 'logger', 'stats collector', 'walsummarizer', 'io worker', "
                        + "'slotsync worker', 'standalone backend', 'parallel worker')), "
                        + "count(*) FILTER (WHERE backend_type IS NULL AND datid IS NULL AND usesysid IS NOT NULL"
                        + " AND NOT EXISTS (SELECT 1 FROM pg_stat_replication r WHERE r.pid = a.pid)), "
                        + "bool_or(backend_type IS NULL), current_user FROM pg_stat_activity a")) {
                    rs.next();
                    held = rs.getInt(1) + rs.getInt(2);
                    if (rs.getBoolean(3)) unseenBy = rs.getString(4);
                }
            }
        }
        return new WorkerSlots(parallel, processes, held, unseenBy);
    }

    /** The same server with the session's max_parallel_workers at {@code v} (a user may SET it, up to max_worker_processes). */
    public WorkerSlots withMaxParallelWorkers(Integer v) {
        return new WorkerSlots(maxParallelWorkers == null ? null : v, maxWorkerProcesses, held, heldUnseenBy);
    }

    /** Each limit too low for {@code asked} workers, as "max_parallel_workers 8"; empty where they can all start. */
    public List<String> shortFor(int asked) {
        List<String> out = new ArrayList<>();
        if (maxParallelWorkers != null && asked > maxParallelWorkers) out.add("max_parallel_workers " + maxParallelWorkers);
        if (asked > maxWorkerProcesses - held) {
            out.add("max_worker_processes " + maxWorkerProcesses + (held > 0 ? ", " + held + " of them held by the server's own workers" : "")
                    + (heldUnseenBy != null ? " as far as " + heldUnseenBy + " sees (GRANT pg_read_all_stats TO "
                    + SqlIdentifier.quoteIdent(heldUnseenBy) + " shows them all)" : ""));
        }
        return out;
    }

    /** The settings that let {@code asked} workers start beside the held ones: each limit that is short, at what it needs. */
    public List<String> raiseFor(int asked) {
        List<String> out = new ArrayList<>();
        if (maxParallelWorkers != null && asked > maxParallelWorkers) out.add("max_parallel_workers=" + asked);
        if (asked > maxWorkerProcesses - held) out.add("max_worker_processes=" + (asked + held));
        return out;
    }
}
