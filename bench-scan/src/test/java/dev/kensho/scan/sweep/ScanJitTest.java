package dev.kensho.scan.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.measure.Explain;
import dev.kensho.core.measure.ExplainResult;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.scan.Scan;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The study's enable_seqscan = off prices the full scan at 1e10, above every jit_*_above_cost: on a
 * server built with JIT (the machine's PostgreSQL 15) the scan would be compiled unless the session
 * turns jit off. A temporary table keeps the shared database untouched.
 */
@KenshoTarget
class ScanJitTest {

    @Test
    void theFullScanIsNotJitCompiled(@LocalPostgres Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            // without JIT on the server neither half could fail: skipped, with the reason
            org.junit.jupiter.api.Assumptions.assumeTrue(jitAvailable(s), pg.describe() + " has no JIT");
            s.execute("CREATE TEMP TABLE scan_jit (col01 char(30) NOT NULL, col02 char(139))");
            s.execute("INSERT INTO scan_jit SELECT lpad(g::text, 30, '0'), rpad('row', 139, '.') FROM generate_series(1, 2000) g");
            s.execute("ANALYZE scan_jit");
            String sql = ScanQuery.sql(Scan.FULL, "pg_temp.scan_jit", 2000, 50);

            ScanQuery.configure(c, 0);
            ExplainResult plan = Explain.plan(c, sql);
            assertNull(plan.jit(), "full scan JIT-compiled: " + plan.json());
            assertEquals("off", show(s, "jit"));
            assertNull(SelectivitySweep.planProblem(Scan.FULL, plan));
            assertEquals("off", ScanQuery.sessionSettings(0).get("jit"));

            // without jit = off the same plan is compiled here, and the plan check says so
            s.execute("SET jit = on");
            ExplainResult jitted = Explain.plan(c, sql);
            assertNotNull(jitted.jit(), "expected a JIT block with jit = on: " + jitted.json());
            String problem = SelectivitySweep.planProblem(Scan.FULL, jitted);
            assertNotNull(problem);
            assertTrue(problem.contains("JIT-compiled"), problem);
        }
    }

    private static boolean jitAvailable(Statement s) throws Exception {
        try (ResultSet rs = s.executeQuery("SELECT pg_jit_available()")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    private static String show(Statement s, String name) throws Exception {
        try (ResultSet rs = s.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
