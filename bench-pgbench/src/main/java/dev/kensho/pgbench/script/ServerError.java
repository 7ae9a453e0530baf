package dev.kensho.pgbench.script;

/**
 * A server's ErrorResponse, to be worded as libpq words it at its default verbosity (PQerrorMessage), which is what
 * pgbench prints when a client aborts: the severity and message, the statement's line with a caret under the error's
 * position, then DETAIL, HINT, QUERY and CONTEXT lines. pgjdbc words it otherwise ("Position: 18", "Where: ..."), and
 * the wire engine kept the message alone (a unique violation's key, a deadlock's processes were lost).
 *
 * @param position         the error's character in the statement, 1-based; 0 when the server gave none
 * @param internalPosition the same in internalQuery (a PL/pgSQL statement's error)
 */
public record ServerError(String severity, String sqlState, String message, String detail, String hint, int position,
                          String internalQuery, int internalPosition, String context) {

    /** libpq's limits for the statement line: 60 screen columns, kept at least 10 right of the error where cut. */
    private static final int DISPLAY_SIZE = 60;
    private static final int MIN_RIGHT_CUT = 10;

    public static ServerError of(org.postgresql.util.ServerErrorMessage m) {
        return new ServerError(m.getSeverity(), m.getSQLState(), m.getMessage(), m.getDetail(), m.getHint(), m.getPosition(),
                m.getInternalQuery(), m.getInternalPosition(), m.getWhere());
    }

    /**
     * The error as libpq gives it for a statement sent as query (null where it is not known: the position is then said
     * as " at character N", as libpq says it), without the final newline.
     */
    public String libpqText(String query) {
        StringBuilder sb = new StringBuilder(severity == null ? "ERROR" : severity).append(":  ").append(message == null ? "" : message);
        String shown = null;
        int at = 0;
        if (position > 0) {
            if (query != null) {
                shown = query;
                at = position;
            } else {
                sb.append(" at character ").append(position);
            }
        } else if (internalPosition > 0) {
            if (internalQuery != null) {
                shown = internalQuery;
                at = internalPosition;
            } else {
                sb.append(" at character ").append(internalPosition);
            }
        }
        sb.append('\n');
        if (shown != null) cursor(sb, shown, at);
        if (detail != null) sb.append("DETAIL:  ").append(detail).append('\n');
        if (hint != null) sb.append("HINT:  ").append(hint).append('\n');
        if (internalQuery != null) sb.append("QUERY:  ").append(internalQuery).append('\n');
        if (context != null) sb.append("CONTEXT:  ").append(context).append('\n');
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    /**
     * A notice (NOTICE, WARNING...) as libpq's default notice processor prints it: as an error, without its CONTEXT
     * (libpq shows a context for errors only), so a RAISE NOTICE prints its message, DETAIL and HINT.
     */
    public String libpqNoticeText(String query) {
        return new ServerError(severity == null ? "NOTICE" : severity, sqlState, message, detail, hint, position, internalQuery,
                internalPosition, null).libpqText(query);
    }

    /**
     * A warning pgjdbc collected on a statement, as libpq's notice processor prints it (see libpqNoticeText); one the
     * server did not send (pgjdbc's own) as a WARNING with its message. query gives the statement text the notice's
     * position is in.
     */
    public static String noticeText(java.sql.SQLWarning w, java.util.function.Function<ServerError, String> query) {
        if (w instanceof org.postgresql.util.PSQLWarning p && p.getServerErrorMessage() != null) {
            ServerError n = of(p.getServerErrorMessage());
            return n.libpqNoticeText(query.apply(n));
        }
        return "WARNING:  " + w.getMessage();
    }

    /**
     * "LINE n: " and the line of query holding the character at position (1-based), then a caret under it. A line
     * wider than 60 columns is cut to 60 around the error, with "..." where it was cut; tabs show as spaces; columns
     * are screen columns (an East Asian wide character takes two). Nothing when position lies beyond the query.
     */
    static void cursor(StringBuilder sb, String query, int position) {
        int loc = position - 1;
        int[] chars = query.codePoints().map(c -> c == '\t' ? ' ' : c).toArray();
        int[] col = new int[chars.length + 1];   // the screen column each character starts at, up to the line's end
        int line = 1, begin = 0, end = -1, column = 0;
        for (int i = 0; i < chars.length; i++) {
            col[i] = column;
            int c = chars[i];
            if (c == '\r' || c == '\n') {
                if (i < loc) {
                    if (c == '\r' || i == 0 || chars[i - 1] != '\r') line++;   // \r\n is one line break
                    begin = i + 1;
                } else {
                    end = i;
                    break;
                }
            }
            column += wide(c) ? 2 : 1;
        }
        if (end < 0) {
            end = chars.length;
            col[end] = column;
        }
        if (loc > end) return;
        boolean cutLeft = false, cutRight = false;
        if (col[end] - col[begin] > DISPLAY_SIZE) {
            if (col[begin] + DISPLAY_SIZE >= col[loc] + MIN_RIGHT_CUT) {
                while (col[end] - col[begin] > DISPLAY_SIZE) end--;
                cutRight = true;
            } else {
                while (col[loc] + MIN_RIGHT_CUT < col[end]) {
                    end--;
                    cutRight = true;
                }
                while (col[end] - col[begin] > DISPLAY_SIZE) {
                    begin++;
                    cutLeft = true;
                }
            }
        }
        String lead = "LINE " + line + ": " + (cutLeft ? "..." : "");
        sb.append(lead).append(new String(chars, begin, end - begin)).append(cutRight ? "..." : "").append('\n');
        sb.append(" ".repeat(lead.length() + col[loc] - col[begin])).append("^\n");
    }

    /** East Asian wide and fullwidth characters (Hangul, CJK, kana, fullwidth forms), which a terminal shows in two columns. */
    private static boolean wide(int c) {
        return c >= 0x1100 && (c <= 0x115f
                || c >= 0x2e80 && c <= 0xa4cf && c != 0x303f
                || c >= 0xac00 && c <= 0xd7a3
                || c >= 0xf900 && c <= 0xfaff
                || c >= 0xfe30 && c <= 0xfe6f
                || c >= 0xff00 && c <= 0xff60
                || c >= 0xffe0 && c <= 0xffe6
                || c >= 0x20000 && c <= 0x3fffd);
    }
}
