package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench micro as a user runs it: JMH forks that connect back to the embedded server. */
class MicroIT {
    @TempDir Path work;

    @Test
    void microRunsStudy002BenchmarksInJmhForksAndWritesMediansPerCell() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "micro", "--scale", "1", "--wide-rows", "1000", "--columns", "0..99/99",
                "--benchmarks", "join-group-count,encoding,leading-columns", "--warmup-iterations", "0", "--iterations", "2",
                "--iteration-time", "200ms", "--forks", "1");
        assertEquals(0, r.exitCode(), r.all());
        assertTrue(r.err().contains("created database kensho_micro (encoding EUC_JP)"), r.err());
        Path dir;
        try (var d = Files.list(work.resolve("results"))) {
            dir = d.findFirst().orElseThrow();
        }
        List<Trial> trials = RunDirectory.readTrials(dir.resolve(RunDirectory.TRIALS));
        Map<String, Long> perCell = trials.stream().filter(Trial::ok).collect(Collectors.groupingBy(Trial::cell, Collectors.counting()));
        String t = "target=embedded-" + embeddedMajor(r) + ";benchmark=";
        assertEquals(Map.of(t + "join-group-count", 2L, t + "encoding;client_encoding=none", 2L, t + "encoding;client_encoding=SJIS", 2L,
                t + "leading-columns;column=0", 2L, t + "leading-columns;column=99", 2L), perCell, r.all());
        for (Trial trial : trials) assertTrue(trial.metric("ms") > 0, trial.toString());
        List<String> summary = Files.readAllLines(dir.resolve(RunDirectory.SUMMARY));
        assertTrue(summary.get(0).contains("ms_median"), summary.get(0));
        assertEquals(6, summary.size(), String.join("\n", summary));
        assertTrue(r.out().contains("benchmark=encoding;client_encoding=SJIS"), r.out());
    }

    /**
     * With two forks, JMH's score and error (its console's "Result" line) are kept in jmh.json and printed, and each
     * repeat names its fork: nothing said which fork an iteration came from, nor what JMH made of them.
     */
    @Test
    void jmhsResultAndEachIterationsForkAreKept() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "micro", "--wide-rows", "1000", "--benchmarks", "trailing-columns", "--warmup-iterations", "1",
                "--iterations", "2", "--iteration-time", "100ms", "--forks", "2");
        assertEquals(0, r.exitCode(), r.all());
        Path dir;
        try (var d = Files.list(work.resolve("results"))) {
            dir = d.findFirst().orElseThrow();
        }
        List<Trial> trials = RunDirectory.readTrials(dir.resolve(RunDirectory.TRIALS));
        assertEquals(List.of(1, 1, 2, 2), trials.stream().map(t -> ((Number) t.extra().get("fork")).intValue()).toList(), r.all());
        assertEquals(List.of(1, 2, 1, 2), trials.stream().map(t -> ((Number) t.extra().get("fork_iteration")).intValue()).toList());
        Map<String, Map<String, Object>> jmh = dev.kensho.core.result.Json.MAPPER.readValue(dir.resolve("jmh.json").toFile(),
                new com.fasterxml.jackson.core.type.TypeReference<Map<String, Map<String, Object>>>() { });
        Map<String, Object> result = jmh.get(trials.get(0).cell());
        double mean = trials.stream().mapToDouble(t -> t.metric("ms")).average().orElseThrow();
        assertEquals(mean, ((Number) result.get("score")).doubleValue(), mean * 1e-9, result.toString());
        assertEquals(4, ((Number) result.get("iterations")).intValue());
        assertEquals(2, ((Number) result.get("forks")).intValue());
        assertTrue(r.err().contains("    fork 2 of 2"), r.err());
        assertTrue(r.err().contains("(mean of 4 iterations, 99.9% CI, 2 forks)"), r.err());
    }

    /**
     * JMH gives a fork this JVM's options, and the fork's launcher reads JAVA_TOOL_OPTIONS and JDK_JAVA_OPTIONS again:
     * an agent set there (APM, coverage) was loaded twice and killed every fork ("no measured iteration").
     */
    @Test
    void forksTakeTheEnvironmentsJvmOptionsOnceFromTheEnvironment() throws Exception {
        BenchJar.Result r = BenchJar.run(work, Map.of("JAVA_TOOL_OPTIONS", "-Dkensho.e2e.tool=1", "JDK_JAVA_OPTIONS", "-Dkensho.e2e.jdk=1"),
                "micro", "--scale", "1", "--benchmarks", "join-group-count", "--warmup-iterations", "0", "--iterations", "1",
                "--iteration-time", "200ms", "--forks", "1", "--verbose");
        assertEquals(0, r.exitCode(), r.all());
        String fork = r.all().lines().filter(l -> l.startsWith("Forking using command: ")).findFirst().orElseThrow(() -> new AssertionError(r.all()));
        assertTrue(!fork.contains("-Dkensho.e2e.tool=1") && !fork.contains("-Dkensho.e2e.jdk=1"), fork);
        assertTrue(fork.contains("-Dkensho.micro.scale=1"), "Kensho's own fork options stay: " + fork);
    }

    /**
     * JMH runs every benchmark any META-INF/BenchmarkList on the classpath names: a harness that depended on
     * bench-pgbench ran study 002's benchmarks with its own. The list is in the "micro" jar, which bench.jar carries.
     */
    @Test
    void theLibraryJarLeavesJmhsListToTheMicroJarAndBenchJarCarriesIt() throws Exception {
        Path target = BenchJar.JAR.getParent().resolve("bench-pgbench").resolve("target");
        String version = dev.kensho.core.KenshoVersion.version();
        try (var library = new java.util.zip.ZipFile(target.resolve("bench-pgbench-" + version + ".jar").toFile());
             var micro = new java.util.zip.ZipFile(target.resolve("bench-pgbench-" + version + "-micro.jar").toFile());
             var bench = new java.util.zip.ZipFile(BenchJar.JAR.toFile())) {
            assertEquals(null, library.getEntry("META-INF/BenchmarkList"));
            assertTrue(library.getEntry("dev/kensho/pgbench/micro/JoinGroupCount.class") != null);
            for (var jar : List.of(micro, bench)) {
                String list = new String(jar.getInputStream(jar.getEntry("META-INF/BenchmarkList")).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                for (String b : List.of("JoinGroupCount_joinGroupCount", "EncodingConversion_selectAll", "TupleDeform_trailingColumns",
                        "TupleDeform_oneColumn", "TupleDeform_leadingColumns")) {
                    // a list line names the benchmark by its generated harness class
                    assertTrue(list.contains("dev.kensho.pgbench.micro.jmh_generated." + b + "_jmhTest "), jar.getName() + " lacks " + b + ":\n" + list);
                }
            }
        }
    }

    @Test
    void badOptionsAreOneLineUsageErrors() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "micro", "--benchmarks", "memset");
        assertEquals(2, r.exitCode(), r.all());
        assertTrue(r.err().contains("unknown benchmark 'memset'"), r.err());
        assertTrue(r.err().strip().lines().count() <= 2 && !r.err().contains("\tat "), r.err());
        BenchJar.Result c = BenchJar.run(work, "micro", "--columns", "0..x");
        assertEquals(2, c.exitCode(), c.all());
        assertTrue(c.err().contains("--columns 0..x"), c.err());
    }

    @Test
    void onARemoteServerForksConnectThroughItsUrlAndTheConversionIsFromItsOwnEncoding() throws Exception {
        try (Target pg = new TargetSpec().pgVersion(17).open()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            BenchJar.Result r = BenchJar.run(work, "micro", "--url", url, "--user", "postgres", "--scale", "1", "--reinit",
                    "--wide-rows", "1000", "--benchmarks", "encoding,trailing-columns", "--client-encodings", "SJIS",
                    "--warmup-iterations", "0", "--iterations", "1", "--iteration-time", "200ms", "--forks", "1");
            assertEquals(0, r.exitCode(), r.all());
            Path dir;
            try (var d = Files.list(work.resolve("results"))) {
                dir = d.findFirst().orElseThrow();
            }
            List<Trial> trials = RunDirectory.readTrials(dir.resolve(RunDirectory.TRIALS));
            assertEquals(2, trials.size(), trials.toString());
            Trial sjis = trials.stream().filter(t -> "encoding".equals(t.params().get("benchmark"))).findFirst().orElseThrow();
            assertTrue(sjis.ok(), sjis.toString());
            assertEquals("UTF8", sjis.params().get("server_encoding"), "the remote database is used as it is");
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select (select count(*) from pgbench_branches), (select count(*) from kensho_wide), "
                         + "(select count(*) from pg_database where datname = 'kensho_micro')")) {
                rs.next();
                assertEquals(1, rs.getLong(1));
                assertEquals(1000, rs.getLong(2));
                assertEquals(0, rs.getLong(3), "no database is created on a remote server");
            }
            // pgbench tables of another scale: a usage error found after the run directory opened leaves none behind
            BenchJar.Result other = BenchJar.run(work.resolve("again"), "micro", "--url", url, "--user", "postgres", "--scale", "2",
                    "--benchmarks", "join-group-count", "--iterations", "1", "--warmup-iterations", "0", "--iteration-time", "200ms");
            assertEquals(2, other.exitCode(), other.all());
            assertTrue(other.err().contains("pgbench tables of scale 1 exist in this database; give --scale 1 or --reinit"), other.err());
            assertEquals(0, BenchJar.runDirectories(work.resolve("again/results")), "the empty run directory was removed");
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select count(*) from pgbench_branches")) {
                rs.next();
                assertEquals(1, rs.getLong(1), "the tables of scale 1 were kept");
            }
        }
    }

    private static String embeddedMajor(BenchJar.Result r) {
        var m = java.util.regex.Pattern.compile("target: embedded PostgreSQL (\\d+)").matcher(r.err());
        if (m.find()) return m.group(1);
        var m2 = java.util.regex.Pattern.compile("target=embedded-(\\d+)").matcher(r.out());
        assertTrue(m2.find(), r.all());
        return m2.group(1);
    }

    /** Here, not in KillAndResumeIT: JMH's machine-wide lock lets one micro run at a time, and this class's run one after another. */
    @Test
    void interruptedMicroSaysNothingAfterTheInterruptLine() throws Exception {
        Process p = BenchJar.start(work, "micro", "--scale", "1", "--wide-rows", "1000", "--benchmarks", "join-group-count,one-column",
                "--columns", "0,99", "--warmup-iterations", "0", "--iterations", "30", "--iteration-time", "200ms");
        Path trials = BenchJar.waitForTrials(p, work, 2);
        p.destroy();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        // the fork the server's stop broke was said to have "failed", and JMH's next benchmarks to start
        BenchJar.assertLastLineIsTheInterrupt(Files.readString(work.resolve("stderr.txt")));
        List<Trial> kept = RunDirectory.readTrials(trials);
        assertEquals(List.of("ok"), kept.stream().map(Trial::status).distinct().toList(), kept.toString());
    }
}
