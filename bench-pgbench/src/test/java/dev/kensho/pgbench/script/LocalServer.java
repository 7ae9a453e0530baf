package dev.kensho.pgbench.script;

import dev.kensho.pgbench.QueryMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;

/** The Debian PostgreSQL 15 on 127.0.0.1:5432 (database test) and its pgbench, which tests skip without. */
final class LocalServer {
    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
    static final Path PGBENCH = Path.of("/usr/lib/postgresql/15/bin/pgbench");
    private static volatile String unreachable;
    private static volatile boolean probed;

    private LocalServer() {
    }

    static Connection connect(QueryMode mode) throws SQLException {
        Properties p = mode.connectionProperties();
        p.setProperty("user", "postgres");
        p.setProperty("connectTimeout", "3");
        return DriverManager.getConnection(URL, p);
    }

    /** Skips the calling test, with the reason, when no server answers on 127.0.0.1:5432. */
    static void assumeReachable() {
        if (!probed) {
            try (Connection c = connect(QueryMode.SIMPLE)) {
                unreachable = null;
            } catch (SQLException e) {
                unreachable = e.getMessage();
            }
            probed = true;
        }
        Assumptions.assumeTrue(unreachable == null, () -> "no PostgreSQL on 127.0.0.1:5432: " + unreachable);
    }

    static void assumePgbench() {
        assumeReachable();
        Assumptions.assumeTrue(Files.isExecutable(PGBENCH), "no C pgbench at " + PGBENCH);
    }
}
