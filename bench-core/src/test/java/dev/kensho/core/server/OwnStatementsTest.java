package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.junit.KenshoTarget;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Kensho's own statements run without the session's timeouts, for their transaction only. */
@KenshoTarget
class OwnStatementsTest {

    @Test
    void theTimeoutsAreOffForTheWorkOnlyAndComeBackAfter(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("SET statement_timeout = '20ms'");
            s.execute("SET idle_in_transaction_session_timeout = '20ms'");
            SQLException bounded = assertThrows(SQLException.class, () -> s.execute("SELECT pg_sleep(0.2)"));
            assertEquals("57014", bounded.getSQLState(), bounded.getMessage());
            // a statement past the timeout, and a pause between two past the idle one: both within Kensho's own work
            String slept = OwnStatements.run(c, own -> {
                own.execute("SELECT pg_sleep(0.2)");
                for (long until = System.nanoTime() + 200_000_000L; System.nanoTime() < until; ) {
                    java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
                }
                try (ResultSet rs = own.executeQuery("SHOW statement_timeout")) {
                    rs.next();
                    return rs.getString(1);
                }
            });
            assertEquals("0", slept);
            assertTrue(c.getAutoCommit());
            try (ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
                rs.next();
                assertEquals("20ms", rs.getString(1), "the session's own timeout is back");
            }
            // a failing work is rolled back and thrown; the connection goes on in autocommit
            s.execute("CREATE TEMP TABLE own_statements_t (x int)");
            SQLException failed = assertThrows(SQLException.class, () -> OwnStatements.run(c, own -> {
                own.execute("INSERT INTO own_statements_t VALUES (1)");
                return own.execute("SELECT 1/0");
            }));
            assertEquals("22012", failed.getSQLState(), failed.getMessage());
            assertTrue(c.getAutoCommit());
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM own_statements_t")) {
                rs.next();
                assertEquals(0, rs.getInt(1));
            }
        }
    }
}
