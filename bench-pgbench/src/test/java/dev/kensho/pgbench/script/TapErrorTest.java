package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.pgbench.QueryMode;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The error cases of pgbench's TAP tests: 001_pgbench_with_server.pl's "@errors" list (run with
 * {@code -n -t 1 -Dfoo=bla -Dnull=null -Dtrue=true -Done=1 -Dzero=0.0 -Dbadtrue=trueXXX -Dmaxint=... -Dminint=...
 * -M prepared}) and 002_pgbench_no_server.pl's "@script_tests". Status 1 (pgbench exits before running) must be a
 * {@link ScriptException} here; status 2 (the client aborts) must be a failed {@link TransactionOutcome}; both
 * with a message matching pgbench's regexes. Cases needing SQL run against 127.0.0.1:5432 or are skipped.
 */
class TapErrorTest {

    record Case(String name, int status, List<String> regexes, String script, boolean sql) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case c(String name, int status, String regex, String script) {
        return new Case(name, status, List.of(regex), script, false);
    }

    static Case sql(String name, int status, String regex, String script) {
        return new Case(name, status, List.of(regex), script, true);
    }

    static final String[] DEFINES = {"foo=bla", "null=null", "true=true", "one=1", "zero=0.0", "badtrue=trueXXX",
        "maxint=9223372036854775807", "minint=-9223372036854775808"};

