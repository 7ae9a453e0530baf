package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.script.ClientScriptRunner;
import dev.kensho.pgbench.script.TransactionOutcome;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A --url's own {@code options} (libpq's and pgjdbc's startup parameter, as PGOPTIONS gives pgbench) and --set's
 * session settings reach the server together, through both engines. pgjdbc took the URL's options alone and dropped
 * every --set; the wire engine took the --set alone and dropped the URL's (a repeatable-read run was read committed),
 * logged in as application "kensho" whatever the URL's ApplicationName said, and with the default search_path
 * whatever its currentSchema said.
 */
@KenshoTarget
class UrlOptionsTest {
    private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test"
            + "?options=-c%20statement_timeout%3D4321%20-c%20default_transaction_isolation%3Drepeatable%5C%20read"
            + "&ApplicationName=kx%20url%20test&currentSchema=kx_url_schema,public";

    private static String show(Connection c, String name) throws Exception {
        try (c; Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static ClientScriptRunner wire(Target pg) throws Exception {
        ClientScriptRunner r = WireConnectionTest.runner("""
                select current_setting('statement_timeout') as st, current_setting('default_transaction_isolation') as iso,
                       current_setting('lock_timeout') as lt, replace(current_setting('application_name'), ' ', '_') as app,
                       current_setting('search_path') as sp \\gset
                """, QueryMode.EXTENDED);
        try (WireConnection w = WireConnection.open(pg.wireLogin(), QueryMode.EXTENDED)) {
            TransactionOutcome out = WireConnectionTest.run(w, r);
            assertTrue(out.ok(), String.valueOf(out.message()));
        }
        return r;
    }

    @Test
    void theUrlsOptionsAndTheSetsReachBothEngines(@LocalPostgres(url = URL) Target pg) throws Exception {
        assertEquals("4321ms", show(pg.connect(), "statement_timeout"));
        ClientScriptRunner r = wire(pg);
        assertEquals("4321ms", r.variables().text("st"), "the wire engine sends the URL's options, as libpq");
        assertEquals("repeatable read", r.variables().text("iso"));
        assertEquals("kx_url_test", r.variables().text("app"), "the URL's ApplicationName, as pgjdbc sends it");
        assertEquals("kx url test", show(pg.connect(), "application_name"));
        assertEquals("kx_url_schema,public", r.variables().text("sp"), "the URL's currentSchema, as pgjdbc sends it");
        assertEquals("kx_url_schema,public", show(pg.connect(), "search_path"));

        pg.control().apply(Map.of("lock_timeout", "1234"));
        assertEquals("1234ms", show(pg.connect(), "lock_timeout"), "pgjdbc keeps --set beside the URL's options");
        assertEquals("4321ms", show(pg.connect(), "statement_timeout"));
        r = wire(pg);
        assertEquals("1234ms", r.variables().text("lt"));
        assertEquals("4321ms", r.variables().text("st"));
        // what the run records as its target is still the URL as given
        assertTrue(pg.jdbcUrl().contains("options="), pg.jdbcUrl());
    }
    /**
     * pgjdbc's multi-host URL: the run crashed before its clients with "UnresolvedAddressException: null", the wire
     * engine's libpq-like login having taken "127.0.0.1,127.0.0.2" for one host. Now the pgjdbc engine runs it, and
     * --engine wire says it cannot and runs it on pgjdbc.
     */
    @Test
    void aMultiHostUrlRunsOnPgjdbc(@LocalPostgres(url = "jdbc:postgresql://127.0.0.1,127.0.0.2:5432/test") Target pg) throws Exception {
        for (dev.kensho.pgbench.Engine engine : dev.kensho.pgbench.Engine.values()) {
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            dev.kensho.pgbench.RunReport r = new dev.kensho.pgbench.PgbenchRun().script("one", "SELECT 1;\n").transactions(3).warmup(0)
                    .engine(engine).output(null, new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)).run(pg);
            String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(3, r.processed(), said);
            assertEquals(dev.kensho.pgbench.Engine.PGJDBC, r.engine());
            if (engine == dev.kensho.pgbench.Engine.WIRE) {
                assertTrue(said.contains("warning: --engine wire: the URL names several hosts, which only pgjdbc tries in turn;"), said);
            }
        }
    }
}
