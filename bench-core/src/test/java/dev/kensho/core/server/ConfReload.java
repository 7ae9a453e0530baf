package dev.kensho.core.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;

/**
 * pg_reload_conf() for tests that change pg_hba.conf or postgresql.auto.conf, and then the wait until it took effect:
 * a new backend inherits the postmaster's reload time, so one whose pg_conf_load_time() is later than before was
 * started under the new configuration. A fixed sleep was a race on a loaded machine.
 */
public final class ConfReload {
    private ConfReload() {}

    public static void reloadAndWait(Target pg) throws SQLException, InterruptedException {
        Timestamp before = loadTime(pg);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_reload_conf()");
        }
        long giveUp = System.nanoTime() + 10_000_000_000L;
        while (!loadTime(pg).after(before)) {
            if (System.nanoTime() > giveUp) throw new AssertionError("the server did not reload its configuration within 10 s");
            Thread.sleep(10);
        }
    }

    private static Timestamp loadTime(Target pg) throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_conf_load_time()")) {
            rs.next();
            return rs.getTimestamp(1);
        }
    }
}
