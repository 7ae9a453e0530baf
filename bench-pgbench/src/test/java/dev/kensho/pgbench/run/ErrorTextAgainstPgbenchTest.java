package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A client's abort message as the C pgbench 15 prints it, for both engines: the server's error worded as libpq words
 * it, with the statement's line and a caret under the error (cut to 60 columns around it), DETAIL, HINT, QUERY and
 * CONTEXT. pgjdbc's wording ("Position: 18", "Where: ...") was printed, and the wire engine dropped all but the message.
 */
@KenshoTarget
class ErrorTextAgainstPgbenchTest {
    static final Path C_PGBENCH = Path.of("/usr/lib/postgresql/15/bin/pgbench");

    @TempDir
    Path dir;

    static Stream<Arguments> scripts() {
        List<String> scripts = List.of(
                // the error on the second line, a tab shown as a space
                "select *\n  from  kx_no_such_table\n where\tx = 1;\n",
                // lines beyond 60 columns: cut on the left, on the right, on both sides
                "select 1 as aaaaaaaaaaaaaaaaaaaaaaaa, 2 as bbbbbbbbbbbbbbbbbbbbbbbbbb, 3 as cccccccccccccccccccccc, kx_no_such_column;\n",
                "select kx_no_such_column, 1 as aaaaaaaaaaaaaaaaaaaaaaaa, 2 as bbbbbbbbbbbbbbbbbbbbbbbbbb, 3 as cccccccccccccccccccccc;\n",
                "select 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' as a, kx_no_such_column, 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' as b;\n",
                // wide characters take two columns
                "select '日本語のテキストです' as 列, kx_no_such_column;\n",
                // a HINT; a PL/pgSQL statement's error: its QUERY with the caret, and the CONTEXT
                "select kx_no_such_function(1);\n",
                "DO $$ BEGIN PERFORM kx_no_such_column FROM pg_class; END $$;\n",
                "select 'abc'::int;\n",
                // the position is in the text the mode sent: the value in simple mode, $1 in extended
                "\\set a 12345\nselect :a + kx_no_such_column;\n");
        List<Arguments> out = new ArrayList<>();
        // not -M prepared: there pgbench prints the failed PREPARE's error on its own and aborts on the missing statement
        // ("prepared statement "P_0" does not exist"), where Kensho aborts on the PREPARE's error, worded as here
        for (QueryMode mode : List.of(QueryMode.SIMPLE, QueryMode.EXTENDED)) {
            for (int i = 0; i < scripts.size(); i++) out.add(Arguments.of(mode, i + 1, scripts.get(i)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} #{1}")
    @MethodSource("scripts")
    void abortMessageAsPgbenchs(QueryMode mode, int number, String text, @LocalPostgres Target pg) throws Exception {
        assumeTrue(Files.isExecutable(C_PGBENCH), "no C pgbench at " + C_PGBENCH);
        Path script = Files.writeString(dir.resolve("e" + number + ".sql"), text);
        Process p = new ProcessBuilder(C_PGBENCH.toString(), "-n", "-t", "1", "-M", mode.name().toLowerCase(), "-f", script.toString(),
                "-h", pg.host(), "-p", Integer.toString(pg.port()), "-U", pg.user(), pg.database()).start();
        p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        List<String> theirs = abort(err, "pgbench: error: ");
        assertTrue(theirs.size() > 1 && theirs.get(0).startsWith("client 0 script 0 aborted in command"), err);

        for (Engine engine : Engine.values()) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(sink, true, StandardCharsets.UTF_8);
            new PgbenchRun().engine(engine).mode(mode).file(script.toString()).transactions(1).noVacuum(true).warmup(0)
                    .output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), ps).run(pg);
            String ours = sink.toString(StandardCharsets.UTF_8);
            assertEquals(String.join("\n", theirs), String.join("\n", abort(ours, "error: ")), engine + "; pgbench said:\n" + err);
        }
    }

