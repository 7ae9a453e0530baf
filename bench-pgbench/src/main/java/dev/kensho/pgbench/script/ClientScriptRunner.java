package dev.kensho.pgbench.script;

import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.script.expr.EvalException;
import dev.kensho.pgbench.script.expr.Expr;
import dev.kensho.pgbench.script.expr.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Runs transactions (whole scripts) for one pgbench client: meta-commands evaluated locally with pgbench's
 * semantics, SQL sent through the client's JDBC connection in the chosen {@link QueryMode}. One per client;
 * not thread-safe. \sleep is performed here (by the {@link Options#sleeper}), so the time counts in the
 * transaction's latency as in pgbench; the outcome reports how long was slept.
 */
public final class ClientScriptRunner {

    /** Sleeps for \sleep; the driver may replace it (e.g. to stop at the end of -T). */
    @FunctionalInterface
    public interface Sleeper {
        void sleepNanos(long nanos);
    }

    /**
     * Runner options.
     *
     * @param stderr       receives what pgbench prints to stderr while a script runs: debug() lines
     *                     ("debug(script=S,command=C): int 17") and the server's notices ("NOTICE:  text")
     * @param sleeper      performs \sleep
     * @param timeCommands times every command for {@link #commandNanos} (-r); pgbench, too, reads the clock per
     *                     command only under -r, so a run without it pays two clock reads per transaction
     */
    public record Options(Consumer<String> stderr, Sleeper sleeper, boolean timeCommands) {
        public static Options defaults() {
            return new Options(System.err::println, ClientScriptRunner::park, true);
        }

        public Options withStderr(Consumer<String> lines) {
            return new Options(lines, sleeper, timeCommands);
        }

        public Options withSleeper(Sleeper s) {
            return new Options(stderr, s, timeCommands);
        }

        public Options withCommandTiming(boolean on) {
            return new Options(stderr, sleeper, on);
        }
    }

    private static void park(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(left);
            left = deadline - System.nanoTime();
        }
    }

    private final List<Script> scripts;
    private final int clientId;
    private final Variables vars;
    private final PgbenchRandom random;
    private final QueryMode mode;
    private final Options options;
    private final long[][] commandNanos;
    private final long[][] commandCounts;
    private final boolean[] hasSql;
    /** Commands that cannot run in this mode and that not every transaction reaches: the client reaching one aborts. */
    private final java.util.Map<Command, String> unrunnable = new java.util.IdentityHashMap<>();

    private Connection connection;
    private org.postgresql.core.BaseConnection pgConnection;
    private Statement simpleStatement;
    private final Map<Command, PreparedStatement> prepared = new IdentityHashMap<>();

    // per-transaction state
    private int scriptIndex;
    private int pc;
    private final Expr.Context context = new Expr.Context() {
        @Override
        public Value variable(String name) throws EvalException {
            return vars.value(name);
        }

        @Override
        public PgbenchRandom random() {
            return random;
        }

        @Override
        public void debug(Value v) {
            options.stderr().accept("debug(script=" + scriptIndex + ",command=" + (pc + 1) + "): " + v.debugText());
        }
    };

    /**
     * @param scripts      the scripts (-f/-b), chosen by weight per transaction
     * @param clientId     pgbench's client number (0-based)
     * @param vars         this client's variables, with {@link Variables#standard} already applied
     * @param clientRandom this client's function random state (from {@link PgbenchRandom.Seeds#clients()})
     * @throws ScriptException when a script cannot run in this mode: in extended/prepared mode, more than 255
     *                         parameters (pgbench's "statement has too many arguments") or a compound \; query
     */
    public ClientScriptRunner(List<Script> scripts, int clientId, Variables vars, PgbenchRandom clientRandom,
                              QueryMode mode, Options options) throws ScriptException {
        this.scripts = List.copyOf(scripts);
        this.clientId = clientId;
        this.vars = vars;
        this.random = clientRandom;
        this.mode = mode;
        this.options = options;
        this.commandNanos = new long[scripts.size()][];
        this.commandCounts = new long[scripts.size()][];
        this.hasSql = new boolean[scripts.size()];
        for (int i = 0; i < scripts.size(); i++) {
            Script s = scripts.get(i);
            hasSql[i] = s.commands().stream().anyMatch(c -> c.kind == Command.Kind.SQL || c.kind.pipeline());
            commandNanos[i] = new long[s.commands().size()];
            commandCounts[i] = new long[s.commands().size()];
            for (Command c : s.commands()) {
                ScriptException refused = refusal(s, c, mode);
                if (refused == null) continue;
                // pgbench fails on it only when it runs: refused before the run where every transaction reaches it,
                // else the client that reaches it aborts (a branch never taken, a script of weight 0 runs as in pgbench)
                if (s.alwaysReached(c)) throw refused;
                unrunnable.put(c, refused.getMessage());
            }
        }
    }

    /** Why a command cannot run in this mode, as pgbench fails on it at run time; null when it can. */
    private static ScriptException refusal(Script s, Command c, QueryMode mode) {
        if (mode == QueryMode.SIMPLE && c.kind.pipeline()) {
            return new ScriptException(s.name(), c.line, c.column, "cannot use pipeline mode with the simple query"
                    + " protocol (pgbench aborts the client at run time); use -M extended or -M prepared");
        }
        if (mode == QueryMode.SIMPLE || c.kind != Command.Kind.SQL) return null;
        if (c.compound) {
            return new ScriptException(s.name(), c.line, c.column, "a compound query (\\;) cannot run in "
                    + mode.pgbenchName() + " mode: the server refuses multiple commands in a prepared"
                    + " statement (pgbench fails the same way at run time); use -M simple");
        }
        if (c.hiddenVariable != null) {
            // pgjdbc would fail with its own "column index is out of range", the wire engine as pgbench
            int k = c.hiddenVariable[0];
            return new ScriptException(s.name(), c.hiddenVariable[1], c.hiddenVariable[2], "\":"
                    + c.paramNames.get(k - 1) + "\" inside a string, quoted name or comment becomes parameter $" + k
                    + " in " + mode.pgbenchName() + " mode, as in pgbench, which the statement never uses, so the"
                    + " server refuses it (pgbench fails at run time); use -M simple");
        }
        if (c.paramNames.size() >= ScriptParser.MAX_ARGS) {
            return new ScriptException(s.name(), c.line, c.column, "statement has too many arguments"
                    + " (maximum is " + (ScriptParser.MAX_ARGS - 1) + ") in " + mode.pgbenchName() + " mode");
        }
        return null;
    }

    public Variables variables() {
        return vars;
    }

    public int clientId() {
        return clientId;
    }

    /**
     * Sum of elapsed nanoseconds per command of script {@code script} (for -r), since the runner was made; zeros
     * unless {@link Options#timeCommands}.
     */
    public long[] commandNanos(int script) {
        return commandNanos[script];
    }

    /** Number of executions per command of script {@code script}. */
    public long[] commandCounts(int script) {
        return commandCounts[script];
    }

    /**
     * Chooses a script by weight with the thread's choose state (pgbench's chooseScript: no draw when there is
     * one script) and runs it to completion on {@code c} (autocommit; the script's own BEGIN/END apply).
     */
    public TransactionOutcome runTransaction(Connection c, PgbenchRandom threadChoose) {
        int s = Script.choose(scripts, threadChoose);
        return run(c, s, random.state());
    }

    /** Runs script {@code script} without choosing (e.g. a single-script run, or a test). */
    public TransactionOutcome runScript(Connection c, int script) {
        return run(c, script, random.state());
    }

    /**
     * Retries a failed transaction as pgbench does under --max-tries: the same script, with the client's
     * random state restored to what it was when the failed try started (variables are not restored).
     */
    public TransactionOutcome retry(Connection c, TransactionOutcome failed) {
        random.restore(failed.randomAtStart());
        return run(c, failed.script(), failed.randomAtStart());
    }

    /** Closes cached statements (call before closing the connection, or when the client stops). */
    public void releaseStatements() {
        for (PreparedStatement ps : prepared.values()) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // the connection is being dropped anyway
            }
        }
        prepared.clear();
        if (simpleStatement != null) {
            try {
                simpleStatement.close();
            } catch (SQLException ignored) {
                // same
            }
            simpleStatement = null;
        }
        connection = null;
    }

    private TransactionOutcome run(Connection c, int script, PgbenchRandom.State start) {
        if (c == null && hasSql[script]) {
            throw new IllegalArgumentException("script " + scripts.get(script).name() + " has SQL commands: a connection is needed");
        }
        if (c != connection) {
            releaseStatements();
            connection = c;
            pgConnection = unwrap(c);
        }
        Step step = begin(script, start);
        while (true) {
            switch (step) {
                case SQL -> {
                    Command cmd = pending();
                    try {
                        executeSql(c, cmd);
                        step = sqlDone(pgConnection != null
                                && pgConnection.getTransactionState() != org.postgresql.core.TransactionState.IDLE);
                    } catch (EvalException e) {
                        step = metaFailure(cmd, e);
                    } catch (SQLException e) {
                        step = copyProtocol(cmd, e) ? copyRefused() : e instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                                ? sqlFailed(ServerError.of(p.getServerErrorMessage()), closed(c))
                                : sqlFailed(e.getSQLState(), String.valueOf(e.getMessage()), closed(c));
                    }
                }
                // a pipeline the run could not refuse before it began (in an \if branch, a script of weight 0): the client
                // that reaches it aborts, as where pgbench fails on a command only when it runs
                case PIPELINE -> step = commandFailed(pending(), pending().text().strip() + " needs --engine wire: pgjdbc has no pipeline mode");
                case SLEEP -> {
                    long s0 = System.nanoTime();
                    options.sleeper().sleepNanos(sleepNanos());
                    step = slept(System.nanoTime() - s0);
                }
                case DONE -> {
                    TransactionOutcome out = outcome();
                    // like pgbench: ROLLBACK when a failure leaves the session inside a transaction block
                    if (!out.ok() && out.status() != TransactionOutcome.Status.CONNECTION_LOST
                            && out.status() != TransactionOutcome.Status.END_IN_TRANSACTION && c != null && inTransaction()) {
                        try (Statement st = c.createStatement()) {
                            st.execute("ROLLBACK");
                        } catch (SQLException ignored) {
                            // the failure being reported matters more
                        }
                    }
                    return out;
                }
            }
        }
    }

    // ------------------------------------------------------------------ the transaction, step by step

    /**
     * What a transaction needs from its engine next: send {@link #pending()} and report back with
     * {@link #sqlDone}/{@link #sqlFailed}; sleep {@link #sleepNanos()} and call {@link #slept}; or nothing, it is
     * {@link #outcome() done}. The blocking engine ({@link #runScript}) and the multiplexing one drive the same steps.
     * <p>
     * Pipelines (wire engine only): {@link Step#PIPELINE} asks the engine to do {@link #pending()} without waiting
     * for the server (enter the pipeline, preparing its statements first in prepared mode; queue an SQL command;
     * queue a Sync) and call {@link #piped()}. \endpipeline comes as {@link Step#SQL}: send the last Sync, read
     * every result of the pipeline, report once with {@link #sqlDone} or the first error with {@link #sqlFailed}.
     */
    public enum Step { SQL, PIPELINE, SLEEP, DONE }

    private List<Command> cmds;
    private PgbenchRandom.State txStart;
    private long slept;
    private long commandStart;
    private boolean sessionInTransaction;
    private boolean inPipeline;
    // the \elif at pc was reached from a false \if or \elif: its condition decides (else its branch ran before it)
    private boolean elifToEvaluate;
    private TransactionOutcome outcome;
    // \gset looks at the last result only: kept until the command completes
    private int lastTuples;
    private String[] lastNames, lastRow;
    // results the pending command has had so far: pgbench numbers them ("query N") in its \gset/\aset errors
    private int results;
    private int lastResult;

    /** Starts script {@code script} with the client's random state as it is (a new transaction). */
    public Step begin(int script) {
        return begin(script, random.state());
    }

    /** Starts the retry of a failed transaction (see {@link #retry}). */
    public Step beginRetry(TransactionOutcome failed) {
        random.restore(failed.randomAtStart());
        return begin(failed.script(), failed.randomAtStart());
    }

    private Step begin(int script, PgbenchRandom.State start) {
        scriptIndex = script;
        cmds = scripts.get(script).commands();
        txStart = start;
        slept = 0;
        outcome = null;
        sessionInTransaction = false;
        inPipeline = false;   // a failed try's pipeline was ended by the engine (results read to the last Sync)
        elifToEvaluate = false;
        pc = 0;
        return advance();
    }

    /** Index of the running script. */
    public int script() {
        return scriptIndex;
    }

    /** Whether script {@code script} sends SQL at all (a meta-command-only script needs no connection). */
    public boolean hasSql(int script) {
        return hasSql[script];
    }

    /** The SQL command to send now (valid after {@link Step#SQL}). */
    public Command pending() {
        return cmds.get(pc);
    }

    /** The command's text for -M simple: variables substituted as pgbench does. */
    public String simpleQuery(Command cmd) {
        return substitute(cmd.sql);
    }

    /** The command's parameter values for -M extended/prepared (text; null for an undefined variable). */
    public String[] parameters(Command cmd) {
        List<String> names = cmd.paramNames;
        String[] values = new String[names.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = vars.text(names.get(i));
        }
        return values;
    }

    /** One result of the pending command that has rows (a SELECT): its column names, row count and last row (text, null as ""). */
    public void rows(String[] names, int tuples, String[] lastRow) throws EvalException {
        Command cmd = cmds.get(pc);
        int query = results++;
        if (cmd.store == Command.Store.ASET) {
            if (tuples > 0) storeRow(cmd, names, lastRow, query);
        } else {
            lastTuples = tuples;
            lastNames = names;
            this.lastRow = lastRow;
            lastResult = query;
        }
    }

    /** One result of the pending command without rows (an UPDATE, a BEGIN). */
    public void noRows() {
        lastTuples = 0;
        lastNames = null;
        lastRow = null;
        lastResult = results++;
    }

    /**
     * The pending SQL command completed; {@code inTransaction}: the session is now inside a transaction block
     * (ReadyForQuery's status), which decides pgbench's "end of script reached without completing" abort.
     */
    public Step sqlDone(boolean inTransaction) {
        Command cmd = cmds.get(pc);
        sessionInTransaction = inTransaction;
        if (cmd.kind == Command.Kind.ENDPIPELINE) inPipeline = false;
        try {
            if (cmd.store == Command.Store.GSET) {
                int got = Math.max(lastTuples, 0);
                if (got != 1) {
                    throw new EvalException("client " + clientId + " script " + scriptIndex + " command " + pc
                            + " query " + lastResult + ": expected one row, got " + got);
                }
                storeRow(cmd, lastNames, lastRow, lastResult);
            }
        } catch (EvalException e) {
            return metaFailure(cmd, e);
        } finally {
            lastTuples = -1;
            lastNames = null;
            lastRow = null;
            results = 0;
            lastResult = 0;
        }
        endCommand();
        pc++;
        return advance();
    }

    /**
     * The pending SQL command failed with the server's error: worded as libpq words it (pgbench prints that), the
     * statement's line and a caret under the error's position from the text this mode sent.
     */
    public Step sqlFailed(ServerError error, boolean connectionLost) {
        return sqlFailed(error, null, connectionLost);
    }

    /**
     * As {@link #sqlFailed(ServerError, boolean)} for an error of a pipeline, which comes at its \endpipeline: failed is
     * the pipeline's command the error is of (null where not known), whose line the caret is put under, as libpq does.
     */
    public Step sqlFailed(ServerError error, Command failed, boolean connectionLost) {
        return failed(error.sqlState(), error.libpqText(sentFor(error, failed != null ? failed : cmds.get(pc))), connectionLost);
    }

    /**
     * The text cmd sent, where the error points into it (else null: a serialization failure has no position, and pays
     * for no substitution; libpq's " at character N" then).
     */
    private String sentFor(ServerError error) {
        return sentFor(error, cmds.get(pc));
    }

    private String sentFor(ServerError error, Command cmd) {
        if (error.position() <= 0 || cmd.kind != Command.Kind.SQL) return null;
        return mode == QueryMode.SIMPLE ? substitute(cmd.sql) : cmd.wireSql;
    }

    /** The pending SQL command failed; {@code connectionLost}: the session is gone (a broken socket, a closed connection). */
    public Step sqlFailed(String sqlState, String message, boolean connectionLost) {
        return failed(sqlState, libpqStyle(message), connectionLost);
    }

    private Step failed(String sqlState, String message, boolean connectionLost) {
        // no endCommand(): pgbench's -r averages a command over its successful executions (an error skips END_COMMAND)
        TransactionOutcome.Status status;
        if ("40001".equals(sqlState)) {
            status = TransactionOutcome.Status.SERIALIZATION_FAILURE;
        } else if ("40P01".equals(sqlState)) {
            status = TransactionOutcome.Status.DEADLOCK_FAILURE;
        } else if (connectionLost || sessionEnded(sqlState)) {
            status = TransactionOutcome.Status.CONNECTION_LOST;
        } else {
            status = TransactionOutcome.Status.SQL_ERROR;
        }
        outcome = new TransactionOutcome(status, scriptIndex, pc, sqlState, "client " + clientId + " script " + scriptIndex
                // the query of a \; compound that failed: the results it had before the error (the wire engine reads
                // them one by one; pgjdbc delivers none where one fails, and says query 0)
                + " aborted in command " + pc + " query " + results + ": " + message, txStart, slept);
        return Step.DONE;
    }

    /**
     * A connection-exception SQLSTATE (class 08) ends the session, except 08P01: the server sends protocol_violation
     * as a plain ERROR on a live session (a bind with the wrong number of parameters), where pgbench aborts the
     * client; counting it as a lost connection reconnected the client after every such error and said nothing.
     */
    public static boolean sessionEnded(String sqlState) {
        return sqlState != null && sqlState.startsWith("08") && !sqlState.equals("08P01");
    }

    /** The engine did the pending pipeline command (valid after {@link Step#PIPELINE}). */
    public Step piped() {
        endCommand();
        pc++;
        return advance();
    }

    /**
     * The SQL commands of the pipeline the pending \startpipeline opens, up to its \endpipeline (those after a
     * \syncpipeline and inside \if branches too): pgbench prepares them all before entering the pipeline, so
     * that a BEGIN ISOLATION LEVEL SERIALIZABLE in it does not meet a snapshot taken by a Parse.
     */
    public List<Command> pipelineCommands() {
        List<Command> out = new java.util.ArrayList<>();
        for (int i = pc + 1; i < cmds.size() && cmds.get(i).kind != Command.Kind.ENDPIPELINE; i++) {
            if (cmds.get(i).kind == Command.Kind.SQL) out.add(cmds.get(i));
        }
        return out;
    }

    /**
     * A message without the server's fields (a broken socket's, a driver's own) on one line, with libpq's two spaces
     * after a severity; the server's errors are worded by {@link ServerError#libpqText}.
     */
    private static String libpqStyle(String message) {
        return message.replace('\n', ' ').replaceFirst("^(ERROR|FATAL|PANIC): (?! )", "$1:  ");
    }

    /** How long the pending \sleep wants (valid after {@link Step#SLEEP}). */
    public long sleepNanos() {
        return pendingSleepNanos;
    }

    /** The \sleep is over; {@code nanos}: how long it actually took (counted in the outcome). */
    public Step slept(long nanos) {
        slept += nanos;
        endCommand();
        pc++;
        return advance();
    }

    /** The finished transaction's outcome (valid after {@link Step#DONE}). */
    public TransactionOutcome outcome() {
        return outcome;
    }

    private long pendingSleepNanos;

    private void endCommand() {
        if (options.timeCommands()) commandNanos[scriptIndex][pc] += System.nanoTime() - commandStart;
        commandCounts[scriptIndex][pc]++;
    }

    /** Runs meta-commands from {@link #pc} until an SQL command, a \sleep or the end of the script. */
    private Step advance() {
        boolean timed = options.timeCommands();
        while (pc < cmds.size()) {
            Command cmd = cmds.get(pc);
            commandStart = timed ? System.nanoTime() : 0;
            String cannot = unrunnable.isEmpty() ? null : unrunnable.get(cmd);
            if (cannot != null) return commandFailed(cmd, cannot);
            try {
                switch (cmd.kind) {
                    case SQL -> {
                        if (!inPipeline) {
                            lastTuples = -1;
                            results = 0;
                            lastResult = 0;
                            return Step.SQL;
                        }
                        if (cmd.store != Command.Store.NONE) {
                            return commandFailed(cmd, "\\" + metaName(cmd) + " is not allowed in pipeline mode");
                        }
                        return Step.PIPELINE;
                    }
                    case STARTPIPELINE -> {
                        if (inPipeline) return commandFailed(cmd, "already in pipeline mode");
                        inPipeline = true;
                        return Step.PIPELINE;
                    }
                    case SYNCPIPELINE, ENDPIPELINE -> {
                        if (!inPipeline) return commandFailed(cmd, "not in pipeline mode");
                        return cmd.kind == Command.Kind.ENDPIPELINE ? Step.SQL : Step.PIPELINE;
                    }
                    case SLEEP -> {
                        pendingSleepNanos = sleepMicros(cmd) * 1000L;
                        if (pendingSleepNanos > 0) return Step.SLEEP;
                        endCommand();
                        pc++;
                        continue;
                    }
                    case SET -> {
                        Value v = cmd.expr.evaluate(context);
                        if (!vars.put(cmd.variable, v)) {
                            return metaFailure(cmd, new EvalException("set: invalid variable name: \"" + cmd.variable + "\""),
                                    "assignment of meta-command failed");
                        }
                        endCommand();
                        pc++;
                    }
                    case IF -> {
                        boolean holds = cmd.expr.evaluate(context).truth();
                        endCommand();
                        pc = holds ? pc + 1 : nextBranch(cmd);
                    }
                    case ELIF -> {
                        if (elifToEvaluate) {
                            elifToEvaluate = false;
                            boolean holds = cmd.expr.evaluate(context).truth();
                            endCommand();
                            pc = holds ? pc + 1 : nextBranch(cmd);
                        } else {
                            endCommand();   // the end of a branch that ran
                            pc = cmd.endif + 1;
                        }
                    }
                    case ELSE -> {
                        endCommand();
                        pc = cmd.endif + 1;
                    }
                    case ENDIF -> {
                        endCommand();
                        pc++;
                    }
                    case SHELL -> {
                        shell(cmd.args, null);
                        endCommand();
                        pc++;
                    }
                    case SETSHELL -> {
                        shell(cmd.args, cmd.variable);
                        endCommand();
                        pc++;
                    }
                }
            } catch (EvalException e) {
                return metaFailure(cmd, e);
            }
        }
        if (inPipeline) {
            outcome = new TransactionOutcome(TransactionOutcome.Status.META_ERROR, scriptIndex, -1, null,
                    "client " + clientId + " aborted: end of script reached with pipeline open", txStart, slept);
        } else if (hasSql[scriptIndex] && sessionInTransaction) {
            // pgbench 15 counts this transaction as processed, then aborts the client
            outcome = new TransactionOutcome(TransactionOutcome.Status.END_IN_TRANSACTION, scriptIndex, -1, null,
                    "client " + clientId + " aborted: end of script reached without completing the last transaction",
                    txStart, slept);
        } else {
            outcome = new TransactionOutcome(TransactionOutcome.Status.OK, scriptIndex, -1, null, null, txStart, slept);
        }
        return Step.DONE;
    }

    /** Storing the pending command's result failed (\aset into an invalid variable name): the client aborts. */
    /** pgbench's words for a command whose result is a COPY (libpq's PGRES_COPY_IN or _OUT): it aborts the client. */
    public static final String COPY_UNSUPPORTED = "COPY is not supported in pgbench, aborting";

    /** The pending command's result was a COPY in or out: the client aborts, as pgbench's does. */
    public Step copyRefused() {
        // pgbench's one line, also where the COPY's result comes at a pipeline's end (no "aborted in command N (endpipeline)")
        return metaFailure(cmds.get(pc), new EvalException(COPY_UNSUPPORTED), null);
    }

    private static final java.util.regex.Pattern COPY_IN = java.util.regex.Pattern.compile("(?is).*\\bcopy\\b.*\\bfrom\\s+stdin\\b.*");
    private static final java.util.regex.Pattern COPY_OUT = java.util.regex.Pattern.compile("(?is).*\\bcopy\\b.*\\bto\\s+stdout\\b.*");

    /**
     * Whether pgjdbc failed a COPY ... FROM STDIN or TO STDOUT (which it runs only through its CopyManager), also one
     * of a simple-mode line's statements: it refuses the copy out itself (0A000, no server error) and ends the copy in
     * with CopyFail, which the server answers with 57014. Told by the states and the statement, not by pgjdbc's
     * message, which its translations change; a COPY to a server file failing 0A000 or timing out (57014) is the
     * server's error, said in its words.
     */
    private static boolean copyProtocol(Command cmd, SQLException e) {
        if (cmd.sql == null) return false;
        boolean server = e instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null;
        if ("0A000".equals(e.getSQLState()) && !server) return COPY_OUT.matcher(cmd.sql).matches();
        return "57014".equals(e.getSQLState()) && server && COPY_IN.matcher(cmd.sql).matches();
    }

    public Step storeFailed(EvalException e) {
        return metaFailure(cmds.get(pc), e);
    }

    private Step metaFailure(Command cmd, EvalException e) {
        return metaFailure(cmd, e, switch (cmd.kind) {
            case SET, IF, ELIF -> "evaluation of meta-command failed";
            case SQL -> null;   // storing \gset/\aset results: pgbench says only what went wrong
            default -> "execution of meta-command failed";
        });
    }

    /**
     * pgbench's commandFailed after the error itself, on a line of its own as pgbench prints them; {@code what} null:
     * the error alone.
     */
    private Step metaFailure(Command cmd, EvalException e, String what) {
        int here = pc;
        // no endCommand(), as pgbench's aborted command never reaches END_COMMAND: -r shows it 0.000, not its time
        outcome = new TransactionOutcome(TransactionOutcome.Status.META_ERROR, scriptIndex, here, null,
                what == null ? e.getMessage() : e.getMessage() + "\nclient " + clientId + " aborted in command " + here
                        + " (" + metaName(cmd) + ") of script " + scriptIndex + "; " + what,
                txStart, slept);
        return Step.DONE;
    }

    /** pgbench's commandFailed: a command that cannot run here aborts the client. */
    private Step commandFailed(Command cmd, String why) {
        int here = pc;
        endCommand();
        outcome = new TransactionOutcome(TransactionOutcome.Status.META_ERROR, scriptIndex, here, null,
                "client " + clientId + " aborted in command " + here + " (" + metaName(cmd) + ") of script " + scriptIndex + "; " + why,
                txStart, slept);
        return Step.DONE;
    }

    private static org.postgresql.core.BaseConnection unwrap(Connection c) {
        try {
            return c == null ? null : c.unwrap(org.postgresql.core.BaseConnection.class);
        } catch (SQLException | RuntimeException e) {
            return null;
        }
    }

    private static String metaName(Command c) {
        return c.kind == Command.Kind.SQL ? (c.store == Command.Store.NONE ? "SQL" : c.store.name().toLowerCase(java.util.Locale.ROOT))
                : c.kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Index to continue at when the \if or \elif {@code from} is false. As in pgbench, the next \elif is then a
     * command of its own (its condition's debug(), error and -r time are its own); an \else or \endif reached by
     * skipping runs nothing: the commands after it follow.
     */
    private int nextBranch(Command from) {
        Command b = cmds.get(from.next);
        if (b.kind == Command.Kind.ELIF) {
            elifToEvaluate = true;
            return from.next;
        }
        return from.next + 1;
    }

    private long sleepMicros(Command cmd) throws EvalException {
        String arg = cmd.args.get(0);
        int usec;
        if (arg.charAt(0) == ':') {
            String name = arg.substring(1);
            String v = vars.text(name);
            if (v == null) {
                throw new EvalException("sleep: undefined variable \"" + name + "\"");
            }
            usec = Variables.atoi(v);
            if (usec == 0 && (v.isEmpty() || !ScriptParser.isAsciiDigit(v.charAt(0)))) {
                throw new EvalException("sleep: invalid sleep time \"" + v + "\" for variable \"" + name + "\"");
            }
        } else {
            usec = Variables.atoi(arg);
        }
        // pgbench multiplies in its int: beyond 2147483647 us (about 35 minutes) the product wraps as there
        return (long) (usec * (int) cmd.sleepUnitMicros);
    }

    /**
     * pgbench's reading of a \\setshell result: {@code (int) strtol(res, &end, 10)}, then only white space may
     * follow. So a line of only white space is 0 (strtol consumes nothing and the rest is blank), a number
     * beyond 64 bits is clamped as strtol does, and the long is cut to pgbench's 32-bit int.
     */
    static long setshellResult(String what, String res) throws EvalException {
        Variables.CLong read = Variables.strtol(res);
        int end = read.end();
        while (end < res.length() && Variables.isSpace(res.charAt(end))) {
            end++;
        }
        if (end < res.length()) {
            throw new EvalException(what + ": shell command must return an integer (not \"" + res + "\")");
        }
        return (int) read.value();
    }

    private static final int SHELL_COMMAND_SIZE = 256;

    private void shell(List<String> argv, String variable) throws EvalException {
        // pgbench's runShellCommand names its errors after the command's first word (argv[0]), as typed
        String what = argv.get(0);
        StringBuilder command = new StringBuilder();
        int commandBytes = 0;
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i);
            String arg;
            if (a.charAt(0) != ':') {
                arg = a;
            } else if (a.length() > 1 && a.charAt(1) == ':') {
                arg = a.substring(1);
            } else if ((arg = vars.text(a.substring(1))) == null) {
                throw new EvalException(what + ": undefined variable \"" + a + "\"");
            }
            // pgbench builds the command line in a char[SHELL_COMMAND_SIZE] and refuses 255 bytes and more
            int argBytes = arg.getBytes(StandardCharsets.UTF_8).length;
            if (commandBytes + argBytes + (i > 0 ? 1 : 0) >= SHELL_COMMAND_SIZE - 1) {
                throw new EvalException(what + ": shell command is too long");
            }
            commandBytes += argBytes + (i > 0 ? 1 : 0);
            if (i > 0) {
                command.append(' ');
            }
            command.append(arg);
        }
        // system(3)'s shell, as pgbench's: cmd.exe on Windows
        ProcessBuilder pb = System.getProperty("os.name", "").startsWith("Windows")
                ? new ProcessBuilder("cmd.exe", "/c", command.toString()) : new ProcessBuilder("/bin/sh", "-c", command.toString());
        try {
            if (variable == null) {
                Process p = pb.inheritIO().start();
                if (p.waitFor() != 0) {
                    throw new EvalException(what + ": could not launch shell command");
                }
                return;
            }
            pb.redirectError(ProcessBuilder.Redirect.INHERIT).redirectInput(ProcessBuilder.Redirect.INHERIT);
            Process p = pb.start();
            String res;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                char[] line = new char[63];
                int len = 0;
                int ch;
                while (len < line.length && (ch = r.read()) >= 0) {
                    line[len++] = (char) ch;
                    if (ch == '\n') {
                        break;
                    }
                }
                res = len == 0 ? null : new String(line, 0, len);
                r.transferTo(java.io.Writer.nullWriter());
            }
            p.waitFor();
            if (res == null) {
                throw new EvalException(what + ": could not read result of shell command");
            }
            long v = setshellResult(what, res);
            if (!vars.put(variable, Value.ofInt(v))) {
                throw new EvalException("setshell: invalid variable name: \"" + variable + "\"");
            }
        } catch (IOException e) {
            throw new EvalException(what + ": could not launch shell command: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EvalException(what + ": interrupted");
        }
    }

    // ------------------------------------------------------------------ SQL

    /** pgbench's assignVariables: substitute defined variables' text; undefined ":name" stays as is. */
    String substitute(String sql) {
        StringBuilder out = null;
        int i = 0;
        int copied = 0;
        int n = sql.length();
        while ((i = sql.indexOf(':', i)) >= 0) {
            int e = ScriptParser.variableEnd(sql, i);
            if (e < 0) {
                while (i < n && sql.charAt(i) == ':') {
                    i++;
                }
                continue;
            }
            String val = vars.text(sql.substring(i + 1, e));
            if (val == null) {
                i++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder(n + 16);
            }
            out.append(sql, copied, i).append(val);
            i = e;
            copied = e;
        }
        if (out == null) {
            return sql;
        }
        return out.append(sql, copied, n).toString();
    }

    private void executeSql(Connection c, Command cmd) throws SQLException, EvalException {
        Statement st;
        boolean isResult;
        if (mode == QueryMode.SIMPLE) {
            if (simpleStatement == null) {
                simpleStatement = c.createStatement();
                simpleStatement.setEscapeProcessing(false);
            }
            st = simpleStatement;
            try {
                isResult = st.execute(substitute(cmd.sql));
            } catch (SQLException e) {
                notices(st);
                throw e;
            }
        } else {
            PreparedStatement ps = prepared.get(cmd);
            if (ps == null) {
                ps = c.prepareStatement(cmd.parameterizedSql);
                ps.setEscapeProcessing(false);
                prepared.put(cmd, ps);
            }
            List<String> names = cmd.paramNames;
            for (int i = 0; i < names.size(); i++) {
                String v = vars.text(names.get(i));
                if (v == null) {
                    ps.setNull(i + 1, Types.OTHER);
                } else {
                    ps.setObject(i + 1, v, Types.OTHER);
                }
            }
            st = ps;
            try {
                isResult = ps.execute();
            } catch (SQLException e) {
                notices(st);
                throw e;
            }
        }
        notices(st);
        readResults(st, isResult, cmd);
    }

    /** Prints the statement's notices, those that came before an error too (libpq prints each as it comes). */
    private void notices(Statement st) throws SQLException {
        SQLWarning w = st.getWarnings();
        if (w != null) {
            for (; w != null; w = w.getNextWarning()) notice(ServerError.noticeText(w, this::sentFor));
            st.clearWarnings();
        }
    }

    /** A notice the server sent with the pending command's results (the wire engine's). */
    public void notice(ServerError notice) {
        notice(notice.libpqNoticeText(sentFor(notice)));
    }

    /**
     * A statement a pipeline prepares at \startpipeline (-M prepared) that the server refused, in pgbench's words
     * ("pgbench: error: ERROR:  relation ... does not exist" and its LINE): the client goes on, as pgbench's does.
     */
    public void prepareFailed(String libpqText) {
        notice("error: " + libpqText);
    }

    private void notice(String text) {
        // on Ctrl-C Kensho's hook stops the server and says so; its "terminating connection due to immediate shutdown"
        // would follow that line as if the run had more to say
        if (dev.kensho.core.JvmShutdown.begun()) return;
        options.stderr().accept(text);
    }

    private void readResults(Statement st, boolean isResult, Command cmd) throws SQLException, EvalException {
        Command.Store store = cmd.store;
        while (true) {
            if (isResult) {
                try (ResultSet rs = st.getResultSet()) {
                    if (store == Command.Store.NONE) {
                        noRows();   // pgjdbc has already read every row; nothing to keep
                    } else {
                        ResultSetMetaData md = rs.getMetaData();
                        int cols = md.getColumnCount();
                        String[] names = new String[cols];
                        for (int i = 0; i < cols; i++) {
                            names[i] = md.getColumnLabel(i + 1);
                        }
                        String[] row = null;
                        int tuples = 0;
                        while (rs.next()) {
                            tuples++;
                            row = new String[cols];
                            for (int i = 0; i < cols; i++) {
                                String v = rs.getString(i + 1);
                                row[i] = v == null ? "" : v;
                            }
                        }
                        rows(names, tuples, row);
                    }
                }
            } else if (st.getUpdateCount() == -1) {
                break;
            } else {
                noRows();
            }
            isResult = st.getMoreResults();
        }
    }

    private void storeRow(Command cmd, String[] names, String[] row, int query) throws EvalException {
        for (int i = 0; i < names.length; i++) {
            String name = cmd.storePrefix + names[i];
            if (!vars.putText(name, row[i])) {
                String store = cmd.store.name().toLowerCase(java.util.Locale.ROOT);
                throw new EvalException(store + ": invalid variable name: \"" + name + "\"\nclient " + clientId + " script "
                        + scriptIndex + " command " + pc + " query " + query + ": error storing into variable " + name);
            }
        }
    }

    // ------------------------------------------------------------------ failures

    private static boolean closed(Connection c) {
        try {
            return c.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    /** Whether the session is inside a transaction block (pgjdbc tracks it from ReadyForQuery; no round trip). */
    private boolean inTransaction() {
        if (pgConnection == null) {
            return connection != null; // not pgjdbc: assume so, a ROLLBACK outside a block only warns
        }
        return pgConnection.getTransactionState() != org.postgresql.core.TransactionState.IDLE;
    }
}
