package dev.kensho.pgbench.script.expr;

/** A syntax error in an expression, at an offset of the script text; the script parser adds file:line:column. */
public final class ExprSyntaxException extends Exception {
    private final String more;
    private final int offset;
    private final String expected;

    public ExprSyntaxException(String message, String more, int offset) {
        this(message, more, offset, null);
    }

    /** @param expected what the parser expected at offset (e.g. "',' or ')' after argument 1 of random()"), or null */
    public ExprSyntaxException(String message, String more, int offset, String expected) {
        super(message, null, false, false);
        this.more = more;
        this.offset = offset;
        this.expected = expected;
    }

    /** pgbench's parenthesised detail (a function name, the unexpected character), or null. */
    public String more() {
        return more;
    }

    /** What would have been valid at the offset, when the parser knows better than "an operand or an operator"; else null. */
    public String expected() {
        return expected;
    }

    /** Offset in the script text where the error was found. */
    public int offset() {
        return offset;
    }
}
