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

    /**
     * Times one execution of sql on c, its result streamed as COPY (or run plainly where COPY cannot wrap it). The
     * statement runs as given: DML changes data.
     *
     * @throws SQLException the server's error, its position counted in sql as given
     */
    public static Timing time(Connection c, String sql) throws SQLException {
        return time(c, sql, DEFAULT_FETCH_SIZE);
    }

    /** @param fetchSize 0: one execution, streamed (parallel workers as the plan says); more: a cursor of that many rows */
    public static Timing time(Connection c, String sql, int fetchSize) throws SQLException {
        if (fetchSize < 0) throw new IllegalArgumentException("fetch size " + fetchSize);
        sql = withoutTerminator(sql);
        if (fetchSize > 0) {
            try {
                return throughCursor(c, sql, fetchSize);
            } catch (SQLException e) {
                throw located(e, sql, 0);
            }
        }
        String q = sql.strip();
        if (!copyable(q)) {
            try {
                return plain(c, sql);
            } catch (SQLException e) {
                throw located(e, sql, 0);
            }
        }
        try {
            return copied(c, q);
        } catch (SQLException e) {
            // the server counts from the C of "COPY (": the statement's first character is its 7th, after the blanks strip() took
            int lead = sql.length() - sql.stripLeading().length();
            throw located(e, sql, COPY_PREFIX.length() - lead);
        }
    }

    private static final String COPY_PREFIX = "COPY (";

    /**
     * An error the server placed in the statement (a syntax error, an unknown column), said with the line and column of
     * the statement as the caller gave it, as psql's "LINE 2:" and caret do. The server counts characters of what it was
     * sent, in which the statement may start further on (after "COPY ("): shift is how much further. pgjdbc's message
     * ends its first line with the error and gives the raw position on a second line, which one-line reasons dropped.
     */
    static SQLException located(SQLException e, String sql, int shift) {
        if (!(e instanceof org.postgresql.util.PSQLException p) || p.getServerErrorMessage() == null) return e;
        int sent = p.getServerErrorMessage().getPosition();
        if (sent <= 0) return e;
        // 0-based index into sql; past the end (an unterminated statement: the error is at the end of input) is the end
        int end = sql.stripTrailing().length();
        int at = Math.max(0, Math.min(sent - 1 - shift, end));
        String first = e.getMessage() == null ? "" : e.getMessage().strip().split("\\R", 2)[0].stripTrailing();
        // past the statement's end the server read Kensho's ") TO STDOUT" ("syntax error at or near "TO"" for "select (1"):
        // what the statement lacks is its end
        if (sent - 1 - shift >= end && "42601".equals(e.getSQLState())) first = "ERROR: syntax error at end of input";
        int line = 1, lineStart = 0;
        for (int i = 0; i < at; i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new SQLException(first + " (line " + line + ", column " + (at - lineStart + 1) + ")", e.getSQLState(), e.getErrorCode(), e);
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

    /** Statements that neither write nor run code: SHOW, SET, a transaction's own commands, EXPLAIN without ANALYZE. */
    private static final java.util.Set<String> READ_ONLY_COMMANDS = java.util.Set.of("show", "set", "reset", "begin", "start", "commit",
            "rollback", "end", "abort", "savepoint", "release", "discard", "load", "listen", "unlisten", "fetch", "move", "close", "declare");

    /**
     * What makes a statement write, as a command word ("INSERT", "SELECT INTO", "CREATE"; "DO" and "CALL" run code that
     * may), or null for a read-only one. A WITH writes where its plan has a ModifyTable node (a data-modifying CTE: the
     * plan, not the text, says so); a function a SELECT calls may write unseen. Such a statement runs on every warm-up
     * and repeat, each meeting what the runs before it left.
     */
    public static String writes(Connection c, String sql) {
        String q = withoutTerminator(sql).strip();
        java.util.List<String> words = topLevelWords(q);
        if (words.isEmpty()) return null;
        String first = words.get(0);
        if (first.equals("explain")) return words.contains("analyze") || words.contains("analyse") ? "EXPLAIN ANALYZE" : null;
        if (READ_ONLY_COMMANDS.contains(first)) return null;
        // a word no command starts with ("selec 1") is a syntax error the server names in its trials, not a write
        if (!SQL_COMMANDS.contains(first)) return null;
        if (!first.equals("select") && !first.equals("values") && !first.equals("table") && !first.equals("with")) {
            return first.toUpperCase(java.util.Locale.ROOT);
        }
        String main = words.stream().filter(MAIN_KEYWORDS::contains).findFirst().orElse("select");
        if (!main.equals("select") && !main.equals("values") && !main.equals("table")) return main.toUpperCase(java.util.Locale.ROOT);
        if (main.equals("select") && words.contains("into")) return "SELECT INTO";
        if (!first.equals("with")) return null;
        try {
            return Explain.plan(c, q).uses("ModifyTable") ? "a data-modifying WITH" : null;
        } catch (SQLException e) {
            return null;   // a statement the server rejects fails its trials with the reason
        }
    }

    /** The words PostgreSQL's commands start with (its SQL Commands reference), less the read-only ones above. */
    private static final java.util.Set<String> SQL_COMMANDS = java.util.Set.of("alter", "analyze", "analyse", "call",
            "checkpoint", "cluster", "comment", "copy", "create", "deallocate", "delete", "do", "drop", "execute", "grant",
            "import", "insert", "lock", "merge", "notify", "prepare", "reassign", "refresh", "reindex", "revoke", "security",
            "select", "table", "truncate", "update", "vacuum", "values", "with");

    private static final java.util.Set<String> MAIN_KEYWORDS = java.util.Set.of("select", "values", "table", "insert", "update",
            "delete", "merge");

    /** Whether sql holds anything to run: not only blanks, semicolons and comments. */
    public static boolean holdsStatement(String sql) {
        boolean[] any = {false};
        scanTopLevel(sql, semicolon -> { }, token -> any[0] = true);
        return any[0];
    }

    /**
     * The words of a statement outside parentheses (those it opens with count as outside), lower-cased; string
     * literals, quoted identifiers, dollar-quoted bodies and comments are skipped.
     */
    static java.util.List<String> topLevelWords(String q) {
        java.util.List<String> words = new java.util.ArrayList<>();
        int n = q.length(), depth = 0, top = -1, i = 0;
        while (i < n) {
            char ch = q.charAt(i);
            if (q.startsWith("--", i) || q.startsWith("/*", i)) {
                i = afterComment(q, i);
            } else if (ch == '\'' || ch == '"') {
                i = afterQuoted(q, i);
            } else if (ch == '$' && dollarTag(q, i) != null) {
                i = afterDollarQuoted(q, i);
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

    /**
     * Where each statement after the first starts in sql (0-based), for text holding several statements separated by
     * semicolons; empty for one statement, with or without its semicolon, comments and blanks after it. Semicolons in
     * literals, quoted identifiers, dollar-quoted bodies and comments separate nothing.
     */
    public static java.util.List<Integer> laterStatements(String sql) {
        java.util.List<Integer> starts = new java.util.ArrayList<>();
        int[] pending = {-1};
        scanTopLevel(sql, semicolon -> pending[0] = semicolon + 1, token -> {
            // something other than blanks and comments after a semicolon: a statement starts here
            if (pending[0] >= 0) {
                starts.add(token);
                pending[0] = -1;
            }
        });
        return starts;
    }

    /**
     * The statement without its closing semicolon and the blanks and comments after it ("select 1; -- total" is
     * "select 1"), the text before it as it was, so that an error's line and column are still the caller's. With the
     * semicolon and a comment left on, it was no longer one statement to COPY (…) or EXPLAIN: "select 1; -- c" ran
     * unstreamed, its result buffered, and under --explain failed "Multiple ResultSets were returned by the query".
     */
    public static String withoutTerminator(String sql) {
        int[] last = {-1};
        scanTopLevel(sql, semicolon -> last[0] = semicolon, token -> last[0] = -1);
        return last[0] < 0 ? sql : sql.substring(0, last[0]);
    }

    /**
     * Walks sql's top level: each semicolon that separates statements, and the start of each token that is neither a
     * blank nor a comment (a word, a literal, a quoted identifier or dollar-quoted body taken whole, a sign). Semicolons
     * in literals, quoted identifiers, dollar-quoted bodies and comments are not seen.
     */
    private static void scanTopLevel(String sql, java.util.function.IntConsumer semicolon, java.util.function.IntConsumer token) {
        int n = sql.length(), i = 0;
        while (i < n) {
            char ch = sql.charAt(i);
            if (sql.startsWith("--", i) || sql.startsWith("/*", i)) {
                i = afterComment(sql, i);
            } else if (ch == ';') {
                semicolon.accept(i++);
            } else if (Character.isWhitespace(ch)) {
                i++;
            } else {
                token.accept(i);
                if (ch == '\'' || ch == '"') {
                    i = afterQuoted(sql, i);
                } else if (ch == '$' && dollarTag(sql, i) != null) {
                    i = afterDollarQuoted(sql, i);
                } else if (Character.isLetter(ch) || ch == '_') {
                    // a whole word: a $ inside one (a$b$) opens no dollar quote
                    while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) i++;
                } else {
                    i++;
                }
            }
        }
    }

    /** The index after the comment opening at i: -- to the line's end, or /* to its matching close (they nest). */
    private static int afterComment(String s, int i) {
        int n = s.length();
        if (s.startsWith("--", i)) {
            while (i < n && s.charAt(i) != '\n') i++;
            return i;
        }
        int nested = 0;
        do {
            if (s.startsWith("/*", i)) { nested++; i += 2; }
            else if (s.startsWith("*/", i)) { nested--; i += 2; }
            else i++;
        } while (nested > 0 && i < n);
        return i;
    }

    /** The index after the literal or quoted identifier opening at i: E'..' takes backslash escapes, a doubled quote is one. */
    private static int afterQuoted(String s, int i) {
        char ch = s.charAt(i);
        boolean backslash = ch == '\'' && i > 0 && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e');
        int n = s.length();
        for (i++; i < n; i++) {
            char d = s.charAt(i);
            if (backslash && d == '\\') i++;
            else if (d == ch && i + 1 < n && s.charAt(i + 1) == ch) i++;
            else if (d == ch) break;
        }
        return i + 1;
    }

    /** The index after the dollar-quoted body whose tag opens at i (the end of s where it never closes). */
    private static int afterDollarQuoted(String s, int i) {
        String tag = dollarTag(s, i);
        int close = s.indexOf(tag, i + tag.length());
        return close < 0 ? s.length() : close + tag.length();
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
            rows = pg.getCopyAPI().copyOut(COPY_PREFIX + query + "\n) TO STDOUT", r);
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
            // execute, not executeQuery: an INSERT without RETURNING ran, then failed "No results were returned by the query"
            if (!s.execute(sql)) {
                long elapsed = System.nanoTime() - t0;
                return new Timing(Math.max(0, s.getUpdateCount()), 0, elapsed, elapsed);
            }
            try (ResultSet rs = s.getResultSet()) {
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
