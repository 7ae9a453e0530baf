package dev.kensho.core.measure;

import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;

/**
 * Times one query from send to last row, its whole result received and memory constant whatever its size (a
 * 6-million-row result must not be buffered, which pgjdbc does for a plain query).
 *
 * <p>By default the query runs in one execution and its result streams back as {@code COPY (query) TO STDOUT}:
 * the plan runs as psql's query would, parallel workers included. A fetch size instead reads the result through a
 * cursor of that many rows, as a JDBC client with a fetch size does; PostgreSQL runs such a plan without parallel
 * workers (a portal fetched in parts may not use them), which is why that is no longer the default: every
 * parallel-query measurement timed the serial plan. A statement COPY cannot wrap (DML without RETURNING, SHOW,
 * EXPLAIN…) runs plainly, its result buffered by pgjdbc.
 */
public final class QueryTimer {
    /** 0: one execution, streamed as COPY; more: a cursor of that many rows per fetch. */
    public static final int DEFAULT_FETCH_SIZE = 0;

    /** What COPY (query) TO takes; anything else runs plainly. Comments and parentheses may come first. */
    private static final Pattern COPYABLE = Pattern.compile("(?is)^(\\s|--[^\\n]*\\n|/\\*.*?\\*/|\\()*(select|with|values|table)\\b.*");

    private QueryTimer() {}

    /**
     * @param rows          rows received
     * @param bytes         bytes received: the result in COPY's text form (values, tabs and newlines); through a
     *                      cursor or a plain statement, the column values' text
     * @param elapsedNanos  from execute to the last row consumed
     * @param firstRowNanos from execute to the first row (planning + startup)
     */
    public record Timing(long rows, long bytes, long elapsedNanos, long firstRowNanos) {
        public double seconds() {
            return elapsedNanos / 1e9;
        }

        public double millis() {
            return elapsedNanos / 1e6;
        }
    }

    public static Timing time(Connection c, String sql) throws SQLException {
        return time(c, sql, DEFAULT_FETCH_SIZE);
    }

    /** @param fetchSize 0: one execution, streamed (parallel workers as the plan says); more: a cursor of that many rows */
    public static Timing time(Connection c, String sql, int fetchSize) throws SQLException {
        if (fetchSize < 0) throw new IllegalArgumentException("fetch size " + fetchSize);
        if (fetchSize > 0) return throughCursor(c, sql, fetchSize);
        String q = sql.strip();
        if (q.endsWith(";")) q = q.substring(0, q.length() - 1).strip();
        if (!COPYABLE.matcher(q).matches() || q.contains(";")) return plain(c, sql);
        return copied(c, q);
    }

    private static Timing copied(Connection c, String query) throws SQLException {
        PGConnection pg = c.unwrap(PGConnection.class);
        Receiver r = new Receiver();
        long rows;
        r.t0 = System.nanoTime();
        try {
            // the newline ends a trailing -- comment of the query's, which would swallow ") TO STDOUT"
            rows = pg.getCopyAPI().copyOut("COPY (" + query + "\n) TO STDOUT", r);
        } catch (IOException e) {
            throw new SQLException("reading the result failed: " + e.getMessage(), "08006", e);
        }
        long elapsed = System.nanoTime() - r.t0;
        return new Timing(rows, r.bytes, elapsed, r.first < 0 ? elapsed : r.first);
    }

    /** Counts what arrives and keeps nothing; notes when the first row came. */
    private static final class Receiver extends OutputStream {
        long t0, first = -1, bytes;

        @Override
        public void write(int b) {
            arrived(1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            arrived(len);
        }

        private void arrived(int n) {
            if (first < 0) first = System.nanoTime() - t0;
            bytes += n;
        }
    }

    private static Timing throughCursor(Connection c, String sql, int fetchSize) throws SQLException {
        boolean auto = c.getAutoCommit();
        if (auto) c.setAutoCommit(false); // pgjdbc uses a cursor only inside a transaction
        try (Statement s = c.createStatement()) {
            s.setFetchSize(fetchSize);
            long t0 = System.nanoTime();
            try (ResultSet rs = s.executeQuery(sql)) {
                return read(rs, t0);
            }
        } finally {
            if (auto) {
                c.commit();
                c.setAutoCommit(true);
            }
        }
    }

    private static Timing plain(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            long t0 = System.nanoTime();
            if (!s.execute(sql)) {
                long elapsed = System.nanoTime() - t0;
                return new Timing(Math.max(0, s.getUpdateCount()), 0, elapsed, elapsed);
            }
            try (ResultSet rs = s.getResultSet()) {
                return read(rs, t0);
            }
        }
    }

    private static Timing read(ResultSet rs, long t0) throws SQLException {
        long rows = 0, bytes = 0, first = -1;
        int cols = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            if (first < 0) first = System.nanoTime() - t0;
            rows++;
            // getBytes on a text-format column hands back the received bytes: the result is really read, without
            // building Strings the measured server did not cause
            for (int i = 1; i <= cols; i++) {
                byte[] b = rs.getBytes(i);
                if (b != null) bytes += b.length;
            }
        }
        long elapsed = System.nanoTime() - t0;
        return new Timing(rows, bytes, elapsed, first < 0 ? elapsed : first);
    }
}
