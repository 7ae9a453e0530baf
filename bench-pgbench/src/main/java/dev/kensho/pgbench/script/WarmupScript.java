package dev.kensho.pgbench.script;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The script a client runs before the clock starts so that the JVM compiles the path the run will take:
 * the run's own script with the same meta-commands, expressions and variables, but with every SQL command
 * that could touch a table replaced by a SELECT of the same variables (transaction control stays, it
 * touches nothing) or, for a plain write, by the same write made to write no row (below). Warming up with a different shape of script left the JIT's profiles wrong: the top-tier
 * code was thrown away at the run's first transactions and compiled again during the measurement.
 * A script whose SQL stores results (\gset, \aset) or runs \setshell cannot be imitated without its
 * tables; {@link #GENERIC} stands in for it.
 * <p>
 * In extended and prepared modes the SELECT casts each parameter to the type the server infers for it in
 * the real statement (asked with a Describe, which reads no table): pgjdbc binds a parameter of known type
 * on another path than an untyped one.
 * <p>
 * A plain UPDATE, DELETE or single-row INSERT of a {@link QuietTables quiet} table becomes the same statement made
 * to write no row ({@link ZeroRowWrite}) instead: a SELECT twin answers with a row where the run's statement answers
 * with a command tag, and the client code compiled for one was thrown away at the first transaction of the other
 * (seen with pgjdbc in tpcb-like: its first measured second a third slower than the next).
 */
public final class WarmupScript {
    /** Reads no table and depends on no variable of the run. */
    public static final Script GENERIC;

    static {
        try {
            GENERIC = Script.parse("kensho-warmup", "\\set w random(1, 1000000)\nSELECT :w;\n");
        } catch (ScriptException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A transaction that fails as a serialization failure does, in a statement of its BEGIN ... END block: run once and
     * retried once after the warm-up of a run where a failure's time counts (--max-tries, --continue-on-error), so
     * that its first real failure does not meet the error path cold (pgjdbc's exceptions and the client's handling loaded and
     * interpreted on first use: 10-20 ms, where pgbench took 1-2, enough to fail a -L of 5 ms).
     */
    public static final Script FAILING;

    static {
        try {
            FAILING = Script.parse("kensho-warmup-failure",
                    "BEGIN;\nDO $$ BEGIN RAISE EXCEPTION 'kensho warm-up' USING ERRCODE = 'serialization_failure'; END $$;\nEND;\n");
        } catch (ScriptException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private WarmupScript() {}

    /** The server's type names of an SQL command's parameters ($1..$n), or null when unknown. */
    @FunctionalInterface
    public interface ParameterTypes {
        List<String> of(Command sql);
    }

    /**
     * Whether a table is left exactly as it was by a statement that writes no row of it: a plain or partitioned
     * table without triggers of the user's (a statement trigger fires for no row too) and without rules.
     */
    @FunctionalInterface
    public interface QuietTables {
        boolean quiet(String table);
    }

    /** One warm-up script per run script, in the same order, every write a SELECT. */
    public static List<Script> of(List<Script> scripts, ParameterTypes types) {
        return of(scripts, types, table -> false);
    }

    /** One warm-up script per run script, in the same order. */
    public static List<Script> of(List<Script> scripts, ParameterTypes types, QuietTables quiet) {
        List<Script> out = new ArrayList<>(scripts.size());
        for (Script s : scripts) out.add(of(s, types, quiet));
        return out;
    }

    /** The warm-up twin of {@code s}, every write a SELECT, or {@link #GENERIC} when {@code s} cannot be imitated. */
    public static Script of(Script s, ParameterTypes types) {
        return of(s, types, table -> false);
    }

    /** The warm-up twin of {@code s}, or {@link #GENERIC} when {@code s} cannot be imitated. */
    public static Script of(Script s, ParameterTypes types, QuietTables quiet) {
        List<Command> cmds = new ArrayList<>(s.commands().size());
        for (Command c : s.commands()) {
            switch (c.kind) {
                // positions are kept: \if's jump targets are command indexes
                case SET, IF, ELIF, ELSE, ENDIF, STARTPIPELINE, SYNCPIPELINE, ENDPIPELINE -> cmds.add(c);
                case SLEEP, SHELL -> cmds.add(noop());
                case SETSHELL -> {
                    return GENERIC;
                }
                case SQL -> {
                    if (c.store != Command.Store.NONE) return GENERIC;
                    Command twin = transactionControl(c) ? c : zeroRowWrite(c, quiet);
                    cmds.add(twin != null ? twin : selectOf(c, types.of(c)));
                }
            }
        }
        return new Script(s.name(), s.description(), s.weight(), cmds, s.isBuiltin());
    }

    /**
     * The same warm-up scripts with every SELECT made new text (a numbered comment). pgjdbc caches a
     * statement's parse per connection by its text, so only new text takes the first-execution path (Parse,
     * Describe, unnamed until prepareThreshold) that the run's first transactions take.
     */
    public static List<Script> generation(List<Script> warmups, int n) {
        List<Script> out = new ArrayList<>(warmups.size());
        for (Script s : warmups) {
            List<Command> cmds = new ArrayList<>(s.commands().size());
            for (Command c : s.commands()) {
                if (c.kind != Command.Kind.SQL || transactionControl(c)) {
                    cmds.add(c);
                } else {
                    String tag = " /* kensho warm-up " + n + " */";
                    cmds.add(Command.sql(c.line, c.column, tagged(c.sql, tag), c.paramNames, tagged(c.parameterizedSql, tag), tagged(c.wireSql, tag)));
                }
            }
            out.add(new Script(s.name(), s.description(), s.weight(), cmds, s.isBuiltin()));
        }
        return out;
    }

    /** The tag goes before a closing semicolon: after it, pgjdbc would see a second, empty statement. */
    private static String tagged(String sql, String tag) {
        String t = sql.stripTrailing();
        return t.endsWith(";") ? t.substring(0, t.length() - 1) + tag + ";" : sql + tag;
    }

    /** The command made to write no row, or null when it is not a plain write of a quiet table. */
    private static Command zeroRowWrite(Command c, QuietTables quiet) {
        String table = ZeroRowWrite.table(c.sql);
        if (table == null || !quiet.quiet(table)) return null;
        String sql = ZeroRowWrite.of(c.sql), jdbc = ZeroRowWrite.of(c.parameterizedSql), wire = ZeroRowWrite.of(c.wireSql);
        return sql == null || jdbc == null || wire == null ? null : Command.sql(c.line, c.column, sql, c.paramNames, jdbc, wire);
    }

    /**
     * BEGIN, COMMIT and the like, kept as they are. Not a compound command that starts with one ({@code BEGIN\; UPDATE
     * ...\; COMMIT}): kept, it ran the script's writes for real, thousands of times before the clock started.
     */
    private static boolean transactionControl(Command c) {
        if (c.compound) return false;
        String w = c.sql.stripLeading().split("[\\s;]", 2)[0].toLowerCase(Locale.ROOT);
        return switch (w) {
            case "begin", "start", "end", "commit", "rollback", "abort" -> true;
            default -> false;
        };
    }

    /** SELECT of the command's variables: quoted in simple mode (any value is a valid literal), parameters otherwise. */
    private static Command selectOf(Command c, List<String> types) {
        boolean typed = types != null && types.size() == c.paramNames.size();
        StringBuilder simple = new StringBuilder("SELECT ");
        StringBuilder params = new StringBuilder("SELECT ");
        if (c.paramNames.isEmpty()) {
            simple.append('1');
            params.append('1');
        }
        for (int i = 0; i < c.paramNames.size(); i++) {
            String sep = i == 0 ? "" : ", ";
            simple.append(sep).append("':").append(c.paramNames.get(i)).append('\'');
            params.append(sep).append(':').append(c.paramNames.get(i));
            if (typed) params.append("::").append(types.get(i));
        }
        List<String> names = new ArrayList<>();
        String jdbc = ScriptParser.jdbcText(params.toString(), names, false);
        String wire = ScriptParser.jdbcText(params.toString(), new java.util.ArrayList<>(), true);
        return Command.sql(c.line, c.column, simple.toString(), List.copyOf(names), jdbc, wire);
    }

    private static Command noop() {
        try {
            return ScriptParser.parse("kensho-warmup", "\\set kensho_warmup_noop 0\n").get(0);
        } catch (ScriptException e) {
            throw new IllegalStateException(e);
        }
    }
}
