package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warm-up imitates the run's scripts without touching a table. */
@KenshoTarget
class WarmupScriptTest {

    @Test
    void keepsMetaCommandsAndTransactionControlAndReplacesTableAccess() throws Exception {
        Script tpcb = Script.builtin("tpcb-like");
        Script w = WarmupScript.of(tpcb, c -> c.paramNames().isEmpty() ? List.of() : c.paramNames().stream().map(n -> "int4").toList());
        assertEquals(tpcb.commands().size(), w.commands().size());
        for (int i = 0; i < tpcb.commands().size(); i++) {
            Command real = tpcb.commands().get(i), twin = w.commands().get(i);
            assertEquals(real.kind(), twin.kind());
            if (real.kind() != Command.Kind.SQL) {
                assertSame(real, twin, "meta-commands are the run's own");
            } else if (real.sql().startsWith("BEGIN") || real.sql().startsWith("END")) {
                assertSame(real, twin, "transaction control touches no table");
            } else {
                assertTrue(twin.sql().startsWith("SELECT ") && !twin.sql().contains("pgbench_"), twin.sql());
                assertEquals(real.paramNames(), twin.paramNames());
                assertTrue(twin.parameterizedSql().contains("?::int4"), twin.parameterizedSql());
            }
        }
        List<Script> next = WarmupScript.generation(List.of(w), 7);
        assertTrue(next.get(0).commands().get(5).sql().endsWith("/* kensho warm-up 7 */"), next.get(0).commands().get(5).sql());

        // a script that stores results cannot be imitated without its tables
        Script gset = Script.parse("g.sql", "SELECT abalance AS b FROM pgbench_accounts WHERE aid = 1 \\gset\n\\set x :b + 1\n");
        assertSame(WarmupScript.GENERIC, WarmupScript.of(gset, c -> null));
    }

    @Test
    void writesOfQuietTablesBecomeTheSameStatementWritingNoRow() throws Exception {
        Script tpcb = Script.builtin("tpcb-like");
        List<String> asked = new java.util.ArrayList<>();
        Script w = WarmupScript.of(tpcb, c -> null, t -> asked.add(t));
        assertEquals(List.of("pgbench_accounts", "pgbench_tellers", "pgbench_branches", "pgbench_history"), asked);
        Command accounts = w.commands().get(5), history = w.commands().get(9);
        assertEquals("UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE (aid = :aid) AND false;", accounts.sql());
        assertEquals("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE (aid = ?) AND false;", accounts.parameterizedSql());
        assertEquals("UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE (aid = $2) AND false;", accounts.wireSql());
        assertEquals("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) SELECT $1, $2, $3, $4, CURRENT_TIMESTAMP WHERE false;",
                history.wireSql());
        assertEquals(tpcb.commands().get(9).paramNames(), history.paramNames());
        assertTrue(w.commands().get(6).sql().startsWith("SELECT ") && !w.commands().get(6).sql().contains("pgbench_"), "reads stay SELECT twins");
        // the generation tag goes before the semicolon: after it pgjdbc would see a second statement
        assertEquals("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE (aid = ?) AND false /* kensho warm-up 3 */;",
                WarmupScript.generation(List.of(w), 3).get(0).commands().get(5).parameterizedSql());

        // a table that is not quiet (triggers, rules, a view) keeps the SELECT twin
        Script loud = WarmupScript.of(tpcb, c -> null, t -> !t.equals("pgbench_tellers"));
        assertTrue(loud.commands().get(7).sql().startsWith("SELECT "), loud.commands().get(7).sql());
        assertTrue(loud.commands().get(8).sql().startsWith("UPDATE "), loud.commands().get(8).sql());
    }

