package dev.kensho.pgbench.init;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Client-side generation (-I g): streams the rows pgbench generates through COPY ... FROM STDIN.
 * pgbench sends text; Kensho sends COPY's binary format, which stores the same values (the empty
 * filler is blank-padded by bpchar's receive function exactly as by its input function) but spares
 * the server the text parsing, the larger part of its work per row. Rows are written as bytes into
 * a large buffer (no strings, no formatting), so the server's COPY, not the client, is the bottleneck.
 */
public final class CopyLoader {
    private static final int BUFFER = 1 << 20;
    private static final long LOG_STEP_NANOS = 5_000_000_000L;
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};

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

        public String tableName() {
            return name;
        }
    }

    private final byte[] buf = new byte[BUFFER + 64];
    private int pos;

    /**
     * Loads rows 1..scale×perScale of one table. With freeze, the table must have been created or
     * truncated in the current transaction (pgbench 17 uses FREEZE on v14+ for ordinary tables,
     * not for a partitioned accounts table).
     */
    public void load(Connection c, Table t, int scale, boolean freeze, boolean quiet, PrintStream log) throws SQLException {
        long total = t.perScale * scale;
        // the table's column decides aid's binary width, not this scale: -I g fills tables made at another scale
        // (bigint from pgbench's 32-bit threshold on), as pgbench's text COPY does
        boolean bigAid = t == Table.ACCOUNTS && bigintAid(c);
        if (t == Table.ACCOUNTS && !bigAid && total > Integer.MAX_VALUE) {
            // pgbench's COPY fails at this row, after two billion others
            throw new SQLException("value \"" + (Integer.MAX_VALUE + 1L) + "\" is out of range for type integer"
                    + " (pgbench_accounts.aid, made at a scale under " + Tables.SCALE_32BIT_THRESHOLD + ")", "22003");
        }
        String sql = "copy " + t.name + " from stdin with (format binary" + (freeze ? ", freeze on" : "") + ")";
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        long start = System.nanoTime();
        long nextLog = LOG_STEP_NANOS;
        boolean ok = false;
        try {
            pos = 0;
            System.arraycopy(SIGNATURE, 0, buf, 0, SIGNATURE.length);
            pos = SIGNATURE.length;
            putInt(0);   // flags: no OIDs
            putInt(0);   // no header extension
            for (long k = 0; k < total; k++) {
                long id = k + 1;
                putShort(t == Table.BRANCHES ? 3 : 4);
                if (bigAid) {
                    putInt(8);
                    putLong(id);
                } else {
                    putInt(4);
                    putInt((int) id);
                }
                if (t != Table.BRANCHES) {
                    putInt(4);
                    putInt((int) (t == Table.TELLERS ? k / Tables.TELLERS + 1 : k / Tables.ACCOUNTS + 1));
                }
                putInt(4);
                putInt(0);
                // pgbench: NULL filler for branches and tellers, a blank-padded empty string for accounts
                putInt(t == Table.ACCOUNTS ? 0 : -1);
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
            putShort(-1);   // trailer
            in.writeToCopy(buf, 0, pos);
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

    private static boolean bigintAid(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select atttypid = 'bigint'::regtype from pg_attribute"
                     + " where attrelid = to_regclass('pgbench_accounts') and attname = 'aid'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    private static void progress(PrintStream log, long done, long total, String table, long elapsedNanos) {
        double el = elapsedNanos / 1e9;
        double remaining = (total - done) * el / done;
        log.printf(Locale.ROOT, "%d of %d tuples (%d%%) of %s done (elapsed %.2f s, remaining %.2f s)%n",
                done, total, (int) (done * 100 / total), table, el, remaining);
    }

    private void putShort(int v) {
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    private void putInt(int v) {
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    private void putLong(long v) {
        putInt((int) (v >>> 32));
        putInt((int) v);
    }
}
