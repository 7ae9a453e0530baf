package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.pgbench.QueryMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The "pgbench expressions" case of pgbench's 001_pgbench_with_server.pl: the same script, the same options
 * ({@code --random-seed=5432 -t 1 -Dfoo=-10.1 -Dbla=false -Di=+3 -Dn=null -Dt=t -Df=of -Dd=1.0}) and the same
 * expected debug() lines, evaluated without a server (the script's one SQL command is replaced by a
 * meta-command so that command numbers stay the same).
 */
class TapExpressionTest {

    /** TAP's expectations: command number → regex on the debug() output (as in the .pl file). */
    static final Object[][] EXPECTED = {
        {1, "int 17\\b"}, {2, "int 104\\b"}, {3, "int 1498\\b"}, {4, "int 4\\b"}, {5, "int 5\\b"},
        {6, "int 6\\b"}, {7, "int 7\\b"}, {8, "int 8\\b"}, {9, "int 9\\b"}, {10, "int 10\\b"},
        {11, "int 11\\b"}, {12, "int 12\\b"}, {15, "double 15\\b"}, {16, "double 16\\b"},
        {17, "double 17\\b"}, {20, "int 3\\b"}, {21, "double -27\\b"}, {22, "double 1024\\b"},
        {23, "double 1\\b"}, {24, "double 1\\b"}, {25, "double -0.125\\b"}, {26, "double -0.125\\b"},
        {27, "double -0.00032\\b"}, {28, "double 8.50705917302346e\\+0?37\\b"}, {29, "double 1e\\+0?30\\b"},
        {30, "boolean false\\b"}, {31, "boolean true\\b"}, {32, "int 32\\b"}, {33, "int 33\\b"},
        {34, "double 34\\b"}, {35, "int 35\\b"}, {36, "int 36\\b"}, {37, "double 37\\b"}, {38, "int 38\\b"},
        {39, "int 39\\b"}, {40, "boolean true\\b"}, {41, "null\\b"}, {42, "null\\b"}, {43, "boolean true\\b"},
        {44, "boolean true\\b"}, {45, "boolean true\\b"}, {46, "int 46\\b"}, {47, "boolean true\\b"},
        {48, "boolean true\\b"}, {49, "int -5817877081768721676\\b"}, {50, "boolean true\\b"},
        {51, "int -7793829335365542153\\b"}, {52, "int -?\\d+\\b"}, {53, "boolean true\\b"},
        {65, "int 65\\b"}, {74, "int 74\\b"}, {83, "int 83\\b"}, {86, "int 86\\b"}, {93, "int 93\\b"},
        {95, "int 0\\b"}, {96, "int 1\\b"}, {97, "int 0\\b"}, {98, "int 5432\\b"},
        {99, "int -9223372036854775808\\b"}, {100, "int 9223372036854775807\\b"},
        {101, "boolean true\\b"}, {102, "boolean true\\b"}, {103, "boolean true\\b"}, {104, "boolean true\\b"},
        {105, "boolean true\\b"}, {109, "boolean true\\b"}, {110, "boolean true\\b"}, {111, "boolean true\\b"},
        {113, "boolean true\\b"},
    };

    static final String[] DEFINES = {"foo=-10.1", "bla=false", "i=+3", "n=null", "t=t", "f=of", "d=1.0"};

    static Map<Integer, String> debug;

    static String tapScript() throws IOException {
        try (InputStream in = TapExpressionTest.class.getResourceAsStream("/tap/001_pgbench_expressions.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Runs a script as client {@code client} of {@code clients} with --random-seed=seed; debug lines by command. */
    static Map<Integer, String> run(String text, long seed, int client, int clients, String... defines)
            throws ScriptException {
        Script s = Script.parse("001_pgbench_expressions", text);
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(seed, clients, 1);
        Variables vars = new Variables();
        for (String d : defines) {
            vars.define(d);
        }
        vars.standard(1, client, seed, seeds.defaultSeed());
        Map<Integer, String> out = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        ClientScriptRunner r = new ClientScriptRunner(List.of(s), client, vars, seeds.clients()[client],
                QueryMode.SIMPLE, ClientScriptRunner.Options.defaults().withStderr(lines::add));
        TransactionOutcome o = r.runScript(null, 0);
        assertTrue(o.ok(), () -> "transaction failed: " + o);
        for (String l : lines) {
            int c = Integer.parseInt(l.replaceFirst("^debug\\(script=0,command=(\\d+)\\): .*$", "$1"));
            out.put(c, l.substring(l.indexOf("): ") + 3));
        }
        return out;
    }

    @BeforeAll
    static void runTapScript() throws Exception {
        String text = tapScript().replace("SELECT :v0, :v1, :v2, :v3;", "\\set v4 0");
        debug = run(text, 5432, 0, 1, DEFINES);
    }

    static Stream<Object[]> expectations() {
        return Stream.of(EXPECTED);
    }

    @ParameterizedTest(name = "command={0}: {1}")
    @MethodSource("expectations")
    void tapExpectation(int command, String regex) {
        String got = debug.get(command);
        assertNotNull(got, () -> "no debug() output for command " + command + "; got " + debug);
        assertTrue(Pattern.compile(regex).matcher(got).find(), () -> "command " + command + ": " + got + " !~ " + regex);
    }

    /** Values the TAP regexes leave loose, as PostgreSQL 15's pgbench printed them with --random-seed=5432. */
    @Test
    void exactValuesFromPg15() {
        assertEquals("double 13.856406460551", debug.get(13));
        assertEquals("double 14.8514851485149", debug.get(14));
        assertEquals("double 15.39380400259", debug.get(15));
        assertEquals("double 17.094", debug.get(17));
        assertEquals("double 37.0000002", debug.get(37));
        assertEquals("int 4313776982099445391", debug.get(52));
        assertEquals("int -1", debug.get(55));
        assertEquals("int 1", debug.get(57));
        assertEquals("int 9223372036854775797", debug.get(112));
    }

    @Test
    void everyTapCommandWithDebugPrinted() {
        assertEquals(75, debug.size(), () -> "debug lines: " + debug);
    }
}
