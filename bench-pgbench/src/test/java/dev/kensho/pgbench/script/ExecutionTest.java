package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.pgbench.QueryMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scripts executed against the PostgreSQL 15 on 127.0.0.1:5432 (database test), in Kensho's own schema
 * kensho_test_script_PID (pgbench_* tables at a reduced size, dropped afterwards; one schema per JVM because
 * several builds of this module may run at once). Skipped without the server.
 */
class ExecutionTest {
    static final String SCHEMA = "kensho_test_script_" + ProcessHandle.current().pid();

    @BeforeAll
    static void createTables() throws SQLException {
        LocalServer.assumeReachable();
        try (Connection c = LocalServer.connect(QueryMode.SIMPLE); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            st.execute("CREATE SCHEMA " + SCHEMA);
            st.execute("SET search_path = " + SCHEMA);
            st.execute("CREATE TABLE pgbench_branches(bid int primary key, bbalance int, filler char(88))");
            st.execute("CREATE TABLE pgbench_tellers(tid int primary key, bid int, tbalance int, filler char(84))");
            st.execute("CREATE TABLE pgbench_accounts(aid int primary key, bid int, abalance int, filler char(84))");
            st.execute("CREATE TABLE pgbench_history(tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))");
            st.execute("INSERT INTO pgbench_branches SELECT 1, 0");
            st.execute("INSERT INTO pgbench_tellers SELECT g, 1, 0 FROM generate_series(1, 10) g");
            st.execute("INSERT INTO pgbench_accounts SELECT g, 1, 0, '' FROM generate_series(1, 100000) g");
            st.execute("CREATE TABLE ser(id int primary key, v int)");
            st.execute("INSERT INTO ser VALUES (1, 0), (2, 0)");
        }
    }

    @AfterAll
    static void dropSchema() throws SQLException {
        try (Connection c = LocalServer.connect(QueryMode.SIMPLE); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        } catch (SQLException ignored) {
            // server absent: nothing was created
        }
    }

    static Connection connect(QueryMode mode) throws SQLException {
        Connection c = LocalServer.connect(mode);
        try (Statement st = c.createStatement()) {
            st.execute("SET search_path = " + SCHEMA);
        }
        return c;
    }

