package dev.kensho.pgbench.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.ScratchSchema;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.PgbenchInit;
import org.junit.jupiter.api.Test;

/** pgbench prints a refused statement's HINT and "Query was: ..." on lines of their own; Kensho's one line keeps both. */
@KenshoTarget
class InitErrorTextTest {

    @Test
    void aRefusedStatementIsNamedWithTheServersHint(@LocalPostgres Target local) throws Exception {
        try (ScratchSchema view = ScratchSchema.create(local, "accounts_view", "CREATE VIEW {schema}.pgbench_accounts AS SELECT 1 AS aid")) {
            KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchInit().steps("d").log(null).run(local));
            assertEquals("pgbench init failed: ERROR: \"pgbench_accounts\" is not a table (HINT: Use DROP VIEW to remove a view.); "
                    + "query was: drop table if exists kensho_test_accounts_view.pgbench_accounts, kensho_test_accounts_view.pgbench_branches, "
                    + "kensho_test_accounts_view.pgbench_history, kensho_test_accounts_view.pgbench_tellers", e.getMessage());
        }
    }

    /** The DETAIL names what is in the way (pgbench prints it on a line of its own): it had been dropped. */
    @Test
    void theServersDetailIsKept(@LocalPostgres Target local) throws Exception {
        try (ScratchSchema s = ScratchSchema.create(local, "detail", "CREATE TABLE {schema}.pgbench_accounts (aid int, bid int, abalance int, filler char(84))",
                "CREATE VIEW {schema}.hh_v AS SELECT aid FROM {schema}.pgbench_accounts")) {
            KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchInit().steps("d").log(null).run(local));
            assertEquals("pgbench init failed: ERROR: cannot drop table pgbench_accounts because other objects depend on it"
                    + " (DETAIL: view hh_v depends on table pgbench_accounts; HINT: Use DROP ... CASCADE"
                    + " to drop the dependent objects too.); query was: drop table if exists kensho_test_detail.pgbench_accounts,"
                    + " kensho_test_detail.pgbench_branches, kensho_test_detail.pgbench_history, kensho_test_detail.pgbench_tellers", e.getMessage());
        }
    }
}
