package dev.kensho.pgbench.run;

import static dev.kensho.pgbench.run.RunOptionsTest.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A client session has the database's TimeZone and date order, as pgbench's (libpq asks for neither): pgjdbc logs in
 * with the JVM's TimeZone and DateStyle ISO, MDY, so now()::date and a date written 01/02/2026 came out otherwise.
 */
@KenshoTarget
class SessionSettingsTest {
    private Target pg;

    @BeforeEach
    void settings(Target pg) throws Exception {
        this.pg = pg;
        // none the JVM has here (the build's JVMs run in UTC or the machine's zone)
        sql("drop table if exists kensho_session", "create table kensho_session(tz text, ds text, d date, c int)",
                "do $$ begin execute format('alter database %I set TimeZone = ''Asia/Kolkata''', current_database()); "
                        + "execute format('alter database %I set DateStyle = ''SQL, DMY''', current_database()); end $$");
    }

    @AfterEach
    void reset() throws Exception {
        sql("do $$ begin execute format('alter database %I reset TimeZone', current_database()); "
                + "execute format('alter database %I reset DateStyle', current_database()); end $$",
                "drop table if exists kensho_session");
    }

    private void sql(String... statements) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            for (String q : statements) s.execute(q);
        }
    }

    static Stream<Arguments> enginesAndModes() {
        return Stream.of(Engine.values()).flatMap(e -> Stream.of(QueryMode.values()).map(m -> Arguments.of(e, m)));
    }

    @org.junit.jupiter.api.Test
    void zonesOfOneRuleAreTheSame() {
        assertTrue(LibpqLogin.sameZone("UTC", "Etc/UTC"));
        assertTrue(LibpqLogin.sameZone("Asia/Tokyo", "Japan"));
        assertFalse(LibpqLogin.sameZone("Asia/Tokyo", "Asia/Seoul"));   // the same offset today, another history
        assertFalse(LibpqLogin.sameZone("<+09>-09", "Asia/Tokyo"));
    }

    /**
     * A script that sets DateStyle or client_encoding as pgjdbc cannot follow: pgjdbc closed the session, and every
     * transaction was a "lost connection" the client reconnected after, to fail again. Now the client aborts saying why
     * and what runs it (the wire engine, which runs it as pgbench does).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(Engine.class)
    void aScriptPgjdbcCannotFollowAbortsNamingTheWireEngine(Engine engine, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("german.sql"), "set datestyle = 'German';\n"
                + "INSERT INTO kensho_session VALUES (current_setting('TimeZone'), current_setting('DateStyle'), now()::date, :client_id);\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(engine).file(script.toString()).clients(2).transactions(2).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(engine == Engine.PGJDBC, r.aborted(), said);
        if (engine == Engine.PGJDBC) {
            assertTrue(said.contains("the script sets DateStyle to a value pgjdbc does not work with") && said.contains("run it with --engine wire"), said);
            assertFalse(said.contains("lost its connection"), said);
        }
    }

    @ParameterizedTest
    @MethodSource("enginesAndModes")
    void clientsHaveTheDatabasesTimeZoneAndDateOrder(Engine engine, QueryMode mode, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("session.sql"), "INSERT INTO kensho_session VALUES (current_setting('TimeZone'), "
                + "current_setting('DateStyle'), '01/02/2026'::date, :client_id);\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        for (boolean connectEach : new boolean[] {false, true}) {
            RunReport r = new PgbenchRun().engine(engine).mode(mode).file(script.toString()).clients(2).transactions(2)
                    .connectPerTransaction(connectEach).noVacuum(true).warmup(0).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
            assertFalse(r.aborted(), String.join("\n", r.lines()));
        }
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*), count(*) filter (where tz = 'Asia/Kolkata' and d = date '2026-02-01'),"
                     + " string_agg(distinct ds, ',') from kensho_session")) {
            rs.next();
            assertEquals(8, rs.getInt(1));
            assertEquals(8, rs.getInt(2), "every transaction in the database's TimeZone, reading 01/02 as 1 February");
            // pgjdbc requires ISO output: the order is the database's, the style pgjdbc's, and the run says so
            assertEquals(engine == Engine.WIRE ? "SQL, DMY" : "ISO, DMY", rs.getString(3));
        }
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(engine == Engine.PGJDBC, said.contains("warning: the database's DateStyle is SQL, DMY; the pgjdbc engine prints "
                + "dates in ISO (pgjdbc requires it), --engine wire as pgbench does"), said);
        // and with the results, where it had gone unrecorded (said on stderr only)
        try (dev.kensho.core.result.RunDirectory dir = dev.kensho.core.result.RunDirectory.create(tmp,
                dev.kensho.core.result.RunInfo.of("pgbench run", java.util.List.of("pgbench", "run"), java.util.Map.of()))) {
            new PgbenchRun().engine(engine).mode(mode).file(script.toString()).clients(1).transactions(1).noVacuum(true).warmup(0)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).runAndRecord(pg, dir);
            java.util.List<String> notes = dev.kensho.core.result.RunDirectory.info(dir.path()).notes();
            assertEquals(engine == Engine.PGJDBC ? 1 : 0, notes.stream().filter(n -> n.startsWith("the database's DateStyle is SQL, DMY;")).count(),
                    notes.toString());
        }
    }
}
