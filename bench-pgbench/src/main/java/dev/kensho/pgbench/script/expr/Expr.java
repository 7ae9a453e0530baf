package dev.kensho.pgbench.script.expr;

import dev.kensho.pgbench.script.PgbenchRandom;

import java.util.List;

/** A parsed pgbench expression (the tree exprparse.y builds). Evaluation follows pgbench's evaluateExpr. */
public abstract sealed class Expr {

    /** What an expression needs from the client that evaluates it. */
    public interface Context {
        /** The variable's typed value; "undefined variable" or "malformed variable" errors otherwise. */
        Value variable(String name) throws EvalException;

        /** The client's function random state (cs_func_rs). */
        PgbenchRandom random();

        /** debug(): pgbench prints "debug(script=S,command=C): " + value to stderr. */
        void debug(Value v);
    }

    public abstract Value eval(Context ctx) throws EvalException;

    /**
     * {@link #eval} for a whole expression: one nested deeper than the thread's stack holds (pgbench itself
     * crashes on such) fails as an evaluation error instead of ending the client's thread.
     */
    public final Value evaluate(Context ctx) throws EvalException {
        try {
            return eval(ctx);
        } catch (StackOverflowError e) {
            throw new EvalException("expression nested too deeply to evaluate");
        }
    }

    public static final class Const extends Expr {
        final Value value;

        Const(Value value) {
            this.value = value;
        }

        @Override
        public Value eval(Context ctx) {
            return value;
        }

        @Override
        public String toString() {
            return value.debugText();
        }
    }

    public static final class Var extends Expr {
        final String name;

        Var(String name) {
            this.name = name;
        }

        @Override
        public Value eval(Context ctx) throws EvalException {
            return ctx.variable(name);
        }

        @Override
        public String toString() {
            return ":" + name;
        }
    }

    public static final class Call extends Expr {
        final Fn fn;
        final Expr[] args;

        Call(Fn fn, List<Expr> args) {
            this.fn = fn;
            this.args = args.toArray(new Expr[0]);
        }

        @Override
        public Value eval(Context ctx) throws EvalException {
            return fn.apply(args, ctx);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(fn.sqlName).append('(');
            for (int i = 0; i < args.length; i++) {
                sb.append(i > 0 ? ", " : "").append(args[i]);
            }
            return sb.append(')').toString();
        }
    }
}
