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
 * measurement is then not the one asked for.
 */
public record WorkerSlots(Integer maxParallelWorkers, int maxWorkerProcesses, int held) {

    /** The server's limits as the session sees them. */
    public static WorkerSlots of(Connection c) throws SQLException {
        Integer parallel = null;
        int processes = 0, held = 0;
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
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE backend_type NOT IN ('client backend', "
                        + "'autovacuum launcher', 'autovacuum worker', 'background writer', 'checkpointer', 'walwriter', 'startup', "
                        + "'walsender', 'walreceiver', 'archiver', 'logger', 'stats collector', 'walsummarizer', 'io worker', "
                        + "'slotsync worker', 'standalone backend', 'parallel worker')")) {
                    rs.next();
                    held = rs.getInt(1);
                }
            }
        }
        return new WorkerSlots(parallel, processes, held);
    }

    /** The same server with the session's max_parallel_workers at {@code v} (a user may SET it, up to max_worker_processes). */
    public WorkerSlots withMaxParallelWorkers(Integer v) {
        return new WorkerSlots(maxParallelWorkers == null ? null : v, maxWorkerProcesses, held);
    }

    /** Each limit too low for {@code asked} workers, as "max_parallel_workers 8"; empty where they can all start. */
    public List<String> shortFor(int asked) {
        List<String> out = new ArrayList<>();
        if (maxParallelWorkers != null && asked > maxParallelWorkers) out.add("max_parallel_workers " + maxParallelWorkers);
        if (asked > maxWorkerProcesses - held) {
            out.add("max_worker_processes " + maxWorkerProcesses + (held > 0 ? ", " + held + " of them held by the server's own workers" : ""));
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
