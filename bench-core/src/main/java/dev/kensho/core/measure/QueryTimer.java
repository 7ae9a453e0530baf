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
 * parallel-query measurement timed the serial plan. A statement COPY cannot wrap (DML without RETURNING, also after
 * a WITH; SELECT … INTO; SHOW, EXPLAIN…) runs plainly, its result buffered by pgjdbc.
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
        if (!copyable(q)) return plain(c, sql);
        return copied(c, q);
    }

    /**
     * Whether COPY (q) TO STDOUT takes the statement. Its start alone does not say: PostgreSQL refuses a WITH whose
     * statement is an INSERT, UPDATE, DELETE or MERGE without RETURNING ("COPY query must have a RETURNING clause") and
     * a SELECT … INTO ("COPY (SELECT INTO) is not supported"), statements that run plainly.
     */
    static boolean copyable(String q) {
        if (!COPYABLE.matcher(q).matches() || q.contains(";")) return false;
        java.util.List<String> words = topLevelWords(q);
        String main = words.stream().filter(MAIN_KEYWORDS::contains).findFirst().orElse("select");
        if (main.equals("select")) return !words.contains("into");
        return main.equals("values") || main.equals("table") || words.contains("returning");
    }

    private static final java.util.Set<String> MAIN_KEYWORDS = java.util.Set.of("select", "values", "table", "insert", "update",
            "delete", "merge");

    /**
     * The words of a statement outside parentheses (those it opens with count as outside), lower-cased; string
     * literals, quoted identifiers, dollar-quoted bodies and comments are skipped.
     */
    static java.util.List<String> topLevelWords(String q) {
        java.util.List<String> words = new java.util.ArrayList<>();
        int n = q.length(), depth = 0, top = -1, i = 0;
        while (i < n) {
            char ch = q.charAt(i);
            if (ch == '-' && i + 1 < n && q.charAt(i + 1) == '-') {
                while (i < n && q.charAt(i) != '\n') i++;
            } else if (ch == '/' && i + 1 < n && q.charAt(i + 1) == '*') {
                int nested = 0;
                do {
                    if (q.startsWith("/*", i)) { nested++; i += 2; }
                    else if (q.startsWith("*/", i)) { nested--; i += 2; }
                    else i++;
                } while (nested > 0 && i < n);
            } else if (ch == '\'' || ch == '"') {
                // E'..' takes backslash escapes; a doubled quote is one quote in every kind
                boolean backslash = ch == '\'' && i > 0 && (q.charAt(i - 1) == 'E' || q.charAt(i - 1) == 'e');
                for (i++; i < n; i++) {
                    char d = q.charAt(i);
                    if (backslash && d == '\\') i++;
                    else if (d == ch && i + 1 < n && q.charAt(i + 1) == ch) i++;
                    else if (d == ch) break;
                }
                i++;
            } else if (ch == '$' && dollarTag(q, i) != null) {
                String tag = dollarTag(q, i);
                int end = q.indexOf(tag, i + tag.length());
                i = end < 0 ? n : end + tag.length();
            } else if (ch == '(') {
                depth++;
                i++;
            } else if (ch == ')') {
                depth--;
                i++;
            } else if (Character.isLetter(ch) || ch == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(q.charAt(i)) || q.charAt(i) == '_' || q.charAt(i) == '$')) i++;
                if (top < 0) top = depth;   // the parentheses a statement opens with, as in (VALUES (1), (2))
                if (depth <= top) words.add(q.substring(start, i).toLowerCase(java.util.Locale.ROOT));
            } else {
                i++;
            }
        }
        return words;
    }

    /** The $tag$ that opens a dollar-quoted string at i, or null ($1 is a parameter). */
    private static String dollarTag(String q, int i) {
        int j = i + 1;
        while (j < q.length() && (Character.isLetterOrDigit(q.charAt(j)) || q.charAt(j) == '_')) j++;
        if (j >= q.length() || q.charAt(j) != '$' || (j > i + 1 && Character.isDigit(q.charAt(i + 1)))) return null;
        return q.substring(i, j + 1);
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
