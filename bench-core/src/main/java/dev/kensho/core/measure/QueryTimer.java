package dev.kensho.core.measure;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Times one query from send to last row, with its full result streamed through a server-side
 * cursor of fetchSize rows: memory stays constant whatever the result size (a 6-million-row
 * result must not be buffered, which pgjdbc does unless autocommit is off and a fetch size set).
 */
public final class QueryTimer {
    public static final int DEFAULT_FETCH_SIZE = 10_000;

    private QueryTimer() {}

    /**
     * @param rows          rows received
     * @param bytes         bytes of column data received (text form)
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

    public static Timing time(Connection c, String sql, int fetchSize) throws SQLException {
        boolean auto = c.getAutoCommit();
        if (auto) c.setAutoCommit(false); // pgjdbc uses a cursor only inside a transaction
        try (Statement s = c.createStatement()) {
            s.setFetchSize(fetchSize);
            long rows = 0;
            long bytes = 0;
            long first = -1;
            long t0 = System.nanoTime();
            try (ResultSet rs = s.executeQuery(sql)) {
                int cols = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    if (first < 0) first = System.nanoTime() - t0;
                    rows++;
                    // getBytes on a text-format column hands back the received bytes: the result is
                    // really read, without building Strings the measured server did not cause.
                    for (int i = 1; i <= cols; i++) {
                        byte[] b = rs.getBytes(i);
                        if (b != null) bytes += b.length;
                    }
                }
            }
            long elapsed = System.nanoTime() - t0;
            return new Timing(rows, bytes, elapsed, first < 0 ? elapsed : first);
        } finally {
            if (auto) {
                c.commit();
                c.setAutoCommit(true);
            }
        }
    }
}