    static List<Case> cases() {
        List<Case> l = new ArrayList<>();
        // 001_pgbench_with_server.pl @errors
        // pgjdbc spells server errors "ERROR: " with one space where libpq has two.
        l.add(sql("sql syntax error", 2, "ERROR: +syntax error", "-- SQL syntax error\n    SELECT 1 + ;\n"));
        l.add(c("sql too many args", 1, "statement has too many arguments.*\\b255\\b",
                "-- MAX_ARGS=256 for prepared\n\\set i 0\nSELECT LEAST(" + String.join(", ", java.util.Collections.nCopies(256, ":i")) + ")"));
        l.add(c("shell bad command", 2, "\\(shell\\) .* meta-command failed", "\\shell no-such-command"));
        l.add(c("shell undefined variable", 2, "undefined variable \":nosuchvariable\"",
                "-- undefined variable in shell\n\\shell echo ::foo :nosuchvariable\n"));
        l.add(c("shell missing command", 1, "missing command ", "\\shell"));
        l.add(c("shell too many args", 1, "too many arguments in command \"shell\"",
                "-- 256 arguments to \\shell\n\\shell echo " + String.join(" ", java.util.Collections.nCopies(255, "arg"))));
        l.add(c("set syntax error", 1, "syntax error in command \"set\"", "\\set i 1 +"));
        l.add(c("set no such function", 1, "unexpected function name", "\\set i noSuchFunction()"));
        l.add(c("set invalid variable name", 2, "invalid variable name", "\\set . 1"));
        l.add(c("set division by zero", 2, "division by zero", "\\set i 1/0"));
        l.add(c("set undefined variable", 2, "undefined variable \"nosuchvariable\"", "\\set i :nosuchvariable"));
        l.add(c("set unexpected char", 1, "unexpected character .;.", "\\set i ;"));
        l.add(c("set too many args", 2, "too many function arguments",
                "\\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)"));
        l.add(c("set empty random range", 2, "empty range given to random", "\\set i random(5,3)"));
        l.add(c("set random range too large", 2, "random range is too large", "\\set i random(:minint, :maxint)"));
        l.add(c("set gaussian param too small", 2, "gaussian param.* at least 2", "\\set i random_gaussian(0, 10, 1.0)"));
        l.add(c("set exponential param greater 0", 2, "exponential parameter must be greater ",
                "\\set i random_exponential(0, 10, 0.0)"));
        l.add(c("set zipfian param to 1", 2, "zipfian parameter must be in range \\[1\\.001, 1000\\]",
                "\\set i random_zipfian(0, 10, 1)"));
        l.add(c("set zipfian param too large", 2, "zipfian parameter must be in range \\[1\\.001, 1000\\]",
                "\\set i random_zipfian(0, 10, 1000000)"));
        l.add(c("set non numeric value", 2, "malformed variable \"foo\" value: \"bla\"", "\\set i :foo + 1"));
        l.add(c("set no expression", 1, "syntax error", "\\set i"));
        l.add(c("set missing argument", 1, "(?i)missing argument", "\\set"));
        l.add(c("set not a bool", 2, "cannot coerce double to boolean", "\\set b NOT 0.0"));
        l.add(c("set not an int", 2, "cannot coerce boolean to int", "\\set i TRUE + 2"));
        l.add(c("set not a double", 2, "cannot coerce boolean to double", "\\set d ln(TRUE)"));
        l.add(c("set case error", 1, "syntax error in command \"set\"", "\\set i CASE TRUE THEN 1 ELSE 0 END"));
        l.add(c("set random error", 2, "cannot coerce boolean to int", "\\set b random(FALSE, TRUE)"));
        l.add(c("set number of args mismatch", 1, "unexpected number of arguments", "\\set d ln(1.0, 2.0))"));
        l.add(c("set at least one arg", 1, "at least one argument expected", "\\set i greatest())"));
        l.add(c("set double to int overflow", 2, "double to int overflow for 100", "\\set i int(1E32)"));
        l.add(c("set bigint add overflow", 2, "int add out", "\\set i (1<<62) + (1<<62)"));
        l.add(c("set bigint sub overflow", 2, "int sub out", "\\set i 0 - (1<<62) - (1<<62) - (1<<62)"));
        l.add(c("set bigint mul overflow", 2, "int mul out", "\\set i 2 * (1<<62)"));
        l.add(c("set bigint div out of range", 2, "bigint div out of range", "\\set i :minint / -1"));
        l.add(c("setshell not an int", 2, "command must return an integer", "\\setshell i echo -n one"));
        l.add(c("setshell missing arg", 1, "missing argument ", "\\setshell var"));
        l.add(c("setshell no such command", 2, "could not read result ", "\\setshell var no-such-command"));
        l.add(c("sleep undefined variable", 2, "sleep: undefined variable", "\\sleep :nosuchvariable"));
        l.add(c("sleep too many args", 1, "too many arguments", "\\sleep too many args"));
        l.add(new Case("sleep missing arg", 1, List.of("missing argument", "\\\\sleep"), "\\sleep", false));
        l.add(c("sleep unknown unit", 1, "unrecognized time unit", "\\sleep 1 week"));
        l.add(c("misc invalid backslash command", 1, "invalid command .* \"nosuchcommand\"", "\\nosuchcommand"));
        l.add(c("misc empty script", 1, "empty command list for script", ""));
        l.add(c("bad boolean", 2, "malformed variable.*trueXXX", "\\set b :badtrue or true"));
        l.add(c("invalid permute size", 2, "permute size parameter must be greater than zero", "\\set i permute(0, 0)"));
        l.add(sql("gset no row", 2, "expected one row, got 0\\b", "SELECT WHERE FALSE \\gset"));
        l.add(c("gset alone", 1, "gset must follow an SQL command", "\\gset"));
        l.add(c("gset no SQL", 1, "gset must follow an SQL command", "\\set i +1\n\\gset"));
        l.add(c("gset too many arguments", 1, "too many arguments", "SELECT 1 \\gset a b"));
        l.add(c("gset after gset", 1, "gset must follow an SQL command", "SELECT 1 AS i \\gset\n\\gset"));
        // TAP drops "no_such_table"; Kensho never drops what it did not create, so only in its own temp schema.
        l.add(sql("gset non SELECT", 2, "expected one row, got 0", "DROP TABLE IF EXISTS pg_temp.no_such_table \\gset"));
        l.add(sql("gset bad default name", 2, "error storing into variable \\?column\\?", "SELECT 1 \\gset"));
        l.add(sql("gset bad name", 2, "error storing into variable bad name!", "SELECT 1 AS \"bad name!\" \\gset"));
        // 001_pgbench_with_server.pl "server parameter logging" scripts (-M prepared, client aborts)
        l.add(sql("param 1 json", 2, "ERROR: +invalid input syntax for type json",
                "select '{ invalid ' as value \\gset\nselect $$'Valame Dios!' dijo Sancho; 'no le dije yo a vuestra merced"
                        + " que mirase bien lo que hacia?'$$ as long \\gset\nselect column1::jsonb from (values (:value), (:long)) as q;\n"));
        l.add(sql("param 2 division by zero", 2, "ERROR: +division by zero",
                "select '1' as one \\gset\nSELECT 1 / (random() / 2)::int, :one::int, :two::int;\n"));
        l.add(sql("param 6 smallint", 2, "ERROR: +invalid input syntax for type smallint: \"1a\"",
                "select 42 as value1, '1a' as value2 \\gset\nselect :value1::smallint, :value2::smallint;\n"));
        // 002_pgbench_no_server.pl @script_tests (all rejected before running: status 1)
        l.add(c("missing endif", 1, "\\\\if without matching \\\\endif", "\\if 1"));
        l.add(c("missing if on elif", 1, "\\\\elif without matching \\\\if", "\\elif 1"));
        l.add(c("missing if on else", 1, "\\\\else without matching \\\\if", "\\else"));
        l.add(c("missing if on endif", 1, "\\\\endif without matching \\\\if", "\\endif"));
        l.add(c("elif after else", 1, "\\\\elif after \\\\else", "\\if 1\n\\else\n\\elif 0\n\\endif"));
        l.add(c("else after else", 1, "\\\\else after \\\\else", "\\if 1\n\\else\n\\else\n\\endif"));
        l.add(c("if syntax error", 1, "syntax error in command \"if\"", "\\if\n\\endif\n"));
        l.add(c("elif syntax error", 1, "syntax error in command \"elif\"", "\\if 0\n\\elif +\n\\endif\n"));
        l.add(c("else syntax error", 1, "unexpected argument in command \"else\"", "\\if 0\n\\else BAD\n\\endif\n"));
        l.add(c("endif syntax error", 1, "unexpected argument in command \"endif\"", "\\if 0\n\\endif BAD\n"));
        l.add(c("not enough arguments for least", 1, "at least one argument expected \\(least\\)", "\\set i least()\n"));
        l.add(c("not enough arguments for greatest", 1, "at least one argument expected \\(greatest\\)",
                "\\set i greatest()\n"));
        l.add(c("not enough arguments for hash", 1, "unexpected number of arguments \\(hash\\)", "\\set i hash()\n"));
        l.add(c("too many arguments for hash", 1, "unexpected number of arguments \\(hash\\)", "\\set i hash(1,2,3)\n"));
        l.add(c("bigint overflow 1", 1, "bigint constant overflow", "\\set i 100000000000000000000\n"));
        l.add(c("double overflow 2", 1, "double constant overflow", "\\set d 1.0E309\n"));
        l.add(c("double overflow 3", 1, "double constant overflow", "\\set d .1E310\n"));
        // pgbench shows the line and a caret under column 11; Kensho reports the same position as file:1:11.
        l.add(c("set i", 1, "^set_i_op:1:11: syntax error in command \"set\"", "\\set i 1 +\n"));
        l.add(c("not enough arguments to permute", 1, "unexpected number of arguments \\(permute\\)",
                "\\set i permute(1)\n"));
        l.add(c("too many arguments to permute", 1, "unexpected number of arguments \\(permute\\)",
                "\\set i permute(1, 2, 3, 4)\n"));
        return l;
    }

