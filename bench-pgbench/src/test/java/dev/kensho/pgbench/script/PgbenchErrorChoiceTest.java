package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which line and which of two errors a script error names, as pgbench 15 does: a meta-command continued over lines
 * errs on its first line, and a lexical error later on an expression's line wins over the error found first. Each
 * case gives pgbench's first stderr line (less "pgbench: error: ") and the start of Kensho's message; where the C
 * binary is on this machine, pgbench is run on the script too. In the scripts, \n is a line feed and \r a carriage
 * return.
 */
class PgbenchErrorChoiceTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "set, syntax error on its continuation|\\set x 1 + \\\\n * 2\\n|e.sql:1: syntax error in command \"set\""
                + "|e.sql:1:15: syntax error in command \"set\" (on continuation line 2, column 2)",
        "set, on its third line|\\set x 1 + \\\\n2 + \\\\n)\\n|e.sql:1: syntax error in command \"set\""
                + "|e.sql:1:20: syntax error in command \"set\" (on continuation line 3, column 1)",
        "set, argument count on its continuation|\\set x abs(1, \\\\n2)\\n"
                + "|e.sql:1: unexpected number of arguments (abs) in command \"set\""
                + "|e.sql:1:18: unexpected number of arguments (abs) in command \"set\" (on continuation line 2, column 2)",
        "set, unknown function on its continuation|\\set x 1 + \\\\nfoo(1)\\n"
                + "|e.sql:1: unexpected function name (foo) in command \"set\""
                + "|e.sql:1:14: unexpected function name (foo) in command \"set\" (on continuation line 2, column 1)",
        "set, indented after SQL|SELECT 1;\\n  \\set x 1 + \\\\n   * 2\\n|e.sql:2: syntax error in command \"set\""
                + "|e.sql:2:19: syntax error in command \"set\" (on continuation line 3, column 4)",
        "set, a comment after the continuation is an expression|\\set x 1 + \\\\n-- comment\\n"
                + "|e.sql:1: unexpected function name (comment) in command \"set\""
                + "|e.sql:1:17: unexpected function name (comment) in command \"set\" (on continuation line 2, column 4)",
        "set, CR LF|\\set x 1 + \\\\r\\n * 2\\r\\n|e.sql:1: syntax error in command \"set\""
                + "|e.sql:1:16: syntax error in command \"set\" (on continuation line 2, column 2)",
        "set, inside an if block|\\if 1\\n\\set x 1 + \\\\n* 2\\n\\endif\\n|e.sql:2: syntax error in command \"set\""
                + "|e.sql:2:14: syntax error in command \"set\" (on continuation line 3, column 1)",
        "elif, its condition continued|\\if 1\\n\\elif \\\\n1 +\\n\\endif\\n|e.sql:2: syntax error in command \"elif\""
                + "|e.sql:2:12: syntax error in command \"elif\" (on continuation line 3, column 4)",
        "else, its argument continued|\\if 1\\n\\else \\\\nx\\n\\endif\\n|e.sql:2: unexpected argument in command \"else\""
                + "|e.sql:2:9: unexpected argument in command \"else\" (on continuation line 3, column 1)",
        "sleep, unit on its continuation|\\sleep 1 \\\\nweeks\\n"
                + "|e.sql:1: unrecognized time unit, must be us, ms or s (weeks) in command \"sleep\""
                + "|e.sql:1:12: unrecognized time unit, must be us, ms or s (weeks) in command \"sleep\" (on continuation line 2",
        "sleep, unit two continuations down, CR LF|\\sleep \\\\r\\n1 \\\\r\\nweeks\\r\\n"
                + "|e.sql:1: unrecognized time unit, must be us, ms or s (weeks) in command \"sleep\""
                + "|e.sql:1:16: unrecognized time unit, must be us, ms or s (weeks) in command \"sleep\" (on continuation line 3",
        "sleep, value on its continuation|\\sleep \\\\nx\\n"
                + "|e.sql:1: invalid sleep time, must be an integer (x) in command \"sleep\""
                + "|e.sql:1:10: invalid sleep time, must be an integer (x) in command \"sleep\" (on continuation line 2",
        "sleep, third argument on its continuation|\\sleep 1 ms \\\\nx\\n|e.sql:1: too many arguments in command \"sleep\""
                + "|e.sql:1:15: too many arguments in command \"sleep\" (on continuation line 2, column 1)",
        "gset, second argument on its continuation|SELECT 1 \\gset a \\\\nb\\n"
                + "|e.sql:1: too many arguments in command \"gset\""
                + "|e.sql:1:20: too many arguments in command \"gset\" (on continuation line 2, column 1)",
    })
    void aContinuedCommandErrsOnItsFirstLine(String name, String script, String pgbench, String kensho) throws Exception {
        check(script, pgbench, kensho);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown function, then a bad character|\\set x foo() @\\n|e.sql:1: unexpected character (@) in command \"set\""
                + "|e.sql:1:14: unexpected character (@) in command \"set\"",
        "unknown function without arguments, then a bad character|\\set x foo @\\n"
                + "|e.sql:1: unexpected character (@) in command \"set\"|e.sql:1:12: unexpected character (@) in command \"set\"",
        "unknown function, then a double overflow|\\set x foo(1e999)\\n"
                + "|e.sql:1: double constant overflow (1e999) in command \"set\""
                + "|e.sql:1:12: double constant overflow (1e999) in command \"set\"",
        "argument count, then a bad character|\\set x pi(1) @\\n|e.sql:1: unexpected character (@) in command \"set\""
                + "|e.sql:1:14: unexpected character (@) in command \"set\"",
        "argument count, syntax error, bad character|\\set x abs(1,2) 3 @\\n"
                + "|e.sql:1: unexpected character (@) in command \"set\"|e.sql:1:19: unexpected character (@) in command \"set\"",
        "syntax error, then an overflow|\\set x 1 ) 99999999999999999999\\n"
                + "|e.sql:1: bigint constant overflow (99999999999999999999) in command \"set\""
                + "|e.sql:1:12: bigint constant overflow (99999999999999999999) in command \"set\"",
        "two bad characters: the last|\\set x @ $\\n|e.sql:1: unexpected character ($) in command \"set\""
                + "|e.sql:1:10: unexpected character ($) in command \"set\"",
        "syntax error, bad character, overflow: the last|\\set x ) @ 99999999999999999999\\n"
                + "|e.sql:1: bigint constant overflow (99999999999999999999) in command \"set\""
                + "|e.sql:1:12: bigint constant overflow (99999999999999999999) in command \"set\"",
        "syntax error, bad character on the continuation|\\set x ) \\\\n @\\n"
                + "|e.sql:1: unexpected character (@) in command \"set\""
                + "|e.sql:1:13: unexpected character (@) in command \"set\" (on continuation line 2, column 2)",
        "if, syntax error then a bad character|\\if ) @\\n\\endif\\n|e.sql:1: unexpected character (@) in command \"if\""
                + "|e.sql:1:7: unexpected character (@) in command \"if\"",
        // the rest of the line only: the error found at a line's end stays
        "syntax error at the end, a bad character on the next line|\\set x 1 +\\n\\set y @\\n"
                + "|e.sql:1: syntax error in command \"set\"|e.sql:1:11: syntax error in command \"set\"",
        "unknown function, then a syntax error|\\set x foo(1 +)\\n"
                + "|e.sql:1: unexpected function name (foo) in command \"set\"|e.sql:1:8: unexpected function name (foo)",
        "argument count, then a syntax error|\\set x abs(1,2) 3\\n"
                + "|e.sql:1: unexpected number of arguments (abs) in command \"set\""
                + "|e.sql:1:15: unexpected number of arguments (abs) in command \"set\"",
    })
    void aLexicalErrorLaterOnTheLineWins(String name, String script, String pgbench, String kensho) throws Exception {
        check(script, pgbench, kensho);
    }

    private void check(String script, String pgbench, String kensho) throws Exception {
        String text = script.replace("\\n", "\n").replace("\\r", "\r");
        ScriptException e = assertThrows(ScriptException.class, () -> Script.parse("e.sql", text));
        assertTrue(e.getMessage().startsWith(kensho), () -> e.getMessage() + " does not start with " + kensho);
        if (Files.isExecutable(LocalServer.PGBENCH)) {
            assertEquals(pgbench, pgbenchError(text));
        }
    }

    /** The C pgbench's first stderr line for the script, less "pgbench: error: " and the file's directory. */
    private String pgbenchError(String text) throws Exception {
        Path f = dir.resolve("e.sql");
        Files.writeString(f, text);
        // pgbench parses the script before it connects: no server needed
        Process p = new ProcessBuilder(LocalServer.PGBENCH.toString(), "-h", "127.0.0.1", "-p", "5432", "-U", "postgres",
                "-n", "-t", "1", "-f", "e.sql", "test").directory(dir.toFile()).start();
        p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.waitFor(), err);
        return err.lines().findFirst().orElse("").replaceFirst("^pgbench: error: ", "");
    }
}
