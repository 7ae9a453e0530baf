package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's loop: measure on two versions, report, compare. */
class ReportAndCompareIT {
    @TempDir Path work;

    /**
     * An OutOfMemoryError passed picocli's handlers and the JVM printed its stack trace, with no word of the heap. A
     * 64 MB trial line under a 32 MB heap: one line saying how much there was and how to give more, exit 1.
     */
    @Test
    void outOfMemoryIsOneLineNamingTheHeap() throws Exception {
        Path dir = Files.createDirectories(work.resolve("big"));
        Files.writeString(dir.resolve("run.json"), "{\"command\":\"pgbench sweep\",\"commandLine\":[\"pgbench\",\"sweep\"],\"parameters\":{}}");
        try (var w = Files.newBufferedWriter(dir.resolve("trials.jsonl"))) {
            w.write("{\"cell\":\"clients=1\",\"repeat\":0,\"params\":{\"clients\":1},\"metrics\":{\"tps\":1.0},\"extra\":{\"filler\":\"");
            char[] kb = new char[1024];
            java.util.Arrays.fill(kb, 'x');
            for (int i = 0; i < 64 * 1024; i++) w.write(kb);
            w.write("\"},\"status\":\"ok\"}\n");
        }
        BenchJar.Result r = BenchJar.run(work.resolve("r"), java.util.Map.of("JDK_JAVA_OPTIONS", "-Xmx32m"), "report", dir.toString());
        assertEquals(1, r.exitCode(), r.all());
        assertTrue(r.err().startsWith("bench: out of memory (Java heap space; the JVM's heap is at most "), r.err());
        assertTrue(r.err().contains(" MB): give it more, as in java -Xmx1024m -jar " + BenchJar.JAR + " ..."), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void reportAndCompareTwoVersions() throws Exception {
        BenchJar.Result run = BenchJar.run(work, "query", "--pg-version", "16,17", "-c", "SELECT count(*) FROM generate_series(1, 200000)",
                "--matrix", "work_mem=4MB,32MB", "--repeat", "3", "--results", "results");
        assertEquals(0, run.exitCode(), run.all());
        Path dir;
        try (var d = Files.list(work.resolve("results"))) {
            List<Path> dirs = d.toList();
            assertEquals(1, dirs.size());
            dir = dirs.get(0);
        }
        BenchJar.Result report = BenchJar.run(work.resolve("r"), "report", dir.toString(), "-o", work.resolve("report.html").toString());
        assertEquals(0, report.exitCode(), report.all());
        String html = Files.readString(work.resolve("report.html"));
        assertTrue(html.contains("<svg"), "charts are inline SVG");
        assertTrue(html.contains("embedded-16") && html.contains("embedded-17"), "both targets appear");
        assertFalse(html.contains("src=\"http") || html.contains("<script") || html.contains("<link"), "no external resources");
        // --png: every chart of the page, as a file
        BenchJar.Result png = BenchJar.run(work.resolve("p"), "report", dir.toString(), "-o", work.resolve("p.html").toString(),
                "--png", work.resolve("png").toString());
        assertEquals(0, png.exitCode(), png.all());
        long svgs = html.split("<svg", -1).length - 1;
        try (var files = Files.list(work.resolve("png"))) {
            assertEquals(svgs, files.filter(f -> f.toString().endsWith(".png")).count(), png.all());
        }
        BenchJar.Result nowhere = BenchJar.run(work.resolve("q"), "report", dir.toString(), "-o", work.resolve("q.html").toString(),
                "--png", "/proc/nope");
        assertEquals(2, nowhere.exitCode(), nowhere.all());
        assertTrue(nowhere.err().startsWith("bench: --png /proc/nope: cannot create it ("), nowhere.err());
        assertTrue(!Files.exists(work.resolve("q.html")), "the --png that cannot be made stops the report before it is written");

        BenchJar.Result cmp = BenchJar.run(work.resolve("c"), "compare", dir.toString(), "--by", "target", "-o", work.resolve("cmp").toString());
        assertEquals(0, cmp.exitCode(), cmp.all());
        assertTrue(Files.exists(work.resolve("cmp/compare.csv")), cmp.all());
        String csv = Files.readString(work.resolve("cmp/compare.csv"));
        assertTrue(csv.contains("embedded-17"), csv);
        // the console has study 001's analysis of target × work_mem, not only the report
        assertTrue(cmp.out().contains("Variance homogeneity: Levene (median-centred, Brown–Forsythe) F(3, 8) = "), cmp.out());
        assertTrue(cmp.out().contains("ART-C contrasts per work_mem"), cmp.out());

        // A metric no trial has is a mistake to say, not an empty table.
        BenchJar.Result none = BenchJar.run(work.resolve("n"), "compare", dir.toString(), "--by", "target", "--metric", "nosuch");
        assertEquals(2, none.exitCode(), none.all());
        assertTrue(none.err().startsWith("bench: --metric nosuch: no trial has it"), none.err());
        // -o naming a directory writes report.html into it.
        BenchJar.Result intoDir = BenchJar.run(work.resolve("r2"), "report", dir.toString(), "-o", work.resolve("cmp").toString());
        assertEquals(0, intoDir.exitCode(), intoDir.all());
        assertTrue(Files.exists(work.resolve("cmp/report.html")));
        // ... and so does a path ending in / that does not exist yet (it was written as a file named after it)
        BenchJar.Result newDir = BenchJar.run(work.resolve("r3"), "report", dir.toString(), "-o", work.resolve("new-dir") + "/");
        assertEquals(0, newDir.exitCode(), newDir.all());
        assertTrue(Files.isRegularFile(work.resolve("new-dir/report.html")), newDir.all());

        // Without DIR: the newest run that measured something, not a newer one stopped before its first trial.
        Path stopped = Files.createDirectories(work.resolve("results/2999-01-01T00-00-00Z-pgbench-init"));
        Files.copy(dir.resolve("run.json"), stopped.resolve("run.json"));
        Files.writeString(stopped.resolve("trials.jsonl"), "");
        BenchJar.Result newest = BenchJar.run(work, "report");
        assertEquals(0, newest.exitCode(), newest.all());
        assertTrue(newest.out().contains(dir.resolve("report.html").getFileName().toString())
                && newest.out().contains(dir.getFileName().toString()), newest.all());
        assertTrue(newest.err().contains("1 newer run without trials passed over (2999-01-01T00-00-00Z-pgbench-init)"), newest.all());
        assertFalse(Files.exists(stopped.resolve("report.html")));
    }
}
