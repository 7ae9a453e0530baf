package dev.kensho.pgbench.script;

import dev.kensho.pgbench.script.expr.Expr;

import java.util.List;

/**
 * One command of a script, numbered as pgbench numbers them (a \gset or \aset is merged into the SQL command
 * before it and takes no slot; \setrandom is stored as the equivalent \set).
 */
public final class Command {
    public enum Kind {
        SQL, SET, SETSHELL, SHELL, SLEEP, IF, ELIF, ELSE, ENDIF, STARTPIPELINE, SYNCPIPELINE, ENDPIPELINE;

        /** \startpipeline, \syncpipeline, \endpipeline: only the wire engine can run them. */
        public boolean pipeline() {
            return this == STARTPIPELINE || this == SYNCPIPELINE || this == ENDPIPELINE;
        }
    }

    /** What an SQL command does with its result rows: nothing, \gset (exactly one row), \aset (all queries). */
    public enum Store { NONE, GSET, ASET }

    final Kind kind;
    final int line;
    final int column;
    final String text;
    final String variable;
    final Expr expr;
    final List<String> args;
    // SQL
    final String sql;
    Store store = Store.NONE;
    String storePrefix = "";
    /** Contains a \; (several statements in one query): simple mode only, as the server refuses it prepared. */
    boolean compound;
    /**
     * The first ":name" inside a literal or comment: {parameter number, line, column}, or null. pgbench makes it
     * a parameter there too ('$1'), which the statement never references: the server cannot type it or, the
     * last, says the Bind supplies too many.
     */
    int[] hiddenVariable;
    final List<String> paramNames;
    final String parameterizedSql;
    /** The text with $1, $2... for parameters, as pgbench sends it (the wire engine). */
    final String wireSql;
    // SLEEP: microseconds per unit
    final long sleepUnitMicros;
    // IF/ELIF/ELSE: index of the next ELIF/ELSE/ENDIF of the same \if, and of its ENDIF
    int next = -1;
    int endif = -1;

    private Command(Kind kind, int line, int column, String text, String variable, Expr expr, List<String> args,
                    String sql, List<String> paramNames, String parameterizedSql, String wireSql, long sleepUnitMicros) {
        this.kind = kind;
        this.line = line;
        this.column = column;
        this.text = text;
        this.variable = variable;
        this.expr = expr;
        this.args = args;
        this.sql = sql;
        this.paramNames = paramNames;
        this.parameterizedSql = parameterizedSql;
        this.wireSql = wireSql;
        this.sleepUnitMicros = sleepUnitMicros;
    }

    static Command sql(int line, int column, String sql, List<String> paramNames, String parameterizedSql, String wireSql) {
        return new Command(Kind.SQL, line, column, firstLine(sql), null, null, List.of(), sql, paramNames,
                parameterizedSql, wireSql, 0);
    }

    static Command meta(Kind kind, int line, int column, String text, String variable, Expr expr,
                        List<String> args, long sleepUnitMicros) {
        return new Command(kind, line, column, text, variable, expr, args, null, List.of(), null, null, sleepUnitMicros);
    }

    /**
     * pgbench's first_line of an SQL command: up to the first CR or LF, at most 127 bytes (its 128-byte buffer);
     * pgbench may cut a UTF-8 character in two, here the cut falls before it.
     */
    static String firstLine(String s) {
        int end = 0;
        int bytes = 0;
        while (end < s.length()) {
            int cp = s.codePointAt(end);
            if (cp == '\n' || cp == '\r') break;
            int b = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + b > 127) break;
            bytes += b;
            end += Character.charCount(cp);
        }
        return s.substring(0, end);
    }

    public Kind kind() {
        return kind;
    }

    /** 1-based line of the command's first character in its file. */
    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    /** The command's first line, for per-command reports (pgbench's first_line). */
    public String text() {
        return text;
    }

    /** SQL text as pgbench sends it in simple mode before substitution (null for meta-commands). */
    public String sql() {
        return sql;
    }

    /** The SQL as pgjdbc receives it in extended and prepared modes: '?' for each of {@link #paramNames}. */
    public String parameterizedSql() {
        return parameterizedSql;
    }

    /** The SQL with $1, $2... for its parameters, as pgbench sends it in extended and prepared modes. */
    public String wireSql() {
        return wireSql;
    }

    /** Variable names bound as $1..$n in extended and prepared modes, in order (may repeat). */
    public List<String> paramNames() {
        return paramNames;
    }

    public Store store() {
        return store;
    }

    public String storePrefix() {
        return storePrefix;
    }

    /** Target variable of \set and \setshell. */
    public String variable() {
        return variable;
    }

    /** The expression of \set, \if, \elif. */
    public Expr expr() {
        return expr;
    }

    /** Words after the command name (\shell, \setshell command words, \sleep value [unit]). */
    public List<String> args() {
        return args;
    }

    @Override
    public String toString() {
        return line + ": " + text;
    }
}
