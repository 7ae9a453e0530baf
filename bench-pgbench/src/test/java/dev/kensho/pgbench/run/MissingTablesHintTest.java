package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.ScratchSchema;
import dev.kensho.core.server.Target;
import dev.kensho.junit.ChangesServer;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.PgbenchRun;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A harness that calls PgbenchRun.run on a database without pgbench's tables has no --init to add: the error names
 * the library's way to make them as well as the command line's.
 */
@KenshoTarget
@ChangesServer
class MissingTablesHintTest {

    @Test
    void aManagedServerWithoutTablesNamesPgbenchInit(Target pg) throws Exception {
        // an empty search_path hides tables another test made in the shared server
        pg.control().apply(Map.of("search_path", "pg_catalog"));
        KenshoException e = assertThrows(KenshoException.class,
                () -> new PgbenchRun().selectOnly().transactions(1).warmup(0).output(null, null).run(pg));
        assertTrue(e.getMessage().contains("pgbench_branches\" does not exist"), e.getMessage());
        assertTrue(e.getMessage().contains("add --init [-s SCALE]"), e.getMessage());
        assertTrue(e.getMessage().contains("from Java, run new PgbenchInit().run(target) on this Target first"), e.getMessage());
    }

    @Test
    void aRemoteServerWithoutTablesNamesPgbenchInit(@LocalPostgres Target local) throws Exception {
        local.control().apply(Map.of("search_path", "pg_catalog"));
        KenshoException e = assertThrows(KenshoException.class,
                () -> new PgbenchRun().selectOnly().transactions(1).warmup(0).output(null, null).run(local));
        assertTrue(e.getMessage().contains("(perhaps you need to do initialization (\"bench pgbench init\"; from Java, new PgbenchInit().run(target))"
                + " in database \"" + local.database() + "\")"), e.getMessage());
    }

    /** pgbench's second check: pgbench_branches alone gives a scale, but a builtin's first statement would abort every client. */
    @Test
    void branchesWithoutAccountsAreRefusedBeforeTheRun(@LocalPostgres Target local) throws Exception {
        try (ScratchSchema only = ScratchSchema.create(local, "branches_only",
                "CREATE TABLE {schema}.pgbench_branches (bid int, bbalance int, filler char(88))",
                "INSERT INTO {schema}.pgbench_branches VALUES (1, 0, NULL)")) {
            KenshoException e = assertThrows(KenshoException.class,
                    () -> new PgbenchRun().selectOnly().transactions(1).warmup(0).output(null, null).run(local));
            assertEquals("no pgbench_accounts table found in search_path (perhaps you need to do initialization (\"bench pgbench init\"; "
                    + "from Java, new PgbenchInit().run(target)) in database \"" + local.database() + "\")", e.getMessage());
        }
    }
}
