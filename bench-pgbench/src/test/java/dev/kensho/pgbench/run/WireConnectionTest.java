package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.core.server.WireLogin;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.script.ClientScriptRunner.Step;
import dev.kensho.pgbench.script.ClientScriptRunner;
import dev.kensho.pgbench.script.PgbenchRandom;
import dev.kensho.pgbench.script.Script;
import dev.kensho.pgbench.script.TransactionOutcome;
import dev.kensho.pgbench.script.Variables;
import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Kensho's own protocol client against a real server: every -M mode, results into variables, errors, logins. */
@KenshoTarget
class WireConnectionTest {

    static ClientScriptRunner runner(String script, QueryMode mode) throws Exception {
        Variables v = new Variables();
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(5432, 1, 1);
        v.standard(1, 0, 5432, seeds.defaultSeed());
        return new ClientScriptRunner(List.of(Script.parse("t.sql", script)), 0, v, seeds.clients()[0], mode,
                ClientScriptRunner.Options.defaults());
    }

    /** Runs script 0 to the end on the connection, waiting for each answer (a test has no selector). */
    static TransactionOutcome run(WireConnection w, ClientScriptRunner r) throws IOException {
        Step s = r.begin(0);
        while (s != Step.DONE) {
            if (s == Step.SLEEP) {
                s = r.slept(0);
                continue;
            }
            if (s == Step.PIPELINE && !w.pipe(r)) {
                s = r.piped();
                continue;
            }
            if (s == Step.SQL) w.send(r);
            Step next;
            while ((next = w.read()) == null) LockSupport.parkNanos(100_000);
            s = next;
        }
        return r.outcome();
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void runsCommandsAndStoresResults(QueryMode mode, Target pg) throws Exception {
        ClientScriptRunner r = runner("""
                \\set x 40
                select :x + 2 as answer, 'a' || 'b' as text, null as nothing \\gset
                select generate_series(1, 3) as last \\aset
                select 1 where false
                """, mode);
        try (WireConnection w = WireConnection.open(pg.wireLogin(), mode)) {
            for (int i = 0; i < 3; i++) {   // prepared: the second time only binds
                TransactionOutcome out = run(w, r);
                assertTrue(out.ok(), String.valueOf(out.message()));
                assertEquals("42", r.variables().text("answer"));
                assertEquals("ab", r.variables().text("text"));
                assertEquals("", r.variables().text("nothing"));
                assertEquals("3", r.variables().text("last"));
            }
            assertFalse(w.inTransaction());
        }
    }

    /** A compound query (simple mode only): \aset takes every result's last row, \gset the last result's one row. */
    @Test
    void compoundQueriesStoreAsPgbenchDoes(Target pg) throws Exception {
        ClientScriptRunner r = runner("""
                select 1 as a \\; select 2 as b \\; select 3 as c where false \\aset
                select 4 as d \\; select 5 as e \\gset
                """, QueryMode.SIMPLE);
        try (WireConnection w = WireConnection.open(pg.wireLogin(), QueryMode.SIMPLE)) {
            TransactionOutcome out = run(w, r);
            assertTrue(out.ok(), String.valueOf(out.message()));
            assertEquals("1", r.variables().text("a"));
            assertEquals("2", r.variables().text("b"));
            assertEquals(null, r.variables().text("c"), "an empty result assigns nothing");
            assertEquals(null, r.variables().text("d"), "\\gset looks at the last result only");
            assertEquals("5", r.variables().text("e"));
        }
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void errorsCarryTheirSqlstateAndEndTheTransactionBlock(QueryMode mode, Target pg) throws Exception {
        ClientScriptRunner r = runner("""
                begin;
                select 1/0;
                end;
                """, mode);
        try (WireConnection w = WireConnection.open(pg.wireLogin(), mode)) {
            TransactionOutcome out = run(w, r);
            assertEquals(TransactionOutcome.Status.SQL_ERROR, out.status());
            assertEquals("22012", out.sqlState());
            assertTrue(out.message().contains("division by zero"), out.message());
            assertFalse(w.inTransaction(), "ROLLBACK sent after the error");
            ClientScriptRunner ok = runner("select 1 as one \\gset", mode);
            assertTrue(run(w, ok).ok(), "the connection goes on");
        }
    }

    @Test
    void endOfScriptInsideATransactionBlockIsReported(Target pg) throws Exception {
        try (WireConnection w = WireConnection.open(pg.wireLogin(), QueryMode.PREPARED)) {
            TransactionOutcome out = run(w, runner("begin;\nselect 1;\n", QueryMode.PREPARED));
            assertEquals(TransactionOutcome.Status.END_IN_TRANSACTION, out.status());
        }
    }

    /** SCRAM-SHA-256, md5 and cleartext logins as the server asks for them (pg_hba.conf), right and wrong passwords. */
    @Test
    void passwordLoginsAndTheirFailures(Target pg) throws Exception {
        java.nio.file.Path hba = pg.control().dataDirectory().orElseThrow().resolve("pg_hba.conf");
        String before = java.nio.file.Files.readString(hba);
        String[][] roles = {{"kensho_wire_scram", "scram-sha-256", "scram-sha-256"}, {"kensho_wire_md5", "md5", "md5"},
                {"kensho_wire_clear", "scram-sha-256", "password"}};
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            StringBuilder lines = new StringBuilder();
            for (String[] r : roles) {
                s.execute("set password_encryption = '" + r[1] + "'");
                s.execute("drop role if exists " + r[0]);
                s.execute("create role " + r[0] + " login password 'sEcret-" + r[0] + "'");
                lines.append("host all ").append(r[0]).append(" 127.0.0.1/32 ").append(r[2]).append('\n');
            }
            java.nio.file.Files.writeString(hba, lines + before);
            dev.kensho.core.server.ConfReload.reloadAndWait(pg);
            WireLogin base = pg.wireLogin();
            for (String[] r : roles) {
                WireLogin good = new WireLogin("127.0.0.1", base.port(), base.database(), r[0], "sEcret-" + r[0], Map.of(), "prefer");
                try (WireConnection w = WireConnection.open(good, QueryMode.SIMPLE)) {
                    ClientScriptRunner who = runner("select current_user as who \\gset", QueryMode.SIMPLE);
                    assertTrue(run(w, who).ok(), r[2]);
                    assertEquals(r[0], who.variables().text("who"), r[2]);
                }
                assertFalse(good.toString().contains("sEcret"), "a login never prints its password");
                WireLogin bad = new WireLogin("127.0.0.1", base.port(), base.database(), r[0], "wrong", Map.of(), "prefer");
                WireConnection.LoginRefused e = assertThrows(WireConnection.LoginRefused.class, () -> WireConnection.open(bad, QueryMode.SIMPLE));
                assertEquals("28P01", e.sqlState, r[2] + ": " + e.getMessage());
                WireLogin none = new WireLogin("127.0.0.1", base.port(), base.database(), r[0], null, Map.of(), "prefer");
                e = assertThrows(WireConnection.LoginRefused.class, () -> WireConnection.open(none, QueryMode.SIMPLE));
                assertTrue(e.getMessage().contains("none was given"), e.getMessage());
            }
            WireLogin noDb = new WireLogin("127.0.0.1", base.port(), "kensho_no_such_db", roles[0][0], "sEcret-" + roles[0][0], Map.of(), "prefer");
            WireConnection.LoginRefused e = assertThrows(WireConnection.LoginRefused.class, () -> WireConnection.open(noDb, QueryMode.SIMPLE));
            assertEquals("3D000", e.sqlState);
            WireLogin tls = new WireLogin("127.0.0.1", base.port(), base.database(), roles[0][0], "x", Map.of(), "require");
            e = assertThrows(WireConnection.LoginRefused.class, () -> WireConnection.open(tls, QueryMode.SIMPLE));
            assertTrue(e.getMessage().contains("SSL was required"), e.getMessage());
        } finally {
            java.nio.file.Files.writeString(hba, before);
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("select pg_reload_conf()");
                for (String[] r : roles) s.execute("drop role if exists " + r[0]);
            }
        }
    }

