package dev.kensho.pgbench.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.PgbenchInit;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** pgbench prints a refused statement's HINT and "Query was: ..." on lines of their own; Kensho's one line keeps both. */
@KenshoTarget
class InitErrorTextTest {

    @Test
    void aRefusedStatementIsNamedWithTheServersHint(@LocalPostgres Target local) throws Exception {
        String schema = "kensho_test_accounts_view";   // its own schema: the database's pgbench tables stay as they are
        try (Connection c = local.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            s.execute("CREATE SCHEMA " + schema);
            s.execute("CREATE VIEW " + schema + ".pgbench_accounts AS SELECT 1 AS aid");
        }
        try {
            local.control().apply(Map.of("search_path", schema));
            KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchInit().steps("d").log(null).run(local));
            assertEquals("pgbench init failed: ERROR: \"pgbench_accounts\" is not a table (HINT: Use DROP VIEW to remove a view.); "
                    + "query was: drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers", e.getMessage());
        } finally {
            try (Connection c = local.connect(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }
}
