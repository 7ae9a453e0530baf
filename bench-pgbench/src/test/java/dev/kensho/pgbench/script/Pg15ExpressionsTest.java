package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.pgbench.QueryMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Edge cases beyond the TAP suite (precedence of ~ and NOT, rint in int(), % on doubles, shifts past 63,
 * NaN/Infinity, %.15g formatting, hashes, permute, random draws, variable text conversions incl. hex and
 * out-of-range doubles), each recorded from PostgreSQL 15.20's pgbench in oracle/pg15-expressions.tsv.
 */
class Pg15ExpressionsTest {
    static final String[] DEFINES = {"minint=-9223372036854775808", "hex=0x10", "hexf=0x1p4", "inf=inf",
        "minf=-Infinity", "nan=nan", "big=1e400", "tiny=1e-400", "denorm=4.9e-324", "sp=12x", "y=y", "ye=ye",
        "yes=YES", "no=no", "n=N", "of=of", "off=off", "on=on", "TR=TR", "plus=+7", "spint=_12", "zero4=0000",
        "nearmin=2.2250738585072012e-308", "lsp= 12", "tsp=12 ", "sign=+", "lspd= 1.5", "zd=0.0", "hmin=0x1p-1022",
        "zZ9=9", "nanp=nan(123)", "nanq=NaN(x_Y)", "nano=nan(", "hsub=0x1p-1074", "hsubx=0x1.8p-1074",
        "hsubn=-0x0.0000000000001P-1022", "hsub2=0x1.0000000000001p-1023"};

    static Stream<String[]> recorded() throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String line : ScriptParseTest.resource("/oracle/pg15-expressions.tsv").split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                rows.add(line.split("\t", 2));
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("recorded")
    void sameAsPgbench15(String expr, String expected) throws Exception {
        boolean value = expected.matches("(int|double|boolean) \\S+|null");
        Script s;
        try {
            s = Script.parse("one.sql", "\\set x debug(" + expr + ")\n");
        } catch (ScriptException e) {
            assertFalse(value, () -> "rejected: " + e.getMessage());
            assertTrue(e.getMessage().contains(expected.replaceFirst(" in command.*", "")), e.getMessage());
            return;
        }
        List<String> debug = new ArrayList<>();
        TransactionOutcome o = runner(s, debug, DEFINES).runScript(null, 0);
        if (value) {
            assertTrue(o.ok(), o::toString);
            assertEquals(List.of("debug(script=0,command=1): " + expected), debug);
        } else {
            assertFalse(o.ok());
            assertTrue(o.message().contains(expected), o.message());
        }
    }

