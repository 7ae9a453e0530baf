package dev.kensho.pgbench.script;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A write statement made to write no row: {@code UPDATE t SET … WHERE (cond) AND false}, {@code DELETE FROM t
 * WHERE (cond) AND false}, {@code INSERT INTO t (cols) SELECT exprs WHERE false} for {@code VALUES (exprs)}.
 * The server plans it against the same table with the same parameter types and answers as it answers the run's
 * statement (no row description, a command tag with a count), so the client code the warm-up compiles is the run's;
 * the constant false makes the plan a Result node that reads nothing and evaluates no expression.
 * <p>
 * Only the plain forms are rewritten: a comment, a dollar quote, a backslash, a second statement, a WITH,
 * RETURNING, ON CONFLICT, WHERE CURRENT OF, DEFAULT, OVERRIDING or more than one VALUES row gives null (the
 * caller falls back to a SELECT twin). Whether the table is quiet (no trigger of the user's: a statement trigger
 * fires even when no row is written; no rule) is the caller's question: see {@link #table}.
 */
final class ZeroRowWrite {
    private static final Pattern NAME = Pattern.compile("\\s*((?:\"[^\"]+\"|[A-Za-z_][A-Za-z0-9_$]*)(?:\\.(?:\"[^\"]+\"|[A-Za-z_][A-Za-z0-9_$]*))?)");
    private static final Pattern REFUSED = Pattern.compile("(?i)\\b(default|overriding)\\b");

    private ZeroRowWrite() {}

    /** A word outside quotes, lower-cased, with its offsets and parenthesis depth. */
    private record Word(String text, int start, int end, int depth) {}

    /** The table the statement writes, as written (maybe schema-qualified or quoted), or null when not a plain write. */
    static String table(String sql) {
        List<Word> w = words(sql);
        if (w == null || w.size() < 2 || refused(sql, w)) return null;
        int at = switch (w.get(0).text) {
            case "update" -> w.get(0).end;
            case "delete", "insert" -> w.get(1).text.equals(w.get(0).text.equals("delete") ? "from" : "into") ? w.get(1).end : -1;
            default -> -1;
        };
        if (at < 0) return null;
        Matcher m = NAME.matcher(sql).region(at, sql.length());
        if (!m.lookingAt()) return null;
        String name = m.group(1);
        if (name.equalsIgnoreCase("only")) {
            m = NAME.matcher(sql).region(m.end(), sql.length());
            if (!m.lookingAt()) return null;
            name = m.group(1);
        }
        return name;
    }

    /** The statement rewritten to write no row, or null when it is not a plain write. */
    static String of(String sql) {
        List<Word> w = words(sql);
        if (w == null || w.isEmpty() || table(sql) == null) return null;
        int end = bodyEnd(sql);
        String tail = sql.substring(end);
        return switch (w.get(0).text) {
            case "update", "delete" -> {
                Word where = first(w, "where");
                yield where == null
                        ? sql.substring(0, end) + " WHERE false" + tail
                        : sql.substring(0, where.end) + " (" + sql.substring(where.end, end).strip() + ") AND false" + tail;
            }
            case "insert" -> {
                Word values = first(w, "values");
                if (values == null) yield null;
                int open = skipSpace(sql, values.end);
                if (open >= end || sql.charAt(open) != '(') yield null;
                int close = matching(sql, open);
                if (close < 0 || skipSpace(sql, close + 1) != end) yield null;   // one row, nothing after it
                yield sql.substring(0, values.start) + "SELECT " + sql.substring(open + 1, close).strip() + " WHERE false" + tail;
            }
            default -> null;
        };
    }

    private static boolean refused(String sql, List<Word> w) {
        if (REFUSED.matcher(sql).find()) return true;
        for (Word x : w) {
            if (x.depth == 0 && (x.text.equals("returning") || x.text.equals("current") || x.text.equals("conflict"))) return true;
        }
        return false;
    }

    private static Word first(List<Word> w, String text) {
        for (Word x : w) if (x.depth == 0 && x.text.equals(text)) return x;
        return null;
    }

    /** Where the statement ends: before a trailing semicolon and the spaces around it. */
    private static int bodyEnd(String sql) {
        int e = sql.length();
        while (e > 0 && Character.isWhitespace(sql.charAt(e - 1))) e--;
        if (e > 0 && sql.charAt(e - 1) == ';') e--;
        while (e > 0 && Character.isWhitespace(sql.charAt(e - 1))) e--;
        return e;
    }

    private static int skipSpace(String sql, int i) {
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) i++;
        return i;
    }

    /** The parenthesis closing the one at open (quotes skipped), or -1. */
    private static int matching(String sql, int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = sql.indexOf(c, i + 1);
                if (i < 0) return -1;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The words of the statement outside quotes (a :variable's name and what follows a cast's :: are not words),
     * or null for what this class does not read: comments, dollar quotes, backslashes, unbalanced parentheses
     * or quotes, anything after a semicolon.
     */
    private static List<Word> words(String sql) {
        List<Word> out = new ArrayList<>();
        int depth = 0;
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            char next = i + 1 < n ? sql.charAt(i + 1) : 0;
            if (c == '\\' || (c == '-' && next == '-') || (c == '/' && next == '*') || (c == '$' && !Character.isDigit(next))) return null;
            if (c == '\'' || c == '"') {
                i = sql.indexOf(c, i + 1);
                if (i < 0) return null;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (--depth < 0) return null;
            } else if (c == ';') {
                if (!sql.substring(i + 1).isBlank()) return null;
                break;
            } else if (Character.isLetter(c) || c == '_' || Character.isDigit(c)) {
                int s = i;
                while (i + 1 < n && (Character.isLetterOrDigit(sql.charAt(i + 1)) || sql.charAt(i + 1) == '_' || sql.charAt(i + 1) == '$')) i++;
                boolean variable = s > 0 && sql.charAt(s - 1) == ':';
                if (!variable && !Character.isDigit(c)) out.add(new Word(sql.substring(s, i + 1).toLowerCase(Locale.ROOT), s, i + 1, depth));
            }
        }
        return depth == 0 ? out : null;
    }
}
