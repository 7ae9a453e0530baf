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
}
