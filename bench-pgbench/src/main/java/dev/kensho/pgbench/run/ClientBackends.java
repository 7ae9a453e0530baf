package dev.kensho.pgbench.run;

import dev.kensho.core.server.ServerVersion;

/**
 * Which rows of pg_stat_activity are client backends (the connections max_connections counts, and the ones a run's
 * clients hold). backend_type says so from PostgreSQL 10 on; 9.6 has no such column and lists its parallel workers and
 * autovacuum workers beside the clients, but only a client has a client_port (-1 over a Unix socket, NULL for the others).
 */
public final class ClientBackends {
    private ClientBackends() {}

    /** A condition on pg_stat_activity's columns, for a WHERE clause. */
    public static String condition(ServerVersion v) {
        return v.atLeast(10) ? "backend_type = 'client backend'" : "client_port IS NOT NULL";
    }

    /**
     * The rows that may hold a connection slot, as a role without pg_read_all_stats sees them: another role's backend
     * shows it no backend_type or client_port, only its database and "&lt;insufficient privilege&gt;" as its query. Such a
     * row in a database is counted as a client (it may be an autovacuum or parallel worker: a few too many, where
     * leaving them all out counted a full server as free).
     */
    public static String slotCondition(ServerVersion v) {
        return "(" + condition(v) + " OR (query = '<insufficient privilege>' AND datname IS NOT NULL))";
    }
}