    /**
     * No client_encoding in the login, as libpq: on an EUC_JP database the session stays EUC_JP (the server converts
     * nothing, as for pgbench) and Japanese text crosses both ways in that encoding.
     */
    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void theDatabasesEncodingIsTheSessions(QueryMode mode, Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop database if exists kensho_wire_eucjp");
            s.execute("create database kensho_wire_eucjp encoding 'EUC_JP' lc_collate 'C' lc_ctype 'C' template template0");
        }
        try {
            WireLogin l = pg.wireLogin();
            WireLogin euc = new WireLogin(l.host(), l.port(), "kensho_wire_eucjp", l.user(), l.password(), l.startupParameters(), l.sslMode());
            // simple mode substitutes :word into the text; the other modes bind it as a parameter
            String word = mode == QueryMode.SIMPLE ? "'検証'::text" : ":word::text";
            ClientScriptRunner r = runner("select current_setting('client_encoding') as enc, length(" + word + ") as len, '性能' || "
                    + word + " as both_words \\gset\n", mode);
            r.variables().define("word=" + (mode == QueryMode.SIMPLE ? "unused" : "検証"));
            try (WireConnection w = WireConnection.open(euc, mode)) {
                TransactionOutcome out = run(w, r);
                assertTrue(out.ok(), String.valueOf(out.message()));
                assertEquals("EUC_JP", r.variables().text("enc"));
                assertEquals("2", r.variables().text("len"));
                assertEquals("性能検証", r.variables().text("both_words"));
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop database if exists kensho_wire_eucjp");
            }
        }
    }

    /** Every encoding the wire engine maps has its charset in this JDK; one it cannot map sends the run to pgjdbc. */
    @Test
    void encodingsMapToJavaCharsets() throws Exception {
        for (String pg : List.of("UTF8", "SQL_ASCII", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN7", "LATIN9",
                "ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "KOI8R", "KOI8U",
                "WIN866", "WIN874", "WIN1250", "WIN1251", "WIN1252", "WIN1253", "WIN1254", "WIN1255", "WIN1256", "WIN1257", "WIN1258")) {
            assertTrue(WireConnection.javaCharset(pg).canEncode(), pg);
        }
        assertEquals("EUC-JP", WireConnection.javaCharset("euc_jp").name());
        assertThrows(WireConnection.Unsupported.class, () -> WireConnection.javaCharset("MULE_INTERNAL"));
    }

    /** A URL asking for what only pgjdbc does (a client certificate) sends the run to pgjdbc before any connection. */
    @Test
    void aLoginOnlyPgjdbcCanDoIsRefusedBeforeConnecting() {
        WireLogin l = new WireLogin("127.0.0.1", 1, "x", "u", null, Map.of(), "require", "the URL sets sslcert, which only pgjdbc uses");
        WireConnection.Unsupported e = assertThrows(WireConnection.Unsupported.class, () -> WireConnection.open(l, QueryMode.EXTENDED));
        assertEquals("the URL sets sslcert, which only pgjdbc uses", e.getMessage());
    }

    /**
     * A login to a server that accepts and never answers ends after the login's timeout (libpq's connect_timeout,
     * which the URL's connect_timeout or PGCONNECT_TIMEOUT gives): the wire engine's waited for ever, past -T.
     */
    @Test
    void aLoginNobodyAnswersEndsAfterItsTimeout() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                List<java.net.Socket> held = new ArrayList<>();
                try {
                    while (true) held.add(silent.accept());
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            WireLogin l = new WireLogin("127.0.0.1", silent.getLocalPort(), "x", "u", null, Map.of(), "prefer", null, 2);
            long start = System.nanoTime();
            IOException e = assertThrows(IOException.class, () -> WireConnection.open(l, QueryMode.PREPARED));
            assertEquals("timeout expired (the login took longer than its 2 s)", e.getMessage());
            assertTrue(System.nanoTime() - start < 20_000_000_000L, "ended by the timeout");
        }
    }
}
