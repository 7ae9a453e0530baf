package dev.kensho.pgbench.script;

/**
 * A script pgbench would reject, or an invalid -f/-b specification. The message is one line:
 * {@code file:line:column: what is wrong (detail) in command "name"}, without a stack trace.
 */
public final class ScriptException extends Exception {
    private final String file;
    private final int line;
    private final int column;

    public ScriptException(String file, int line, int column, String message) {
        super(file + ":" + line + (column > 0 ? ":" + column : "") + ": " + message, null, false, false);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    /** An error about a specification or option rather than a position in a file. */
    public ScriptException(String message) {
        super(message, null, false, false);
        this.file = null;
        this.line = 0;
        this.column = 0;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    /** 1-based column, 0 when the error concerns the whole command. */
    public int column() {
        return column;
    }
}
