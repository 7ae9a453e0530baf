package dev.kensho.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.cli.CommandRun;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {
    @TempDir
    Path tmp;

    /** A sweep over versions 16 and 17, clients 1 and 4, 2 repeats, as a results directory. */
    private Path sweep() {
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("results"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 2)))) {
            for (String v : List.of("16", "17")) {
                for (int c : new int[] {1, 4}) {
                    for (int r = 0; r < 2; r++) {
                        rd.append(Trial.of("clients=" + c + ";version=" + v, r).param("version", v).param("clients", c)
                                .metric("tps", 1000.0 * c + r + (v.equals("17") ? 50 : 0)).metric("latency_avg_ms", 1.0 / c).build());
                    }
                }
            }
            return rd.path();
        }
    }

    /** An -o compare cannot write into fails before the table, not after it as if the comparison had been made. */
    @Test
    void unwritableOutFailsBeforeTheTable() throws Exception {
        Path run = sweep();
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        CommandRun onFile = CommandRun.of("compare", run.toString(), "-o", file.toString());
        assertEquals(2, onFile.exit(), onFile.err());
        assertEquals("", onFile.out());
        assertEquals("bench: -o " + file + ": not a directory (compare writes compare.html and compare.csv into it)\n", onFile.err());

        CommandRun under = CommandRun.of("compare", run.toString(), "-o", file.resolve("sub").toString());
        assertEquals(2, under.exit(), under.err());
        assertEquals("", under.out());
        assertTrue(under.err().startsWith("bench: -o " + file.resolve("sub") + ": cannot create it ("), under.err());

        CommandRun ok = CommandRun.of("compare", run.toString(), "-o", tmp.resolve("new/dir").toString());
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(ok.out().startsWith("Comparing 16 | 17 (by version)"), ok.out());
        // the repeats there are, where it said "3 against 3: p ≥ 0.1" whatever they were
        assertTrue(ok.out().contains("could not reach α (2 against 2: p ≥ 0.33).\n"), ok.out());
        assertTrue(Files.isRegularFile(tmp.resolve("new/dir/compare.csv")));
    }

    /** --all-metrics beside --metric was ignored (the listed metrics alone compared, exit 0): the two are refused together. */
    @Test
    void metricAndAllMetricsAreRefusedTogether() {
        Path run = sweep();
        CommandRun r = CommandRun.of("compare", run.toString(), "--metric", "tps", "--all-metrics", "-o", tmp.resolve("out").toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals("", r.out());
        assertEquals("bench: --metric and --all-metrics: give one (--metric names the metrics to compare, --all-metrics takes every one)\n", r.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
    }

    /**
     * Run directories are named by the wall clock at their start: after the clock stepped back, a run made since sorts
     * below one made before, and "the newest" was the older one, unsaid. The clock cannot order them: it is said.
     */
    @Test
    void newestDatedAfterTheClockIsSaid() throws Exception {
        Path root = tmp.resolve("results");
        java.time.format.DateTimeFormatter stamp = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(java.time.ZoneOffset.UTC);
        Path ahead = root.resolve(stamp.format(java.time.Instant.now().plusSeconds(3600)) + "-pgbench-run");
        Path now = root.resolve(stamp.format(java.time.Instant.now()) + "-pgbench-run");
        for (Path run : List.of(ahead, now)) {
            Files.createDirectories(run);
            Files.writeString(run.resolve(RunDirectory.RUN), "{}");
            Files.writeString(run.resolve(RunDirectory.TRIALS), "{}\n");
        }
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertEquals(ahead, ReportCommand.RunDirs.newest(root));
        } finally {
            System.setErr(err);
        }
        assertTrue(said.toString(java.nio.charset.StandardCharsets.UTF_8).startsWith("report: warning: " + ahead.getFileName()
                + " is dated after this machine's clock ("), said.toString(java.nio.charset.StandardCharsets.UTF_8));

        // runs dated up to now: nothing to say
        Files.walk(ahead).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        said.reset();
        System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertEquals(now, ReportCommand.RunDirs.newest(root));
        } finally {
            System.setErr(err);
        }
        assertEquals("", said.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** bench report without DIR where there is no ./results: said as such, not as the I/O exception's bare path. */
    @Test
    void newestWithoutAResultsDirectory() {
        KenshoException e = org.junit.jupiter.api.Assertions.assertThrows(KenshoException.class,
                () -> ReportCommand.RunDirs.newest(tmp.resolve("results")));
        assertEquals("no " + tmp.resolve("results") + " directory to find the newest run in; give DIR", e.getMessage());
        assertFalse(e.getMessage().contains("(" + tmp.resolve("results") + ")"));
    }

    /**
     * A CI gate: 17 is 10 % worse at 1 client and 0.5 % worse at 4, both significant. --fail-if-worse fails on both,
     * =5 on the 10 % one only, =20 on neither; the table and files come first either way.
     */
    @Test
    void failIfWorseGatesOnSignificantWorsening() {
        Path run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("results"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 2)))) {
            for (String v : List.of("16", "17")) {
                for (int c : new int[] {1, 4}) {
                    for (int r = 0; r < 2; r++) {
                        double tps = v.equals("16") ? 1000.0 * c : c == 1 ? 900 : 3980;
                        rd.append(Trial.of("clients=" + c + ";version=" + v, r).param("version", v).param("clients", c)
                                .metric("tps", tps + r).build());
                    }
                }
            }
            run = rd.path();
        }
        CommandRun plain = CommandRun.of("compare", run.toString(), "-o", tmp.resolve("a").toString());
        assertEquals(0, plain.exit(), plain.out() + plain.err());
        // before the directories: a flag, not an option whose value the first directory became
        CommandRun any = CommandRun.of("compare", "--fail-if-worse", run.toString(), "-o", tmp.resolve("b").toString());
        assertEquals(1, any.exit(), any.out() + any.err());
        assertEquals("bench: 2 cells are worse than 16 (--fail-if-worse): 17 clients=1 tps x0.900, 17 clients=4 tps x0.995\n", any.err());
        assertTrue(Files.isRegularFile(tmp.resolve("b/compare.csv")), "written before the gate");
        CommandRun five = CommandRun.of("compare", run.toString(), "--fail-if-worse", "--tolerance", "5", "-o", tmp.resolve("c").toString());
        assertEquals(1, five.exit(), five.out() + five.err());
        assertEquals("bench: 1 cell is worse than 16 by more than 5 % (--fail-if-worse): 17 clients=1 tps x0.900\n", five.err());
        CommandRun twenty = CommandRun.of("compare", run.toString(), "--fail-if-worse", "--tolerance", "20", "-o", tmp.resolve("d").toString());
        assertEquals(0, twenty.exit(), twenty.out() + twenty.err());
        CommandRun bad = CommandRun.of("compare", run.toString(), "--fail-if-worse", "--tolerance", "-3", "-o", tmp.resolve("e").toString());
        assertEquals(2, bad.exit(), bad.out() + bad.err());
        assertEquals("bench: --tolerance -3.0: expected a percentage, 0 or more\n", bad.err());

        // one repeat a side: nothing can be tested, and a gate that judged nothing does not pass
        Path once;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("once"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 1)))) {
            for (String v : List.of("16", "17")) {
                rd.append(Trial.of("clients=1;version=" + v, 0).param("version", v).param("clients", 1).metric("tps", v.equals("16") ? 1000.0 : 10.0).build());
            }
            once = rd.path();
        }
        CommandRun untested = CommandRun.of("compare", once.toString(), "--fail-if-worse", "-o", tmp.resolve("f").toString());
        assertEquals(1, untested.exit(), untested.out() + untested.err());
        assertEquals("bench: --fail-if-worse: no cell could be tested (not testable (n=1)): run --repeat 2 or more on each side\n", untested.err());
    }

    /**
     * Edges of the gate: failures whose medians are 0 on both sides but whose means got worse (0/0 is no ratio, and the
     * worse cell passed); and every repeat one value on each side (not testable, and the gate passed a clear loss, or
     * asked for repeats that were there).
     */
    @Test
    void theGateJudgesZeroMediansAndConstantCells() {
        Path run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("edges"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 11)))) {
            for (String v : List.of("16", "17")) {
                for (int r = 0; r < 11; r++) {
                    double failed = v.equals("16") || r < 6 ? 0 : 10;
                    rd.append(Trial.of("clients=1;version=" + v, r).param("version", v).param("clients", 1).metric("failed", failed)
                            .metric("retries", v.equals("16") ? 100 : 120).metric("tps", 1000).build());
                }
            }
            run = rd.path();
        }
        CommandRun zero = CommandRun.of("compare", run.toString(), "--metric", "failed", "--fail-if-worse", "-o", tmp.resolve("z").toString());
        assertEquals(1, zero.exit(), zero.out() + zero.err());
        assertEquals("bench: 1 cell is worse than 16 (--fail-if-worse): 17 all failed (medians 0 and 0, worse in the mean)\n", zero.err());
        CommandRun constant = CommandRun.of("compare", run.toString(), "--metric", "retries", "--fail-if-worse", "--tolerance", "5",
                "-o", tmp.resolve("k").toString());
        assertEquals(1, constant.exit(), constant.out() + constant.err());
        assertEquals("bench: 1 cell is worse than 16 by more than 5 % (--fail-if-worse): 17 all retries x1.200\n", constant.err());
        // one value on each side, the same: judged equal, and passed (not "run --repeat 2 or more")
        CommandRun same = CommandRun.of("compare", run.toString(), "--metric", "tps", "--fail-if-worse", "-o", tmp.resolve("s").toString());
        assertEquals(0, same.exit(), same.out() + same.err());
    }

    /** Two versions swept over different client counts: no cell matches, and a CI step relying on the exit code must fail. */
    @Test
    void aComparisonThatComparesNothingFails() {
        Path run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("results"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 2)))) {
            for (String v : List.of("16", "17")) {
                for (int c : v.equals("16") ? new int[] {1, 4} : new int[] {2, 8}) {
                    for (int r = 0; r < 2; r++) {
                        rd.append(Trial.of("clients=" + c + ";version=" + v, r).param("version", v).param("clients", c)
                                .metric("tps", 1000.0 * c + r).build());
                    }
                }
            }
            run = rd.path();
        }
        CommandRun none = CommandRun.of("compare", run.toString(), "-o", tmp.resolve("out").toString());
        assertEquals(1, none.exit(), none.out() + none.err());
        assertTrue(none.out().contains("warning: 17 has no cell that matches one of 16's"), none.out());
        // the reason on stderr, where a CI log may show nothing else
        assertTrue(none.err().matches("(?s).*bench: nothing compared: 17 has no cell that matches one of 16's[^\n]*\n"), none.err());
        assertTrue(Files.isRegularFile(tmp.resolve("out/compare.html")), "the report of what was left out is still written");
    }
}