    static Stream<Case> all() {
        return cases().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void rejectedAsPgbenchDoes(Case tc) throws Exception {
        String file = tc.name.equals("set i") ? "set_i_op" : "001_pgbench_error_" + tc.name.replace(' ', '_');
        if (tc.status == 1) {
            ScriptException e = assertThrows(ScriptException.class, () -> {
                Script s = Script.parse(file, tc.script);
                runner(s, new ArrayList<>());
            });
            assertFalse(e.getMessage().contains("\n"), "one-line message");
            for (String re : tc.regexes) {
                assertTrue(Pattern.compile(re).matcher(e.getMessage()).find(), () -> e.getMessage() + " !~ " + re);
            }
            return;
        }
        Script s = Script.parse(file, tc.script);
        ClientScriptRunner r = runner(s, new ArrayList<>());
        TransactionOutcome o;
        if (tc.sql) {
            LocalServer.assumeReachable();
            try (Connection c = LocalServer.connect(QueryMode.PREPARED)) {
                o = r.runScript(c, 0);
            }
        } else {
            o = r.runScript(null, 0);
        }
        assertFalse(o.ok(), "the client must abort");
        TransactionOutcome out = o;
        for (String re : tc.regexes) {
            assertTrue(Pattern.compile(re).matcher(out.message()).find(), () -> out.message() + " !~ " + re);
        }
    }

    static ClientScriptRunner runner(Script s, List<String> debug) throws ScriptException {
        Variables v = new Variables();
        for (String d : DEFINES) {
            v.define(d);
        }
        v.standard(1, 0, 5432, 0);
        return new ClientScriptRunner(List.of(s), 0, v, new PgbenchRandom(1), QueryMode.PREPARED,
                ClientScriptRunner.Options.defaults().withStderr(debug::add));
    }

    @org.junit.jupiter.api.Test
    void caseCount() {
        assertEquals(76, cases().size());
    }
}
