package dev.kensho.pgbench.script;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** -b/-f specifications, builtin prefixes and weights, as pgbench parses them (002_pgbench_no_server.pl options). */
class ScriptSpecTest {

    @ParameterizedTest
    @CsvSource({"-b se,select-only,1", "-b si@7,simple-update,7", "-b t,tpcb-like,1", "--builtin=tpcb-like@0,tpcb-like,0",
        "-b pgecons-read,pgecons-read,1", "-b pgecons-read-n@2,pgecons-read-noagg,2", "-b pgecons-u,pgecons-update,1"})
    void builtinPrefixesAndWeights(String spec, String name, int weight) throws Exception {
        Script s = Script.fromSpec(spec);
        assertEquals(name, s.name());
        assertEquals(weight, s.weight());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-b no-such-builtin|no builtin script .* \"no-such-builtin\"",
        "--builtin=select-only@one|invalid weight specification: @one",
        "-b select-only@-1|weight spec.* out of range .*: -1",
        "-b s|ambiguous",
        "-b pgecons|ambiguous builtin name: 3 builtin scripts",
        // the system's reason, as pgbench gives it (not Java's message, which repeats the path)
        "-f /no/such/file|^could not open file \"/no/such/file\": No such file or directory$",
        "-f /tmp|^could not read file \"/tmp\": Is a directory$",
    })
    void rejectedSpecs(String spec, String regex) {
        ScriptException e = assertThrows(ScriptException.class, () -> Script.fromSpec(spec));
        assertTrue(java.util.regex.Pattern.compile(regex).matcher(e.getMessage()).find(), e.getMessage());
    }

    @Test
    void weightRules() throws Exception {
        ScriptException zero = assertThrows(ScriptException.class, () -> Script.checkList(
                List.of(Script.fromSpec("-b se@0"), Script.fromSpec("-b si@0"), Script.fromSpec("-b tpcb@0"))));
        assertTrue(zero.getMessage().contains("weight must not be zero"));
        ScriptException many = assertThrows(ScriptException.class,
                () -> Script.checkList(Collections.nCopies(129, Script.builtin("se"))));
        assertTrue(many.getMessage().contains("at most 128 SQL scripts"));
        // pgbench sums the weights in 64 bits: two of 2^31-1 are a valid list
        Script.checkList(List.of(Script.fromSpec("-b se@2147483647"), Script.fromSpec("-b si@2147483647")));
    }

    @Test
    void fileSpecWithWeight(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("w@x.sql");
        Files.writeString(f, "SELECT 1;\n");
        Script s = Script.fromSpec("-f " + f + "@5");
        assertEquals(5, s.weight());
        assertEquals(f.toString(), s.name());
    }

    @Test
    void builtinTextIsPgbenchs() throws Exception {
        Script t = Script.builtin("tpcb-like");
        assertEquals("<builtin: TPC-B (sort of)>", t.description());
        assertEquals(List.of("\\set aid random(1, 100000 * :scale)", "\\set bid random(1, 1 * :scale)",
                "\\set tid random(1, 10 * :scale)", "\\set delta random(-5000, 5000)", "BEGIN;",
                "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;",
                "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;",
                "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;",
                "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;",
                "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);",
                "END;"), t.commandLines());
        assertEquals(List.of("\\set aid random(1, 100000 * :scale)",
                "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;"), Script.builtin("select-only").commandLines());
        assertEquals(9, Script.builtin("simple-update").commands().size());
    }

    /** With the C pgbench present: its --show-script text is what our builtin resources say. */
    @Test
    void builtinTextEqualsShowScript() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(LocalServer.PGBENCH), "no C pgbench");
        for (String b : List.of("tpcb-like", "simple-update", "select-only")) {
            Process p = new ProcessBuilder(LocalServer.PGBENCH.toString(), "--show-script=" + b).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            String body = out.substring(out.indexOf('\n') + 1).strip();
            assertEquals(body, String.join("\n", Script.builtin(b).commandLines()));
        }
    }
}
