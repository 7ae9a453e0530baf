package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.pgbench.QueryMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scripts where Kensho and the C pgbench 15 once differed (found by running random scripts through both): what
 * pgbench 15 prints for each with {@code -n -t 1 --random-seed=5432}, its debug() and NOTICE lines and, when the
 * client aborts, its error lines joined by "; ". Kensho must print the same; where the C binary and the server are
 * on this machine, the expectations are checked against pgbench itself too.
 */
class PgbenchDifferencesTest {
    @TempDir
    Path dir;

    /** {@code outcome}: "OK", or the abort's message. */
    record Case(String name, String script, List<String> stderr, String outcome) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case ok(String name, String script, String... stderr) {
        return new Case(name, script, List.of(stderr), "OK");
    }

    static Case aborts(String name, String script, String message) {
        return new Case(name, script, List.of(), message);
    }

    static List<Case> cases() {
        return List.of(
                aborts("set evaluation fails", "\\set i 9223372036854775807 + 1\n",
                        "bigint add out of range\nclient 0 aborted in command 0 (set) of script 0; evaluation of meta-command failed"),
                aborts("sleep of a variable whose digit is not ASCII", "SELECT '\u0663' AS t \\gset\n\\sleep :t ms\n",
                        "sleep: invalid sleep time \"\u0663\" for variable \"t\"\nclient 0 aborted in command 1 (sleep) of script 0; execution of meta-command failed"),
                aborts("set assignment fails", "\\set 1x 1\n",
                        "set: invalid variable name: \"1x\"\nclient 0 aborted in command 0 (set) of script 0; assignment of meta-command failed"),
                aborts("sleep fails", "\\sleep :nosuch us\n",
                        "sleep: undefined variable \"nosuch\"\nclient 0 aborted in command 0 (sleep) of script 0; execution of meta-command failed"),
                aborts("setshell fails", "\\setshell x printf \"\"\n",
                        "printf: could not read result of shell command\nclient 0 aborted in command 0 (setshell) of script 0; execution of meta-command failed"),
                aborts("if fails", "\\if 1/0\n\\endif\n",
                        "division by zero\nclient 0 aborted in command 0 (if) of script 0; evaluation of meta-command failed"),
                aborts("elif fails as its own command", "\\if false\n\\elif false\n\\elif 1/0\n\\endif\n",
                        "division by zero\nclient 0 aborted in command 2 (elif) of script 0; evaluation of meta-command failed"),
                ok("elif conditions print as their commands",
                        "\\if debug(0)\n\\set a debug(1)\n\\elif debug(0)\n\\elif debug(2)\n\\set b debug(3)\n\\else\n\\set c debug(4)\n\\endif\n",
                        "debug(script=0,command=1): int 0", "debug(script=0,command=3): int 0",
                        "debug(script=0,command=4): int 2", "debug(script=0,command=5): int 3"),
                aborts("gset without a row", "SELECT 1 AS a WHERE false \\gset\n",
                        "client 0 script 0 command 0 query 0: expected one row, got 0"),
                aborts("gset names the compound query's result", "SELECT 2 AS a \\; SELECT 3 AS b \\; SELECT 1 \\gset\n",
                        "gset: invalid variable name: \"?column?\"\nclient 0 script 0 command 0 query 2: error storing into variable ?column?"),
                aborts("gset without a row in a compound query", "SELECT 2 AS a \\; SELECT 1 AS b WHERE false \\gset\n",
                        "client 0 script 0 command 0 query 1: expected one row, got 0"),
                aborts("aset invalid name", "SELECT 1 AS a \\; SELECT 1 AS \"a b\" \\aset\n",
                        "aset: invalid variable name: \"a b\"\nclient 0 script 0 command 0 query 1: error storing into variable a b"),
                ok("comments end at a lone CR", "-- lead\rDO $$ BEGIN RAISE NOTICE 'one'; END $$;\r-- note\rDO $$ BEGIN RAISE NOTICE 'two'; END $$;\r",
                        "NOTICE:  one", "NOTICE:  two"),
                ok("an E string continued on the next line keeps its escapes",
                        "SELECT length(E'it' -- a comment\n\n-- another\n'\\'s') AS n \\gset\n\\set r debug(:n)\n",
                        "debug(script=0,command=2): int 4"),
                ok(":{?name} is FALSE (pgbench gives psql's scanner no variables)", "SELECT (:{?scale})::int AS t \\gset\n\\set r debug(:t)\n",
                        "debug(script=0,command=2): int 0"),
                ok("continuation with CR LF", "\\set x 1 \\\r\n + 2\r\n\\set r debug(:x)\r\n", "debug(script=0,command=2): int 3"),
                ok("continuation with CR LF right after a word", "\\sleep 1\\\r\nms\r\n\\set\\\r\nx\\\r\n3\r\n\\set r debug(:x)\r\n",
                        "debug(script=0,command=3): int 3"),
                ok("gaussian with a NaN parameter", "\\set r debug(random_gaussian(1, 10, (1e308*10)-(1e308*10)))\n",
                        "debug(script=0,command=1): int -9223372036854775807"),
                ok("gaussian with an infinite parameter", "\\set r debug(random_gaussian(-1, 10, 1e308*10))\n",
                        "debug(script=0,command=1): int 9223372036854775807"),
                ok("exponential with a NaN parameter", "\\set r debug(random_exponential(0, 10, (1e308*10)-(1e308*10)))\n",
                        "debug(script=0,command=1): int -9223372036854775808"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void kenshoPrintsWhatPgbench15Prints(Case c) throws Exception {
        assertEquals(expected(c), kensho(c.script));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void pgbench15PrintsTheseLines(Case c) throws Exception {
        LocalServer.assumePgbench();
        assertEquals(expected(c), pgbench(c.script));
    }

    /**
     * pgbench -r averages a command over its executions: a false \if's \elif runs as a command of its own (its time
     * is not the \if's), while an \else or \endif reached by skipping runs nothing and counts nothing.
     */
    @Test
    void elifReachedFromAFalseBranchCountsAsItsOwnCommand() throws Exception {
        Script s = Script.parse("s.sql", "\\if false\n\\elif false\n\\elif true\n\\endif\n\\if false\n\\else\n\\endif\n");
        ClientScriptRunner r = runner(s, new ArrayList<>());
        assertEquals(true, r.runScript(null, 0).ok());
        assertArrayEquals(new long[] {1, 1, 1, 1, 1, 0, 1}, r.commandCounts(0));
    }

    /** The notices a failing statement sent before its error are printed, as libpq prints them (pgjdbc lost them). */
    @Test
    void noticesBeforeAnErrorArePrinted() throws Exception {
        String text = "DO $$ BEGIN RAISE NOTICE 'n1'; RAISE WARNING 'w2'; RAISE EXCEPTION 'boom'; END $$;\n";
        for (QueryMode mode : QueryMode.values()) {
            List<String> out = new ArrayList<>();
            ClientScriptRunner r = new ClientScriptRunner(List.of(Script.parse("s.sql", text)), 0, new Variables(),
                    new PgbenchRandom(1), mode, ClientScriptRunner.Options.defaults().withStderr(out::add));
            LocalServer.assumeReachable();
            try (Connection c = LocalServer.connect(mode)) {
                TransactionOutcome o = r.runScript(c, 0);
                assertEquals(false, o.ok());
                assertEquals(true, o.message().contains("ERROR:  boom"), o.message());
            }
            assertEquals(List.of("NOTICE:  n1", "WARNING:  w2"), out, mode.toString());
        }
        LocalServer.assumePgbench();
        List<String> theirs = pgbench(text);
        assertEquals("NOTICE:  n1", theirs.get(0));   // pgbench(): a WARNING line counts among the error lines
        assertEquals(true, theirs.get(1).startsWith("WARNING:  w2\nclient 0 script 0 aborted in command 0 query 0: ERROR:  boom"),
                theirs.get(1));
    }

    /** pgbench computes a sleep in its int: 55297704 s is 55297704000000 us, which wraps to 64000 us. */
    @Test
    void sleepWrapsAsPgbenchsInt() throws Exception {
        String text = "\\set s 55297704\n\\sleep :s s\n";
        List<Long> slept = new ArrayList<>();
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(5432, 1, 1);
        Variables v = new Variables();
        v.standard(1, 0, 5432, seeds.defaultSeed());
        ClientScriptRunner r = new ClientScriptRunner(List.of(Script.parse("s.sql", text)), 0, v, seeds.clients()[0],
                QueryMode.SIMPLE, ClientScriptRunner.Options.defaults().withSleeper(slept::add));
        assertEquals(true, r.runScript(null, 0).ok());
        assertEquals(List.of(64_000_000L), slept);
        LocalServer.assumePgbench();
        Path f = dir.resolve("s.sql");
        Files.writeString(f, text);
        Process p = new ProcessBuilder(LocalServer.PGBENCH.toString(), "-h", "127.0.0.1", "-p", "5432", "-U", "postgres",
                "-n", "-t", "1", "-f", f.toString(), "test").redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile()).start();
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroy();
            throw new AssertionError("pgbench still sleeps after 60 s");
        }
        String out = Files.readString(dir.resolve("out.txt"));
        assertEquals(0, p.exitValue(), out);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("latency average = ([0-9.]+) ms").matcher(out);
        assertEquals(true, m.find(), out);
        double ms = Double.parseDouble(m.group(1));
        assertEquals(true, ms >= 60 && ms < 1000, out);
    }

    private static List<String> expected(Case c) {
        List<String> out = new ArrayList<>(c.stderr);
        out.add(c.outcome);
        return out;
    }

    private static ClientScriptRunner runner(Script s, List<String> stderr) throws ScriptException {
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(5432, 1, 1);
        Variables v = new Variables();
        v.standard(1, 0, 5432, seeds.defaultSeed());
        return new ClientScriptRunner(List.of(s), 0, v, seeds.clients()[0], QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults().withStderr(stderr::add).withSleeper(n -> { }));
    }

    private static List<String> kensho(String text) throws Exception {
        Script s = Script.parse("s.sql", text);
        List<String> out = new ArrayList<>();
        ClientScriptRunner r = runner(s, out);
        TransactionOutcome o;
        if (r.hasSql(0)) {
            LocalServer.assumeReachable();
            try (Connection c = LocalServer.connect(QueryMode.SIMPLE)) {
                o = r.runScript(c, 0);
            }
        } else {
            o = r.runScript(null, 0);
        }
        out.add(o.ok() ? "OK" : o.message());
        return out;
    }

    /** The C pgbench's debug() and NOTICE lines, then "OK" or its error lines (each "pgbench: error: " line one). */
    private List<String> pgbench(String text) throws Exception {
        Path f = dir.resolve("s.sql");
        Files.writeString(f, text);
        Process p = new ProcessBuilder(LocalServer.PGBENCH.toString(), "-h", "127.0.0.1", "-p", "5432", "-U", "postgres",
                "-n", "-t", "1", "--random-seed=5432", "-f", f.toString(), "test").start();
        p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = p.waitFor();
        List<String> out = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (String l : err.split("\n")) {
            if (l.startsWith("debug(") || l.startsWith("NOTICE:")) {
                out.add(l);
            } else if (l.contains("Run was aborted") || l.isEmpty() || l.startsWith("pgbench: setting random seed")) {
                continue;
            } else if (l.startsWith("pgbench: error: ")) {
                errors.add(l.substring("pgbench: error: ".length()));
            } else {
                errors.add(l);   // a continuation line of a message (a shell's output)
            }
        }
        out.add(status == 0 ? "OK" : String.join("\n", errors));
        return out;
    }
}
