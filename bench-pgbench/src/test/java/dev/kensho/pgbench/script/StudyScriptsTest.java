package dev.kensho.pgbench.script;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every script quoted in the studies (copies under src/test/resources/studies, byte for byte as quoted), parsed
 * unchanged. Two quotes carry typos that pgbench 15 itself rejects ("\set aid_random(1, :aid_max)" in study 000
 * ch.5, "\set aid random(1 :aid_max)" in study 001): Kensho runs exactly those lines as the studies' authors ran
 * them, with a warning, and rejects any other line with the same mistakes where pgbench rejects it.
 */
class StudyScriptsTest {

    @ParameterizedTest
    @ValueSource(strings = {"000-ch4-read.sql", "000-ch4-read-noagg-query.sql", "000-ch4-update.sql",
        "000-ch5-read.sql", "000-ch5-update.sql", "001-read.sql", "001-update.sql"})
    void parsesUnchanged(String file) throws Exception {
        Script s = Script.parse(file, ScriptParseTest.resource("/studies/" + file));
        assertTrue(s.commands().size() >= 1);
    }

    @Test
    void study000ReadUsesSetrandomAndRunsAsRandom() throws Exception {
        Script s = Script.parse("000-ch4-read.sql", ScriptParseTest.resource("/studies/000-ch4-read.sql"));
        assertEquals(List.of(Command.Kind.SET, Command.Kind.SET, Command.Kind.SET, Command.Kind.SET, Command.Kind.SQL),
                s.commands().stream().map(Command::kind).toList());
        assertEquals("random(int 1, :aid_max)", s.commands().get(3).expr().toString());
        assertEquals(List.of("aid", "aid", "row_count"), s.commands().get(4).paramNames());
    }

    @Test
    void theTwoTypodQuotesRunAsTheirAuthorsRanThemWithAWarning() throws Exception {
        List<String> warned = new ArrayList<>();
        Consumer<String> saved = ScriptParser.warnings;
        ScriptParser.warnings = warned::add;
        try {
            Script reference = Script.builtin("pgecons-read");
            // each parsed twice, as a sweep parses its scripts for every trial: the warning is said once
            for (String file : List.of("000-ch5-read.sql", "000-ch5-read.sql", "001-read.sql", "001-read.sql")) {
                Script s = Script.parse("typod-" + file, ScriptParseTest.resource("/studies/" + file));
                Command set = s.commands().get(3);
                assertEquals(Command.Kind.SET, set.kind());
                assertEquals("aid", set.variable());
                assertEquals(reference.commands().get(3).expr().toString(), set.expr().toString());
                assertEquals(4, set.line());
                assertEquals(Command.Kind.SQL, s.commands().get(4).kind());
                assertEquals(List.of("aid", "aid", "row_count"), s.commands().get(4).paramNames());
            }
        } finally {
            ScriptParser.warnings = saved;
        }
        assertEquals(List.of(
                "warning: typod-000-ch5-read.sql:4: running \"\\set aid_random(1, :aid_max)\" as \"\\set aid random(1, :aid_max)\""
                        + " (the typo is in PGECons study 000, section 5.3.3.1; pgbench rejects the line as quoted)",
                "warning: typod-001-read.sql:4: running \"\\set aid random(1 :aid_max)\" as \"\\set aid random(1, :aid_max)\""
                        + " (the typo is in PGECons study 001, read-only custom script; pgbench rejects the line as quoted)"),
                warned);
    }

    @Test
    void anyOtherLineWithTheSameTyposIsRejectedAsPgbenchRejectsIt() {
        ScriptException glued = assertThrows(ScriptException.class,
                () -> Script.parse("g.sql", "\\set bid_random(1, :aid_max)\n"));
        assertEquals("g.sql:1:28: syntax error in command \"set\": the variable name would be \"bid_random(1,\""
                + " (did you mean \"\\set bid random(1, :aid_max)\"?)", glued.getMessage());
        ScriptException comma = assertThrows(ScriptException.class,
                () -> Script.parse("c.sql", "\\set aid random(1 :naccounts)\n"));
        assertEquals("c.sql:1:19: syntax error in command \"set\": expected ',' or ')' after argument 1 of random()",
                comma.getMessage());
        assertEquals(1, comma.getMessage().lines().count());
        ScriptException noName = assertThrows(ScriptException.class, () -> Script.parse("n.sql", "\\set random(1, 10)\n"));
        assertTrue(noName.getMessage().endsWith("(\\set needs a variable name before the expression)"), noName.getMessage());
        ScriptException other = assertThrows(ScriptException.class, () -> Script.parse("o.sql", "\\set x(1, 2)\n"));
        assertTrue(other.getMessage().endsWith("the variable name would be \"x(1,\" (a space missing after the variable name?)"),
                other.getMessage());
    }

    @Test
    void builtinsMatchTheStudiesScripts() throws Exception {
        Script read = Script.builtin("pgecons-read");
        Script quoted = Script.parse("000-ch4-read.sql", ScriptParseTest.resource("/studies/000-ch4-read.sql"));
        assertEquals(quoted.commands().get(4).sql(), read.commands().get(4).sql());
        Script update = Script.builtin("pgecons-update");
        Script quotedUpdate = Script.parse("000-ch4-update.sql", ScriptParseTest.resource("/studies/000-ch4-update.sql"));
        assertEquals(quotedUpdate.commands().get(2).sql(), update.commands().get(2).sql());
        Script noagg = Script.builtin("pgecons-read-noagg");
        String query = ScriptParseTest.resource("/studies/000-ch4-read-noagg-query.sql").strip();
        assertEquals(query, noagg.commands().get(4).sql().strip());
    }
}
