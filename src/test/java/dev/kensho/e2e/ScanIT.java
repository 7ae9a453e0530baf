package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Study 003 (index scan vs full scan) as a user runs it from bench.jar: both caches, both layouts, then the report. */
class ScanIT {
    @TempDir Path work;

    @Test
    void scanSweepsBothLayoutsWarmAndColdAndReports() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "scan", "--rows", "100000", "--from", "1", "--to", "51", "--step", "25",
                "--cache", "both");
        assertEquals(0, r.exitCode(), r.all());
        Path dir = onlyRun(work.resolve("results"));
        List<Trial> trials = RunDirectory.readTrials(dir.resolve(RunDirectory.TRIALS));
        // 2 layouts x 2 caches x 3 selectivities x 2 scans, one repeat each
        assertEquals(24, trials.size(), trials.toString());
        for (Trial t : trials) {
            assertTrue(t.ok(), t.toString());
            double pct = ((Number) t.params().get("selectivity_pct")).doubleValue();
            // the predicate selects the first pct % of the keys, whatever the physical order
            assertEquals(Math.round(pct * 1000), t.metric("rows").longValue(), t.toString());
            String plan = String.valueOf(t.extra().get("plan"));
            assertEquals("index".equals(t.params().get("scan")) ? "Index Scan" : "Seq Scan", plan, t.toString());
            if ("cold".equals(t.params().get("cache"))) {
                assertTrue(String.valueOf(t.extra().get("cold")).startsWith("server"), t.toString());
                assertTrue(t.metric("shared_read_blocks") > 0, "a cold cell reads its pages: " + t);
            } else {
                assertEquals(0.0, t.metric("shared_read_blocks"), "a warm cell finds every page prewarmed: " + t);
            }
        }
        // the two layouts the study compares: key order and scattered keys
        JsonNode crossover = new ObjectMapper().readTree(dir.resolve("crossover.json").toFile());
        Map<String, Double> correlation = new java.util.HashMap<>();
        crossover.get("layouts").forEach(l -> correlation.put(l.get("layout").asText(), l.get("correlation").asDouble()));
        assertTrue(correlation.get("high") > 0.99, correlation.toString());
        assertTrue(Math.abs(correlation.get("low")) < 0.1, correlation.toString());
        List<String> summary = Files.readAllLines(dir.resolve("summary.csv"));
        assertEquals(25, summary.size(), String.join("\n", summary));
        for (String cache : List.of("warm", "cold")) {
            for (String layout : List.of("high", "low")) {
                assertTrue(r.out().contains("crossover " + String.format("%-4s", layout) + " " + cache + " "), r.out());
            }
        }

        BenchJar.Result report = BenchJar.run(work.resolve("r"), "report", dir.toString(), "-o", work.resolve("scan.html").toString());
        assertEquals(0, report.exitCode(), report.all());
        String html = Files.readString(work.resolve("scan.html"));
        assertTrue(html.contains("<svg"), "charts are inline SVG");
        assertTrue(html.toLowerCase().contains("crossover"), "the report names the crossover");
    }

    /** A finished run's --resume checked (with --rebuild: rebuilt) its tables, on a server it started, to find nothing left. */
    @Test
    void aFinishedRunsResumeSaysSoWithoutStartingItsServer() throws Exception {
        List<String> options = List.of("scan", "--rows", "2000", "--from", "10", "--to", "90", "--step", "80",
                "--layout", "high", "--throughput-mb", "0", "--rebuild");
        BenchJar.Result r = BenchJar.run(work, options.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.all());
        Path dir = onlyRun(work.resolve("results"));
        List<String> resume = new java.util.ArrayList<>(options);
        resume.addAll(List.of("--resume", dir.toString()));
        BenchJar.Result again = BenchJar.run(work, resume.toArray(String[]::new));
        assertEquals(0, again.exitCode(), again.all());
        assertTrue(again.err().contains("scan: every trial is already in " + dir + "; nothing left to resume"), again.err());
        assertTrue(!again.err().contains("target:") && !again.err().contains("preparing"), again.err());
        // the run's findings as it printed them (the last line names the directory as given: relative, then absolute)
        assertEquals(r.out().substring(0, r.out().lastIndexOf("4 trials,")), again.out().substring(0, again.out().lastIndexOf("4 trials,")));
        assertEquals(4, RunDirectory.readTrials(dir.resolve(RunDirectory.TRIALS)).size());
    }

    @Test
    void badRangesAndAColdCacheAnUnrestartableServerCannotGiveAreOneLineErrors() throws Exception {
        BenchJar.Result backwards = BenchJar.run(work.resolve("b"), "scan", "--from", "60", "--to", "10");
        assertEquals(2, backwards.exitCode(), backwards.all());
        assertEquals(1, backwards.err().strip().lines().count(), backwards.err());
        assertTrue(backwards.err().startsWith("bench: "), backwards.err());

        try (Target pg = new TargetSpec().open()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            BenchJar.Result cold = BenchJar.run(work.resolve("c"), "scan", "--url", url, "--user", "postgres", "--rows", "1000",
                    "--cache", "cold");
            assertEquals(2, cold.exitCode(), cold.all());
            assertEquals(1, cold.err().strip().lines().count(), cold.err());
            assertTrue(cold.err().contains("--restart-command"), cold.err());
            try (var c = pg.connect(); var s = c.createStatement();
                 var rs = s.executeQuery("select count(*) from pg_class where relname in ('scan_high', 'scan_low')")) {
                rs.next();
                assertEquals(0, rs.getLong(1), "nothing was created on the server before the refusal");
            }
        }
    }

    @Test
    void aRemoteServersOwnTablespaceHoldsTheTablesAndIsLeftInPlace() throws Exception {
        Path ts = Files.createTempDirectory(Path.of("/var/tmp"), "kensho-e2e-ts-");
        try (Target pg = new TargetSpec().open()) {
            // as a DBA prepares it: a directory the server's OS user owns (as root that is not root)
            Files.setOwner(ts, Files.getOwner(pg.control().dataDirectory().orElseThrow()));
            try (var c = pg.connect(); var s = c.createStatement()) {
                s.execute("create tablespace fast_disk location '" + ts + "'");
            }
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            BenchJar.Result r = BenchJar.run(work.resolve("ts"), "scan", "--url", url, "--user", "postgres", "--tablespace", "fast_disk",
                    "--rows", "1000", "--to", "51", "--step", "50", "--cache", "warm");
            assertEquals(0, r.exitCode(), r.all());
            try (var c = pg.connect(); var s = c.createStatement();
                 var rs = s.executeQuery("select string_agg(c.relname || ':' || coalesce(t.spcname, 'default'), ',' order by c.relname) "
                         + "from pg_class c left join pg_tablespace t on t.oid = c.reltablespace where c.relname like 'scan\\_%'")) {
                rs.next();
                assertEquals("scan_high:fast_disk,scan_high_pk:fast_disk,scan_low:fast_disk,scan_low_pk:fast_disk", rs.getString(1));
            }
            BenchJar.Result none = BenchJar.run(work.resolve("none"), "scan", "--url", url, "--user", "postgres", "--tablespace", "nosuch",
                    "--rows", "1000");
            assertEquals(2, none.exitCode(), none.all());
            assertTrue(BenchJar.withoutRemovedRun(none.err()).strip().endsWith("\nbench: --tablespace nosuch: no such tablespace on the server"), none.err());
            assertEquals(0, BenchJar.runDirectories(work.resolve("none/results")), "the refused run leaves no run directory");
            try (var c = pg.connect(); var s = c.createStatement();
                 var rs = s.executeQuery("select count(*) from pg_tablespace where spcname = 'fast_disk'")) {
                rs.next();
                assertEquals(1, rs.getLong(1), "a tablespace Kensho did not create is never dropped");
            }
        } finally {
            try (var w = Files.walk(ts)) {
                w.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static Path onlyRun(Path results) throws Exception {
        try (var d = Files.list(results)) {
            List<Path> dirs = d.collect(Collectors.toList());
            assertEquals(1, dirs.size(), dirs.toString());
            return dirs.get(0);
        }
    }
}
