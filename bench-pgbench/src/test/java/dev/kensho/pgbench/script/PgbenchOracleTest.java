package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.pgbench.QueryMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Side by side with the C pgbench 15 on this machine: the same scripts with the same --random-seed must print
 * the same debug() lines, value for value, for every client, and choose the same scripts by weight.
 * Skipped when /usr/lib/postgresql/15/bin/pgbench or the server on 127.0.0.1:5432 is absent.
 */
class PgbenchOracleTest {
    @TempDir
    Path dir;

    /** Runs the C pgbench (-n, database test) and returns its stderr debug lines. */
    private List<String> pgbench(String... args) throws IOException, InterruptedException {
        return pgbenchOutput(args).lines().filter(l -> l.startsWith("debug(")).toList();
    }

    private String pgbenchOutput(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(LocalServer.PGBENCH.toString(), "-h", "127.0.0.1", "-p", "5432",
                "-U", "postgres", "-n"));
        cmd.addAll(List.of(args));
        cmd.add("test");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), () -> "pgbench failed: " + out);
        return out;
    }

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void tapExpressionScriptPrintsTheSameLines() throws Exception {
        LocalServer.assumePgbench();
        Path f = write("tap.sql", TapExpressionTest.tapScript());
        List<String> c = pgbench("--random-seed=5432", "-t", "1", "-Dfoo=-10.1", "-Dbla=false", "-Di=+3", "-Dn=null",
                "-Dt=t", "-Df=of", "-Dd=1.0", "-f", f.toString());
        Map<Integer, String> ours = TapExpressionTest.run(
                TapExpressionTest.tapScript().replace("SELECT :v0, :v1, :v2, :v3;", "\\set v4 0"), 5432, 0, 1,
                TapExpressionTest.DEFINES);
        List<String> mine = new ArrayList<>();
        ours.forEach((k, v) -> mine.add("debug(script=0,command=" + k + "): " + v));
        assertEquals(c, mine);
    }

    /** pgbench -r lists every command's first line: the same split as ours, for several scripts. */
    @Test
    void commandSplitMatchesPerStatementReport() throws Exception {
        LocalServer.assumePgbench();
        for (String resource : List.of("/split/split.sql", "/split/atomic.sql", "/tap/001_pgbench_expressions.sql")) {
            String text = ScriptParseTest.resource(resource);
            Path f = write("s.sql", text);
            String out = pgbenchOutput("-t", "1", "-r", "--random-seed=5432", "-Dfoo=-10.1", "-Dn=null", "-Dt=t",
                    "-Df=of", "-f", f.toString());
            List<String> theirs = out.substring(out.indexOf("statement latencies")).lines().skip(1)
                    .map(l -> l.replaceFirst("^\\s+\\S+\\s+\\S+  ", "")).toList();
            // -r prints multi-line meta-commands (continuations) with their newlines
            List<String> ours = Script.parse("s.sql", text).commandLines().stream().flatMap(String::lines).toList();
            assertEquals(theirs, ours, resource);
        }
    }

    /** -r names an SQL command by its text up to the first CR or LF, at most 127 bytes, as pgbench 15 does. */
    @Test
    void perStatementReportLinesStopAtCrAndAt127Bytes() throws Exception {
        StringBuilder longLine = new StringBuilder("SELECT 0");
        for (int i = 1; i < 60; i++) longLine.append(", ").append(i);
        String text = "SELECT 1\r\n  ;\r\n\\set a 1\r\n" + longLine + ";\r\nSELECT 2;\n";
        assertEquals(List.of("SELECT 1", "\\set a 1", longLine.substring(0, 127), "SELECT 2;"),
                Script.parse("s.sql", text).commandLines());
        // 'é' is two bytes: the cut falls before the character that would pass 127 (pgbench cuts inside it)
        assertEquals("SELECT '" + "é".repeat(59), Script.parse("u.sql", "SELECT '" + "é".repeat(70) + "';\n").commandLines().get(0));
        LocalServer.assumePgbench();
        Path f = write("s.sql", text);
        String out = pgbenchOutput("-t", "1", "-r", "-f", f.toString());
        List<String> theirs = out.substring(out.indexOf("statement latencies")).lines().skip(1)
                .map(l -> l.replaceFirst("^\\s+\\S+\\s+\\S+  ", "")).toList();
        assertEquals(theirs, Script.parse("s.sql", text).commandLines());
    }

    /** Nested \if/\elif/\else over all 16 combinations of two random values, 40 transactions. */
    @Test
    void nestedConditionalsTakeTheSameBranches() throws Exception {
        LocalServer.assumePgbench();
        String text = ScriptParseTest.resource("/oracle/nested-if.sql");
        Path f = write("nested-if.sql", text);
        List<String> theirs = pgbench("--random-seed=11", "-t", "40", "-f", f.toString());
        Script s = Script.parse("nested-if.sql", text);
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(11, 1, 1);
        Variables v = new Variables();
        v.standard(1, 0, 11, seeds.defaultSeed());
        List<String> ours = new ArrayList<>();
        ClientScriptRunner r = new ClientScriptRunner(List.of(s), 0, v, seeds.clients()[0], QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults().withStderr(ours::add));
        for (int t = 0; t < 40; t++) {
            assertTrue(r.runScript(null, 0).ok());
        }
        assertEquals(theirs, ours);
        assertTrue(theirs.stream().map(l -> l.substring(l.lastIndexOf(' ') + 1)).distinct().count() > 12, "branches covered");
    }

    static final String RANDOM_SCRIPT = """
            \\set d debug(:default_seed)
            \\set u debug(random(1, 1000000000))
            \\set u2 debug(random(-4611686018427387903, 4611686018427387903))
            \\set e debug(random_exponential(1, 1000000, 2.5))
            \\set g debug(random_gaussian(1, 1000000, 2.0))
            \\set z debug(random_zipfian(1, 1000000, 1.07))
            \\set z2 debug(random_zipfian(1, 100, 999.0))
            \\set p debug(permute(random(0, 1000000), 1000001))
            \\set p2 debug(permute(-7, 1000003, :u))
            \\set h debug(hash(:u) # hash_fnv1a(:u) # hash_murmur2(:u, -3))
            \\set x debug(:u / 7.0)
            \\set y debug(sqrt(:u) * ln(:u) / exp(3.3) + pi())
            \\set w debug(1.0 * :u * :u * :u * :u)
            \\set v debug(:u * 1e-12)
            \\set t debug(:client_id * 100 + random(0, 99))
            """;

    @Test
    void everyClientDrawsTheSameValues() throws Exception {
        LocalServer.assumePgbench();
        Path f = write("random.sql", RANDOM_SCRIPT);
        int clients = 3;
        List<String> c = pgbench("--random-seed=987654321", "-t", "2", "-c", String.valueOf(clients), "-j", "1",
                "-f", f.toString());
        // pgbench interleaves clients; group its lines per client by command 15's client-tagged value.
        Map<Integer, List<String>> byClient = new TreeMap<>();
        List<String> pending = new ArrayList<>();
        for (String l : c) {
            pending.add(l);
            if (l.startsWith("debug(script=0,command=15)")) {
                long v = Long.parseLong(l.substring(l.lastIndexOf(' ') + 1));
                byClient.computeIfAbsent((int) (v / 100), k -> new ArrayList<>()).addAll(pending);
                pending.clear();
            }
        }
        assertTrue(pending.isEmpty(), "interleaved output: " + c);
        Script s = Script.parse("random.sql", RANDOM_SCRIPT);
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(987654321L, clients, 1);
        for (int client = 0; client < clients; client++) {
            List<String> lines = new ArrayList<>();
            Variables v = new Variables();
            v.standard(1, client, 987654321L, seeds.defaultSeed());
            ClientScriptRunner r = new ClientScriptRunner(List.of(s), client, v, seeds.clients()[client],
                    QueryMode.SIMPLE, ClientScriptRunner.Options.defaults().withStderr(lines::add));
            for (int t = 0; t < 2; t++) {
                assertTrue(r.runScript(null, 0).ok());
            }
            assertEquals(byClient.get(client), lines, "client " + client);
        }
    }

    @Test
    void scriptsAreChosenByWeightAsPgbenchDoes() throws Exception {
        LocalServer.assumePgbench();
        Path a = write("a.sql", "\\set s debug(:client_id * 10 + 1)\n");
        Path b = write("b.sql", "\\set s debug(:client_id * 10 + 2)\n");
        Path d = write("c.sql", "\\set s debug(:client_id * 10 + 3 + 0 * random(1, 10))\n");
        int clients = 3;
        int threads = 2;
        String out = pgbenchOutput("--random-seed=42", "-t", "15", "-c", "3", "-j", "2", "-f", a + "@3", "-f",
                b + "@1", "-f", d + "@2");
        // stderr is unbuffered and debug() writes its prefix and its value separately: with two threads the
        // prefixes of one may land inside the other's line, but each "int N\n" write stays whole.
        Map<Integer, List<Long>> byClient = new TreeMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("int (\\d+)\n").matcher(out);
        while (m.find()) {
            long v = Long.parseLong(m.group(1));
            byClient.computeIfAbsent((int) (v / 10), k -> new ArrayList<>()).add(v % 10);
        }
        List<Script> scripts = List.of(Script.fromSpec("-f " + a + "@3"), Script.fromSpec("-f " + b + "@1"),
                Script.fromSpec("-f " + d + "@2"));
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(42, clients, threads);
        // Clients of one thread share its choose state; pgbench runs them round-robin, one transaction at a time,
        // but since these transactions never wait, the order of draws is what matters: replay pgbench's order.
        for (int t = 0; t < threads; t++) {
            int[] range = PgbenchRandom.Seeds.clientsOfThread(clients, threads, t);
            if (range[1] != 1) {
                continue; // interleaving of several clients on one thread depends on timing
            }
            int client = range[0];
            List<Long> chosen = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                chosen.add((long) Script.choose(scripts, seeds.choose()[t]) + 1);
            }
            assertEquals(byClient.get(client), chosen, "client " + client + " on thread " + t);
        }
    }

    /**
     * -D default_seed=N and -D client_id=N win over pgbench's own values, and with default_seed defined pgbench
     * draws nothing for it, so the script choice that follows comes one value earlier in the base sequence.
     */
    @Test
    void definedDefaultSeedAndClientIdAsPgbench() throws Exception {
        LocalServer.assumePgbench();
        Path a = write("a.sql", "\\set s debug(:client_id * 10 + 1)\n\\set h debug(hash(5))\n");
        Path b = write("b.sql", "\\set s debug(:client_id * 10 + 2)\n\\set h debug(hash(5))\n");
        List<String> c = pgbench("--random-seed=5432", "-t", "20", "-c", "1", "-D", "default_seed=11", "-D",
                "client_id=4", "-f", a.toString(), "-f", b.toString());
        List<Script> scripts = List.of(Script.fromSpec("-f " + a), Script.fromSpec("-f " + b));
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(5432, 1, 1, false);
        Variables v = new Variables();
        v.define("default_seed=11");
        v.define("client_id=4");
        v.standard(1, 0, 5432, seeds.defaultSeed());
        List<String> mine = new ArrayList<>();
        ClientScriptRunner r = new ClientScriptRunner(scripts, 0, v, seeds.clients()[0], QueryMode.SIMPLE,
                ClientScriptRunner.Options.defaults().withStderr(mine::add));
        for (int t = 0; t < 20; t++) {
            int chosen = Script.choose(scripts, seeds.choose()[0]);
            assertTrue(r.runScript(null, chosen).ok());
        }
        assertEquals(c, mine);
    }
}
