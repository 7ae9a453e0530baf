package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The wire engine on a non-UTF8 database sends the script's text in the database's encoding, as pgbench sends a
 * file's bytes; where Java's charset would send other bytes than the server's conversion, the text stored was not the
 * script's ("～" became "?" on EUC_JP, and 〜 a character UTF8 clients could not read back).
 */
@KenshoTarget
class WireEncodingTest {

    @Test
    void textJavasCharsetWouldChangeGoesAsUtf8(Target pg, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        try (Target euc = wordsDatabase(pg, "kensho_wire_text", "EUC_JP")) {
            // U+FF5E: the server's EUC_JP has it (0xA1C1), Java's EUC-JP does not and wrote "?"
            assertEquals("1 検証 EUC_JP, 2 ～ UTF8", kanjiThenOther(euc, "words", "～"));
            // recorded, it is noted in run.json beside the numbers it changed (it was said on stderr only)
            try (dev.kensho.core.result.RunDirectory dir = dev.kensho.core.result.RunDirectory.create(tmp.resolve("run"),
                    dev.kensho.core.result.RunInfo.of("pgbench run", java.util.List.of(), java.util.Map.of()))) {
                new PgbenchRun().script("words", "insert into words values (4, '～', current_setting('client_encoding'));\n").engine(Engine.WIRE)
                        .clients(1).threads(1).transactions(1).noVacuum(true).warmup(0)
                        .output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).runAndRecord(euc, dir);
                assertTrue(dir.info().notes().stream().anyMatch(n -> n.startsWith("--engine wire: words:1 holds text that Java's EUC-JP")),
                        dir.info().notes().toString());
            }
            // a sweep says it once and notes it in run.json: it had gone nowhere, the trials measured over UTF8 unsaid
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            try (dev.kensho.core.result.RunDirectory dir = dev.kensho.core.result.RunDirectory.create(tmp,
                    dev.kensho.core.result.RunInfo.of("pgbench sweep", java.util.List.of(), java.util.Map.of()))) {
                new dev.kensho.pgbench.ClientSweep().script("words", "insert into words values (3, '～', current_setting('client_encoding'));\n")
                        .engine(Engine.WIRE).scale(1).clients(java.util.List.of(1)).repeats(2).seconds(1).warmup(0).noVacuum(true).prewarm(false)
                        .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(java.util.Map.of("euc", euc), dir);
                String said = log.toString(StandardCharsets.UTF_8);
                String note = "euc: --engine wire: words:1 holds text that Java's EUC-JP would send otherwise than the server's EUC_JP conversion";
                assertEquals(1, said.lines().filter(l -> l.startsWith(note)).count(), said);
                assertTrue(dir.info().notes().stream().anyMatch(n -> n.startsWith(note)), dir.info().notes().toString());
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop database if exists kensho_wire_text");
            }
        }
    }

    /**
     * A SQL_ASCII database converts nothing: a script's non-ASCII text is sent as UTF8, stored as pgbench stores its
     * file's bytes, and the session being UTF8 is said (it was silent, though the server then refuses text that is not
     * UTF-8, which pgbench sends as it is).
     */
    @Test
    void aSqlAsciiDatabaseGetsTheScriptsUtf8AndIsToldTheSessionIsUtf8(Target pg) throws Exception {
        try (Target ascii = wordsDatabase(pg, "kensho_wire_ascii", "SQL_ASCII")) {
            String said = run(ascii, "insert into words values (1, '検証', current_setting('client_encoding'));\n");
            assertTrue(said.contains("warning: --engine wire: words:1 holds text that is not ASCII, and the database is SQL_ASCII: this run's"
                    + " sessions are UTF8, so the server stores the script's UTF-8 as it is"), said);
            assertFalse(run(ascii, "insert into words values (2, 'plain', current_setting('client_encoding'));\n").contains("warning"));
            try (Connection c = ascii.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select string_agg(n || ' ' || encode(convert_to(word, 'SQL_ASCII'), 'hex') || ' ' || enc, ', ' order by n) from words")) {
                rs.next();
                // the script's UTF-8 bytes of 検証, as pgbench stores them; an ASCII script's session stays SQL_ASCII
                assertEquals("1 e6a49ce8a8bc UTF8, 2 706c61696e SQL_ASCII", rs.getString(1));
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop database if exists kensho_wire_ascii");
            }
        }
    }

    /**
     * A client_encoding the login asks for (the URL's options) on a UTF8 database is the one checked: '①' and '髙', which
     * Java's EUC-JP lacks, were stored as "??" and the run exited 0 (only the database's encoding was looked at).
     */
    @Test
    void theSessionsClientEncodingIsTheOneChecked(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("create table kensho_wire_session (n int, word text, enc text)");
        }
        try (Target eucSession = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database()
                + "?options=-c%20client_encoding%3DEUC_JP").user(pg.user()).open()) {
            assertEquals("1 検証 EUC_JP, 2 山田①髙 UTF8", kanjiThenOther(eucSession, "kensho_wire_session", "山田①髙"));
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop table if exists kensho_wire_session");
            }
        }
    }

    /**
     * Stores a kanji Java's EUC-JP and the server's map alike (the session stays EUC_JP, converting nothing: pgbench's
     * case), then other, which they do not (sent as UTF8, and said); returns the rows as "n word client_encoding, ...".
     */
    private static String kanjiThenOther(Target t, String table, String other) throws Exception {
        String same = run(t, "insert into " + table + " values (1, '検証', current_setting('client_encoding'));\n");
        assertFalse(same.contains("warning"), same);
        String said = run(t, "insert into " + table + " values (2, '" + other + "', current_setting('client_encoding'));\n");
        assertTrue(said.contains("warning: --engine wire: words:1 holds text that Java's EUC-JP would send otherwise than the "
                + "server's EUC_JP conversion: this run sends UTF8, which the server converts"), said);
        try (Connection c = t.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select string_agg(n || ' ' || word || ' ' || enc, ', ' order by n) from " + table)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** A new database of that encoding (C collation) with an empty table words, opened as a remote target. */
    private static Target wordsDatabase(Target pg, String name, String encoding) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop database if exists " + name);
            s.execute("create database " + name + " encoding '" + encoding + "' lc_collate 'C' lc_ctype 'C' template template0");
        }
        Target t = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + name).user(pg.user()).open();
        try (Connection c = t.connect(); Statement s = c.createStatement()) {
            s.execute("create table words (n int, word text, enc text)");
        }
        return t;
    }

    private static String run(Target t, String script) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().script("words", script).engine(Engine.WIRE).clients(1).threads(1).transactions(1)
                .noVacuum(true).warmup(0).output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)).run(t);
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(Engine.WIRE, r.engine(), e);
        assertEquals(1, r.processed(), e);
        return e;
    }
}
