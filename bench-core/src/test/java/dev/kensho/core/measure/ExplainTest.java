package dev.kensho.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

@KenshoTarget
class ExplainTest {

    @Test
    void parallelPlanReportsPlannedAndLaunchedWorkers(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS explain_t AS SELECT g AS x FROM generate_series(1, 200000) g");
            s.execute("ANALYZE explain_t");
            s.execute("SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; "
                    + "SET min_parallel_table_scan_size = 0");
            ExplainResult r = Explain.analyze(c, "SELECT count(*) FROM explain_t");
            assertEquals(1, r.gathers().size(), r.nodeTypes().toString());
            assertEquals(2, r.workersPlanned());
            assertTrue(r.workersLaunched() >= 0 && r.workersLaunched() <= 2);
            assertTrue(r.executionMs() > 0);
            assertNull(r.jit(), "embedded binaries have no JIT");
            // the execution time is the server's "Execution Time": a statement that sleeps 0.2 s took at least that
            assertTrue(Explain.analyze(c, "SELECT pg_sleep(0.2)").executionMs() >= 200);
            Prewarm.Result p = Prewarm.tables(c, java.util.List.of("explain_t"));
            assertTrue(p.blocks() > 0);
            s.execute("DROP TABLE explain_t");
        }
    }

    /** A statement as a user's file ends it: the semicolon and a comment after it made EXPLAIN two statements. */
    @Test
    void aClosingSemicolonAndCommentsAfterItAreNoSecondStatement(Target pg) throws Exception {
        try (Connection c = pg.connect()) {
            assertTrue(Explain.analyze(c, "SELECT pg_sleep(0.01); -- the note").executionMs() >= 10);
            assertTrue(Explain.analyze(c, "SELECT 1 AS x;\n/* the end */\n").nodeTypes().contains("Result"));
            assertTrue(Explain.plan(c, "SELECT ';' AS x ; -- c").nodeTypes().contains("Result"));
        }
    }

    @Test
    void jitTimingsFromAJitServer(@LocalPostgres Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            var rs = s.executeQuery("SELECT pg_jit_available()");
            rs.next();
            org.junit.jupiter.api.Assumptions.assumeTrue(rs.getBoolean(1), "server at 127.0.0.1:5432 has no JIT");
            s.execute("SET jit = on; SET jit_above_cost = 0; SET jit_optimize_above_cost = 0; SET jit_inline_above_cost = 0; "
                    + "SET max_parallel_workers_per_gather = 0");
            ExplainResult r = Explain.analyze(c, "SELECT sum(g * 2) FROM generate_series(1, 10000) g");
            assertNotNull(r.jit());
            assertTrue(r.jit().functions() > 0);
            assertTrue(r.jit().totalMs() > 0);
            assertTrue(r.jit().optimization());
            assertFalse(r.gathers().iterator().hasNext());
        }
    }
}
