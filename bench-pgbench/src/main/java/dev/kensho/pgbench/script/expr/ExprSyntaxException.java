package dev.kensho.pgbench.script.expr;

/** A syntax error in an expression, at an offset of the script text; the script parser adds file:line:column. */
public final class ExprSyntaxException extends Exception {
    private final String more;
    private final int offset;

    public ExprSyntaxException(String message, String more, int offset) {
        super(message, null, false, false);
        this.more = more;
        this.offset = offset;
    }

    /** pgbench's parenthesised detail (a function name, the unexpected character), or null. */
    public String more() {
        return more;
    }

    /** Offset in the script text where the error was found. */
    public int offset() {
        return offset;
    }
}