    @Test
    void onlyPlainWritesAreRewritten() {
        // the condition keeps its own precedence: OR inside, AND false outside
        assertEquals("UPDATE t SET a = 1 WHERE (a = $1 OR b = $2) AND false", ZeroRowWrite.of("UPDATE t SET a = 1 WHERE a = $1 OR b = $2"));
        assertEquals("DELETE FROM t WHERE false;", ZeroRowWrite.of("DELETE FROM t;"));
        assertEquals("update only s.\"T x\" set a = (select max(a) from u where u.b = ?) WHERE false",
                ZeroRowWrite.of("update only s.\"T x\" set a = (select max(a) from u where u.b = ?)"), "a WHERE inside parentheses is not the statement's");
        assertEquals("s.\"T x\"", ZeroRowWrite.table("update only s.\"T x\" set a = 1"));
        assertEquals("UPDATE t SET s = 'where' WHERE (k = :where) AND false", ZeroRowWrite.of("UPDATE t SET s = 'where' WHERE k = :where"));
        assertEquals("insert into t SELECT $1, now() WHERE false", ZeroRowWrite.of("insert into t values ($1, now())"));
        for (String refused : List.of(
                "UPDATE t SET a = 1 WHERE k = $1 RETURNING a",
                "UPDATE t SET a = 1 WHERE CURRENT OF c",
                "INSERT INTO t VALUES ($1) ON CONFLICT DO NOTHING",
                "INSERT INTO t VALUES ($1), ($2)",
                "INSERT INTO t VALUES (DEFAULT, $1)",
                "INSERT INTO t SELECT * FROM u",
                "WITH x AS (SELECT 1) UPDATE t SET a = 1",
                "UPDATE t SET a = 1 -- comment",
                "UPDATE t SET a = $$x$$",
                "UPDATE t SET a = 1; DELETE FROM t",
                "UPDATE :table SET a = 1",
                "SELECT 1",
                "VACUUM t")) {
            assertEquals(null, ZeroRowWrite.of(refused), refused);
        }
    }

