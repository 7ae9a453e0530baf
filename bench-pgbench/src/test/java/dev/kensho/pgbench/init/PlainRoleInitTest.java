package dev.kensho.pgbench.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.PlainRole;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.PgbenchInit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** pgbench init as a role that may not create tables in public (PostgreSQL 15's default for all but the database owner). */
@KenshoTarget
class PlainRoleInitTest {

    /**
     * A role that may not create tables in the schema they go to: refused before any step. pgbench (and Kensho) dropped
     * the tables first, a table the role owned among them, then failed at the create with the tables lost.
     */
    @Test
    void aSchemaTheRoleMayNotCreateInIsSaidWithTheGrantBeforeAnyDrop(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "init")) {
            // public owned by someone else, as in a database the role does not own; a history table of the role's there
            role.asSuperuser("ALTER SCHEMA public OWNER TO " + pg.user());
            role.asSuperuser("CREATE TABLE public.pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))");
            role.asSuperuser("ALTER TABLE public.pgbench_history OWNER TO " + role.name());
            KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).log(null).run(role.target()));
            assertEquals("pgbench init: role " + role.name() + " may not create tables in schema public: GRANT CREATE ON SCHEMA public TO "
                    + role.name() + ", or use a database the role owns (nothing was dropped)", e.getMessage());
            assertEquals(KenshoException.TARGET, e.exitCode());
            try (java.sql.Connection c = role.target().connect(); java.sql.Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("select to_regclass('public.pgbench_history') is not null")) {
                rs.next();
                assertTrue(rs.getBoolean(1), "the role's pgbench_history is still there");
            }
        }
    }

    /** The GRANT said is one to paste into psql: a schema named as a keyword ("select") is quoted, as quote_ident() does. */
    @Test
    void theGrantQuotesANameThatNeedsIt(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "initq")) {
            role.asSuperuser("CREATE SCHEMA \"select\" AUTHORIZATION " + pg.user());
            role.asSuperuser("GRANT USAGE ON SCHEMA \"select\" TO " + role.name());
            role.asSuperuser("ALTER ROLE " + role.name() + " SET search_path = \"select\"");
            KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).log(null).run(role.target()));
            assertEquals("pgbench init: role " + role.name() + " may not create tables in schema select: GRANT CREATE ON SCHEMA \"select\" TO "
                    + role.name() + ", or use a database the role owns (nothing was dropped)", e.getMessage());
        }
    }

    /**
     * -I gv on tables someone else owns (granted what the load needs): the server's "skipping ... only table or
     * database owner can vacuum it" is a WARNING, and pgbench prints it as one; Kensho printed every notice as NOTICE.
     */
    @Test
    void theVacuumsWarningsAreSaidAsWarnings(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "initvac");
             Target admin = new dev.kensho.core.server.TargetSpec().url(role.target().jdbcUrl()).user(pg.user()).open()) {
            new PgbenchInit().scale(1).steps("dt").log(null).run(admin);
            role.asSuperuser("GRANT SELECT, INSERT, TRUNCATE ON ALL TABLES IN SCHEMA public TO " + role.name());
            role.asSuperuser("ALTER DATABASE " + role.name() + " OWNER TO " + pg.user());   // a database owner may vacuum all
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            new PgbenchInit().scale(1).steps("gv").log(new PrintStream(err, true, StandardCharsets.UTF_8)).run(role.target());
            String said = err.toString(StandardCharsets.UTF_8);
            // 15 says "skipping "pgbench_accounts" --- only table or database owner can vacuum it", 16 on otherwise
            assertTrue(said.lines().anyMatch(l -> l.startsWith("WARNING:  ") && l.contains("\"pgbench_accounts\"")), said);
            assertTrue(said.lines().noneMatch(l -> l.startsWith("NOTICE:  ") && l.contains("\"pgbench_accounts\"")), said);
        }
    }
}
