package dev.kensho.pgbench.init;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Client-side generation (-I g): streams the rows pgbench generates through COPY ... FROM STDIN in
 * text format. Rows are written as bytes straight into a large buffer (no strings, no formatting),
 * so the server's COPY, not the client, is the bottleneck.
 */
public final class CopyLoader {
    private static final int BUFFER = 1 << 20;
    private static final long LOG_STEP_NANOS = 5_000_000_000L;

    /** Which table: decides the row layout. */
    public enum Table {
        BRANCHES("pgbench_branches", Tables.BRANCHES),
        TELLERS("pgbench_tellers", Tables.TELLERS),
        ACCOUNTS("pgbench_accounts", Tables.ACCOUNTS);

        final String name;
        final long perScale;

        Table(String name, long perScale) {
            this.name = name;
            this.perScale = perScale;
        }
    }

    private final byte[] buf = new byte[BUFFER + 64];
    private int pos;

    /**
     * Loads rows 1..scale×perScale of one table. With freeze, the table must have been created or
     * truncated in the current transaction (pgbench uses FREEZE on v14+ except for a partitioned
     * accounts table).
     */
    public void load(Connection c, Table t, int scale, boolean freeze, boolean quiet, PrintStream log) throws SQLException {
        long total = t.perScale * scale;
        String sql = "copy " + t.name + " from stdin" + (freeze ? " with (freeze on)" : "");
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        long start = System.nanoTime();
        long nextLog = LOG_STEP_NANOS;
        boolean ok = false;
        try {
            pos = 0;
            for (long k = 0; k < total; k++) {
                long id = k + 1;
                putLong(id);
                buf[pos++] = '\t';
                if (t != Table.BRANCHES) {
                    putLong(t == Table.TELLERS ? k / Tables.TELLERS + 1 : k / Tables.ACCOUNTS + 1);
                    buf[pos++] = '\t';
                }
                buf[pos++] = '0';
                buf[pos++] = '\t';
                // pgbench: NULL filler for branches and tellers, a blank-padded empty string for accounts
                if (t != Table.ACCOUNTS) {
                    buf[pos++] = '\\';
                    buf[pos++] = 'N';
                }
                buf[pos++] = '\n';
                if (pos >= BUFFER) {
                    in.writeToCopy(buf, 0, pos);
                    pos = 0;
                }
                if (log != null) {
                    if (!quiet && id % 100_000 == 0) {
                        progress(log, id, total, t.name, System.nanoTime() - start);
                    } else if (quiet && id % 100 == 0) {
                        long el = System.nanoTime() - start;
                        if (el >= nextLog || id == total) {
                            progress(log, id, total, t.name, el);
                            nextLog = (el / LOG_STEP_NANOS + 1) * LOG_STEP_NANOS;
                        }
                    }
                }
            }
            if (pos > 0) in.writeToCopy(buf, 0, pos);
            in.endCopy();
            ok = true;
        } finally {
            if (!ok && in.isActive()) {
                try {
                    in.cancelCopy();
                } catch (SQLException ignored) {
                    // the original failure is what the user needs
                }
            }
        }
    }

    private static void progress(PrintStream log, long done, long total, String table, long elapsedNanos) {
        double el = elapsedNanos / 1e9;
        double remaining = (total - done) * el / done;
        log.printf(Locale.ROOT, "%d of %d tuples (%d%%) of %s done (elapsed %.2f s, remaining %.2f s)%n",
                done, total, (int) (done * 100 / total), table, el, remaining);
    }

    private void putLong(long v) {
        if (v < 10) {
            buf[pos++] = (byte) ('0' + v);
            return;
        }
        int start = pos;
        while (v > 0) {
            buf[pos++] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        for (int i = start, j = pos - 1; i < j; i++, j--) {
            byte b = buf[i];
            buf[i] = buf[j];
            buf[j] = b;
        }
    }
}
