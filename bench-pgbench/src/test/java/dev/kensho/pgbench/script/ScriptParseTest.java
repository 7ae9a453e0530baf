package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.pgbench.QueryMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How scripts are split into commands, and where errors are reported. */
class ScriptParseTest {

    private static List<String> sql(Script s) {
        List<String> out = new ArrayList<>();
        for (Command c : s.commands()) {
            out.add(c.kind() == Command.Kind.SQL ? c.sql() : c.kind().name());
        }
        return out;
    }

    @Test
    void sqlRunsUntilSemicolonAcrossLinesAndKeepsInnerComments() throws Exception {
        Script s = Script.parse("x.sql", """
                -- leading comment dropped
                SELECT 1
                  -- kept inside
                  , ';' AS a, $$;$$ AS b, $q$ \\set $q$ AS c, "x;y" AS d, E'\\';' AS e, (SELECT 2; ) AS f;
                /* block ; */ SELECT 3; SELECT 4 -- trailing
                ;
                \\set i 1
                SELECT :i
                """);
        assertEquals(List.of(
                "SELECT 1\n  -- kept inside\n  , ';' AS a, $$;$$ AS b, $q$ \\set $q$ AS c, \"x;y\" AS d, E'\\';' AS e, (SELECT 2; ) AS f;",
                "/* block ; */ SELECT 3;",
                "SELECT 4 -- trailing\n;",
                "SET",
                "SELECT :i\n"), sql(s));
        assertEquals(2, s.commands().get(0).line());
        assertEquals(5, s.commands().get(1).line());
        assertEquals(1, s.commands().get(1).column());
        assertEquals(25, s.commands().get(2).column());
        assertEquals(7, s.commands().get(3).line());
    }

    /** The command list PostgreSQL 15's pgbench -r printed for this file (first line of each command). */
    @Test
    void splitsLikePgbench() throws Exception {
        Script s = Script.parse("split.sql", resource("/split/split.sql"));
        assertEquals(List.of("SELECT 1", "SELECT 3;", "/* block */ SELECT 4;",
                "SELECT $$a;b$$, 'c;d', \"e;f\" FROM (SELECT 1 AS \"e;f\") x;", "SELECT (1", "\\set a 1",
                "SELECT E'\\';' ; SELECT 5", ";", "/* only comment */"), s.commandLines());
        assertEquals("/* only comment */\nSELECT 6 -- no semicolon at end\n", s.commands().get(8).sql());
    }

    /** psql's BEGIN ATOMIC heuristic, as pgbench 15 -r listed this file. */
    @Test
    void functionBodiesKeepTheirSemicolons() throws Exception {
        Script s = Script.parse("atomic.sql", resource("/split/atomic.sql"));
        assertEquals(List.of("CREATE OR REPLACE FUNCTION pg_temp.f(x int) RETURNS int LANGUAGE sql", "SELECT pg_temp.f(1);",
                "create procedure pg_temp.p() language sql begin atomic select 1; end;",
                "SELECT begin_x FROM (SELECT 1 AS begin_x) s;", "SELECT 2;"), s.commandLines());
    }

    /** In psqlscan ":end" is a variable token, not the END that closes the body; "::" is a cast before an identifier. */
    @Test
    void aVariableNamedLikeAKeywordEndsNoFunctionBody() throws Exception {
        Script s = Script.parse("v.sql", "CREATE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT :end; SELECT 2::int; END;\nSELECT 3;\n");
        assertEquals(2, s.commands().size(), s.commandLines().toString());
        assertEquals("SELECT 3;", s.commands().get(1).sql().strip());
    }

    @Test
    void compoundQueriesAndGsetMergeIntoTheSqlCommand() throws Exception {
        Script s = Script.parse("g.sql", "\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset\nSELECT 1 AS a \\aset p_\nSELECT 2;\n\\gset q\n");
        assertEquals(3, s.commands().size());
        assertEquals("; ; SELECT 0 AS i5 ; SELECT 5 AS i5 ; ; ", s.commands().get(0).sql());
        assertEquals(Command.Store.GSET, s.commands().get(0).store());
        assertEquals(Command.Store.ASET, s.commands().get(1).store());
        assertEquals("p_", s.commands().get(1).storePrefix());
        assertEquals("q", s.commands().get(2).storePrefix());
    }

    @Test
    void parametersAreEveryColonNameAsInPgbenchParseQuery() throws Exception {
        Script s = Script.parse("p.sql", "SELECT :a::int, ':b', :c + :a, 1?2, ::d, :9x;");
        Command c = s.commands().get(0);
        assertEquals(List.of("a", "b", "c", "a"), c.paramNames());
        assertEquals("SELECT ?::int, '?', ? + ?, 1??2, ::d, :9x;", c.parameterizedSql);
        // as pgbench sends it (the wire engine): every occurrence numbered, even inside quotes, '?' untouched
        assertEquals("SELECT $1::int, '$2', $3 + $4, 1?2, ::d, :9x;", c.wireSql());
        List<String> none = new ArrayList<>();
        assertEquals("SELECT '?', E'\\'?', $q$?$q$, \"a?\", 1 ?? 2 /* ? */ -- ?\n",
                ScriptParser.jdbcText("SELECT '?', E'\\'?', $q$?$q$, \"a?\", 1 ? 2 /* ? */ -- ?\n", none, false));
        assertTrue(none.isEmpty());
    }