    /**
     * pgbench's bison stack holds 9998 symbols: the deepest nesting pgbench 15 accepted and the first it
     * rejected with "memory exhausted", for prefix operators, parentheses (the closing one is shifted before
     * the reduction) and CASE.
     */
    @ParameterizedTest(name = "{0} x {1}: accepted {2}")
    @CsvSource({
        "unary minus, 9995, true", "unary minus, 9996, false",
        "parentheses, 9996, true", "parentheses, 9997, false",
        "case, 2499, true", "case, 2500, false",
        // each construct shifts its own symbols (found by bisecting with pgbench 15.20, \set x EXPR)
        "unary plus, 9997, true", "unary plus, 9998, false",
        "tilde, 9997, true", "tilde, 9998, false",
        "not, 9997, true", "not, 9998, false",
        "minus minint, 9997, true", "minus minint, 9998, false",
        "right operand, 9995, true", "right operand, 9996, false",
        "function, 4998, true", "function, 4999, false",
        "second argument, 2499, true", "second argument, 2500, false",
        "leading comma, 2499, true", "leading comma, 2500, false",
        "is not null, 9994, true", "is not null, 9995, false",
        "is true, 9995, true", "is true, 9996, false",
        "isnull, 9996, true", "isnull, 9997, false",
        "case else, 3332, true", "case else, 3333, false",
        "case second when, 1999, true", "case second when, 2000, false",
        "case condition, 4997, true", "case condition, 4998, false",
    })
    void nestingUpToPgbenchsParserStack(String form, int n, boolean accepted) {
        String expr = switch (form) {
            case "unary minus" -> "debug(" + "- ".repeat(n) + "1)";
            case "parentheses" -> "(".repeat(n) + "1" + ")".repeat(n);
            case "case" -> "CASE WHEN true THEN ".repeat(n) + "1" + " END".repeat(n);
            case "unary plus" -> "+ ".repeat(n) + "1";
            case "tilde" -> "~ ".repeat(n) + "1";
            case "not" -> "NOT ".repeat(n) + "true";
            case "minus minint" -> "- ".repeat(n) + "9223372036854775808";
            case "right operand" -> "1 + " + "- ".repeat(n) + "1";
            case "function" -> "abs(".repeat(n) + "1" + ")".repeat(n);
            case "second argument" -> "least(1, ".repeat(n) + "1" + ")".repeat(n);
            case "leading comma" -> "least(, ".repeat(n) + "1" + ")".repeat(n);
            case "is not null" -> "(".repeat(n) + "1 IS NOT NULL" + ")".repeat(n);
            case "is true" -> "(".repeat(n) + "true IS TRUE" + ")".repeat(n);
            case "isnull" -> "(".repeat(n) + "1 ISNULL" + ")".repeat(n);
            case "case else" -> "CASE WHEN true THEN 1 ELSE ".repeat(n) + "1" + " END".repeat(n);
            case "case second when" -> "CASE WHEN false THEN 0 WHEN true THEN ".repeat(n) + "1" + " END".repeat(n);
            case "case condition" -> "CASE WHEN ".repeat(n) + "true" + " THEN 1 END".repeat(n);
            default -> throw new IllegalArgumentException(form);
        };
        String text = "\\set x " + expr + "\n";
        if (accepted) {
            assertDoesNotThrow(() -> Script.parse("deep.sql", text));
        } else {
            ScriptException e = assertThrows(ScriptException.class, () -> Script.parse("deep.sql", text));
            assertTrue(e.getMessage().contains("memory exhausted"), e.getMessage());
        }
    }

