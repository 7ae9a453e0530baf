package dev.kensho.pgbench.script.expr;

/** A run-time evaluation error, with pgbench's message (e.g. "division by zero"). */
public final class EvalException extends Exception {
    public EvalException(String message) {
        super(message, null, false, false);
    }
}
