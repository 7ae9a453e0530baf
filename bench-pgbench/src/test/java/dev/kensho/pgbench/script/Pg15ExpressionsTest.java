package dev.kensho.pgbench.script;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Edge cases beyond the TAP suite (precedence of ~ and NOT, rint in int(), % on doubles, shifts past 63,
 * NaN/Infinity, %.15g formatting, hashes, permute, random draws, variable text conversions incl. hex and
 * out-of-range doubles), each recorded from PostgreSQL 15.20's pgbench in oracle/pg15-expressions.tsv.
 */
class Pg15ExpressionsTest {
    static final String[] DEFINES = {"minint=-9223372036854775808", "hex=0x10", "hexf=0x1p4", "inf=inf",
        "minf=-Infinity", "nan=nan", "big=1e400", "tiny=1e-400", "denorm=4.9e-324", "sp=12x", "y=y", "ye=ye",
        "yes=YES", "no=no", "n=N", "of=of", "off=off", "on=on", "TR=TR", "plus=+7", "spint=_12", "zero4=0000"};

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
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(77, 1, 1);
        Variables v = new Variables();
        for (String d : DEFINES) {
            v.define(d);
        }
        v.standard(1, 0, 77, seeds.defaultSeed());
        List<String> debug = new ArrayList<>();
        TransactionOutcome o = new ClientScriptRunner(List.of(s), 0, v, seeds.clients()[0], QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults().withStderr(debug::add)).runScript(null, 0);
        if (value) {
            assertTrue(o.ok(), o::toString);
            assertEquals(List.of("debug(script=0,command=1): " + expected), debug);
        } else {
            assertFalse(o.ok());
            assertTrue(o.message().contains(expected), o.message());
        }
    }
}
