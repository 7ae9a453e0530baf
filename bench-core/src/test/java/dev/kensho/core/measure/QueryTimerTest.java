package dev.kensho.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import java.sql.Connection;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** What the timed run of a query is: the plan's parallel workers launched, every row received, any statement timed. */
@KenshoTarget
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryTimerTest {
    private static final Pattern LAUNCHED = Pattern.compile("Workers Launched: (\\d+)");

    @BeforeAll
    void table(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS kensho_timer_t");
            s.execute("CREATE TABLE kensho_timer_t AS SELECT g AS x, md5(g::text) AS t FROM generate_series(1, 200000) g");
            s.execute("ANALYZE kensho_timer_t");
        }
    }

    @AfterAll
    void drop(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS kensho_timer_t");
        }
    }

    /**
     * The timed run itself launches the parallel workers its plan has (auto_explain says what each run did). Through
     * a cursor (a fetch size) PostgreSQL runs the same plan with none: every parallel-query measurement timed the
     * serial plan while the EXPLAIN beside it reported the workers.
     */
    @Test
    void theTimedRunLaunchesTheParallelWorkersOfItsPlan(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; "
                    + "SET min_parallel_table_scan_size = 0");
            s.execute("LOAD 'auto_explain'");
            s.execute("SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_level = notice");
            String q = "SELECT count(*), max(t) FROM kensho_timer_t WHERE x % 7 = 0";
            c.clearWarnings();
            QueryTimer.Timing streamed = QueryTimer.time(c, q);
            assertEquals(1, streamed.rows());
            List<Integer> launched = launched(c);
            assertEquals(1, launched.size(), launched.toString());
            assertTrue(launched.get(0) >= 1, "the timed run launched no worker: " + launched);

            c.clearWarnings();
            QueryTimer.Timing cursor = QueryTimer.time(c, q, 100);
            assertEquals(1, cursor.rows());
            assertEquals(List.of(0), launched(c), "a cursor's plan runs without workers");
            c.clearWarnings();
        }
    }

    private static List<Integer> launched(Connection c) throws Exception {
        List<Integer> out = new ArrayList<>();
        for (SQLWarning w = c.getWarnings(); w != null; w = w.getNextWarning()) {
            Matcher m = LAUNCHED.matcher(String.valueOf(w.getMessage()));
            while (m.find()) out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }

    /** The time measured is the statement's, from execute to its last row, on every path: a query that sleeps takes that long. */
    @Test
    void theTimeCoversTheStatementToItsLastRow(Target pg) throws Exception {
        try (Connection c = pg.connect()) {
            // streamed as COPY, then through a cursor: four rows, each 0.1 s after the one before, each of 100 kB so that
            // the server sends it at once (not at the end, from its output buffer)
            for (int fetchSize : new int[] {QueryTimer.DEFAULT_FETCH_SIZE, 1}) {
                QueryTimer.Timing t = QueryTimer.time(c, "SELECT g, repeat('x', 100000), pg_sleep(0.1) FROM generate_series(1, 4) g", fetchSize);
                assertEquals(4, t.rows());
                assertTrue(t.millis() >= 400 && t.seconds() >= 0.4, "fetch size " + fetchSize + ": " + t.millis() + " ms");
            }
            // a statement without rows, which COPY cannot wrap
            QueryTimer.Timing plain = QueryTimer.time(c, "DO $$ BEGIN PERFORM pg_sleep(0.4); END $$");
            assertTrue(plain.millis() >= 400, plain.millis() + " ms");
        }
    }

    @Test
    void theClosingSemicolonGoesWithTheCommentsAfterIt() {
        assertEquals("select 1", QueryTimer.withoutTerminator("select 1; -- c"));
        assertEquals("select 1 ", QueryTimer.withoutTerminator("select 1 ; /* a */ -- b\n\n"));
        assertEquals("\n  select 'a;b' -- x;\n", QueryTimer.withoutTerminator("\n  select 'a;b' -- x;\n;"));
        assertEquals("select $$;$$", QueryTimer.withoutTerminator("select $$;$$;"));
        assertEquals("select 1 -- c", QueryTimer.withoutTerminator("select 1 -- c"), "no semicolon: as it is");
        assertEquals("select 1; select 2", QueryTimer.withoutTerminator("select 1; select 2;"), "the last one only");
        for (String none : new String[] {"", " ; ", "-- c", "/* a */ ; -- b\n"}) assertFalse(QueryTimer.holdsStatement(none), none);
        assertTrue(QueryTimer.holdsStatement("select '--' -- c"));
    }

    @Test
    void everyRowIsReceivedWhateverTheStatement(Target pg) throws Exception {
        try (Connection c = pg.connect()) {
            // a trailing comment, a semicolon: still one COPY (the comment would swallow ") TO STDOUT" on one line)
            QueryTimer.Timing t = QueryTimer.time(c, "SELECT x, t FROM kensho_timer_t WHERE x <= 1000 -- the first thousand\n;");
            assertEquals(1000, t.rows());
            assertTrue(t.bytes() >= 1000 * 33, "bytes " + t.bytes());
            assertTrue(t.firstRowNanos() <= t.elapsedNanos());
            assertEquals(3, QueryTimer.time(c, "/* c */ (VALUES (1), (2), (3))").rows());
            assertEquals(2, QueryTimer.time(c, "SELECT x FROM kensho_timer_t WHERE x <= 2; -- two", 64).rows(), "a cursor's one statement");
            assertEquals(1000, QueryTimer.time(c, "SELECT x FROM kensho_timer_t WHERE x <= 1000", 64).rows(), "through a cursor");
            // what COPY cannot wrap runs plainly
            assertEquals(1, QueryTimer.time(c, "SHOW work_mem").rows());
            assertEquals(10, QueryTimer.time(c, "UPDATE kensho_timer_t SET t = t WHERE x <= 10").rows(), "an update's row count");
        }
    }

    /**
     * COPY refuses a WITH whose statement writes without RETURNING and a SELECT … INTO, which start like queries: each
     * failed ("COPY query must have a RETURNING clause", "COPY (SELECT INTO) is not supported") where the javadoc and
     * bench query promise that such statements run plainly.
     */
    @Test
    void statementsCopyRefusesRunPlainlyWhateverTheirStart(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE kensho_timer_w (x int)");
            assertEquals(3, QueryTimer.time(c, "WITH v AS (SELECT 3) INSERT INTO kensho_timer_w SELECT g FROM generate_series(1, 3) g").rows());
            assertEquals(3, QueryTimer.time(c, "with v as (select 1) update kensho_timer_w set x = x + 1").rows());
            assertEquals(10, QueryTimer.time(c, "SELECT x INTO TEMP kensho_timer_into FROM kensho_timer_t WHERE x <= 10").rows());
            // still streamed as COPY: the write inside a CTE, a RETURNING, an INTO only in a literal or a subquery's comment
            assertEquals(2, QueryTimer.time(c, "WITH d AS (DELETE FROM kensho_timer_w WHERE x > 2 RETURNING x) SELECT * FROM d").rows());
            assertEquals(1, QueryTimer.time(c, "WITH u AS (SELECT 1) UPDATE kensho_timer_w SET x = 9 RETURNING x").rows());
            assertEquals(1, QueryTimer.time(c, "SELECT 'into', $q$ into $q$, (SELECT 1 /* into */)").rows());
        }
        assertTrue(QueryTimer.copyable("SELECT 'into', $q$ into $q$, (SELECT 1 /* into */)"));
        assertTrue(QueryTimer.copyable("WITH d AS (DELETE FROM t RETURNING x) SELECT * FROM d"));
        assertTrue(QueryTimer.copyable("(VALUES (1), (2))"));
        assertTrue(QueryTimer.copyable("SELECT * FROM t FOR UPDATE"));
    }

    /**
     * An error the server places in the statement is said at the statement's own line and column, on every path. The
     * one-line reason dropped pgjdbc's "Position:" line, and that position counted from the "COPY (" Kensho wraps the
     * statement in (6 more), so neither the reason nor --verbose pointed where psql's caret does.
     */
    @Test
    void anErrorIsPlacedAtTheStatementsOwnLineAndColumn(Target pg) throws Exception {
        try (Connection c = pg.connect()) {
            for (int fetchSize : new int[] {QueryTimer.DEFAULT_FETCH_SIZE, 10}) {
                assertEquals("ERROR: syntax error at or near \"t\" (line 1, column 14)", error(c, "select 1 frm t", fetchSize));
                assertEquals("ERROR: syntax error at or near \"t\" (line 3, column 14)", error(c, "\n-- two\nselect 1 frm t;", fetchSize));
                assertEquals("ERROR: column \"nope\" does not exist (line 2, column 3)", error(c, "  select x\n, nope from kensho_timer_t", fetchSize));
            }
            // COPY's own ") TO STDOUT" is not the statement's: what "select (1" lacks is its end, as psql says
            assertEquals("ERROR: syntax error at end of input (line 1, column 10)", error(c, "select (1", QueryTimer.DEFAULT_FETCH_SIZE));
            // a statement that runs plainly (not wrapped in COPY)
            assertEquals("ERROR: syntax error at or near \"t\" (line 1, column 33)", error(c, "update kensho_timer_t set x = 1 t", 0));
        }
    }

    private static String error(Connection c, String sql, int fetchSize) {
        try {
            QueryTimer.time(c, sql, fetchSize);
        } catch (java.sql.SQLException e) {
            assertEquals(e.getMessage().strip(), e.getMessage().strip().lines().findFirst().orElse(""), "one line");
            return e.getMessage();
        }
        throw new AssertionError("no error: " + sql);
    }

    /** A statement without rows through a cursor ran, then failed "No results were returned by the query". */
    @Test
    void aStatementWithoutRowsRunsWithAFetchSizeToo(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE kensho_timer_fetch (x int)");
            assertEquals(3, QueryTimer.time(c, "INSERT INTO kensho_timer_fetch SELECT generate_series(1, 3)", 100).rows());
            assertEquals(2, QueryTimer.time(c, "DELETE FROM kensho_timer_fetch WHERE x < 3", 100).rows());
            assertEquals(1, QueryTimer.time(c, "SELECT * FROM kensho_timer_fetch", 100).rows());
        }
    }

    /** What writes, in the server's plan or the statement's command; a query that only reads does not. */
    @Test
    void whatWritesIsToldFromWhatOnlyReads(Target pg) throws Exception {
        try (Connection c = pg.connect()) {
            assertEquals("INSERT", QueryTimer.writes(c, "insert into kensho_timer_t values (1)"));
            assertEquals("UPDATE", QueryTimer.writes(c, "WITH v AS (SELECT 1) UPDATE kensho_timer_t SET x = x RETURNING x;"));
            assertEquals("a data-modifying WITH", QueryTimer.writes(c, "with d as (delete from kensho_timer_t where x < 0 returning *) select * from d"));
            assertEquals("SELECT INTO", QueryTimer.writes(c, "SELECT x INTO TEMP kensho_timer_y FROM kensho_timer_t"));
            assertEquals("CREATE", QueryTimer.writes(c, "create table kensho_timer_z (x int)"));
            assertEquals("DO", QueryTimer.writes(c, "DO $$ BEGIN END $$"));
            for (String read : List.of("select * from kensho_timer_t", "with v as (select 1) select * from v", "SHOW work_mem", "(VALUES (1))",
                    "SELECT 'insert into x' /* delete */, x FROM kensho_timer_t FOR UPDATE", "explain select 1")) {
                assertEquals(null, QueryTimer.writes(c, read), read);
            }
            // a typo is the server's syntax error to name, not a write to warn of
            assertEquals(null, QueryTimer.writes(c, "selec 1"));
            assertEquals(null, QueryTimer.writes(c, "updte kensho_timer_t set x = 1"));
            assertEquals("TRUNCATE", QueryTimer.writes(c, "truncate kensho_timer_t"));
        }
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("select to_regclass('kensho_timer_z'), to_regclass('kensho_timer_y')")) {
            rs.next();
            assertEquals(null, rs.getString(1), "telling ran nothing");
            assertEquals(null, rs.getString(2), "telling ran nothing");
        }
    }

    @Test
    void laterStatementsAreFoundOutsideLiteralsAndComments() {
        assertEquals(List.of(), QueryTimer.laterStatements("select 1;"));
        assertEquals(List.of(), QueryTimer.laterStatements("select ';', $x$ ; $x$, \"a;b\", E'\\';' -- ;\n; /* ; */ \n"));
        assertEquals(List.of(10), QueryTimer.laterStatements("select 1; select 2"));
        assertEquals(List.of(21), QueryTimer.laterStatements("select a$b$ from t;\n select 2;"));
    }
}
