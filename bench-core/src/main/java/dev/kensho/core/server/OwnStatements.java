package dev.kensho.core.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Kensho's own statements around a measurement (CHECKPOINT, pg_prewarm, the environment's catalog questions, the check
 * of free connections), run without the statement_timeout, lock_timeout and idle_in_transaction_session_timeout a
 * database or role sets for its applications: those bound the workload, which still meets them, not its preparation
 * (a database's 30 ms statement_timeout failed every sweep trial at its CHECKPOINT, and a prewarm of a large table
 * would meet a production host's 30 s). Off for one transaction only (SET LOCAL): a session's SET would outlive it on a
 * transaction pooler's server connection, which other clients share.
 */
public final class OwnStatements {
    private OwnStatements() {}

    /** The settings off within the work (idle_in_transaction_session_timeout from 9.6 on). */
    public static final java.util.List<String> TIMEOUTS = java.util.List.of("statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout");

    /** What runs with the timeouts off, on a statement of the caller's connection. */
    public interface Work<T> {
        T run(Statement s) throws SQLException;
    }

    /**
     * Runs work in a transaction of its own, committed when it returns and rolled back when it throws; on a connection
     * already in a transaction (autocommit off), in that one, which the caller ends.
     */
    public static <T> T run(Connection c, Work<T> work) throws SQLException {
        boolean auto = c.getAutoCommit();
        if (auto) c.setAutoCommit(false);
        boolean done = false;
        try (Statement s = c.createStatement()) {
            // idle_in_transaction_session_timeout (9.6 on): a pause of the JVM between this and the work's first
            // statement leaves the transaction idle. The version is the driver's, from the login: no round trip.
            java.sql.DatabaseMetaData md = c.getMetaData();
            boolean idleTimeout = md.getDatabaseMajorVersion() > 9 || md.getDatabaseMajorVersion() == 9 && md.getDatabaseMinorVersion() >= 6;
            s.execute("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0"
                    + (idleTimeout ? "; SET LOCAL idle_in_transaction_session_timeout = 0" : ""));
            T result = work.run(s);
            done = true;
            return result;
        } finally {
            if (auto) {
                try {
                    if (done) c.commit();
                    else c.rollback();
                } catch (SQLException e) {
                    // a failed rollback leaves the connection's own failure to the caller (the work's, thrown)
                    if (done) throw e;
                } finally {
                    if (!c.isClosed()) c.setAutoCommit(true);
                }
            }
        }
    }
}
