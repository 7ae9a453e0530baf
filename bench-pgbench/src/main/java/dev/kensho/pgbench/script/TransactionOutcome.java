package dev.kensho.pgbench.script;

/**
 * What one run of one script by one client came to.
 *
 * @param status         OK, or how it failed
 * @param script         index of the script that ran (in the runner's list)
 * @param command        index of the failing command (-1 when OK)
 * @param sqlState       SQLSTATE of an SQL failure, else null
 * @param message        one-line error message (null when OK)
 * @param randomAtStart  the client's random state when the transaction started; {@link ClientScriptRunner#retry}
 *                       restores it so a retry draws the same values, as pgbench does
 * @param sleptNanos     time spent in \sleep (included in the transaction's latency, as in pgbench)
 */
public record TransactionOutcome(Status status, int script, int command, String sqlState, String message,
                                 PgbenchRandom.State randomAtStart, long sleptNanos) {

    public enum Status {
        OK,
        /** SQLSTATE 40001: pgbench counts it as a serialization failure and may retry (--max-tries). */
        SERIALIZATION_FAILURE,
        /** SQLSTATE 40P01: pgbench counts it as a deadlock failure and may retry. */
        DEADLOCK_FAILURE,
        /** Any other SQL error: pgbench aborts the client. */
        SQL_ERROR,
        /** The connection broke (SQLSTATE class 08 or closed): pgbench aborts the client; Kensho reconnects. */
        CONNECTION_LOST,
        /** A meta-command failed (expression error, undefined variable, \gset row count, shell): client aborts. */
        META_ERROR,
        /**
         * The script ended inside a transaction block: pgbench 15 counts the transaction as processed, then
         * aborts the client ("end of script reached without completing the last transaction").
         */
        END_IN_TRANSACTION
    }

    public boolean ok() {
        return status == Status.OK;
    }

    /** Serialization and deadlock failures, the ones pgbench retries under --max-tries. */
    public boolean retryable() {
        return status == Status.SERIALIZATION_FAILURE || status == Status.DEADLOCK_FAILURE;
    }
}