    static long scalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits until the backend pid waits for a lock (a row another session holds), as pg_stat_activity says. */
    static void awaitLockWait(long pid) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        try (Connection c = connect(QueryMode.SIMPLE)) {
            while (scalar(c, "SELECT count(*) FROM pg_stat_activity WHERE pid = " + pid + " AND wait_event_type = 'Lock'") == 0) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("backend " + pid + " never waited for a lock");
                Thread.sleep(10);
            }
        }
    }

    static ClientScriptRunner runner(List<Script> scripts, QueryMode mode, List<String> debug, String... defines)
            throws ScriptException {
        Variables v = new Variables();
        for (String d : defines) {
            v.define(d);
        }
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(5432, 1, 1);
        v.standard(1, 0, 5432, seeds.defaultSeed());
        return new ClientScriptRunner(scripts, 0, v, seeds.clients()[0], mode,
                ClientScriptRunner.Options.defaults().withStderr(debug::add));
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void tpcbLikeKeepsBalancesConsistent(QueryMode mode) throws Exception {
        try (Connection c = connect(mode)) {
            long before = scalar(c, "SELECT count(*) FROM pgbench_history");
            ClientScriptRunner r = runner(List.of(Script.builtin("tpcb-like"), Script.builtin("simple-update"),
                    Script.builtin("select-only")), mode, new ArrayList<>());
            PgbenchRandom choose = PgbenchRandom.Seeds.of(5432, 1, 1).choose()[0];
            int writes = 0;
            for (int i = 0; i < 60; i++) {
                TransactionOutcome o = r.runTransaction(c, choose);
                assertTrue(o.ok(), () -> o.toString());
                writes += o.script() < 2 ? 1 : 0;
            }
            assertEquals(before + writes, scalar(c, "SELECT count(*) FROM pgbench_history"));
            long deltas = scalar(c, "SELECT coalesce(sum(delta), 0) FROM pgbench_history");
            assertEquals(deltas, scalar(c, "SELECT sum(abalance) FROM pgbench_accounts"));
            assertEquals(scalar(c, "SELECT sum(tbalance) FROM pgbench_tellers"),
                    scalar(c, "SELECT sum(bbalance) FROM pgbench_branches"));
            assertTrue(r.commandCounts(0)[0] + r.commandCounts(1)[0] + r.commandCounts(2)[0] == 60);
            assertTrue(r.commandNanos(2)[1] > 0 || r.commandCounts(2)[1] == 0);
        }
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void serverPreparesStatementsOnlyInPreparedMode(QueryMode mode) throws Exception {
        try (Connection c = connect(mode)) {
            ClientScriptRunner r = runner(List.of(Script.builtin("select-only")), mode, new ArrayList<>());
            for (int i = 0; i < 3; i++) {
                assertTrue(r.runScript(c, 0).ok());
            }
            long prepared = scalar(c, "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SELECT abalance%'");
            assertEquals(mode == QueryMode.PREPARED ? 1 : 0, prepared);
        }
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void untypedParametersAndSpecialVariables(QueryMode mode) throws Exception {
        // 001_pgbench_custom_script_2, plus a \gset to look at the result
        Script s = Script.parse("custom2", "BEGIN;\n\\set foo 1\n-- cast are needed for typing under -M prepared\n"
                + "SELECT :foo::INT + :scale::INT * :client_id::INT AS bla, :v3::float8 * 2 AS v3 \\gset\n"
                + "COMMIT;\n\\set r debug(:bla)\n\\set d debug(:v3)\n");
        List<String> debug = new ArrayList<>();
        try (Connection c = connect(mode)) {
            ClientScriptRunner r = runner(List.of(s), mode, debug, "v3=-54.21E-2");
            TransactionOutcome o = r.runScript(c, 0);
            assertTrue(o.ok(), () -> o.toString());
        }
        assertEquals(List.of("debug(script=0,command=5): int 1", "debug(script=0,command=6): double -1.0842"), debug);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void questionMarksAreNotParameters(QueryMode mode) throws Exception {
        Script s = Script.parse("q", "\\set x 41\nSELECT '?' AS q, :x::int + 1 AS y, '{\"a\":1}'::jsonb ? 'a' AS z \\gset\n"
                + "\\set y debug(:y)\n\\set z debug(:z)\n");
        List<String> debug = new ArrayList<>();
        try (Connection c = connect(mode)) {
            ClientScriptRunner r = runner(List.of(s), mode, debug);
            TransactionOutcome o = r.runScript(c, 0);
            assertTrue(o.ok(), o::toString);
            assertEquals("?", r.variables().text("q"));
        }
        assertEquals(List.of("debug(script=0,command=3): int 42", "debug(script=0,command=4): boolean true"), debug);
    }

    /**
     * A \; with only blanks or comments on one side leaves one statement, which the server runs prepared too:
     * pgbench 15 runs this script in every mode (it once was refused as a compound query outside simple mode, and
     * pgjdbc then sent the comment as a query of its own, whose empty result \gset read).
     */
    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void semicolonsAroundOneStatementRunInEveryMode(QueryMode mode) throws Exception {
        Script s = Script.parse("one", "\\; SELECT 7 + :x AS a \\; /* c */ -- only a comment\n\\gset\n"
                + "\\set a debug(:a)\nSELECT 1 \\;\n");
        assertEquals(false, s.commands().get(0).compound);
        assertEquals(true, Script.parse("two", "SELECT 1 \\; -- c\n SELECT 2\n").commands().get(0).compound);
        List<String> debug = new ArrayList<>();
        try (Connection c = connect(mode)) {
            TransactionOutcome o = runner(List.of(s), mode, debug, "x=1").runScript(c, 0);
            assertTrue(o.ok(), o::toString);
        }
        assertEquals(List.of("debug(script=0,command=2): int 8"), debug);
    }

    /**
     * A parameter right before a '?' or another parameter: pgbench sends "$1?'x'" and "$1$2", which pgjdbc's "??"
     * (its escape for a literal '?') once turned into "?$1'x'" or a "column index is out of range" error.
     */
    @ParameterizedTest
    @EnumSource(value = QueryMode.class, names = {"EXTENDED", "PREPARED"})
    void parameterBeforeAQuestionMarkOrAParameter(QueryMode mode) throws Exception {
        Script s = Script.parse("q", "SELECT :j?'x' AS y \\gset\n\\set y debug(:y)\n");
        Script adjacent = Script.parse("a", "SELECT :a:a;\n");
        List<String> debug = new ArrayList<>();
        try (Connection c = connect(mode)) {
            TransactionOutcome o = runner(List.of(s), mode, debug, "j={\"x\": 1}").runScript(c, 0);
            assertTrue(o.ok(), o::toString);
            TransactionOutcome bad = runner(List.of(adjacent), mode, debug, "a=1").runScript(c, 0);
            assertEquals("42601", bad.sqlState(), bad::toString);
            assertTrue(bad.message().contains("syntax error at or near \"$2\""), bad::toString);
        }
        assertEquals(List.of("debug(script=0,command=2): boolean true"), debug);
    }

    /** As pgbench: an undefined variable stays ":name" text in simple mode, and binds NULL otherwise. */
    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void undefinedVariables(QueryMode mode) throws Exception {
        Script s = Script.parse("undef", "SELECT :nosuch::int IS NULL AS u \\gset\n\\set u debug(:u)\n");
        List<String> debug = new ArrayList<>();
        try (Connection c = connect(mode)) {
            TransactionOutcome o = runner(List.of(s), mode, debug).runScript(c, 0);
            if (mode == QueryMode.SIMPLE) {
                assertEquals("42601", o.sqlState(), o::toString);
            } else {
                assertTrue(o.ok(), o::toString);
                assertEquals(List.of("debug(script=0,command=2): boolean true"), debug);
            }
        }
    }

    @Test
    void gsetAndAsetAsInTap() throws Exception {
        Script gset = Script.parse("001_pgbench_gset", """
                -- test gset
                -- no columns
                SELECT \\gset
                -- one value
                SELECT 0 AS i0 \\gset
                \\set i debug(:i0)
                -- two values
                SELECT 1 AS i1, 2 AS i2 \\gset
                \\set i debug(:i1)
                \\set i debug(:i2)
                -- with prefix
                SELECT 3 AS i3 \\gset x_
                \\set i debug(:x_i3)
                -- overwrite existing variable
                SELECT 0 AS i4, 4 AS i4 \\gset
                \\set i debug(:i4)
                -- work on the last SQL command under \\;
                \\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset
                \\set i debug(:i5)
                """);
        Script aset = Script.parse("001_pgbench_aset", """
                -- test aset, which applies to a combined query
                \\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset
                -- unless it returns more than one row, last is kept
                SELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \\aset
                \\set i debug(:i6)
                \\set i debug(:i7)
                """);
        Script asetEmpty = Script.parse("001_pgbench_aset_empty", "\\; SELECT 5432 AS i8 WHERE FALSE \\; \\aset\n\\set i debug(:i8)\n");
        Script twoRows = Script.parse("001_pgbench_gset_two_rows", "SELECT 5432 AS fail UNION SELECT 5433 ORDER BY 1 \\gset\n");
        List<String> debug = new ArrayList<>();
        try (Connection c = connect(QueryMode.SIMPLE)) {
            assertTrue(runner(List.of(gset), QueryMode.SIMPLE, debug).runScript(c, 0).ok());
            assertEquals(List.of("debug(script=0,command=3): int 0", "debug(script=0,command=5): int 1",
                    "debug(script=0,command=6): int 2", "debug(script=0,command=8): int 3",
                    "debug(script=0,command=10): int 4", "debug(script=0,command=12): int 5"), debug);
            debug.clear();
            assertTrue(runner(List.of(aset), QueryMode.SIMPLE, debug).runScript(c, 0).ok());
            assertEquals(List.of("debug(script=0,command=3): int 8", "debug(script=0,command=4): int 7"), debug);
            TransactionOutcome empty = runner(List.of(asetEmpty), QueryMode.SIMPLE, debug).runScript(c, 0);
            assertTrue(empty.message().contains("undefined variable \"i8\""), empty.message());
            assertTrue(empty.message().contains("meta-command failed"), empty.message());
            TransactionOutcome two = runner(List.of(twoRows), QueryMode.SIMPLE, debug).runScript(c, 0);
            assertEquals(TransactionOutcome.Status.META_ERROR, two.status());
            assertTrue(two.message().contains("expected one row, got 2"), two.message());
        }
    }

    @Test
    void serializationFailureIsRetryableAndRetryDrawsTheSameValues() throws Exception {
        Script s = Script.parse("ser", """
                BEGIN ISOLATION LEVEL REPEATABLE READ;
                SELECT 1;
                \\set x debug(random(1, 1000000000))
                UPDATE ser SET v = v + 1 WHERE id = 1;
                END;
                """);
        List<String> debug = new ArrayList<>();
        try (Connection a = connect(QueryMode.PREPARED); Connection b = connect(QueryMode.SIMPLE)) {
            ClientScriptRunner r = runner(List.of(s), QueryMode.PREPARED, debug);
            long aPid = scalar(a, "SELECT pg_backend_pid()");
            b.setAutoCommit(false);
            try (Statement st = b.createStatement()) {
                st.execute("UPDATE ser SET v = v + 100 WHERE id = 1");
            }
            Thread committer = new Thread(() -> {
                try {
                    awaitLockWait(aPid);   // the client's snapshot is taken and its UPDATE waits for b's row
                    b.commit();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            committer.start();
            TransactionOutcome failed = r.runScript(a, 0);
            committer.join();
            assertEquals(TransactionOutcome.Status.SERIALIZATION_FAILURE, failed.status(), failed::toString);
            assertEquals("40001", failed.sqlState());
            assertTrue(failed.retryable());
            assertEquals(3, failed.command());
            TransactionOutcome retried = r.retry(a, failed);
            assertTrue(retried.ok(), retried::toString);
            assertEquals(2, debug.size());
            assertEquals(debug.get(0), debug.get(1), "the retry draws the same random value");
            assertEquals(101, scalar(a, "SELECT v FROM ser WHERE id = 1"));
        }
    }

    @Test
    void deadlockIsRetryable() throws Exception {
        // The runner's client locks row 1 and waits for row 2; then the other session waits for row 1.
        // The runner's deadlock check (after 3 s) then finds the cycle, so it is the victim (the other's is 60 s). The
        // check runs once: the other session must be waiting by then (after 1 s it was not always, on a loaded machine,
        // and the other session became the victim 10 s later)
        Script s = Script.parse("dl", "SET deadlock_timeout = '3s';\nBEGIN;\nUPDATE ser SET v = v + 1 WHERE id = 1;\n"
                + "UPDATE ser SET v = v + 1 WHERE id = 2;\nEND;\n");
        try (Connection a = connect(QueryMode.EXTENDED); Connection b = connect(QueryMode.SIMPLE)) {
            long aPid = scalar(a, "SELECT pg_backend_pid()");
            b.setAutoCommit(false);
            try (Statement st = b.createStatement()) {
                st.execute("SET deadlock_timeout = '60s'");
                st.execute("UPDATE ser SET v = v + 1 WHERE id = 2");
            }
            Thread other = new Thread(() -> {
                try (Statement st = b.createStatement()) {
                    awaitLockWait(aPid);   // not a fixed delay: a loaded machine may start the client later
                    st.execute("UPDATE ser SET v = v + 1 WHERE id = 1");
                    b.commit();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            other.start();
            ClientScriptRunner r = runner(List.of(s), QueryMode.EXTENDED, new ArrayList<>());
            TransactionOutcome o = r.runScript(a, 0);
            other.join();
            assertEquals(TransactionOutcome.Status.DEADLOCK_FAILURE, o.status(), o::toString);
            assertEquals("40P01", o.sqlState());
            assertTrue(o.retryable());
            assertTrue(r.retry(a, o).ok());
        }
    }

    @Test
    void otherSqlErrorsRollBackAndAreNotRetryable() throws Exception {
        Script s = Script.parse("err", "BEGIN;\nUPDATE ser SET v = v + 1000 WHERE id = 1;\nSELECT 1/0;\nEND;\n");
        try (Connection c = connect(QueryMode.EXTENDED)) {
            long v = scalar(c, "SELECT v FROM ser WHERE id = 1");
            TransactionOutcome o = runner(List.of(s), QueryMode.EXTENDED, new ArrayList<>()).runScript(c, 0);
            assertEquals(TransactionOutcome.Status.SQL_ERROR, o.status());
            assertEquals("22012", o.sqlState());
            assertTrue(!o.retryable());
            assertEquals(v, scalar(c, "SELECT v FROM ser WHERE id = 1"), "rolled back");
        }
    }

    @Test
    void lostConnectionIsReported() throws Exception {
        try (Connection c = connect(QueryMode.PREPARED); Connection killer = connect(QueryMode.SIMPLE)) {
            long pid = scalar(c, "SELECT pg_backend_pid()");
            scalar(killer, "SELECT pg_terminate_backend(" + pid + ")::int");
            // the signal only asks: until the backend has gone, the next transaction may still run on it
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (scalar(killer, "SELECT count(*) FROM pg_stat_activity WHERE pid = " + pid) > 0) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("backend " + pid + " never ended");
                Thread.sleep(10);
            }
            TransactionOutcome o = runner(List.of(Script.builtin("select-only")), QueryMode.PREPARED, new ArrayList<>())
                    .runScript(c, 0);
            assertEquals(TransactionOutcome.Status.CONNECTION_LOST, o.status(), o::toString);
        }
    }

    /**
     * The studies ran their scripts in pgbench's default simple mode. The update scripts also run in the other
     * modes; the read scripts' ":aid + :row_count" cannot be typed as two unknown parameters, which the C pgbench
     * reports too ("operator is not unique: unknown + unknown") under -M extended/prepared.
     */
    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void studyScriptsRunUnchanged(QueryMode mode) throws Exception {
        List<Script> scripts = new ArrayList<>();
        for (String f : List.of("000-ch4-update.sql", "000-ch5-update.sql", "001-update.sql", "000-ch4-read.sql",
                "000-ch5-read.sql", "001-read.sql")) {
            scripts.add(Script.parse(f, ScriptParseTest.resource("/studies/" + f)));
        }
        scripts.add(Script.builtin("pgecons-update"));
        scripts.add(Script.builtin("pgecons-read"));
        scripts.add(Script.builtin("pgecons-read-noagg"));
        try (Connection c = connect(mode)) {
            ClientScriptRunner r = runner(scripts, mode, new ArrayList<>());
            for (int i = 0; i < scripts.size(); i++) {
                TransactionOutcome o = r.runScript(c, i);
                boolean read = scripts.get(i).name().contains("read");
                if (read && mode != QueryMode.SIMPLE) {
                    assertEquals("42725", o.sqlState(), o::toString);
                } else {
                    assertTrue(o.ok(), o::toString);
                }
            }
            assertTrue(scalar(c, "SELECT count(*) FROM pgbench_accounts WHERE filler ~ '^[0-9a-f]{64}'") >= 3);
        }
    }

    /** pgbench does not substitute psql's :'name' / :"name" forms: the text reaches the server as is. */
    @Test
    void quotedVariableFormsAreSentAsIsLikePgbench() throws Exception {
        Script s = Script.parse("qv", "\\set v 5\nSELECT :'v' AS a;\n");
        try (Connection c = connect(QueryMode.SIMPLE)) {
            TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, new ArrayList<>()).runScript(c, 0);
            assertEquals("42601", o.sqlState(), o::toString);
            assertTrue(o.message().contains("syntax error at or near \":\""), o.message());
        }
    }

    @Test
    void scaleIsReadFromBranches() throws Exception {
        try (Connection c = connect(QueryMode.SIMPLE)) {
            assertEquals(1, Variables.readScale(c));
            try (Statement st = c.createStatement()) {
                st.execute("SET search_path = pg_catalog");
            }
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> Variables.readScale(c));
            assertTrue(e.getMessage().contains("perhaps you need to do initialization"), e.getMessage());
        }
    }

    @Test
    void scriptEndingInsideATransactionAbortsTheClient() throws Exception {
        Script s = Script.parse("open.sql", "BEGIN;\nSELECT 1;\n");
        try (Connection c = connect(QueryMode.SIMPLE)) {
            TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, new ArrayList<>()).runScript(c, 0);
            assertEquals(TransactionOutcome.Status.END_IN_TRANSACTION, o.status());
            assertTrue(o.message().contains("end of script reached without completing the last transaction"));
        }
    }

    /** Text forms of typed values substituted in simple mode, as PostgreSQL 15's pgbench printed them. */
    @Test
    void substitutedTextOfEachType() throws Exception {
        Script s = Script.parse("fmt.sql", "\\set v 1.0/3\n\\set w 1e100\n\\set b 1 = 1\n\\set n NULL\n"
                + "SELECT ':v|:w|:b|:n|:client_id'::text AS s \\gset\n\\set x debug(:s)\n");
        try (Connection c = connect(QueryMode.SIMPLE)) {
            TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, new ArrayList<>()).runScript(c, 0);
            assertTrue(o.message().startsWith("malformed variable \"s\" value: \"0.333333333333333|1e+100|true|NULL|0\""),
                    o.message());
        }
    }

    /**
     * A \gset of NULL (or of empty text) stores "", which pgbench 15 cannot make a value of either: its client aborts with
     * "evaluation of meta-command failed" and no reason. Kensho gives the reason, and its likely cause.
     */
    @ParameterizedTest
    @ValueSource(strings = {"NULL::int", "''"})
    void anEmptyVariableInAnExpressionAbortsTheClientSayingWhy(String value) throws Exception {
        Script s = Script.parse("empty.sql", "SELECT " + value + " AS e \\gset\n\\set x debug(:e)\n");
        try (Connection c = connect(QueryMode.SIMPLE)) {
            TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, new ArrayList<>()).runScript(c, 0);
            assertEquals(TransactionOutcome.Status.META_ERROR, o.status());
            assertEquals("malformed variable \"e\" value: \"\" (a \\gset or \\aset of NULL sets \"\")\n"
                    + "client 0 aborted in command 1 (set) of script 0; evaluation of meta-command failed", o.message());
        }
    }

    @Test
    void sleepIsPerformedAndReported() throws Exception {
        Script s = Script.parse("sleep", "\\set ms 30\n\\sleep :ms ms\n\\sleep 100 us\n\\sleep 0 s\n");
        TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, new ArrayList<>()).runScript(null, 0);
        assertTrue(o.ok());
        assertTrue(o.sleptNanos() >= 30_000_000L, () -> "slept " + o.sleptNanos());
    }

    @Test
    void shellAndSetshellWithContinuation() throws Exception {
        Script s = Script.parse("001_pgbench_backslash_commands", """
                -- run set
                \\set zero 0
                \\set one 1.0
                -- sleep
                \\sleep :one ms
                \\sleep 100 us
                \\sleep 0 s
                \\sleep :zero
                -- setshell and continuation
                \\setshell another_one\\
                  echo \\
                    :one
                \\set n debug(:another_one)
                -- shell
                \\shell true shell-echo-output
                """);
        List<String> debug = new ArrayList<>();
        TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, debug).runScript(null, 0);
        assertTrue(o.ok(), o::toString);
        assertEquals(List.of("debug(script=0,command=8): int 1"), debug);
    }

    /** What pgbench 15 made of each command's output: (int) strtol(line, &end, 10), only white space after it. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "echo|int 0",
        "printf '\\040\\04042\\040\\n'|int 42",
        "printf '\\040\\n'|int 0",
        "printf '\\t-5\\r\\n'|int -5",
        "echo 99999999999999999999|int -1",
        "echo -99999999999999999999|int 0",
        "echo 3000000000|int -1294967296",
        "echo +17|int 17",
        "printf '7\\n8\\n'|int 7",
        "echo 0x10|shell command must return an integer",
        "echo +|shell command must return an integer",
    })
    void setshellReadsItsLineAsPgbench(String command, String expected) throws Exception {
        Script s = Script.parse("setshell.sql", "\\setshell v " + command + "\n\\set x debug(:v)\n");
        List<String> debug = new ArrayList<>();
        TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, debug).runScript(null, 0);
        if (expected.startsWith("int ")) {
            assertTrue(o.ok(), o::toString);
            assertEquals(List.of("debug(script=0,command=2): " + expected), debug);
        } else {
            assertTrue(!o.ok() && o.message().contains(expected), o::toString);
        }
    }

    /**
     * pgbench's runShellCommand names its errors after the command's first word, as the C pgbench 15 printed them:
     * "false: could not launch shell command", "true: could not read result of shell command",
     * "echo: undefined variable \":nope\"", "echo: shell command must return an integer (not \"12abc\n\")".
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "\\shell false|false: could not launch shell command",
        "\\setshell v true|true: could not read result of shell command",
        "\\setshell v echo :nope|echo: undefined variable \":nope\"",
        "\\shell echo :nope|echo: undefined variable \":nope\"",
        "\\setshell v echo 12abc|echo: shell command must return an integer (not \"12abc",
    })
    void shellErrorsAreNamedAfterTheCommand(String line, String expected) throws Exception {
        Script s = Script.parse("shell.sql", line + "\n");
        TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, new ArrayList<>()).runScript(null, 0);
        assertTrue(!o.ok() && o.message().startsWith(expected), o::toString);
    }

    /**
     * \\sleep :v ms with v from -D, as the C pgbench 15 took it: a value atoi reads as 0 is refused unless it starts
     * with a digit ("abc", " 0", "-0" refused; "0" sleeps 0), and atoi stops at the first non-digit (" 7", "7x": 7 ms).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"abc|-1", "0|0", "' 0'|-1", "-0|-1", "' 7'|7000000", "7x|7000000"})
    void sleepTimeFromAVariable(String value, long nanos) throws Exception {
        Script s = Script.parse("sleep.sql", "\\sleep :v ms\n");
        Variables v = new Variables();
        v.putText("v", value);
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(5432, 1, 1);
        v.standard(1, 0, 5432, seeds.defaultSeed());
        List<Long> slept = new ArrayList<>();
        TransactionOutcome o = new ClientScriptRunner(List.of(s), 0, v, seeds.clients()[0], QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults().withSleeper(slept::add)).runScript(null, 0);
        if (nanos < 0) {
            assertTrue(!o.ok() && o.message().contains("sleep: invalid sleep time \"" + value + "\" for variable \"v\""), o::toString);
            assertEquals(List.of(), slept);
        } else {
            assertTrue(o.ok(), o::toString);
            assertEquals(nanos == 0 ? List.of() : List.of(nanos), slept.stream().filter(n -> n > 0).toList());
        }
    }

    /** pgbench 15 ran a 254-byte command line and refused one of 255 bytes, variables substituted. */
    @ParameterizedTest(name = "{0} bytes: runs {1}")
    @CsvSource({"254, true", "255, false"})
    void shellCommandLineUpToPgbenchsBuffer(int bytes, boolean runs) throws Exception {
        // "echo 1 #...": the shell prints 1; ":a" is 5 bytes of the line once substituted
        String padding = "#".repeat(bytes - "echo 1 ".length() - " 12345".length());
        Script s = Script.parse("long.sql", "\\set a 12345\n\\setshell v echo 1 " + padding + " :a\n\\set x debug(:v)\n");
        List<String> debug = new ArrayList<>();
        TransactionOutcome o = runner(List.of(s), QueryMode.SIMPLE, debug).runScript(null, 0);
        if (runs) {
            assertTrue(o.ok(), o::toString);
            assertEquals(List.of("debug(script=0,command=3): int 1"), debug);
        } else {
            assertTrue(!o.ok() && o.message().contains("shell command is too long"), o::toString);
        }
    }
}
