package dev.kensho.pgbench.script;

import dev.kensho.pgbench.script.expr.Expr;
import dev.kensho.pgbench.script.expr.ExprParser;
import dev.kensho.pgbench.script.expr.ExprSyntaxException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Splits a script the way pgbench does (psqlscan.l plus pgbench's ParseScript): an SQL command runs until a
 * semicolon outside quotes, comments and parentheses, or until a backslash meta-command, and may span lines;
 * {@code \;} puts a literal semicolon in the query (a compound query); a meta-command runs to the end of its
 * line, backslash-newline continuing it. Leading whitespace and {@code --} comments before a command are
 * dropped, comments inside it are kept; semicolons inside CREATE FUNCTION/PROCEDURE ... BEGIN ATOMIC ... END
 * bodies do not end the command (psql's heuristic).
 */
final class ScriptParser {
    /** pgbench's MAX_ARGS: the command (or SQL text) plus 255 arguments. */
    static final int MAX_ARGS = 256;

    private static final AtomicBoolean SETRANDOM_WARNED = new AtomicBoolean();
    /** The study errata said so far: once each, as \setrandom's (a sweep parses its scripts again for every trial). */
    private static final java.util.Set<String> ERRATA_WARNED = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Where the \setrandom and study-errata warnings go (stderr by default). */
    static volatile Consumer<String> warnings = s -> System.err.println(s); // System.err as it is when warning

    private final String file;
    private final String src;
    private final int[] lineStarts;
    private int pos;
    /** Offset of the backslash of the meta-command being parsed. */
    private int commandStart;
    private final List<Command> commands = new ArrayList<>();
    // psql's heuristic for CREATE [OR REPLACE] {FUNCTION|PROCEDURE} ... BEGIN ATOMIC ... END bodies
    private int identifierCount;
    private final char[] identifiers = new char[4];
    private int beginDepth;

    private ScriptParser(String file, String src) {
        this.file = file;
        this.src = src;
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < src.length(); i++) {
            if (src.charAt(i) == '\n') {
                starts.add(i + 1);
            }
        }
        lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
    }

    static List<Command> parse(String file, String text) throws ScriptException {
        ScriptParser p = new ScriptParser(file, text);
        p.run();
        return p.commands;
    }

    private int lineOf(int offset) {
        int lo = 0;
        int hi = lineStarts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (lineStarts[mid] <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo + 1;
    }

    private int columnOf(int offset) {
        return offset - lineStarts[lineOf(offset) - 1] + 1;
    }

    private ScriptException error(int offset, String message) {
        return error(offset, message, "");
    }

    /**
     * An error at {@code offset} in the meta-command at {@link #commandStart}, placed on the command's first line as
     * pgbench places it, the column counted on from that line's start through its continuation lines (pgbench's
     * column when the command starts a line); one past a continuation also names the line and column it is at.
     */
    private ScriptException error(int offset, String message, String detail) {
        int o = Math.min(offset, src.length());
        int line = lineOf(commandStart);
        String where = lineOf(o) == line ? "" : " (on continuation line " + lineOf(o) + ", column " + columnOf(o) + ")";
        return new ScriptException(file, line, o - lineStarts[line - 1] + 1, message + where + detail);
    }

    private void run() throws ScriptException {
        while (pos < src.length()) {
            if (scanSql()) {
                metaCommand();
            }
        }
        if (commands.isEmpty()) {
            throw new ScriptException(file, 1, 0, "empty command list for script");
        }
        checkConditionals();
    }

    // ------------------------------------------------------------------ SQL

    static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** psqlscan's variable_char, what a ":name" token is made of. */
    private static boolean isVariableChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
    }

    /** The end of a ":{?name}" at {@code at}, or -1. */
    private static int existenceTestEnd(String s, int at) {
        if (!s.startsWith(":{?", at)) return -1;
        int p = at + 3;
        while (p < s.length() && isVariableChar(s.charAt(p))) p++;
        return p > at + 3 && p < s.length() && s.charAt(p) == '}' ? p + 1 : -1;
    }

    private static boolean isIdentChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                || c == '$' || c >= 0x80;
    }

    /**
     * Where a "--" comment at {@code from} ends: at the next newline or carriage return, as psqlscan's: a file saved
     * with CR line ends would otherwise lose every command after its first comment, silently.
     */
    private static int commentEnd(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') return i;
        }
        return s.length();
    }

    /**
     * Where the string a quote just closed goes on, as SQL's (and psqlscan's) continuation: blanks and "--" comments,
     * a line break, then blank lines and whole-line comments, then a quote, whose index it returns; -1 when none
     * follows. The string goes on in its own kind: an E string continued keeps its escapes.
     */
    private static int quoteContinuation(String s, int from) {
        int n = s.length();
        int i = from;
        while (i < n) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\f') i++;
            else if (s.startsWith("--", i)) i = commentEnd(s, i);
            else break;
        }
        if (i >= n || (s.charAt(i) != '\n' && s.charAt(i) != '\r')) return -1;
        i++;
        while (i < n) {
            char c = s.charAt(i);
            if (Variables.isSpace(c)) {
                i++;
            } else if (s.startsWith("--", i)) {
                int end = commentEnd(s, i);
                if (end >= n) return -1;   // a comment is whitespace here only with its line break
                i = end + 1;
            } else {
                break;
            }
        }
        return i < n && s.charAt(i) == '\'' ? i : -1;
    }

    /**
     * Scans one SQL command from {@code pos}; adds it if it has content. Returns true when stopped at a
     * backslash meta-command ({@code pos} then points just after the backslash).
     */
    private boolean scanSql() {
        StringBuilder buf = new StringBuilder();
        int start = -1;
        int depth = 0;
        int n = src.length();
        boolean backslash = false;
        // statements the \; split off that hold more than blanks and comments: "SELECT 1 \;" is one statement to
        // the server (it drops empty ones), which pgbench runs in extended mode too, so it is no compound query
        int statements = 0;
        boolean content = false;
        int segment = 0;        // where in buf the statement being scanned starts
        int[] kept = null;      // buf range of the last statement with content, once a \; was seen
        while (pos < n) {
            char c = src.charAt(pos);
            if (buf.length() == 0 && (Variables.isSpace(c) || src.startsWith("--", pos))) {
                if (c == '-') {
                    pos = commentEnd(src, pos);
                } else {
                    pos++;
                }
                continue;
            }
            if (start < 0) {
                start = pos;
            }
            if (src.startsWith("--", pos)) {
                int end = commentEnd(src, pos);
                buf.append(src, pos, end);
                pos = end;
            } else if (src.startsWith("/*", pos)) {
                int level = 0;
                int p = pos;
                while (p < n) {
                    if (src.startsWith("/*", p)) {
                        level++;
                        p += 2;
                    } else if (src.startsWith("*/", p)) {
                        level--;
                        p += 2;
                        if (level == 0) {
                            break;
                        }
                    } else {
                        p++;
                    }
                }
                buf.append(src, pos, p);
                pos = p;
            } else if (c == '\'') {
                content = true;
                boolean escapes = pos > 0 && (src.charAt(pos - 1) == 'e' || src.charAt(pos - 1) == 'E')
                        && (pos < 2 || !isIdentChar(src.charAt(pos - 2)));
                int p = pos + 1;
                while (p < n) {
                    char q = src.charAt(p);
                    if (escapes && q == '\\' && p + 1 < n) {
                        p += 2;
                    } else if (q == '\'') {
                        int more = p + 1 < n && src.charAt(p + 1) == '\'' ? p + 1 : quoteContinuation(src, p + 1);
                        if (more < 0) {
                            p++;
                            break;
                        }
                        p = more + 1;
                    } else {
                        p++;
                    }
                }
                buf.append(src, pos, p);
                pos = p;
            } else if (c == '"') {
                content = true;
                int p = pos + 1;
                while (p < n) {
                    if (src.charAt(p) == '"') {
                        if (p + 1 < n && src.charAt(p + 1) == '"') {
                            p += 2;
                            continue;
                        }
                        p++;
                        break;
                    }
                    p++;
                }
                buf.append(src, pos, p);
                pos = p;
            } else if (c == '$' && (pos == 0 || !isIdentChar(src.charAt(pos - 1))) && dollarTagEnd(src, pos) > 0) {
                content = true;
                int tagEnd = dollarTagEnd(src, pos);
                String tag = src.substring(pos, tagEnd);
                int close = src.indexOf(tag, tagEnd);
                int p = close < 0 ? n : close + tag.length();
                buf.append(src, pos, p);
                pos = p;
            } else if (c == '\\') {
                if (pos + 1 < n && (src.charAt(pos + 1) == ';' || src.charAt(pos + 1) == ':')) {
                    if (src.charAt(pos + 1) == ';') {
                        identifierCount = 0;
                        statements += content ? 1 : 0;
                        kept = content ? new int[] {segment, buf.length()} : kept == null ? new int[] {0, 0} : kept;
                        content = false;
                        segment = buf.length() + 1;
                    } else {
                        content = true;
                    }
                    buf.append(src.charAt(pos + 1));
                    pos += 2;
                } else {
                    identifierCount = 0;
                    pos++;
                    backslash = true;
                    break;
                }
            } else if (c == ':' && pos + 1 < n && src.charAt(pos + 1) == ':') {
                content = true;   // a cast: the name after it is an identifier
                buf.append("::");
                pos += 2;
            } else if (c == ':' && pos + 1 < n && isVariableChar(src.charAt(pos + 1))) {
                // psqlscan's variable token: its name is no identifier (":end" closes no BEGIN ATOMIC body)
                int p = pos + 1;
                while (p < n && isVariableChar(src.charAt(p))) {
                    p++;
                }
                content = true;
                buf.append(src, pos, p);
                pos = p;
            } else if (c == ':' && existenceTestEnd(src, pos) > 0) {
                // psql's :{?name}: pgbench gives its scanner no variables, so every name tests absent
                content = true;
                buf.append("FALSE");
                pos = existenceTestEnd(src, pos);
            } else if (isIdentStart(c) && (pos == 0 || !isIdentChar(src.charAt(pos - 1)))) {
                int p = pos + 1;
                while (p < n && isIdentChar(src.charAt(p))) {
                    p++;
                }
                content = true;
                identifier(src.substring(pos, p), depth);
                buf.append(src, pos, p);
                pos = p;
            } else {
                if (c == '(') {
                    depth++;
                } else if (c == ')' && depth > 0) {
                    depth--;
                }
                content |= !Variables.isSpace(c) && c != ';';
                buf.append(c);
                pos++;
                if (c == ';' && depth == 0 && beginDepth == 0) {
                    identifierCount = 0;
                    break;
                }
            }
        }
        if (buf.length() > 0) {
            if (kept != null && content) {
                kept = new int[] {segment, buf.length()};
            }
            addSql(start, buf.toString(), statements + (content ? 1 : 0) > 1, kept);
        }
        return backslash;
    }

    private static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    /** psqlscan.l's tracking of BEGIN ... END depth inside CREATE FUNCTION/PROCEDURE, so inner ';' don't split. */
    private void identifier(String word, int parenDepth) {
        String w = word.toLowerCase(Locale.ROOT);
        if (identifierCount == 0) {
            java.util.Arrays.fill(identifiers, (char) 0);
        }
        if (w.equals("create") || w.equals("function") || w.equals("procedure") || w.equals("or")
                || w.equals("replace")) {
            if (identifierCount < identifiers.length) {
                identifiers[identifierCount] = w.charAt(0);
            }
        }
        identifierCount++;
        if (identifiers[0] == 'c' && (identifiers[1] == 'f' || identifiers[1] == 'p'
                || (identifiers[1] == 'o' && identifiers[2] == 'r' && (identifiers[3] == 'f' || identifiers[3] == 'p')))
                && parenDepth == 0) {
            if (w.equals("begin")) {
                beginDepth++;
            } else if (w.equals("case")) {
                if (beginDepth >= 1) {
                    beginDepth++;
                }
            } else if (w.equals("end")) {
                if (beginDepth > 0) {
                    beginDepth--;
                }
            }
        }
    }

    /** End offset of a dollar-quote delimiter {@code $tag$} starting at {@code p}, or -1. */
    private static int dollarTagEnd(String src, int p) {
        int n = src.length();
        int i = p + 1;
        if (i < n && src.charAt(i) == '$') {
            return i + 1;
        }
        if (i >= n) {
            return -1;
        }
        char c = src.charAt(i);
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80)) {
            return -1;
        }
        i++;
        while (i < n) {
            c = src.charAt(i);
            if (c == '$') {
                return i + 1;
            }
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80
                    || (c >= '0' && c <= '9'))) {
                return -1;
            }
            i++;
        }
        return -1;
    }

    private void addSql(int start, String sql, boolean compound, int[] kept) {
        List<String> names = new ArrayList<>();
        int[] hidden = new int[2];
        String jdbc = jdbcText(sql, names, false, hidden);
        String wire = jdbcText(sql, new ArrayList<>(), true);
        if (!compound && kept != null && kept[1] > kept[0]) {
            // one statement and \; around it with only blanks or comments: pgjdbc would split there and send
            // the comment as a query of its own (an empty result, which \gset then reads), so it gets the
            // statement alone; the server would drop the rest (pgbench's text and the wire engine keep it)
            List<String> keptNames = new ArrayList<>();
            String alone = jdbcText(sql.substring(kept[0], kept[1]), keptNames, false);
            if (keptNames.equals(names)) {
                jdbc = alone;
            }
        }
        Command c = Command.sql(lineOf(start), columnOf(start), sql, List.copyOf(names), jdbc, wire);
        c.compound = compound;
        if (hidden[0] >= 0) {
            // where in the file: sql is src from start less the backslash of each \; and \:
            int j = start;
            for (int i = 0; i < hidden[0]; i++, j++) {
                j += src.charAt(j) == '\\' && sql.charAt(i) != '\\' ? 1 : 0;
            }
            j += src.charAt(j) == '\\' ? 1 : 0;
            c.hiddenVariable = new int[] {hidden[1], lineOf(j), columnOf(j)};
        }
        commands.add(c);
    }

    /**
     * The SQL as pgjdbc must receive it for extended/prepared modes. As pgbench's parseQuery, every ":name"
     * (name = letter, underscore or non-ASCII, then also digits) becomes a parameter wherever it is, "::" casts
     * are skipped; the parameter is written '?' for pgjdbc, and a literal '?' outside quotes and comments is
     * doubled, pgjdbc's escape for it. With {@code wire}, the text as pgbench sends it: parameters numbered
     * $1, $2... in order, '?' as it is.
     */
    static String jdbcText(String sql, List<String> names, boolean wire) {
        return jdbcText(sql, names, wire, null);
    }

    /**
     * As above; {@code hidden}, when given, receives the offset of the first ":name" inside a quoted literal,
     * identifier, dollar quote or comment (else -1) and its parameter number.
     */
    static String jdbcText(String sql, List<String> names, boolean wire, int[] hidden) {
        if (hidden != null) {
            hidden[0] = -1;
        }
        StringBuilder out = new StringBuilder(sql.length() + 8);
        int n = sql.length();
        int i = 0;
        char quote = 0;          // ' or " while inside a quoted string or identifier
        String dollarTag = null; // while inside $tag$...$tag$
        int blockDepth = 0;      // inside /* */
        boolean lineComment = false;
        boolean escapes = false; // E'' string
        // end of the last '?' parameter in out: a '?' right after it would make pgjdbc's "??" (a literal '?'), so
        // ":a:b" or ":a?" get a space between, which pgbench's "$1$2" and "$1?" lex as too
        int paramEnd = -1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == ':') {
                int e = variableEnd(sql, i);
                if (e < 0) {
                    while (i < n && sql.charAt(i) == ':') {
                        out.append(':');
                        i++;
                    }
                    continue;
                }
                if (hidden != null && hidden[0] < 0 && (lineComment || blockDepth > 0 || dollarTag != null || quote != 0)) {
                    hidden[0] = i;
                    hidden[1] = names.size() + 1;
                }
                names.add(sql.substring(i + 1, e));
                if (wire) {
                    out.append('$').append(names.size());
                } else {
                    out.append(out.length() == paramEnd ? " ?" : "?");
                    paramEnd = out.length();
                }
                i = e;
                continue;
            }
            if (lineComment) {
                lineComment = c != '\n' && c != '\r';
            } else if (blockDepth > 0) {
                if (sql.startsWith("*/", i)) {
                    blockDepth--;
                    out.append("*/");
                    i += 2;
                    continue;
                }
                if (sql.startsWith("/*", i)) {
                    blockDepth++;
                    out.append("/*");
                    i += 2;
                    continue;
                }
            } else if (dollarTag != null) {
                if (sql.startsWith(dollarTag, i)) {
                    out.append(dollarTag);
                    i += dollarTag.length();
                    dollarTag = null;
                    continue;
                }
            } else if (quote != 0) {
                if (escapes && c == '\\' && i + 1 < n) {
                    out.append(c).append(sql.charAt(i + 1));
                    i += 2;
                    continue;
                }
                if (c == quote) {
                    // no continuation here: where '?' needs escaping, pgjdbc's parser reads each quote pair as a string
                    // of its own (E'' decided by the letter before it), and so must this
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                escapes = c == '\'' && i > 0 && (sql.charAt(i - 1) == 'e' || sql.charAt(i - 1) == 'E')
                        && (i < 2 || !isIdentChar(sql.charAt(i - 2)));
            } else if (sql.startsWith("--", i)) {
                lineComment = true;
            } else if (sql.startsWith("/*", i)) {
                blockDepth = 1;
                out.append("/*");
                i += 2;
                continue;
            } else if (c == '$' && (i == 0 || !isIdentChar(sql.charAt(i - 1)))) {
                int end = dollarTagEnd(sql, i);
                if (end > 0) {
                    dollarTag = sql.substring(i, end);
                    out.append(dollarTag);
                    i = end;
                    continue;
                }
            } else if (c == '?' && !wire) {
                out.append(out.length() == paramEnd ? " ??" : "??");
                i++;
                continue;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /** pgbench's parseVariable: end offset of ":name" at {@code i}, or -1 when no valid name follows. */
    static int variableEnd(String s, int i) {
        int j = i + 1;
        if (j >= s.length()) {
            return -1;
        }
        // a name's first character is no digit (pgbench's parseVariable), the rest psqlscan's variable_char
        if (!isVariableChar(s.charAt(j)) || isAsciiDigit(s.charAt(j))) {
            return -1;
        }
        j++;
        while (j < s.length() && isVariableChar(s.charAt(j))) {
            j++;
        }
        return j;
    }

    // ------------------------------------------------------------------ meta-commands

    private record Word(String text, int offset) {
    }

    /** One whitespace-separated word of a meta-command (exprscan.l INITIAL state), or null at end of line. */
    private Word word() {
        int n = src.length();
        while (pos < n) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b) {
                pos++;
            } else if (ExprParser.continuation(src, pos, n) > 0) {
                pos += ExprParser.continuation(src, pos, n);
            } else {
                break;
            }
        }
        if (pos >= n) {
            return null;
        }
        if (src.charAt(pos) == '\n') {
            pos++;
            return null;
        }
        int start = pos;
        while (pos < n) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b || c == '\n') {
                break;
            }
            int k = c == '\\' ? ExprParser.continuation(src, pos, n) : 0;   // exprscan.l's {nonspace}+{continuation}: "\\\r?\n"
            if (k > 0) {
                String w = src.substring(start, pos);
                pos += k;
                return new Word(w, start);
            }
            pos++;
        }
        return new Word(src.substring(start, pos), start);
    }

    /** pgbench's first_line of a meta-command: its whole text, continuation lines included, less the newline. */
    private String commandText(int start) {
        int end = Math.min(pos, src.length());
        while (end > start && (src.charAt(end - 1) == '\n' || src.charAt(end - 1) == '\r')) {
            end--;
        }
        return src.substring(start, end);
    }

    private String restOfLine(int from) {
        int nl = src.indexOf('\n', from);
        return src.substring(from, nl < 0 ? src.length() : nl).stripTrailing();
    }

    private void metaCommand() throws ScriptException {
        int cmdStart = pos - 1;
        commandStart = cmdStart;
        int line = lineOf(cmdStart);
        int col = columnOf(cmdStart);
        String firstLine = "\\" + restOfLine(pos);
        Word w = word();
        if (w == null) {
            // a lone backslash: pgbench ignores it
            return;
        }
        String name = w.text;
        String lname = name.toLowerCase(Locale.ROOT);
        switch (lname) {
            case "set", "if", "elif" -> {
                String variable = null;
                Word v = null;
                if (lname.equals("set")) {
                    v = word();
                    if (v == null) {
                        throw new ScriptException(file, line, col, "missing argument in command \"set\"");
                    }
                    variable = v.text;
                }
                Expr e;
                try {
                    ExprParser.Parsed parsed = ExprParser.parse(src, pos);
                    e = parsed.expr();
                    pos = parsed.end();
                    firstLine = commandText(cmdStart);
                } catch (ExprSyntaxException ex) {
                    StudyErrata.Erratum erratum = lname.equals("set") ? StudyErrata.of(restOfLine(cmdStart)) : null;
                    if (erratum != null) {
                        studyErratum(erratum, cmdStart, line, col);
                        return;
                    }
                    String what = ex.getMessage() + (ex.more() != null ? " (" + ex.more() + ")" : "") + " in command \"" + lname + "\"";
                    if (v != null && v.text.indexOf('(') > 0) throw error(ex.offset(), what, variableHint(cmdStart, v));
                    throw error(ex.offset(), what, expectation(ex));
                }
                Command.Kind kind = switch (lname) {
                    case "set" -> Command.Kind.SET;
                    case "if" -> Command.Kind.IF;
                    default -> Command.Kind.ELIF;
                };
                commands.add(Command.meta(kind, line, col, firstLine, variable, e, List.of(), 0));
                return;
            }
            default -> {
            }
        }
        List<Word> words = new ArrayList<>();
        Word a;
        while ((a = word()) != null) {
            if (words.size() + 1 >= MAX_ARGS) {
                throw new ScriptException(file, line, col, "too many arguments in command \"" + lname + "\"");
            }
            words.add(a);
        }
        List<String> args = words.stream().map(Word::text).toList();
        firstLine = commandText(cmdStart);
        switch (lname) {
            case "sleep" -> sleep(line, col, firstLine, words);
            case "setshell" -> {
                if (args.size() < 2) {
                    throw new ScriptException(file, line, col, "missing argument in command \"setshell\""
                            + " (expected \\setshell variable command [args...])");
                }
                commands.add(Command.meta(Command.Kind.SETSHELL, line, col, firstLine, args.get(0), null,
                        args.subList(1, args.size()), 0));
            }
            case "shell" -> {
                if (args.isEmpty()) {
                    throw new ScriptException(file, line, col, "missing command in command \"shell\"");
                }
                commands.add(Command.meta(Command.Kind.SHELL, line, col, firstLine, null, null, args, 0));
            }
            case "else", "endif" -> {
                if (!args.isEmpty()) {
                    throw error(words.get(0).offset, "unexpected argument in command \"" + lname + "\"");
                }
                commands.add(Command.meta(lname.equals("else") ? Command.Kind.ELSE : Command.Kind.ENDIF,
                        line, col, firstLine, null, null, List.of(), 0));
            }
            case "startpipeline", "syncpipeline", "endpipeline" -> {
                // no structural check here, as in pgbench: nesting and unmatched ends fail when the client runs them
                if (!args.isEmpty()) {
                    throw error(words.get(0).offset, "unexpected argument in command \"" + lname + "\"");
                }
                commands.add(Command.meta(Command.Kind.valueOf(lname.toUpperCase(java.util.Locale.ROOT)),
                        line, col, firstLine, null, null, List.of(), 0));
            }
            case "gset", "aset" -> {
                if (args.size() > 1) {
                    throw error(words.get(1).offset, "too many arguments in command \"" + lname + "\"");
                }
                Command prev = commands.isEmpty() ? null : commands.get(commands.size() - 1);
                if (prev == null || prev.kind != Command.Kind.SQL || prev.store != Command.Store.NONE) {
                    throw new ScriptException(file, line, col, "\\" + lname + " must follow an SQL command");
                }
                prev.store = lname.equals("gset") ? Command.Store.GSET : Command.Store.ASET;
                prev.storePrefix = args.isEmpty() ? "" : args.get(0);
            }
            case "setrandom" -> setrandom(line, col, firstLine, words);
            default -> throw new ScriptException(file, line, col, "invalid command in command \"" + name + "\""
                    + " (expected set, setrandom, sleep, setshell, shell, if, elif, else, endif, gset, aset,"
                    + " startpipeline, syncpipeline, endpipeline)");
        }
    }

    /** Runs a studies' typo'd line as its authors ran it; pgbench rejects it, so say so. */
    private void studyErratum(StudyErrata.Erratum erratum, int cmdStart, int line, int col) {
        String corrected = erratum.corrected();
        int space = corrected.indexOf(' ', "\\set ".length());
        Expr e;
        try {
            e = ExprParser.parse(corrected.substring(space + 1), 0).expr();
        } catch (ExprSyntaxException ex) {
            throw new IllegalStateException("erratum does not parse: " + corrected, ex);
        }
        String quoted = restOfLine(cmdStart);
        int nl = src.indexOf('\n', pos);
        pos = nl < 0 ? src.length() : nl;
        String warning = "warning: " + file + ":" + line + ": running \"" + quoted + "\" as \"" + corrected
                + "\" (the typo is in " + erratum.source() + "; pgbench rejects the line as quoted)";
        if (ERRATA_WARNED.add(warning)) warnings.accept(warning);
        commands.add(Command.meta(Command.Kind.SET, line, col, quoted,
                corrected.substring("\\set ".length(), space), e, List.of(), 0));
    }

    /**
     * A \set whose variable word holds '(' is almost always a typo that glued the variable to the function
     * ("\set aid_random(1, :aid_max)" in study 000): say what the name became and, when the part before '('
     * ends in "_function", the command with that '_' as a space.
     */
    private String variableHint(int cmdStart, Word v) {
        String head = v.text.substring(0, v.text.indexOf('('));
        String hint = ": the variable name would be \"" + v.text + "\"";
        for (int i = head.indexOf('_'); i > 0; i = head.indexOf('_', i + 1)) {
            if (ExprParser.isFunctionName(head.substring(i + 1))) {
                int underscore = v.offset + i;
                int nl = src.indexOf('\n', cmdStart);
                String fixed = src.substring(cmdStart, underscore) + " " + src.substring(underscore + 1, nl < 0 ? src.length() : nl).stripTrailing();
                return hint + " (did you mean \"" + fixed + "\"?)";
            }
        }
        if (ExprParser.isFunctionName(head)) return hint + " (\\set needs a variable name before the expression)";
        return hint + " (a space missing after the variable name?)";
    }

    private static String expectation(ExprSyntaxException ex) {
        if (ex.expected() != null) return ": expected " + ex.expected();
        return switch (ex.getMessage()) {
            case "syntax error" -> ": expected an operand, an operator or the end of the expression here";
            case "unexpected function name" -> ": expected one of abs, debug, double, exp, greatest, hash,"
                    + " hash_fnv1a, hash_murmur2, int, least, ln, mod, permute, pi, pow, power, random,"
                    + " random_exponential, random_gaussian, random_zipfian, sqrt";
            default -> "";
        };
    }

    private void sleep(int line, int col, String firstLine, List<Word> words) throws ScriptException {
        if (words.isEmpty()) {
            throw new ScriptException(file, line, col, "missing argument in command \"sleep\""
                    + " (expected \\sleep number [us|ms|s])");
        }
        if (words.size() > 2) {
            throw error(words.get(2).offset, "too many arguments in command \"sleep\"");
        }
        String value = words.get(0).text;
        String unit = words.size() > 1 ? words.get(1).text : null;
        int unitOffset = words.size() > 1 ? words.get(1).offset : -1;
        if (value.charAt(0) != ':') {
            int i = 0;
            if (value.charAt(0) == '+' || value.charAt(0) == '-') {
                i++;
            }
            // ASCII digits, as C's isdigit: "\sleep ٣" is no number (Character.isDigit took it, and atoi slept 0)
            boolean haveDigit = i < value.length() && isAsciiDigit(value.charAt(i));
            while (i < value.length() && isAsciiDigit(value.charAt(i))) {
                i++;
            }
            if (i < value.length()) {
                if (unit == null && haveDigit) {
                    unit = value.substring(i);
                    unitOffset = words.get(0).offset + i;
                    value = value.substring(0, i);
                } else {
                    throw error(words.get(0).offset, "invalid sleep time, must be an integer (" + value
                            + ") in command \"sleep\"");
                }
            }
        }
        long micros = 1_000_000;
        if (unit != null) {
            switch (unit.toLowerCase(Locale.ROOT)) {
                case "us" -> micros = 1;
                case "ms" -> micros = 1000;
                case "s" -> micros = 1_000_000;
                default -> throw error(unitOffset, "unrecognized time unit, must be us, ms or s (" + unit
                        + ") in command \"sleep\"");
            }
        }
        commands.add(Command.meta(Command.Kind.SLEEP, line, col, firstLine, null, null, List.of(value), micros));
    }

    /** Pre-9.6 {@code \setrandom var min max [uniform | gaussian t | exponential t]}, run as \set. */
    private void setrandom(int line, int col, String firstLine, List<Word> words) throws ScriptException {
        if (words.size() < 3) {
            throw new ScriptException(file, line, col, "missing argument in command \"setrandom\""
                    + " (expected \\setrandom variable min max [uniform | gaussian threshold | exponential threshold])");
        }
        String variable = words.get(0).text;
        checkSetrandomArg(words.get(1), false);
        checkSetrandomArg(words.get(2), false);
        String fn = "random";
        boolean param = false;
        if (words.size() >= 4) {
            String dist = words.get(3).text.toLowerCase(Locale.ROOT);
            switch (dist) {
                case "uniform" -> {
                    if (words.size() > 4) {
                        throw error(words.get(4).offset, "too many arguments in command \"setrandom\"");
                    }
                }
                case "gaussian", "exponential" -> {
                    if (words.size() < 5) {
                        throw new ScriptException(file, line, col, "missing threshold argument in command"
                                + " \"setrandom\" (expected " + dist + " threshold)");
                    }
                    if (words.size() > 5) {
                        throw error(words.get(5).offset, "too many arguments in command \"setrandom\"");
                    }
                    fn = "random_" + dist;
                    checkSetrandomArg(words.get(4), true);
                    param = true;
                }
                default -> throw error(words.get(3).offset, "unrecognized distribution in command \"setrandom\" ("
                        + words.get(3).text + ")", ": expected uniform, gaussian or exponential");
            }
        }
        String exprText = fn + "(" + words.get(1).text + ", " + words.get(2).text
                + (param ? ", " + words.get(4).text : "") + ")";
        Expr e;
        try {
            e = ExprParser.parse(exprText, 0).expr();
        } catch (ExprSyntaxException ex) {
            throw error(words.get(1).offset, "invalid argument in command \"setrandom\"", ": " + ex.getMessage());
        }
        if (SETRANDOM_WARNED.compareAndSet(false, true)) {
            warnings.accept("warning: " + file + ":" + line + ": \\setrandom was removed in PostgreSQL 9.6;"
                    + " running it as \\set " + variable + " " + exprText);
        }
        commands.add(Command.meta(Command.Kind.SET, line, col, firstLine, variable, e, List.of(), 0));
    }

    private void checkSetrandomArg(Word w, boolean isDouble) throws ScriptException {
        String t = w.text;
        if (t.startsWith(":") && t.length() > 1) {
            return;
        }
        try {
            if (isDouble) {
                Double.parseDouble(t);
            } else {
                Long.parseLong(t);
            }
        } catch (NumberFormatException ex) {
            throw error(w.offset, "invalid " + (isDouble ? "threshold" : "bound") + " in command \"setrandom\" ("
                    + t + ")", ": expected " + (isDouble ? "a number" : "an integer") + " or a :variable");
        }
    }

    // ------------------------------------------------------------------ conditionals

    /** pgbench's CheckConditional, plus the jump table the runner uses. */
    private void checkConditionals() throws ScriptException {
        Deque<List<Integer>> stack = new ArrayDeque<>();
        for (int i = 0; i < commands.size(); i++) {
            Command c = commands.get(i);
            switch (c.kind) {
                case IF -> {
                    List<Integer> branches = new ArrayList<>();
                    branches.add(i);
                    stack.push(branches);
                }
                case ELIF, ELSE -> {
                    String what = c.kind == Command.Kind.ELIF ? "\\elif" : "\\else";
                    if (stack.isEmpty()) {
                        throw new ScriptException(file, c.line, c.column, what + " without matching \\if");
                    }
                    List<Integer> branches = stack.peek();
                    if (commands.get(branches.get(branches.size() - 1)).kind == Command.Kind.ELSE) {
                        throw new ScriptException(file, c.line, c.column, what + " after \\else");
                    }
                    branches.add(i);
                }
                case ENDIF -> {
                    if (stack.isEmpty()) {
                        throw new ScriptException(file, c.line, c.column, "\\endif without matching \\if");
                    }
                    List<Integer> branches = stack.pop();
                    branches.add(i);
                    for (int b = 0; b < branches.size() - 1; b++) {
                        Command bc = commands.get(branches.get(b));
                        bc.next = branches.get(b + 1);
                        bc.endif = i;
                    }
                }
                default -> {
                }
            }
        }
        if (!stack.isEmpty()) {
            Command open = commands.get(stack.peek().get(0));
            throw new ScriptException(file, open.line, open.column, "\\if without matching \\endif");
        }
    }
}
