package dev.kensho.pgbench.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.PlainRole;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.PgbenchInit;
import org.junit.jupiter.api.Test;

/** pgbench init as a role that may not create tables in public (PostgreSQL 15's default for all but the database owner). */
@KenshoTarget
class PlainRoleInitTest {

    @Test
    void aSchemaTheRoleMayNotCreateInIsSaidWithTheGrant(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "init")) {
            // public owned by someone else, as in a database the role does not own
            role.asSuperuser("ALTER SCHEMA public OWNER TO " + pg.user());
            KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).log(null).run(role.target()));
            assertEquals("pgbench init failed: ERROR: permission denied for schema public (role " + role.name()
                    + " may not create tables in schema public: GRANT CREATE ON SCHEMA public TO " + role.name()
                    + ", or use a database the role owns)", e.getMessage());
        }
    }
}