    /**
     * The query of a \\; compound that failed, counted as pgbench counts it (the wire engine said query 0 for the second
     * and third); pgjdbc delivers no result of a compound with an error, and keeps saying query 0.
     */
    @org.junit.jupiter.api.Test
    void aCompoundsFailedQueryIsNumberedAsPgbenchNumbersIt(@LocalPostgres Target pg) throws Exception {
        assumeTrue(Files.isExecutable(C_PGBENCH), "no C pgbench at " + C_PGBENCH);
        Path script = Files.writeString(dir.resolve("c.sql"), "select 1 \\; select 2 \\; select 1/0;\n");
        Process p = new ProcessBuilder(C_PGBENCH.toString(), "-n", "-t", "1", "-f", script.toString(),
                "-h", pg.host(), "-p", Integer.toString(pg.port()), "-U", pg.user(), pg.database()).start();
        p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        List<String> theirs = abort(err, "pgbench: error: ");
        assertTrue(theirs.get(0).contains("aborted in command 0 query 2: "), err);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        new PgbenchRun().engine(Engine.WIRE).file(script.toString()).transactions(1).noVacuum(true).warmup(0)
                .output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(sink, true, StandardCharsets.UTF_8)).run(pg);
        assertEquals(String.join("\n", theirs), String.join("\n", abort(sink.toString(StandardCharsets.UTF_8), "error: ")));
    }

    /** Notices as libpq's notice processor prints them: with their DETAIL and HINT, without the CONTEXT (errors only). */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(QueryMode.class)
    void noticesAsPgbenchs(QueryMode mode, @LocalPostgres Target pg) throws Exception {
        assumeTrue(Files.isExecutable(C_PGBENCH), "no C pgbench at " + C_PGBENCH);
        Path script = Files.writeString(dir.resolve("n.sql"), "DO $$ BEGIN RAISE NOTICE 'n1' USING DETAIL = 'd1', HINT = 'h1'; "
                + "RAISE WARNING 'w2'; END $$;\nselect 1;\n");
        Process p = new ProcessBuilder(C_PGBENCH.toString(), "-n", "-t", "1", "-M", mode.name().toLowerCase(), "-f", script.toString(),
                "-h", pg.host(), "-p", Integer.toString(pg.port()), "-U", pg.user(), pg.database()).start();
        p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, err);
        List<String> theirs = err.lines().filter(l -> !l.startsWith("pgbench") && !l.isEmpty()).toList();
        assertEquals(List.of("NOTICE:  n1", "DETAIL:  d1", "HINT:  h1", "WARNING:  w2"), theirs, err);
        for (Engine engine : Engine.values()) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            new PgbenchRun().engine(engine).mode(mode).file(script.toString()).transactions(1).noVacuum(true).warmup(0)
                    .output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                            new PrintStream(sink, true, StandardCharsets.UTF_8)).run(pg);
            assertEquals(theirs, sink.toString(StandardCharsets.UTF_8).lines().toList(), engine.toString());
        }
    }

    /**
     * A failed meta-command is two error lines, what went wrong and then the client's abort, as pgbench prints them;
     * Kensho joined them into one with "; ".
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"\\set y 10 / 0\n", "\\if :nosuch\n\\endif\n", "\\sleep :nosuch ms\n"})
    void aFailedMetaCommandIsTwoErrorLinesAsPgbenchs(String text, @LocalPostgres Target pg) throws Exception {
        assumeTrue(Files.isExecutable(C_PGBENCH), "no C pgbench at " + C_PGBENCH);
        Path script = Files.writeString(dir.resolve("m.sql"), text);
        Process p = new ProcessBuilder(C_PGBENCH.toString(), "-n", "-t", "1", "-f", script.toString(),
                "-h", pg.host(), "-p", Integer.toString(pg.port()), "-U", pg.user(), pg.database()).start();
        p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        List<String> theirs = err.lines().filter(l -> l.startsWith("pgbench: error: ") && !l.contains("Run was aborted"))
                .map(l -> l.substring("pgbench: error: ".length())).toList();
        assertEquals(2, theirs.size(), err);
        for (Engine engine : Engine.values()) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            new PgbenchRun().engine(engine).file(script.toString()).transactions(1).noVacuum(true).warmup(0)
                    .output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                            new PrintStream(sink, true, StandardCharsets.UTF_8)).run(pg);
            List<String> ours = sink.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("error: "))
                    .map(l -> l.substring("error: ".length())).toList();
            assertEquals(theirs, ours, engine + "; pgbench said:\n" + err);
        }
    }

    /** The abort message's lines: from the line "PREFIXclient 0 ... aborted" (prefix cut) to the next line of the tool's own. */
    private static List<String> abort(String err, String prefix) {
        List<String> out = new ArrayList<>();
        for (String l : err.split("\n")) {
            if (out.isEmpty()) {
                if (l.startsWith(prefix + "client 0 script 0 aborted")) out.add(l.substring(prefix.length()));
            } else if (l.startsWith("pgbench: ") || l.startsWith("error: ") || l.startsWith("Run was aborted") || l.isEmpty()) {
                break;
            } else {
                out.add(l);
            }
        }
        return out;
    }
}