    /**
     * A script whose last line has no newline: the expression ends at the end of the text, where the lexer must
     * not look past it. What pgbench 15 printed for each file (printf '%s' TEXT > f.sql; pgbench -n -t 1 -f f.sql).
     */
    static Stream<Arguments> unterminated() {
        return Stream.of(
                Arguments.of("\\set x debug(10)", "int 10"),
                Arguments.of("\\set zZ 3\n\\set x debug(:zZ)", "int 3"),
                Arguments.of("\\set x debug(2.5)", "double 2.5"),
                Arguments.of("\\set x debug(2e3)", "double 2000"),
                Arguments.of("\\set x debug(7) + 2e", "syntax error"),
                Arguments.of("\\set x debug(3) \\", "unexpected character (\\)"),
                Arguments.of("\\set x debug(3) :", "unexpected character (:)"),
                Arguments.of("\\set x debug(3) .", "unexpected character (.)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unterminated")
    void lastLineWithoutNewline(String text, String expected) throws Exception {
        if (!expected.startsWith("int") && !expected.startsWith("double")) {
            ScriptException e = assertThrows(ScriptException.class, () -> Script.parse("nonl.sql", text));
            assertTrue(e.getMessage().contains(expected), e.getMessage());
            return;
        }
        Script s = Script.parse("nonl.sql", text);
        List<String> debug = new ArrayList<>();
        TransactionOutcome o = runner(s, debug).runScript(null, 0);
        assertTrue(o.ok(), o::toString);
        assertEquals(List.of("debug(script=0,command=" + s.commands().size() + "): " + expected), debug);
    }

    /** pgbench evaluates the first 16 arguments, printing their debug() lines, and only then fails. */
    @Test
    void tooManyArgumentsFailAfterTheFirstSixteenAreEvaluated() throws Exception {
        Script s = Script.parse("many.sql",
                "\\set x least(debug(1), 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, debug(16), debug(17))\n");
        List<String> debug = new ArrayList<>();
        TransactionOutcome o = runner(s, debug).runScript(null, 0);
        assertFalse(o.ok());
        assertTrue(o.message().contains("too many function arguments, maximum is 16"), o.message());
        assertEquals(List.of("debug(script=0,command=1): int 1", "debug(script=0,command=1): int 16"), debug);
    }

    /**
     * pgbench 15 evaluated these on its 8 MB stack (a chain of 20000 additions crashed it); Kensho's client
     * threads have 256 KB stacks, so deep trees are evaluated aside.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"16000 additions, int 16001", "9995 unary minuses, int -1", "a CASE of 20000 WHENs, int 2"})
    void deepExpressionsEvaluateOnASmallClientStack(String form, String expected) throws Exception {
        // a CASE's WHENs are one call's arguments, flat, but were evaluated one frame each: 2000 overflowed
        String expr = form.startsWith("16000") ? "1" + " + 1".repeat(16_000) : form.startsWith("a CASE")
                ? "CASE" + " WHEN false THEN 1".repeat(20_000) + " ELSE 2 END" : "- ".repeat(9_995) + "1";
        Script s = Script.parse("deep.sql", "\\set x debug(" + expr + ")\n");
        List<String> debug = new ArrayList<>();
        ClientScriptRunner runner = runner(s, debug);
        Variables v = runner.variables();
        TransactionOutcome[] o = new TransactionOutcome[1];
        Thread client = new Thread(null, () -> o[0] = runner.runScript(null, 0), "small-stack-client", 256 * 1024);
        client.start();
        client.join();
        assertTrue(o[0].ok(), o[0]::toString);
        assertEquals(List.of("debug(script=0,command=1): " + expected), debug);
        // the value evaluated aside is the one \set stores, not only the one debug() printed there
        assertEquals(expected.substring("int ".length()), runner.variables().text("x"));
        v.putInt("x", 0);

        // as the driver runs it: a client thread sized for the script's deepest tree evaluates it in place
        int depth = s.commands().get(0).expr().depth();
        Thread sized = new Thread(null, () -> {
            dev.kensho.pgbench.script.expr.Expr.stackHolds(depth);
            o[0] = runner.runScript(null, 0);
        }, "sized-client", Math.max(256 * 1024, dev.kensho.pgbench.script.expr.Expr.stackBytesFor(depth)));
        sized.start();
        sized.join();
        assertTrue(o[0].ok(), "the stack sized for depth " + depth + " holds it: " + o[0]);
        assertEquals(expected.substring("int ".length()), runner.variables().text("x"));
        assertEquals(List.of("debug(script=0,command=1): " + expected, "debug(script=0,command=1): " + expected), debug);
    }

    /** Prefix operators recurse several frames per character: 1980 of them are parsed on a small thread too. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"~", "-", "+"})
    void longPrefixChainsParseOnAnyThread(String op) throws Exception {
        int n = 1980;
        String text = "\\set x debug(" + (op + " ").repeat(n) + "1)\n";
        Script[] parsed = new Script[1];
        Throwable[] failed = new Throwable[1];
        Thread small = new Thread(null, () -> {
            try {
                parsed[0] = Script.parse("prefix.sql", text);
            } catch (Throwable t) {
                failed[0] = t;
            }
        }, "small-stack-reader", 256 * 1024);
        small.start();
        small.join();
        assertEquals(null, failed[0]);
        assertEquals(1, parsed[0].commands().size());
    }

    /** A client of pgbench's seed 77 running S, its debug() lines into DEBUG, with these -D definitions. */
    private static ClientScriptRunner runner(Script s, List<String> debug, String... defines) throws Exception {
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(77, 1, 1);
        Variables v = new Variables();
        for (String d : defines) {
            v.define(d);
        }
        v.standard(1, 0, 77, seeds.defaultSeed());
        return new ClientScriptRunner(List.of(s), 0, v, seeds.clients()[0], QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults().withStderr(debug::add));
    }
}
