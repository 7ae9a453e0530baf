package dev.kensho.pgbench.script;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every script quoted in the studies (copies under src/test/resources/studies, byte for byte as quoted), parsed
 * unchanged. Two quotes carry typos that pgbench 15 itself rejects ("\set aid_random(1, :aid_max)" in study 000
 * ch.5, "\set aid random(1 :aid_max)" in study 001); Kensho rejects them at the same place, as pgbench does.
 */
class StudyScriptsTest {

    @ParameterizedTest
    @ValueSource(strings = {"000-ch4-read.sql", "000-ch4-read-noagg-query.sql", "000-ch4-update.sql",
        "000-ch5-update.sql", "001-update.sql"})
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

    @ParameterizedTest
    @ValueSource(strings = {"000-ch5-read.sql:4:28", "001-read.sql:4:19"})
    void typosAreRejectedWherePgbenchRejectsThem(String fileLineCol) {
        String file = fileLineCol.substring(0, fileLineCol.indexOf(':'));
        ScriptException e = assertThrows(ScriptException.class,
                () -> Script.parse(file, ScriptParseTest.resource("/studies/" + file)));
        assertTrue(e.getMessage().startsWith(fileLineCol + ": syntax error in command \"set\""), e.getMessage());
    }

    @Test
    void typosGetAHintOnTheirOneLine() {
        ScriptException glued = assertThrows(ScriptException.class,
                () -> Script.parse("000-ch5-read.sql", ScriptParseTest.resource("/studies/000-ch5-read.sql")));
        assertEquals("000-ch5-read.sql:4:28: syntax error in command \"set\": the variable name would be \"aid_random(1,\""
                + " (did you mean \"\\set aid random(1, :aid_max)\"?)", glued.getMessage());
        ScriptException comma = assertThrows(ScriptException.class,
                () -> Script.parse("001-read.sql", ScriptParseTest.resource("/studies/001-read.sql")));
        assertEquals("001-read.sql:4:19: syntax error in command \"set\": expected ',' or ')' after argument 1 of random()",
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
