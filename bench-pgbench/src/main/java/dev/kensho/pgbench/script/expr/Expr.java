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

    /** Nesting of the tree: 1 for a constant or a variable. */
    public abstract int depth();

    /** Deeper trees are evaluated on a thread of their own unless the thread said its stack holds them (stackHolds). */
    private static final int DEEP_TREE = 200;
    private static final long DEEP_STACK_BYTES = 512L << 20;
    private static final ThreadLocal<Integer> HOLDS = ThreadLocal.withInitial(() -> DEEP_TREE);

    /**
     * Declares that the calling thread's stack holds trees this deep: a driver that sizes its client threads with
     * {@link #stackBytesFor} evaluates them in place, not on a thread started per evaluation.
     */
    public static void stackHolds(int depth) {
        HOLDS.set(Math.max(DEEP_TREE, depth));
    }

    /**
     * A thread stack that holds trees this deep with room for a client's other work (a few frames of at most a
     * kilobyte per level, doubled), or 0, the JVM's default, where the default holds them.
     */
    public static long stackBytesFor(int depth) {
        return depth <= DEEP_TREE ? 0 : (256L << 10) + depth * 4096L;
    }

    /**
     * {@link #eval} for a whole expression. pgbench evaluates recursively on its 8 MB stack (thousands of
     * levels); a deep tree is evaluated here on a thread with a large stack while the client waits, and one
     * deeper than even that (pgbench crashes on such) fails as an evaluation error instead of ending the
     * client's thread.
     */
    public final Value evaluate(Context ctx) throws EvalException {
        if (depth() <= DEEP_TREE || depth() <= HOLDS.get()) {
            return evalGuarded(ctx);
        }
        Value[] value = new Value[1];
        EvalException[] failed = new EvalException[1];
        Thread t = new Thread(null, () -> {
            try {
                value[0] = evalGuarded(ctx);
            } catch (EvalException e) {
                failed[0] = e;
            }
        }, Thread.currentThread().getName() + "-deep-expression", DEEP_STACK_BYTES);
        t.start();
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the evaluation has side effects (debug, random draws): let it finish
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return value[0];
    }

    private Value evalGuarded(Context ctx) throws EvalException {
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
        public int depth() {
            return 1;
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
        public int depth() {
            return 1;
        }

        @Override
        public String toString() {
            return ":" + name;
        }
    }

    public static final class Call extends Expr {
        final Fn fn;
        final Expr[] args;

        private final int depth;

        Call(Fn fn, List<Expr> args) {
            this.fn = fn;
            this.args = args.toArray(new Expr[0]);
            int deepest = 0;
            for (Expr a : this.args) {
                deepest = Math.max(deepest, a.depth());
            }
            this.depth = deepest + 1;
        }

        @Override
        public Value eval(Context ctx) throws EvalException {
            return fn.apply(args, ctx);
        }

        @Override
        public int depth() {
            return depth;
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