    /** Runs the warm-up twins of every builtin in each mode on a database without the pgbench tables. */
    @Test
    void twinsOfTheBuiltinsRunWhereNoPgbenchTableExists(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
        }
        for (QueryMode mode : QueryMode.values()) {
            for (String name : Script.BUILTINS) {
                Script w = WarmupScript.of(Script.builtin(name), c -> null);
                Variables v = new Variables();
                v.standard(1, 0, 5432, 5432);
                ClientScriptRunner r = new ClientScriptRunner(List.of(w), 0, v, new PgbenchRandom(1), mode,
                        ClientScriptRunner.Options.defaults());
                try (Connection c = pg.connect()) {
                    TransactionOutcome out = r.runScript(c, 0);
                    assertTrue(out.ok(), name + " " + mode + ": " + out.message());
                    r.releaseStatements();
                }
            }
        }
    }

    /**
     * The warm-up ends after 10 s: a long transaction (the studies' scripts of hundreds of statements) runs fewer than asked,
     * and the report said the count asked for (20 000) of a warm-up that had run a few hundred.
     */
    @Test
    void aWarmupCutShortByItsTimeLimitSaysHowManyRan(Target pg) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(out, true, StandardCharsets.UTF_8);
        // 400 round trips a transaction: 20 000 of them would take minutes
        String script = "\\set x random(1, 10)\n" + "SELECT :x;\n".repeat(400);
        RunReport r = new PgbenchRun().script("long.sql", script).clients(1).transactions(1).noVacuum(true).output(sink, sink).run(pg);
        assertEquals(1, r.processed(), out.toString(StandardCharsets.UTF_8));
        assertTrue(r.warmupPerClient() > 0 && r.warmupPerClient() < 20_000, r.toString());
        assertTrue(String.join("\n", r.lines()).contains("each client ran at least " + r.warmupPerClient()
                + " warm-up transactions (of the 20000 asked: the warm-up ends after 10 s, or at a client's first failure)"),
                String.join("\n", r.lines()));
    }

    /** A run of one tpcb-like transaction after 2 000 warm-up transactions leaves exactly one history row. */
    @Test
    void warmupLeavesTheTablesAsTheyWere(Target pg) throws Exception {
        new PgbenchInit().scale(1).log(null).run(pg);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(out, true, StandardCharsets.UTF_8);
        RunReport r = new PgbenchRun().builtin("tpcb-like").clients(2).transactions(1).mode(QueryMode.PREPARED).warmup(2000)
                .output(sink, sink).run(pg);
        assertEquals(2, r.processed(), out.toString(StandardCharsets.UTF_8));
        assertEquals(1000, r.warmupPerClient());
        assertTrue(String.join("\n", r.lines()).contains("each client ran 1000 warm-up transactions"), String.join("\n", r.lines()));
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select (select count(*) from pgbench_history), (select sum(delta) from pgbench_history),"
                     + " (select sum(abalance) from pgbench_accounts), (select sum(tbalance) from pgbench_tellers),"
                     + " (select sum(bbalance) from pgbench_branches)")) {
            rs.next();
            assertEquals(2, rs.getLong(1));
            // the warm-up's writes (the run's statements made to write no row) changed no balance
            for (int col = 3; col <= 5; col++) assertEquals(rs.getLong(2), rs.getLong(col), "column " + col);
        }
        // the JIT watcher of the warm-up does not outlive the run (a test harness keeps its JVM); it ends on an interrupt,
        // which a loaded machine may take seconds to schedule, and one not told to end polls forever
        long until = System.nanoTime() + 30_000_000_000L;
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("kensho-jit-watch") && t.isAlive())) {
            assertTrue(System.nanoTime() < until, "kensho-jit-watch still running after the run");
            Thread.sleep(20);
        }
    }

    /** A statement trigger fires for a write of no row too: its table keeps the SELECT twin, and the trigger fires only in the run. */
    @Test
    void aTableWithATriggerIsNotWrittenByTheWarmup(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_warm_t, kensho_warm_fired");
            s.execute("create table kensho_warm_t (k int primary key, v int)");
            s.execute("insert into kensho_warm_t select g, 0 from generate_series(1, 10) g");
            s.execute("create table kensho_warm_fired (n int)");
            s.execute("create or replace function kensho_warm_fire() returns trigger language plpgsql as "
                    + "$$ begin insert into kensho_warm_fired values (1); return null; end $$");
            s.execute("create trigger kensho_warm_stmt after update on kensho_warm_t for each statement execute function kensho_warm_fire()");
        }
        Script sql = Script.parse("t.sql", "\\set k random(1, 10)\nUPDATE kensho_warm_t SET v = v + 1 WHERE k = :k;\n");
        for (dev.kensho.pgbench.Engine engine : dev.kensho.pgbench.Engine.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream sink = new PrintStream(out, true, StandardCharsets.UTF_8);
            RunReport r = new PgbenchRun().script(sql).clients(2).transactions(3).mode(QueryMode.PREPARED).warmup(2000).engine(engine)
                    .output(sink, sink).run(pg);
            assertEquals(6, r.processed(), out.toString(StandardCharsets.UTF_8));
        }
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select (select count(*) from kensho_warm_fired), (select sum(v) from kensho_warm_t)")) {
            rs.next();
            assertEquals(12, rs.getLong(1), "the trigger fired once per run transaction, never in the warm-up");
            assertEquals(12, rs.getLong(2));
            s.execute("drop table kensho_warm_t, kensho_warm_fired");
            s.execute("drop function kensho_warm_fire()");
        }
    }
    /**
     * A compound command that starts with BEGIN is no transaction control: it was kept as it is, and the warm-up ran the
     * script's writes for real (a table of the test's gained 20 003 rows in a run of 3 transactions).
     */
    @Test
    void aCompoundCommandStartingWithBeginIsNotRunByTheWarmup(Target pg) throws Exception {
        Script compound = Script.parse("c.sql", "BEGIN\\; INSERT INTO kensho_warm_rows DEFAULT VALUES\\; COMMIT;\n");
        Command twin = WarmupScript.of(compound, c -> null).commands().get(0);
        assertTrue(twin.sql().startsWith("SELECT ") && !twin.sql().contains("kensho_warm_rows"), twin.sql());
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_warm_rows");
            s.execute("create table kensho_warm_rows (id serial)");
        }
        for (Engine engine : Engine.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream sink = new PrintStream(out, true, StandardCharsets.UTF_8);
            RunReport r = new PgbenchRun().script(compound).clients(1).transactions(3).warmup(2000).engine(engine).output(sink, sink).run(pg);
            assertEquals(3, r.processed(), out.toString(StandardCharsets.UTF_8));
        }
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from kensho_warm_rows")) {
            rs.next();
            assertEquals(6, rs.getLong(1), "rows of the two runs' 3 transactions each, none of the warm-up's");
            s.execute("drop table kensho_warm_rows");
        }
    }

    /**
     * A script that ends inside its transaction aborts the client at the end of its first one, in the warm-up too: the
     * warm-up's transaction was left open, and the run's first BEGIN went into it ("WARNING: there is already a
     * transaction in progress"), its first transaction part of the warm-up's.
     */
    @Test
    void theWarmupLeavesNoTransactionOpen(Target pg) throws Exception {
        Script open = Script.parse("open.sql", "BEGIN;\nSELECT 1;\n");
        for (Engine engine : Engine.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream sink = new PrintStream(out, true, StandardCharsets.UTF_8);
            RunReport r = new PgbenchRun().script(open).clients(1).transactions(3).warmup(2000).engine(engine).output(sink, sink).run(pg);
            String said = out.toString(StandardCharsets.UTF_8);
            assertTrue(r.aborted() && r.processed() == 1, engine + ": " + said);
            assertEquals("client 0 aborted: end of script reached without completing the last transaction", r.abortReason(), said);
            assertTrue(!said.contains("WARNING"), engine + ": " + said);
        }
    }
    /**
     * The warm-up ends with a transaction that fails as a serialization failure does, and its retry, so that a run's
     * first failure does not meet the error path cold: it is retryable, in its second command, and the run neither counts
     * nor tells it (its command index is past the run's one-command scripts, whose counters it would have overrun).
     */
    @Test
    void theWarmupsFailingTransactionIsRetryableAndNeitherCountedNorTold(Target pg) throws Exception {
        ClientScriptRunner r = new ClientScriptRunner(List.of(WarmupScript.FAILING), 0, new Variables(), new PgbenchRandom(1),
                QueryMode.SIMPLE, ClientScriptRunner.Options.defaults().withStderr(l -> { }));
        try (Connection c = pg.connect()) {
            TransactionOutcome out = r.runScript(c, 0);
            assertTrue(out.retryable() && out.command() == 1, String.valueOf(out.message()));
            assertTrue(r.retry(c, out).retryable());
        }
        for (Engine engine : Engine.values()) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            RunReport rep = new PgbenchRun().script("one", "SELECT 1;\n").script("two", "SELECT 2;\n").clients(2).transactions(5)
                    .maxTries(3).verboseErrors(true).perStatement(true).mode(QueryMode.PREPARED).warmup(2000).engine(engine)
                    .output(null, new PrintStream(err, true, StandardCharsets.UTF_8)).run(pg);
            String said = err.toString(StandardCharsets.UTF_8);
            assertEquals(10, rep.processed(), engine + ": " + said);
            assertEquals(0, rep.failed() + rep.retried() + rep.retries(), engine + ": " + said);
            assertTrue(rep.scripts().stream().flatMap(s -> s.commands().stream()).allMatch(c -> c.failures() == 0 && c.retries() == 0),
                    engine + ": " + rep.scripts());
            assertTrue(!said.contains("got an error") && !said.contains("kensho warm-up"), engine + ": " + said);
        }
    }
}
