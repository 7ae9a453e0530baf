package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.pgbench.script.expr.CFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Edges of the script language no other test reached without a server (PIT's surviving mutants found them). Every
 * expected value is what C pgbench 15.20 printed for the same script ({@code pgbench -n -t 1 --random-seed=5432 -f f.sql}).
 */
class AsCPgbenchEdgesTest {

    private static Map<Integer, String> run(String script) throws ScriptException {
        return TapExpressionTest.run(script, 5432, 0, 1);
    }

    /** pgbench's valueTruth for \if and CASE WHEN: a non-zero int or double is true. */
    @Test
    void numbersAsConditions() throws Exception {
        Map<Integer, String> d = run("""
                \\set a debug(CASE WHEN 2 THEN 1 ELSE 0 END)
                \\set b debug(CASE WHEN 0 THEN 1 ELSE 0 END)
                \\set c debug(CASE WHEN 0.5 THEN 1 ELSE 0 END)
                \\set d debug(CASE WHEN 0.0 THEN 1 ELSE 0 END)
                \\if 3
                \\set u debug(1)
                \\else
                \\set u debug(0)
                \\endif
                """);
        assertEquals(Map.of(1, "int 1", 2, "int 0", 3, "int 1", 4, "int 0", 6, "int 1"), d);
    }

    @Test
    void doubleEqualityAndInequality() throws Exception {
        Map<Integer, String> d = run("""
                \\set e debug(1.5 = 1.5)
                \\set f debug(1.5 <> 1.5)
                \\set g debug(1.5 = 2.5)
                \\set h debug(1.5 <> 2.5)
                """);
        assertEquals(Map.of(1, "boolean true", 2, "boolean false", 3, "boolean false", 4, "boolean true"), d);
    }

    /** %.15g: fixed notation from 1e-4 up to below 1e15, all 15 significant digits kept for small values. */
    @Test
    void doublesPrintedAsPercentG() throws Exception {
        Map<Integer, String> d = run("""
                \\set i debug(0.000123456789012345)
                \\set j debug(0.0001)
                \\set k debug(0.00001)
                \\set l debug(1e15)
                \\set m debug(123456789012345.0)
                """);
        assertEquals(Map.of(1, "double 0.000123456789012345", 2, "double 0.0001", 3, "double 1e-05",
                4, "double 1e+15", 5, "double 123456789012345"), d);
        assertEquals("0.000123456789012345", CFormat.g15(0.000123456789012345));
        assertEquals("0.0001", CFormat.g15(0.0001));
        assertEquals("1e+15", CFormat.g15(1e15));
    }

    /** The values themselves, not only that permute is a bijection; size 2 is the smallest real permutation. */
    @Test
    void permuteValuesAsPgbench() throws Exception {
        Map<Integer, String> d = run("""
                \\set n debug(permute(0, 10, 5432))
                \\set o debug(permute(1, 10, 5432))
                \\set p debug(permute(7, 10, 5432))
                \\set q debug(permute(0, 2, 5432))
                \\set r debug(permute(1, 2, 5432))
                \\set s debug(permute(0, 2, 1))
                \\set t debug(permute(1, 2, 1))
                """);
        assertEquals(Map.of(1, "int 6", 2, "int 5", 3, "int 4", 4, "int 0", 5, "int 1", 6, "int 1", 7, "int 0"), d);
    }

    /** Both ends of the range come out, in pgbench's order: random(1, 2) and random_zipfian(1, 3, 1.5). */
    @Test
    void randomSequencesAsPgbench() throws Exception {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= 30; i++) {
            s.append("\\set r").append(i).append(" debug(random(1, 2))\n");
        }
        for (int i = 1; i <= 30; i++) {
            s.append("\\set z").append(i).append(" debug(random_zipfian(1, 3, 1.5))\n");
        }
        List<String> got = new ArrayList<>();
        run(s.toString()).values().forEach(v -> got.add(v.substring(4)));
        assertEquals(List.of(("2 1 1 1 1 2 1 2 2 1 2 2 1 1 2 2 2 2 2 2 2 2 1 1 1 1 2 1 1 2 "
                + "1 1 3 1 1 1 1 1 3 1 1 1 2 2 1 3 1 1 1 1 3 2 1 1 2 1 2 3 1 1").split(" ")), got);
    }

    /** exprscan.l's continuation is a backslash before \n or \r\n (a script saved with CRLF line ends). */
    @Test
    void continuationLines() throws Exception {
        Map<Integer, String> d = run("\\set x debug(1 + \\\r\n 2)\r\n\\set y debug(3 \\\n* 2)\n");
        assertEquals(Map.of(1, "int 3", 2, "int 6"), d);
    }

    @Test
    void exponentAtTheEndOfTheText() throws Exception {
        Script s = Script.parse("nonl.sql", "\\set x 2e3");
        assertEquals(1, s.commands().size());
        assertEquals(Map.of(2, "double 2000"), run("\\set x 2e3\n\\set y debug(:x)"));
    }

    /** -R's delays: pgbench rounds -log(u) * center to the nearest microsecond (P(0) = 1 - e^-0.5 at center 1). */
    @Test
    void poissonDelaysRoundToNearest() {
        PgbenchRandom r = new PgbenchRandom(11);
        int zeros = 0;
        for (int i = 0; i < 20_000; i++) {
            if (r.nextPoisson(1.0) == 0) {
                zeros++;
            }
        }
        assertEquals(1 - Math.exp(-0.5), zeros / 20_000.0, 0.015);
    }

    @Test
    void seedsFrom2To63UpAreUnsigned() {
        // pgbench 15: "setting random seed to 9223372036854775808"
        assertEquals(Long.MIN_VALUE, PgbenchRandom.parseSeed("9223372036854775808"));
        assertEquals(-2L, PgbenchRandom.parseSeed("18446744073709551614"));
        // sscanf's %lu skips a leading space as it does a tab ("--random-seed= 7": "setting random seed to 7")
        assertEquals(7L, PgbenchRandom.parseSeed(" 7"));
    }

    @Test
    void cCastOfTwoTo63() {
        assertEquals(Long.MIN_VALUE, PgbenchRandom.int64(0x1p63));
        assertEquals(Long.MAX_VALUE - 1023, PgbenchRandom.int64(Math.nextDown(0x1p63)));
    }

    @Test
    void zeroKeepsItsSignInFixedPoint() {
        assertEquals("0.000", CFormat.printf("%.3f", 0.0));
        assertEquals("-0.000", CFormat.printf("%.3f", -0.0));
        assertEquals("1.500", CFormat.printf("%.3f", 1.5));
    }

    /** \setshell reads its output as (int) strtol: a sign, clamping at 64 bits, then the cut to 32 (pgbench 15.20). */
    @Test
    void setshellReadsAsCStrtol() throws Exception {
        Map<Integer, String> d = run("""
                \\setshell a echo -12
                \\set x debug(:a)
                \\setshell b echo 9223372036854775808
                \\set x debug(:b)
                \\setshell c echo -9223372036854775809
                \\set x debug(:c)
                \\setshell d echo "  +7  "
                \\set x debug(:d)
                \\setshell e echo 4294967301
                \\set x debug(:e)
                """);
        assertEquals(Map.of(2, "int -12", 4, "int -1", 6, "int 0", 8, "int 7", 10, "int 5"), d);
    }

    /** C strtol(s, &end, 10): value and end (0 when no digit), as \sleep's atoi and \setshell use it. */
    @Test
    void strtolAsC() {
        assertEquals(new Variables.CLong(-12, 5), Variables.strtol("  -12abc"));
        assertEquals(new Variables.CLong(7, 2), Variables.strtol("+7"));
        assertEquals(new Variables.CLong(0, 0), Variables.strtol("abc"));
        assertEquals(new Variables.CLong(0, 0), Variables.strtol("-"));
        assertEquals(new Variables.CLong(0, 0), Variables.strtol(""));
        assertEquals(new Variables.CLong(Long.MAX_VALUE, 19), Variables.strtol("9223372036854775807"));
        assertEquals(new Variables.CLong(Long.MAX_VALUE, 19), Variables.strtol("9223372036854775808"));
        assertEquals(new Variables.CLong(Long.MIN_VALUE, 20), Variables.strtol("-9223372036854775808"));
        assertEquals(new Variables.CLong(Long.MIN_VALUE, 20), Variables.strtol("-9223372036854775809"));
        assertEquals(new Variables.CLong(Long.MAX_VALUE, 25), Variables.strtol("9999999999999999999999999"));
        assertEquals(10, Variables.atoi("10ms"));
    }

    /**
     * An E string continued on the next line keeps its escapes, a doubled quote stays in its string or identifier:
     * pgbench 15.20 -r listed these three commands for this file.
     */
    @Test
    void quotesAndContinuedEStringsSplitAsPgbench() throws Exception {
        Script s = Script.parse("q.sql", "SELECT E'a'\n  '\\';' AS x;\nSELECT 'p'';q' AS y;\nSELECT 1 AS \"a\"\";b\";\n");
        assertEquals(List.of("SELECT E'a'", "SELECT 'p'';q' AS y;", "SELECT 1 AS \"a\"\";b\";"), s.commandLines());
        assertEquals("SELECT E'a'\n  '\\';' AS x;", s.commands().get(0).sql().strip());
    }
}