    @Test
    void metaCommandsAreCaseInsensitiveAndContinueOverBackslashNewline() throws Exception {
        Script s = Script.parse("m.sql", "\\SET x 1 + \\\n  2\n\\setshell v echo\\\n  :x\n\\Sleep 10ms\n\\sleep :x\n");
        assertEquals(List.of("SET", "SETSHELL", "SLEEP", "SLEEP"), sql(s));
        assertEquals(List.of("echo", ":x"), s.commands().get(1).args());
        assertEquals(List.of("10"), s.commands().get(2).args());
        assertEquals(1000, s.commands().get(2).sleepUnitMicros);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "'\\set i 1 < 2 < 3'|e.sql:1:14: syntax error in command \"set\"",
        "'SELECT 1;\\n  \\set i foo'|e.sql:2:10: unexpected function name (foo) in command \"set\"",
        "'\\set i 9223372036854775808'|e.sql:1:8: syntax error in command \"set\"",
        "'\\set i 1\\n\\sleep 3 weeks'|e.sql:2:10: unrecognized time unit, must be us, ms or s (weeks)",
        "'\\sleep x'|e.sql:1:8: invalid sleep time, must be an integer (x)",
        "'\\sleep \u0663ms'|e.sql:1:8: invalid sleep time, must be an integer (\u0663ms)",
        "'\\if 1\\n\\set a 2\\n\\endif\\n\\endif'|e.sql:4:1: \\endif without matching \\if",
        "'\\set x (1 + 2'|e.sql:1:14: syntax error in command \"set\"",
        "'\\set x 1 +* 2'|e.sql:1:11: syntax error in command \"set\"",
        "'\\set x 1 @ 2'|e.sql:1:10: unexpected character (@) in command \"set\"",
        "'\\startpipeline x'|e.sql:1:16: unexpected argument in command \"startpipeline\"",
        "'SELECT 1;\\n\\endPipeline now'|e.sql:2:14: unexpected argument in command \"endpipeline\"",
        "'\\setrandom a 1'|e.sql:1:1: missing argument in command \"setrandom\"",
        "'\\setrandom a 1 x'|e.sql:1:16: invalid bound in command \"setrandom\" (x)",
        "'\\setrandom a 1 10 gaussian'|e.sql:1:1: missing threshold argument",
        "'\\setrandom a 1 10 poisson 3'|e.sql:1:19: unrecognized distribution",
        // where on a continuation line, said before the hint, as for \set
        "'\\setrandom a 1 \\\\n10 poisson 3'|e.sql:1:21: unrecognized distribution in command \"setrandom\" (poisson)"
                + " (on continuation line 2, column 4): expected uniform, gaussian or exponential",
        "'\\setrandom a 1 \\\\nx'|e.sql:1:18: invalid bound in command \"setrandom\" (x) (on continuation line 2, column 1):"
                + " expected an integer or a :variable",
    })
    void errorsNameFileLineColumn(String script, String expectedPrefix) {
        ScriptException e = assertThrows(ScriptException.class,
                () -> Script.parse("e.sql", script.replace("\\n", "\n")));
        assertTrue(e.getMessage().startsWith(expectedPrefix), () -> e.getMessage() + " does not start with " + expectedPrefix);
        assertTrue(!e.getMessage().contains("\n"));
    }

    /**
     * 001_pgbench_with_server.pl's pipeline scripts parse, the broken ones too: pgbench checks the nesting only when
     * a client runs them (PipelineTest runs them all).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "-- test startpipeline\\n\\startpipeline\\nselect 1;\\nselect 1;\\n\\endpipeline\\n|STARTPIPELINE SQL SQL ENDPIPELINE",
        "\\startpipeline\\nselect 1 \\gset f\\n\\endpipeline\\n|STARTPIPELINE SQL ENDPIPELINE",
        "-- pipeline not started\\n\\endpipeline\\n|ENDPIPELINE",
        "\\StartPipeline\\nselect 1;\\n\\syncpipeline\\n\\endpipeline\\n|STARTPIPELINE SQL SYNCPIPELINE ENDPIPELINE"})
    void pipelinesParseAsInPgbench(String script, String kinds) throws Exception {
        Script s = Script.parse("p.sql", script.replace("\\n", "\n"));
        assertEquals(kinds, String.join(" ", s.commands().stream().map(c -> c.kind().name()).toList()));
        assertEquals(s.commands().stream().filter(c -> c.kind().pipeline()).findFirst().orElseThrow(), s.firstPipelineCommand());
        assertEquals(null, Script.parse("q.sql", "select 1;\n\\sleep 1\n").firstPipelineCommand());
    }

    @Test
    void compoundQueriesOnlyInSimpleMode() throws Exception {
        Script s = Script.parse("comp.sql", "SELECT 1 \\; SELECT 2;\n");
        new ClientScriptRunner(List.of(s), 0, new Variables(), new PgbenchRandom(1), QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults());
        ScriptException e = assertThrows(ScriptException.class, () -> new ClientScriptRunner(List.of(s), 0,
                new Variables(), new PgbenchRandom(1), QueryMode.PREPARED, ClientScriptRunner.Options.defaults()));
        assertTrue(e.getMessage().startsWith("comp.sql:1:1: a compound query"), e.getMessage());
    }

    /**
     * pgbench makes every ":name" a parameter, in literals and comments too ('$1'), so outside simple mode such a
     * statement always fails at run time; pgjdbc failed with its own "The column index is out of range: 2, number
     * of columns: 1". Kensho refuses it before the run, naming the variable's place.
     */
    @Test
    void variablesInLiteralsOrCommentsOnlyInSimpleMode() throws Exception {
        String text = "\\set a 1\nSELECT :a \\; SELECT 2;\nSELECT :a::int, /* :a */ 'x' -- :b\n;\n";
        Script s = Script.parse("lit.sql", text);
        new ClientScriptRunner(List.of(s), 0, new Variables(), new PgbenchRandom(1), QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults());
        Script one = Script.parse("lit.sql", text.substring(text.indexOf("\nSELECT :a::int") + 1));
        for (QueryMode mode : List.of(QueryMode.EXTENDED, QueryMode.PREPARED)) {
            ScriptException e = assertThrows(ScriptException.class, () -> new ClientScriptRunner(List.of(one), 0,
                    new Variables(), new PgbenchRandom(1), mode, ClientScriptRunner.Options.defaults()));
            assertEquals("lit.sql:1:20: \":a\" inside a string, quoted name or comment becomes parameter $2 in "
                    + mode.pgbenchName() + " mode, as in pgbench, which the statement never uses, so the server"
                    + " refuses it (pgbench fails at run time); use -M simple", e.getMessage());
        }
        for (String hidden : List.of("SELECT ':a'", "SELECT 1 AS \":a\"", "SELECT $$:a$$", "SELECT E'\\'' || ':a'",
                "SELECT 1 /* /* */ :a */", "SELECT 1 -- :a\n")) {
            Script h = Script.parse("h.sql", hidden + ";\n");
            assertThrows(ScriptException.class, () -> new ClientScriptRunner(List.of(h), 0, new Variables(),
                    new PgbenchRandom(1), QueryMode.EXTENDED, ClientScriptRunner.Options.defaults()), hidden);
        }
        LocalServer.assumePgbench();
        java.nio.file.Path f = java.nio.file.Files.createTempFile("lit", ".sql");
        try {
            java.nio.file.Files.writeString(f, "SELECT :a::int, /* :a */ 'x';\n");
            Process p = new ProcessBuilder(LocalServer.PGBENCH.toString(), "-h", "127.0.0.1", "-p", "5432", "-U",
                    "postgres", "-n", "-t", "1", "-M", "extended", "-Da=1", "-f", f.toString(), "test")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(2, p.waitFor(), out);
            assertTrue(out.contains("bind message supplies 2 parameters, but prepared statement \"\" requires 1"), out);
        } finally {
            java.nio.file.Files.delete(f);
        }
    }

    @Test
    void syntaxErrorsSayWhatWasExpected() {
        ScriptException e = assertThrows(ScriptException.class, () -> Script.parse("e.sql", "\\set x 1 +"));
        assertTrue(e.getMessage().contains("expected an operand"), e.getMessage());
    }

    @Test
    void setrandomRunsAsTheEquivalentFunctionAndWarnsOnce() throws Exception {
        List<String> warnings = new ArrayList<>();
        ScriptParser.warnings = warnings::add;
        try {
            Script old = Script.parse("old.sql", "\\setrandom a 1 :max\n\\setrandom b 1 10 gaussian 2.5\n"
                    + "\\setrandom c 1 10 exponential 2.0\n\\setrandom d 1 10 uniform\n");
            Script modern = Script.parse("new.sql", "\\set a random(1, :max)\n\\set b random_gaussian(1, 10, 2.5)\n"
                    + "\\set c random_exponential(1, 10, 2.0)\n\\set d random(1, 10)\n");
            List<String> values = new ArrayList<>();
            for (Script s : List.of(old, modern)) {
                Variables v = new Variables();
                v.define("max=1000");
                ClientScriptRunner r = new ClientScriptRunner(List.of(s), 0, v, new PgbenchRandom(5432),
                        QueryMode.SIMPLE, ClientScriptRunner.Options.defaults());
                assertTrue(r.runScript(null, 0).ok());
                values.add(v.toString());
            }
            assertEquals(values.get(0), values.get(1));
            // at most one deprecation line per process (another test may have triggered it already)
            long deprecations = warnings.stream().filter(w -> w.contains("setrandom")).count();
            assertTrue(deprecations <= 1, warnings.toString());
        } finally {
            ScriptParser.warnings = System.err::println;
        }
    }

    static String resource(String path) throws IOException {
        try (InputStream in = ScriptParseTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
