package dev.kensho.pgbench.init;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
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
        load(c, t, scale, freeze, quiet, false, log);
    }

    /**
     * As above; with overwrite each progress line ends in a carriage return, the next written over it, and the last
     * in a newline: what pgbench does when stderr is a terminal (isatty), so -s 1000 is one line, not a thousand.
     */
    public void load(Connection c, Table t, int scale, boolean freeze, boolean quiet, boolean overwrite, PrintStream log)
            throws SQLException {
        long total = t.perScale * scale;
        // the table's columns decide the format, not this scale: -I g fills tables made at another scale (bigint aid
        // from pgbench's 32-bit threshold on) or by someone else, as pgbench's text COPY does
        List<String> types = columnTypes(c, t);
        boolean bigAid = t == Table.ACCOUNTS && !types.isEmpty() && types.get(0).equals("bigint");
        boolean binary = binaryFits(t, types);
        if (t == Table.ACCOUNTS && !types.isEmpty() && types.get(0).equals("integer") && total > Integer.MAX_VALUE) {
            // pgbench's COPY fails at this row, after two billion others
            throw new SQLException("value \"" + (Integer.MAX_VALUE + 1L) + "\" is out of range for type integer"
                    + " (pgbench_accounts.aid, made at a scale under " + Tables.SCALE_32BIT_THRESHOLD + ")", "22003");
        }
        String sql = "copy " + t.name + " from stdin" + (binary ? " with (format binary" + (freeze ? ", freeze on)" : ")")
                : freeze ? " with (freeze on)" : "");
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        long start = System.nanoTime();
        long nextLog = LOG_STEP_NANOS;
        boolean ok = false;
        prevChars = 0;
        eol = overwrite ? '\r' : '\n';
        try {
            pos = 0;
            if (binary) {
                System.arraycopy(SIGNATURE, 0, buf, 0, SIGNATURE.length);
                pos = SIGNATURE.length;
                putInt(0);   // flags: no OIDs
                putInt(0);   // no header extension
            }
            for (long k = 0; k < total; k++) {
                long id = k + 1;
                if (!binary) {
                    // pgbench 17's text rows: NULL filler for branches and tellers, an empty one for accounts
                    putText(id);
                    if (t != Table.BRANCHES) putText(t == Table.TELLERS ? k / Tables.TELLERS + 1 : k / Tables.ACCOUNTS + 1);
                    putText(0);
                    if (t != Table.ACCOUNTS) {
                        buf[pos++] = '\\';
                        buf[pos++] = 'N';
                    }
                    buf[pos++] = '\n';
                } else {
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
                }
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
            if (binary) putShort(-1);   // trailer
            in.writeToCopy(buf, 0, pos);
            in.endCopy();
            ok = true;
        } finally {
            // off the line left to be overwritten, also before an error is said (pgbench ends it before PQendcopy)
            if (overwrite && prevChars > 0 && log != null) log.println();
            if (!ok && in.isActive()) {
                try {
                    in.cancelCopy();
                } catch (SQLException ignored) {
                    // the original failure is what the user needs
                }
            }
        }
    }

    /** The table's column types in order (regtype's names), empty if there is no such table. */
    private static List<String> columnTypes(Connection c, Table t) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select atttypid::regtype::text from pg_attribute"
                + " where attrelid = to_regclass(?) and attnum > 0 and not attisdropped order by attnum")) {
            ps.setString(1, t.name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * Whether the binary rows fit the table as it is: pgbench's columns (int ids and balances, bigint aid, a filler of
     * a text type). A table made otherwise (a bigint bid, a numeric balance, another column) took pgbench's text COPY
     * but failed the binary one with the server's "insufficient data left in message"; it gets pgbench's text rows.
     */
    static boolean binaryFits(Table t, List<String> types) {
        if (types.size() != (t == Table.BRANCHES ? 3 : 4)) return false;
        for (int i = 0; i < types.size() - 1; i++) {
            String ty = types.get(i);
            if (!ty.equals("integer") && !(i == 0 && t == Table.ACCOUNTS && ty.equals("bigint"))) return false;
        }
        return List.of("character", "text", "character varying").contains(types.get(types.size() - 1));
    }

    private void putText(long v) {
        String s = Long.toString(v);
        for (int i = 0; i < s.length(); i++) buf[pos++] = (byte) s.charAt(i);
        buf[pos++] = '\t';
    }

    private int prevChars;
    private char eol;

    private void progress(PrintStream log, long done, long total, String table, long elapsedNanos) {
        double el = elapsedNanos / 1e9;
        double remaining = (total - done) * el / done;
        String line = String.format(Locale.ROOT, "%d of %d tuples (%d%%) of %s done (elapsed %.2f s, remaining %.2f s)",
                done, total, (int) (done * 100 / total), table, el, remaining);
        // on Ctrl-C the shutdown hook says so (over the line left to be overwritten on a terminal): nothing is written
        // after it, in a log file either, where the load went on printing until the server's stop broke it
        if (dev.kensho.core.JvmShutdown.begun()) return;
        // as pgbench 17: blanks over what a longer line before left on the terminal
        String pad = eol == '\r' && prevChars > line.length() ? " ".repeat(prevChars - line.length()) : "";
        prevChars = line.length();
        log.print(line + pad + eol);
        log.flush();
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
