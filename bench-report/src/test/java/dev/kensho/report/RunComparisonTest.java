package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample sweep: version 17 over 16 has tps medians 1050/1000, 4200/4000, 7600/8000, so ratios
 * 1.05, 1.05, 0.95 and geometric mean 1.0155 (arithmetic 1.0167). Expected statistics from R 4.2:
 * t.test(c(1050,1040,1060), c(1000,1010,990))$p.value = 0.003602232609 (4 clients: 0.05478676604,
 * 16: 0.008049893101); anova(lm(tps ~ version * factor(clients))): F 2.06422 (p 0.17635),
 * 12669.03670, 26.83486 (p 3.723e-05) on 1, 2, 2, 12 df.
 */
class RunComparisonTest {
    @TempDir
    Path tmp;

    /** The gate as a Java harness reads it: 17's tps at 16 clients is 0.95 of 16's, worse (Holm p 0.016). */
    @Test
    void worseBeyondIsTheGatesRows() throws Exception {
        RunComparison cmp = RunComparison.of(List.of(SampleRuns.pgbenchSweep(tmp)));
        java.util.function.DoubleFunction<List<String>> tps = pct -> cmp.worseBeyond(pct).stream().filter(r -> r.metric().equals("tps"))
                .map(r -> r.group() + " " + r.cell()).toList();
        assertEquals(1, tps.apply(0).size(), cmp.text());
        assertTrue(tps.apply(0).get(0).startsWith("17 "), tps.apply(0).toString());
        assertEquals(tps.apply(0), tps.apply(4.9));
        assertEquals(List.of(), tps.apply(5.1));
        assertFalse(cmp.untestedForWantOfRepeats());
        // the gate's own words, as compare --fail-if-worse says them; latency follows tps (1/0.95 = 1.053)
        assertEquals(java.util.Optional.of("2 cells are worse than 16 (--fail-if-worse): 17 clients=16 tps x0.950, 17 clients=16 latency_avg_ms x1.053"),
                cmp.gateFailure(0));
        assertEquals(java.util.Optional.of("1 cell is worse than 16 by more than 5.1 % (--fail-if-worse): 17 clients=16 latency_avg_ms x1.053"),
                cmp.gateFailure(5.1));
        assertEquals(java.util.Optional.empty(), cmp.gateFailure(6));
    }

    @Test
    void versionsInsideOneRun() throws Exception {
        RunComparison cmp = RunComparison.of(List.of(SampleRuns.pgbenchSweep(tmp)));
        assertEquals("version", cmp.by());
        assertEquals(List.of("16", "17"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        checkTps(cmp);

        List<Path> files = cmp.write(tmp.resolve("out"));
        String html = Files.readString(files.get(0));
        HtmlReportTest.assertSelfContained(html);
        assertTrue(html.contains("<svg"), "tps vs clients chart");
        // titled as the run report's charts, which a screen reader announces
        assertTrue(html.contains("aria-label='TPS vs clients (tps)'"), html);
        assertTrue(html.contains("aria-label='Latency avg (ms) vs clients (latency_avg_ms)'"), html);
        String svg = html.substring(html.indexOf("<svg"), html.indexOf("</svg>"));
        assertTrue(svg.contains(">16<") && svg.contains(">17<"), "legend names both versions");
        assertFalse(svg.contains("threads"), "threads follows clients: not a series");
        assertTrue(html.contains("Geometric mean ratio 17: <b>1.016</b> (1 better, 1 no significant difference, 1 worse of 3 cells)"), html);
        assertTrue(html.contains("<p class=\"sub\">higher is better; verdict: Welch's t-test, p Holm-adjusted over the metric's cells within each group (one family per metric and group), "
                + "at α = 0.05; 95% CI: of the ratio of the means, Fieller&#39;s with Welch&#39;s degrees of freedom, per cell (it leaves out 1 "
                + "where p Welch &lt; 0.05)</p>"), html);
        // Holm over the 3 cells: 0.0080 is the second smallest p, × 2 = 0.0161 (R: p.adjust(c(0.003602, 0.054787, 0.008050), "holm"));
        // 3 repeats a side: Mann–Whitney cannot go below p = 0.1, so it is no test at α = 0.05 and its column is left out
        assertTrue(html.contains("<td class=\"num\">0.0080</td><td class=\"num\">0.0161</td><td class=\"num\">3/3</td><td>worse</td>"),
                html);
        assertTrue(html.contains("Mann–Whitney left out: with these few repeats"), html);
        assertTrue(html.contains("Signif. codes: 0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1"), "legend under the ANOVA's stars");
        assertTrue(html.contains("<td>group:clients</td><td class=\"num\">2</td>"), "interaction row");
        assertTrue(html.contains("26.835"), "interaction F");
        String csv = Files.readString(files.get(1));
        List<String> lines = csv.lines().toList();
        assertEquals("clients,threads,script,metric,baseline,group,baseline_median,median,ratio,ratio_ci_low,ratio_ci_high,ratio_ci_shape,baseline_n,n,"
                + "welch_p,welch_p_holm,mann_whitney_p,better,alpha,verdict", lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("16,8,select-only,tps,16,17,8000,7600,0.95,")
                && l.contains(",3,3,0.00804989") && l.contains(",0.0160997")
                // Mann–Whitney left out, as in the table: 3 against 3 cannot go below p = 0.1
                && l.endsWith(",,higher,0.05,worse")), csv);
        // Fieller's interval of the ratio of means holds 1 exactly where Welch's p (unadjusted) is 0.05 or more
        for (RunComparison.Row r : cmp.rows()) {
            if (Double.isNaN(r.welchP())) continue;
            assertEquals(r.welchP() >= 0.05, r.intervalHolds(1), r.toString());
            assertTrue(r.ratioLow() < r.ratioHigh(), r.toString());
        }
        assertTrue(cmp.rows().stream().anyMatch(r -> r.welchP() < 0.05) && cmp.rows().stream().anyMatch(r -> r.welchP() >= 0.05),
                "both kinds of cell in the sample");
        assertTrue(html.contains("<th>95 % CI</th>"), html);
        // the skipped 64-client cell (only in 17, and skipped) is not compared
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("64,")));
        String text = cmp.text();
        assertTrue(text.contains("clients=4"), text);
        assertTrue(text.contains("1.050"), text);
        assertTrue(text.contains("Better: tps higher is better; latency_avg_ms lower is better. Verdict: Welch's t-test, p Holm-adjusted over the metric's cells within each group (one family per metric and group), at α = 0.05."), text);
        assertTrue(text.contains("geometric mean ratio tps 17: 1.016 (1 better, 1 no significant difference, 1 worse of 3 cells)"), text);
    }

    /**
     * Study 002's conversion cost against no conversion: by client_encoding with none as the baseline. The micro
     * cells' query names the encoding ("encoding SJIS"): it follows the compared value and is matched without, where
     * it kept every cell of one group from meeting the other's ("no cell was measured in both").
     */
    @Test
    void byAParameterWhoseLabelFollowsIt() throws Exception {
        RunComparison cmp = RunComparison.of(List.of(SampleRuns.micro(tmp)), new RunComparison.Options("client_encoding", List.of("ms"), false, "none"));
        assertEquals(List.of("none", "SJIS"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        assertTrue(cmp.notes().contains("matched without query (one value per client_encoding)"), cmp.notes().toString());
        assertEquals(2, cmp.rows().size(), cmp.rows().toString());   // one per target
        for (RunComparison.Row r : cmp.rows()) {
            assertEquals("none", r.baseline());
            assertEquals(r.cell().contains("embedded-17") ? 99.0 / 71 : 98.0 / 70, r.ratio(), 1e-9, r.toString());
        }
        assertThrows(KenshoException.class, () -> RunComparison.of(List.of(SampleRuns.micro(tmp.resolve("b"))),
                new RunComparison.Options("client_encoding", List.of("ms"), false, "EUC_JP")));
    }

    @Test
    void twoDirectoriesOneVersionEach() {
        RunResults a = SampleRuns.pgbenchSingle(tmp, 0);
        RunResults b = SampleRuns.pgbenchSingle(tmp, 1);
        RunComparison cmp = RunComparison.of(List.of(a, b));
        // no version parameter in the trials: the groups are named by the server version each run recorded
        assertEquals(List.of("16.10", "17.10"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        checkTps(cmp);
    }

    /** Trials that kept their histograms: the tail over every transaction of a cell, version against version. */
    @Test
    void latencyOfAllTransactions() {
        RunComparison cmp = RunComparison.of(List.of(SampleRuns.pgbenchSweepWithTimelines(tmp)));
        List<RunComparison.LatencyRow> rows = cmp.latencyRows();
        assertEquals(List.of("clients=1", "clients=4"), rows.stream().map(RunComparison.LatencyRow::cell).toList());
        RunComparison.LatencyRow r = rows.get(1);
        assertEquals("16", r.baseline());
        assertEquals("17", r.group());
        assertEquals(2000, r.count());
        // p50, p90, p99, p99.9 of the 2000 transactions of both repeats (a median of the repeats' p99s would be 0.6), none
        // above the max the trials recorded (0.9994 and 1.9988 ms): the histogram's bucket tops, 1 and 2 ms, are above it
        assertEquals(List.of(0.2, 0.2, 0.9994, 0.9994), r.baselineMs().stream().map(x -> Math.round(x * 10000) / 10000.0).toList());
        assertEquals(List.of(0.4, 0.4, 1.9988, 1.9988), r.ms().stream().map(x -> Math.round(x * 10000) / 10000.0).toList());
        assertTrue(cmp.text().contains("clients=4 17: p50 0.2000 -> 0.4000 (2.000) p90 0.2000 -> 0.4000 (2.000) p99 0.9994 -> 1.999 (2.000) p99.9 0.9994 -> 1.999 (2.000)"),
                cmp.text());
        assertTrue(cmp.html().contains("<h2>Latency of all transactions</h2>"));
        // p50 0.2 → 0.4 ms: ratio 2 in the report's table too
        assertTrue(cmp.html().contains("<td class=\"num\">0.2000</td><td class=\"num\">0.4000</td><td class=\"num\">2.000</td>"), cmp.html());
        // runs without histograms get no such section
        assertTrue(RunComparison.of(List.of(SampleRuns.pgbenchSweep(tmp.resolve("plain")))).latencyRows().isEmpty());
    }

    private static void checkTps(RunComparison cmp) {
        List<RunComparison.Row> tps = cmp.rows().stream().filter(r -> r.metric().equals("tps")).toList();
        assertEquals(3, tps.size());
        assertEquals("clients=1", tps.get(0).cell());
        assertEquals(1000, tps.get(0).baselineMedian());
        assertEquals(1050, tps.get(0).median());
        assertEquals(1.05, tps.get(0).ratio(), 1e-12);
        assertEquals(1.05, tps.get(1).ratio(), 1e-12);
        assertEquals(0.95, tps.get(2).ratio(), 1e-12);
        assertEquals(0.003602232609, tps.get(0).welchP(), 1e-9);
        assertEquals(0.05478676604, tps.get(1).welchP(), 1e-9);
        assertEquals(0.008049893101, tps.get(2).welchP(), 1e-9);
        assertEquals(0.1, tps.get(0).mannWhitneyP(), 1e-12);
        assertEquals(Math.exp((2 * Math.log(1.05) + Math.log(0.95)) / 3), cmp.geometricMeanRatios().get("tps").values().iterator().next(), 1e-12);
        assertEquals(List.of("better", "no significant difference", "worse"), tps.stream().map(RunComparison.Row::verdict).toList());
        // latency ratio at 1 client: (1000/1050)/(1000/1000)
        RunComparison.Row lat = cmp.rows().stream().filter(r -> r.metric().equals("latency_avg_ms")).findFirst().orElseThrow();
        assertEquals(1000.0 / 1050, lat.ratio(), 1e-12);

        RunComparison.Analysis an = cmp.analyses().stream().filter(x -> x.metric().equals("tps")).findFirst().orElseThrow();
        assertEquals("clients", an.factor());
        assertEquals(2.06422, an.anova().term("group").f(), 1e-5);
        assertEquals(0.17635, an.anova().term("group").p(), 1e-5);
        assertEquals(12669.03670, an.anova().term("clients").f(), 1e-3);
        assertEquals(26.83486, an.anova().term("group:clients").f(), 1e-5);
        assertEquals(3.723e-05, an.anova().term("group:clients").p(), 1e-8);
        assertEquals(12, an.anova().residual().df());
        // R: anova(lm(abs(tps - ave(tps, g, FUN = median)) ~ g)): F 1.45076, p 0.27593
        assertEquals(1.45076, an.levene().statistic(), 1e-5);
        assertEquals(0.27593, an.levene().p(), 1e-5);
        assertEquals(3, an.contrasts().size());
    }

    /** The load trial has no workers: it is no third group, and the queries' time is what is compared. */
    @Test
    void runsOfDifferentCommandsAreNotCompared() {
        KenshoException e = assertThrows(KenshoException.class,
                () -> RunComparison.of(List.of(SampleRuns.pgbenchSweep(tmp.resolve("a")), SampleRuns.scan(tmp.resolve("b")))));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("compare: the runs are of different commands (pgbench sweep, "), e.getMessage());
    }

    @Test
    void aVerdictWhoseMeansAndMediansDisagreeGivesNoDirection() {
        double[][] tps = {{100, 100, 100, 100, 100, 100, 100, 100, 100}, {101, 101, 101, 101, 101, 50, 50, 50, 50}};
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
            for (int v = 0; v < 2; v++) {
                for (int r = 0; r < 9; r++) {
                    rd.append(Trial.of("version=" + (16 + v) + ";clients=1", r).param("version", String.valueOf(16 + v)).param("clients", 1)
                            .metric("tps", tps[v][r]).build());
                }
            }
            run = RunDirectory.read(rd.path());
        }
        RunComparison cmp = RunComparison.of(List.of(run), new RunComparison.Options("version", List.of("tps")));
        RunComparison.Row row = cmp.rows().get(0);
        // Welch finds the means apart (p ~ 0.04, 78 against 100), while the median went up (101): neither "worse" nor "better"
        assertTrue(row.welchP() < 0.05, "p " + row.welchP());
        assertEquals(1.01, row.ratio(), 1e-9);
        assertEquals("no clear direction (means and medians disagree)", row.verdict());
    }

    /** compare.html's medians: "13" under "18.450" in one column; a whole value among fractions keeps its decimals. */
    @Test
    void aColumnOfFractionsGivesItsWholeValuesTheirDecimals() {
        double[][][] driver = {{{7, 19}, {10.3, 26.6}}, {{10.6, 10.6}, {6.05, 6.05}}};
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
            for (int v = 0; v < 2; v++) {
                for (int c = 0; c < 2; c++) {
                    for (int r = 0; r < 2; r++) {
                        rd.append(Trial.of("version=" + (16 + v) + ";clients=" + (c + 1), r).param("version", String.valueOf(16 + v))
                                .param("clients", c + 1).metric("driver_cpu_pct", driver[v][c][r]).build());
                    }
                }
            }
            run = RunDirectory.read(rd.path());
        }
        String html = RunComparison.of(List.of(run), new RunComparison.Options("version", List.of("driver_cpu_pct"))).html();
        assertTrue(html.contains("<td class=\"num\">13.000</td><td class=\"num\">10.600</td>"), html);
        assertTrue(html.contains("<td class=\"num\">18.450</td><td class=\"num\">6.050</td>"), html);
        // each median column names its group: the candidate's read "median" beside "16 median"
        assertTrue(html.contains("<th>16 median</th><th>17 median</th>"), html);
    }

    @Test
    void ssbByWorkersLeavesTheLoadOut() {
        RunComparison cmp = RunComparison.of(List.of(SampleRuns.ssbWorkersWithLoad(tmp)), new RunComparison.Options("workers", List.of()));
        assertEquals(List.of("0", "2"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        assertEquals(List.of("seconds"), cmp.metrics());
        assertEquals(List.of(), cmp.warnings());
        assertEquals(List.of("left out, without workers: load;version=17"), cmp.notes());
        assertEquals(List.of("query=Q1.1", "query=Q2.1"), cmp.rows().stream().map(RunComparison.Row::cell).toList());
        assertEquals(0.5, cmp.rows().get(0).ratio(), 1e-12);
        assertTrue(cmp.text().contains("note: left out, without workers: load;version=17"), cmp.text());
    }

    /**
     * compare.csv's numbers in plain notation, as summary.csv's: Double.toString had written a median of 0.000654 s as
     * "6.54E-4" (and a p-value of 1e-5 as "1.0E-5"), which some CSV readers take as text.
     */
    @Test
    void compareCsvWritesSmallNumbersInPlainNotation() throws Exception {
        List<RunResults> runs = new ArrayList<>();
        for (String v : List.of("16", "17")) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve(v), RunInfo.of("query", List.of("bench"), Map.of()))) {
                double[] seconds = v.equals("16") ? new double[] {0.000654, 0.000655, 0.000656} : new double[] {0.000327, 0.000328, 0.000329};
                for (int r = 0; r < seconds.length; r++) {
                    rd.append(Trial.of("query=q;version=" + v, r).param("query", "q").param("version", v).metric("seconds", seconds[r]).build());
                }
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        RunComparison cmp = RunComparison.of(runs);
        RunComparison.Row row = cmp.rows().get(0);
        assertTrue(row.welchP() < 1e-3, row.toString());
        String csv = cmp.csv();
        String line = csv.lines().skip(1).findFirst().orElseThrow();
        assertTrue(line.contains(",0.000655,0.000328,"), csv);   // the medians
        assertFalse(line.matches(".*[0-9][eE][-+]?[0-9].*"), csv);
        assertTrue(line.contains("," + new java.math.BigDecimal(Double.toString(row.welchP())).stripTrailingZeros().toPlainString() + ","), csv);
    }

    /**
     * Two SSB runs by version, one of which loaded its data: the load has a version but none of the compared metrics.
     * Kept as a cell, it took the comparison's chart away (a cell without workers), gave the analyses a scope without
     * data ("seconds: no ANOVA") and compare.csv three columns empty in every row.
     */
    @Test
    void ssbRunThatLoadedComparesItsQueriesOnly() throws Exception {
        RunResults loaded = SampleRuns.ssbWorkers(tmp.resolve("a"), "16", true);
        RunResults cached = SampleRuns.ssbWorkers(tmp.resolve("b"), "17", false);
        RunComparison cmp = RunComparison.of(List.of(loaded, cached));
        assertEquals(List.of("16", "17"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        assertEquals(List.of(), cmp.warnings());
        assertEquals(List.of("left out, none of seconds measured: load;version=16"), cmp.notes());
        assertEquals(4, cmp.rows().size(), cmp.rows().toString());
        assertEquals(2, cmp.analyses().size(), "one per query");
        List<Path> files = cmp.write(tmp.resolve("out"));
        assertTrue(Files.readString(files.get(0)).contains("<svg"), "seconds vs workers chart");
        assertTrue(Files.readString(files.get(1)).startsWith("pool,workers,query,metric,"), Files.readString(files.get(1)));
    }

    /**
     * A run at -T 3 on 18 against a sweep at -T 2 over 16 and 17: no cell matches. It was said once, as "no cell was
     * measured in both", beside a "geometric mean ratio tps 16: – ( of 0 cells)" line per metric and group; now per
     * group, with the parameter that differs.
     */
    @Test
    void groupsWithoutAMatchedCellSayWhichParameterDiffers() throws Exception {
        List<RunResults> runs = new java.util.ArrayList<>();
        for (List<String> versions : List.of(List.of("18"), List.of("16", "17"))) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve(versions.get(0)), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
                for (String v : versions) {
                    for (int r = 0; r < 2; r++) {
                        rd.append(Trial.of("clients=1;version=" + v, r).param("version", v).param("clients", 1)
                                .param("duration_s", v.equals("18") ? 3 : 2).metric("tps", 1000.0 + r).build());
                    }
                }
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        RunComparison cmp = RunComparison.of(runs);
        assertEquals(List.of("18", "16", "17"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        assertEquals(List.of(), cmp.rows());
        assertEquals(List.of("16 has no cell that matches one of 18's: duration_s is 2 there, 3 in 18 (--by duration_s compares them)",
                "17 has no cell that matches one of 18's: duration_s is 2 there, 3 in 18 (--by duration_s compares them)"),
                cmp.warnings());   // and no "tps: no ANOVA" repeating them
        assertFalse(cmp.text().contains("geometric mean ratio"), cmp.text());
    }

    /**
     * A select-only sweep on one server and a tpcb-like one on another: the script differs with the target one to one,
     * but does not name it, so it is a cell's parameter and nothing matches. Taken as the target's label, the two
     * workloads' TPS were compared as one cell's (a ratio of 0.03, exit 0).
     */
    @Test
    void aWorkloadThatDiffersWithTheTargetIsNoLabelOfIt() throws Exception {
        List<RunResults> runs = new java.util.ArrayList<>();
        for (String[] run : new String[][] {{"remote 127.0.0.1:5432/x", "select-only"}, {"remote 127.0.0.1:5432/y", "tpcb-like"}}) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve(run[1]), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("target=" + run[0] + ";clients=2", r).param("target", run[0]).param("clients", 2)
                            .param("script", run[1]).metric("tps", (run[1].equals("tpcb-like") ? 350.0 : 11000.0) + r).build());
                }
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        RunComparison cmp = RunComparison.of(runs);
        assertEquals(List.of(), cmp.rows());
        assertTrue(cmp.warnings().stream().anyMatch(w -> w.startsWith("remote 127.0.0.1:5432/y has no cell that matches one of remote 127.0.0.1:5432/x's: script is tpcb-like there, select-only in")),
                cmp.warnings().toString());
        assertFalse(cmp.notes().stream().anyMatch(n -> n.startsWith("matched without")), cmp.notes().toString());
    }

    /**
     * Two hosts' sweeps at other client counts: clients 2 and 4 were "in" remote 127.0.0.1:5432/kx_a and .../kx_b, so the
     * client count was taken for a label of the target and the cells compared as one (a ratio of 15.8, a CI gate passed).
     */
    @Test
    void aNumberInsideAHostsLabelIsNoLabelOfIt() throws Exception {
        List<RunResults> runs = new java.util.ArrayList<>();
        for (String[] run : new String[][] {{"remote 127.0.0.1:5432/kx_h2_a", "2"}, {"remote 127.0.0.1:5432/kx_h2_b", "4"}}) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve(run[1]), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("target=" + run[0] + ";clients=" + run[1], r).param("target", run[0]).param("clients", Integer.parseInt(run[1]))
                            .metric("tps", 100.0 * Integer.parseInt(run[1]) + r).build());
                }
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        RunComparison cmp = RunComparison.of(runs);
        assertEquals(List.of(), cmp.rows());
        assertFalse(cmp.notes().stream().anyMatch(n -> n.startsWith("matched without")), cmp.notes().toString());
        assertTrue(cmp.warnings().stream().anyMatch(w -> w.contains("clients is 4 there, 2 in")), cmp.warnings().toString());
        // words, not characters: a version is named by embedded-18, an address or a port number is not cut into digits
        assertTrue(RunComparison.names("18", "embedded-18"));
        assertTrue(RunComparison.names("encoding SJIS", "SJIS"));
        assertTrue(RunComparison.names("15 remote db1:5432/bench", "remote db1:5432/bench"));
        assertFalse(RunComparison.names("1", "remote 127.0.0.1:5432/kx_h2_a"));
        assertFalse(RunComparison.names("2", "remote 127.0.0.1:5432/kx_h2_a"));
        assertFalse(RunComparison.names("16", "16.10"));
    }

    /**
     * pgbench run -M simple, then -M prepared, one trial each: by default the runs are the groups and nothing matches,
     * which the warning says with the way out; --by mode compares them, where every row is "not testable (n=1)" and no
     * "Mann–Whitney left out (1 against 1: p ≥ 1)" line adds to it.
     */
    @Test
    void twoRunsOfOneSettingEach() throws Exception {
        List<RunResults> runs = new java.util.ArrayList<>();
        for (String mode : List.of("simple", "prepared")) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve(mode), RunInfo.of("pgbench run", List.of("bench"), Map.of()))) {
                rd.environment("default", Map.of("server", Map.of("server_version", "17.2")));
                rd.append(Trial.of("clients=2", 0).param("clients", 2).param("mode", mode).metric("tps", mode.equals("simple") ? 1000.0 : 1200.0)
                        .metric("latency_avg_ms", 2.0).build());
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        RunComparison byRun = RunComparison.of(runs);
        assertTrue(byRun.warnings().contains("B has no cell that matches one of A's: mode is prepared there, simple in A (--by mode compares them)"),
                byRun.warnings().toString());
        RunComparison byMode = RunComparison.of(runs, new RunComparison.Options("mode", List.of()));
        assertEquals(1.2, byMode.rows().get(0).ratio(), 1e-12);
        assertEquals("not testable (n=1)", byMode.rows().get(0).verdict());
        assertFalse(byMode.text().contains("Mann–Whitney"), byMode.text());
    }

    /** A run stopped before its first trial (run.json alone) is no group of the comparison, and no silent one either. */
    @Test
    void runWithoutTrialsIsRefused() throws Exception {
        RunResults empty;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("e"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
            empty = RunDirectory.read(rd.path());
        }
        KenshoException e = assertThrows(KenshoException.class, () -> RunComparison.of(List.of(empty, SampleRuns.pgbenchSweep(tmp))));
        assertEquals("compare: " + empty.directory() + " has no finished trial (the run stopped before its first)", e.getMessage());
    }

    /** A run whose every trial failed left one group, and the error asked for the two directories it had been given. */
    @Test
    void runWithoutAnOkTrialIsRefusedByName() throws Exception {
        RunResults failed;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("f"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
            for (int r = 0; r < 2; r++) {
                rd.append(Trial.of("clients=1", r).param("clients", 1).failed("FATAL: sorry, too many clients already").build());
            }
            failed = RunDirectory.read(rd.path());
        }
        KenshoException e = assertThrows(KenshoException.class,
                () -> RunComparison.of(List.of(SampleRuns.pgbenchSingle(tmp, 0), failed)));
        assertEquals("compare: " + failed.directory() + " has no trial that finished ok (2 failed; the last: "
                + "FATAL: sorry, too many clients already)", e.getMessage());
    }

    /** A sweep of 16 and 17 whose 17 failed every trial: the error said to give --by a parameter that varies, which version did. */
    @Test
    void aVersionWhoseEveryTrialFailedIsNamed() throws Exception {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("s"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
            for (String v : List.of("16", "17")) {
                for (int r = 0; r < 2; r++) {
                    Trial.Builder t = Trial.of("clients=1;version=" + v, r).param("version", v).param("clients", 1);
                    rd.append(v.equals("17") ? t.failed("could not start the server: initdb failed").build() : t.metric("tps", 100.0 + r).build());
                }
            }
            run = RunDirectory.read(rd.path());
        }
        KenshoException e = assertThrows(KenshoException.class, () -> RunComparison.of(List.of(run)));
        assertEquals("compare: only one group to compare (16); every trial of version 17 failed (the last: could not start the server: "
                + "initdb failed)", e.getMessage());
    }

    /**
     * 17 failed every repeat at 16 clients and ran 64 that 16 did not: neither cell has a row, and the geometric mean
     * stands on 2 cells; the output says why, where it said nothing and the failure of 17 went unseen.
     */
    @Test
    void cellsOfOneGroupOnlyAreNamed() throws Exception {
        RunResults v17;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("17"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
            for (int c : new int[] {1, 4, 16, 64}) {
                for (int r = 0; r < 3; r++) {
                    Trial.Builder t = Trial.of("clients=" + c, r).param("clients", c).param("threads", Math.max(1, c / 2))
                            .param("script", "select-only");
                    rd.append(c == 16 ? t.failed("FATAL: sorry, too many clients already").build()
                            : t.metric("tps", 1000.0 * c + r).metric("latency_avg_ms", 1.0 + r).build());
                }
            }
            v17 = RunDirectory.read(rd.path());
        }
        RunComparison cmp = RunComparison.of(List.of(SampleRuns.pgbenchSingle(tmp, 0), v17));
        assertEquals(List.of("clients=1", "clients=4"), cmp.rows().stream().filter(r -> r.metric().equals("tps")).map(RunComparison.Row::cell).toList());
        assertEquals(List.of("clients=16 not compared: every repeat of B failed: FATAL: sorry, too many clients already"), cmp.warnings());
        assertTrue(cmp.notes().contains("not compared, in B but not in A: clients=64"), cmp.notes().toString());
        String text = cmp.text();
        assertTrue(text.contains("warning: clients=16 not compared: every repeat of B failed"), text);
        assertTrue(text.contains("note: not compared, in B but not in A: clients=64"), text);
        assertTrue(cmp.html().contains("clients=16 not compared: every repeat of B failed"), cmp.html());
    }

    /**
     * The candidate failed every repeat of a cell the baseline ran ok (an SSB query cancelled by statement_timeout in
     * every repeat): the cell had no row, only a warning, and --fail-if-worse passed (exit 0) whatever the tolerance.
     * The gate fails on it; a cell the candidate skipped (a pattern its server cannot hold) is no failure.
     */
    @Test
    void aGateFailsWhereTheCandidateFailedEveryRepeat() throws Exception {
        java.util.function.BiFunction<String, String, RunResults> run = (name, at16) -> {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve(name), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
                for (int c : new int[] {1, 4, 16}) {
                    for (int r = 0; r < 3; r++) {
                        Trial.Builder t = Trial.of("clients=" + c, r).param("clients", c).param("threads", 1).param("script", "select-only");
                        if (c == 16 && at16.equals("failed")) t.failed("ERROR: canceling statement due to statement timeout");
                        else if (c == 16 && at16.equals("skipped")) t.skipped("needs max_worker_processes=16");
                        else t.metric("tps", 1000.0 * c + r).metric("latency_avg_ms", 1.0 + r);
                        rd.append(t.build());
                    }
                }
                return RunDirectory.read(rd.path());
            }
        };
        RunResults base = run.apply("base", "ok");
        RunComparison failed = RunComparison.of(List.of(base, run.apply("failed", "failed")));
        assertEquals(List.of("clients=16 not compared: every repeat of B failed: ERROR: canceling statement due to statement timeout"),
                failed.warnings());
        assertEquals(List.of(), failed.worseBeyond(0));
        String why = "1 cell that A finished failed in every repeat (--fail-if-worse, whatever the tolerance): B clients=16"
                + " (ERROR: canceling statement due to statement timeout)";
        assertEquals(java.util.Optional.of(why), failed.gateFailure(0), failed.text());
        assertEquals(java.util.Optional.of(why), failed.gateFailure(1000));
        // the other way round (the baseline failed, the candidate runs it) is no worsening
        assertEquals(java.util.Optional.empty(), RunComparison.of(List.of(run.apply("failed2", "failed"), run.apply("base2", "ok"))).gateFailure(0));
        // skipped is not failed
        assertEquals(java.util.Optional.empty(), RunComparison.of(List.of(base, run.apply("skipped", "skipped"))).gateFailure(0));
    }

    /**
     * Both runs failed every repeat at 2 clients (a script that divides by its client id): that cell had no row and no
     * word, and the one left was labelled "all", as if it were the whole sweep. It is named with its failure, and the
     * cell that was compared keeps its clients=1.
     */
    @Test
    void aCellThatFailedInEveryGroupIsNamed() throws Exception {
        List<RunResults> runs = new java.util.ArrayList<>();
        for (String name : List.of("a", "b")) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve(name), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
                for (int c : new int[] {1, 2}) {
                    for (int r = 0; r < 3; r++) {
                        Trial.Builder t = Trial.of("clients=" + c, r).param("clients", c).param("threads", 1).param("script", "fail.sql");
                        rd.append(c == 2 ? t.failed("run aborted: ERROR:  division by zero").build()
                                : t.metric("tps", 1000.0 + r).metric("latency_avg_ms", 1.0 + r).build());
                    }
                }
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        RunComparison cmp = RunComparison.of(runs);
        assertEquals(List.of("clients=1"), cmp.rows().stream().filter(r -> r.metric().equals("tps")).map(RunComparison.Row::cell).toList());
        assertEquals(List.of("clients=2 not compared: no group finished a repeat of it ok (the last failed: run aborted: ERROR:  division by zero)"),
                cmp.warnings());
        assertTrue(cmp.text().contains("warning: clients=2 not compared"), cmp.text());
        assertTrue(cmp.html().contains("clients=2 not compared"), cmp.html());
    }

    /** Two single pgbench runs chart nothing, yet the default is what --help says: tps and latency. */
    @Test
    void twoPgbenchRunsCompareTpsAndLatencyByDefault() {
        List<RunResults> runs = List.of(SampleRuns.pgbenchRun(tmp, 1000), SampleRuns.pgbenchRun(tmp, 1100));
        RunComparison cmp = RunComparison.of(runs);
        assertEquals(List.of("tps", "latency_avg_ms"), cmp.metrics());
        assertEquals(1.1, cmp.rows().get(0).ratio(), 1e-12);
        // both on 17.10: the groups are the runs, lettered, and a legend names their directories
        assertEquals(List.of("A", "B"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        assertTrue(cmp.text().contains("Comparing A | B; ratios are group/A of medians\n  A = " + runs.get(0).directory().getFileName()
                + "\n  B = " + runs.get(1).directory().getFileName() + "\n"), cmp.text());
        assertTrue(cmp.html().contains("<tr><td>B</td><td>" + runs.get(1).directory().getFileName() + "</td>"), "Runs table");
        // every shared metric but the counters that stayed 0
        RunComparison all = RunComparison.of(runs, new RunComparison.Options(null, List.of(), true));
        assertEquals(List.of("tps", "transactions", "latency_avg_ms", "latency_stddev_ms", "latency_p50_ms", "latency_p90_ms",
                "latency_p99_ms", "latency_max_ms", "initial_connection_ms", "seconds", "tps_cv_pct"), all.metrics());
        assertEquals(List.of("not compared, 0 in every cell of every group: failed, connection_failures, serialization_failures, "
                + "deadlock_failures, skipped, retries, late, lag_avg_ms"), all.notes());
        // asked for by name, a zero metric is compared
        assertEquals(List.of("failed"), RunComparison.of(runs, new RunComparison.Options(null, List.of("failed"))).metrics());
    }

    /** ×2 and ×0.5 cancel (their arithmetic mean is 1.25); one repeat per cell is no test. */
    @Test
    void geometricMeanAndUntestableCells() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("query", List.of("bench", "query"), Map.of()))) {
            for (String v : List.of("16", "17")) {
                rd.append(Trial.of("q=a;version=" + v, 0).param("q", "a").param("version", v).metric("seconds", v.equals("16") ? 1 : 2).build());
                rd.append(Trial.of("q=b;version=" + v, 0).param("q", "b").param("version", v).metric("seconds", v.equals("16") ? 2 : 1).build());
            }
            run = RunDirectory.read(rd.path());
        }
        RunComparison cmp = RunComparison.of(List.of(run), new RunComparison.Options("version", List.of("seconds")));
        assertEquals(1.0, cmp.geometricMeanRatios().get("seconds").get("17"), 1e-12);
        RunComparison.Row r = cmp.rows().get(0);
        assertEquals("not testable (n=1)", r.verdict());
        assertEquals("not testable (n=1)", r.welchText());
        assertEquals("not testable (n=1)", r.mannWhitneyText());
        String cellTable = cmp.text().substring(0, cmp.text().indexOf("Two-way ANOVA"));
        assertFalse(cellTable.contains("1.0000"), "no p-value of 1 for a test that cannot be made");
        // one value per cell still allows the additive two-way model (R: anova(lm(seconds ~ version + q)): F 0, p 1)
        assertEquals(1.0, cmp.analyses().get(0).anova().term("group").p(), 1e-12);
        assertTrue(cmp.text().contains("geometric mean ratio seconds 17: 1.000 (2 not testable of 2 cells)"), cmp.text());
    }

    /**
     * One cell far more spread than the others: Levene rejects, and the report says which contrasts to read. R:
     * anova(lm(abs(tps − ave(tps, cell, FUN = median)) ~ cell)): F(3, 12) 6.481897651, p 0.007424990627.
     */
    @Test
    void unequalVariancesPointToTheArtContrasts() {
        double[][][] tps = {{{100, 101, 99, 100.5}, {400, 401, 399, 400.5}}, {{100, 140, 60, 120}, {400, 401, 399, 400.2}}};
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
            for (int v = 0; v < 2; v++) {
                for (int c = 0; c < 2; c++) {
                    for (int r = 0; r < 4; r++) {
                        rd.append(Trial.of("clients=" + (c * 3 + 1) + ";version=" + (16 + v), r).param("version", String.valueOf(16 + v))
                                .param("clients", c * 3 + 1).metric("tps", tps[v][c][r]).build());
                    }
                }
            }
            run = RunDirectory.read(rd.path());
        }
        RunComparison cmp = RunComparison.of(List.of(run), new RunComparison.Options("version", List.of("tps")));
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertEquals(6.481897651, a.levene().statistic(), 1e-8);
        assertEquals(0.007424990627, a.levene().p(), 1e-11);
        String text = cmp.text();
        assertTrue(text.contains("F(3, 12) = 6.482, p = 0.0074; Bartlett K² = "), text);
        assertTrue(text.contains(ComparisonReport.VARIANCES_DIFFER), text);
        assertTrue(cmp.html().contains(dev.kensho.report.html.Html.esc(ComparisonReport.VARIANCES_DIFFER) + ".</p>"), "advice in the report");
    }

    /**
     * Two sweeps compared across a run-level parameter (autovacuum off in one, another order): the cells match, and the
     * comparison said nothing of it. What each run drew (its order seed) or ran on (its targets) is not said.
     */
    @Test
    void runParametersThatDifferAreNoted(@TempDir Path tmp) throws Exception {
        List<RunResults> runs = new ArrayList<>();
        String[][] settings = {{"{}", "random"}, {"autovacuum=off", "rounds"}};
        for (int i = 0; i < 2; i++) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("settings", i == 0 ? Map.of() : Map.of("autovacuum", "off"));
            p.put("order", settings[i][1]);
            p.put("order_seed", 100 + i);
            p.put("seed", 200 + i);   // query's order seed
            p.put("crossovers", List.of("high " + (40 + i) + " %"));   // scan's outcomes, compared as results
            // one map, its members in another order (micro's jmh options read back from two runs)
            p.put("jmh", i == 0 ? new LinkedHashMap<>(Map.of("forks", 1)) {{ put("iterations", 2); }}
                    : new LinkedHashMap<>(Map.of("iterations", 2)) {{ put("forks", 1); }});
            p.put("targets", List.of("embedded-1" + (6 + i)));
            p.put("duration_s", 60);
            p.put("scale", i == 0 ? 1 : null);   // unset on the second's command line (read from its tables): its trials say 1
            try (RunDirectory rd = RunDirectory.create(tmp.resolve("r" + i), RunInfo.of("pgbench sweep", List.of("x", "-c", "select 1"), p))) {
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("clients=1", r).param("clients", 1).param("version", String.valueOf(16 + i)).param("scale", 1)
                            .metric("tps", 100.0 + r + i).build());
                }
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        RunComparison cmp = RunComparison.of(runs);
        List<String> said = cmp.notes().stream().filter(n -> n.startsWith("the runs differ")).toList();
        String a = " in A (" + runs.get(0).directory().getFileName() + ")", b = " in B (" + runs.get(1).directory().getFileName() + ")";
        assertEquals(List.of("the runs differ in order: random" + a + "; rounds" + b, "the runs differ in settings: {}" + a + "; {autovacuum=off}" + b),
                said.stream().map(n -> n.replace("\"", "")).toList(), cmp.notes().toString());
        assertTrue(cmp.text().contains("note: the runs differ in settings: "), cmp.text());
        // the command line as a shell reads it back, as the report gives it (its quotes were lost)
        assertTrue(cmp.html().contains("<code>x -c &#39;select 1&#39;</code>"), cmp.html());
    }

    /** Two builds of Kensho measured the runs: said, as a setting that differs is. */
    @Test
    void runsOfDifferentBuildsAreNoted(@TempDir Path tmp) throws Exception {
        List<RunResults> runs = new ArrayList<>();
        String[] commits = {"0123abc", "4567def", "0123abc"};
        for (int i = 0; i < 3; i++) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve("r" + i), RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
                if (i < 2) rd.environment("embedded-18", Map.of("client", Map.of("kensho_commit", commits[i])));
                for (int r = 0; r < 2; r++) rd.append(Trial.of("clients=1", r).param("clients", 1).metric("tps", 100.0 + r).build());
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        String a = " in A (" + runs.get(0).directory().getFileName() + ")", b = " in B (" + runs.get(1).directory().getFileName() + ")";
        assertTrue(RunComparison.of(runs.subList(0, 2)).notes().contains("the runs were measured by different builds of Kensho: commit 0123abc"
                + a + "; 4567def" + b), RunComparison.of(runs.subList(0, 2)).notes().toString());
        assertTrue(RunComparison.of(List.of(runs.get(0), runs.get(0))).notes().stream().noneMatch(n -> n.contains("builds of Kensho")));
        // a run of an older Kensho recorded none: said as such beside one that did
        assertTrue(RunComparison.of(List.of(runs.get(0), runs.get(2))).notes().stream().anyMatch(n -> n.endsWith("; (not recorded) in B ("
                + runs.get(2).directory().getFileName() + ")")), RunComparison.of(List.of(runs.get(0), runs.get(2))).notes().toString());
    }

    /** Runs made with 1 CPU (a pod's quota, taskset) and with 2: said, as the driver shares or lacks the server's CPU. */
    @Test
    void runsOnDifferentlyConfinedClientsAreNoted(@TempDir Path tmp) throws Exception {
        List<RunResults> runs = new ArrayList<>();
        List<Map<String, Object>> clients = List.of(Map.of("cpus", 1, "host_cpus", 2, "cpus_allowed", "0-1", "cpu_cgroup", "/sys/fs/cgroup/ci",
                "cpu_quota", 0.5), Map.of("cpus", 2, "host_cpus", 2, "cpus_allowed", "0-1", "cpu_cgroup", "/sys/fs/cgroup/ci"), Map.of("cpus", 2));
        for (int i = 0; i < 3; i++) {
            try (RunDirectory rd = RunDirectory.create(tmp.resolve("r" + i), RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
                rd.environment("embedded-18", Map.of("client", clients.get(i)));
                for (int r = 0; r < 2; r++) rd.append(Trial.of("clients=1", r).param("clients", 1).metric("tps", 100.0 + r).build());
                runs.add(RunDirectory.read(rd.path()));
            }
        }
        String a = " in A (" + runs.get(0).directory().getFileName() + ")", b = " in B (" + runs.get(1).directory().getFileName() + ")";
        List<String> said = RunComparison.of(runs.subList(0, 2)).notes().stream().filter(n -> n.startsWith("the runs' client machines")).toList();
        assertEquals(List.of("the runs' client machines differ in cpus: 1" + a + "; 2" + b,
                "the runs' client machines differ in cpu_quota: 0.5" + a + "; none" + b), said);
        // a run of an older build recorded no confinement: only what both recorded is compared (cpus: the same)
        assertTrue(RunComparison.of(List.of(runs.get(1), runs.get(2))).notes().stream().noneMatch(n -> n.startsWith("the runs' client machines")),
                RunComparison.of(List.of(runs.get(1), runs.get(2))).notes().toString());
    }

    /**
     * The default baseline is the first run's first value as its command gave them (run.json's planned cells): sorted,
     * --pg-version 9.6,10,11 was compared with 10, and micro's none,SJIS with SJIS.
     */
    @Test
    void theDefaultBaselineIsTheFirstValueAsGiven(@TempDir Path tmp) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(RunDirectory.PLANNED_CELLS, List.of("query=q1;work_mem=64MB", "query=q1;work_mem=4MB"));
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("query", List.of("query"), p))) {
            for (String v : List.of("4MB", "64MB")) {
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("query=q1;work_mem=" + v, r).param("query", "q1").param("work_mem", v).metric("ms", 1.0 + r).build());
                }
            }
            RunComparison cmp = RunComparison.of(List.of(RunDirectory.read(rd.path())), new RunComparison.Options("work_mem", List.of()));
            assertEquals(List.of("64MB", "4MB"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        }
        // a parameter the planned keys do not hold (ssb's target beside its version label): its order read off the trials
        Map<String, Object> q = new LinkedHashMap<>();
        q.put(RunDirectory.PLANNED_CELLS, List.of("version=15 remote h:5432/kx_b;query=q1.1", "version=15 remote h:5432/kx_a;query=q1.1"));
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("ssb"), RunInfo.of("ssb", List.of("ssb"), q))) {
            for (String db : List.of("kx_b", "kx_a")) {
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("version=15 remote h:5432/" + db + ";query=q1.1", r).param("target", "remote h:5432/" + db)
                            .param("version", "15 remote h:5432/" + db).param("query", "q1.1").metric("seconds", 1.0 + r).build());
                }
            }
            RunComparison cmp = RunComparison.of(List.of(RunDirectory.read(rd.path())), new RunComparison.Options("target", List.of()));
            assertEquals(List.of("remote h:5432/kx_b", "remote h:5432/kx_a"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        }
    }

    /**
     * A query run compares its time by default, as the help says: rows, bytes and the first row's time, which the
     * report charts where they change with a parameter, are there by --metric or --all-metrics.
     */
    @Test
    void aQueryRunComparesItsTimeByDefault(@TempDir Path tmp) {
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("query", List.of("query"), Map.of()))) {
            for (String wm : List.of("4MB", "64MB")) {
                for (String v : List.of("15", "16")) {
                    for (int r = 0; r < 2; r++) {
                        rd.append(Trial.of("query=q1;version=" + v + ";work_mem=" + wm, r).param("query", "q1").param("version", v)
                                .param("work_mem", wm).metric("ms", 10.0 + r).metric("rows", wm.equals("4MB") ? 7 : 9)
                                .metric("bytes", wm.equals("4MB") ? 70 : 90).metric("first_row_ms", wm.equals("4MB") ? 9.0 : 3.0).build());
                    }
                }
            }
            RunResults run = RunDirectory.read(rd.path());
            assertEquals(List.of("ms"), RunComparison.of(List.of(run)).metrics());
            assertEquals(List.of("ms", "rows", "bytes", "first_row_ms"),
                    RunComparison.of(List.of(run), new RunComparison.Options(null, List.of(), true)).metrics());
        }
    }

    /** The rows follow the named values as the command gave them (jit=on,off), as the run's report does. */
    @Test
    void rowsFollowTheNamedValuesAsGiven(@TempDir Path tmp) {
        Map<String, Object> p = new LinkedHashMap<>();
        List<String> planned = new ArrayList<>();
        for (String v : List.of("16", "17")) for (String jit : List.of("on", "off")) planned.add("jit=" + jit + ";version=" + v);
        p.put(RunDirectory.PLANNED_CELLS, planned);
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("query", List.of("query"), p))) {
            for (String key : planned) {
                String jit = key.substring(4, key.indexOf(';')), v = key.substring(key.lastIndexOf('=') + 1);
                for (int r = 0; r < 2; r++) rd.append(Trial.of(key, r).param("jit", jit).param("version", v).metric("ms", 1.0 + r).build());
            }
            RunComparison cmp = RunComparison.of(List.of(RunDirectory.read(rd.path())), new RunComparison.Options("version", List.of()));
            assertEquals(List.of("jit=on", "jit=off"), cmp.rows().stream().map(RunComparison.Row::cell).toList());
        }
    }

    @Test
    void betterDirectionFromTheMetricName() {
        for (String m : List.of("tps", "rows_per_second", "mb_per_s")) assertEquals(RunComparison.Better.HIGHER, RunComparison.Better.of(m), m);
        for (String m : List.of("latency_avg_ms", "seconds", "time_ms", "ms", "init_s", "failed", "serialization_failures", "retries")) {
            assertEquals(RunComparison.Better.LOWER, RunComparison.Better.of(m), m);
        }
        for (String m : List.of("rows", "tps_cv_pct", "workers_launched", "jit_functions", "transactions")) {
            assertEquals(RunComparison.Better.UNKNOWN, RunComparison.Better.of(m), m);
        }
    }

    @Test
    void nothingToCompareIsAUsageError() {
        RunResults a = SampleRuns.pgbenchSingle(tmp, 0);
        KenshoException e = assertThrows(KenshoException.class, () -> RunComparison.of(List.of(a)));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertThrows(KenshoException.class, () -> RunComparison.of(List.of(a, a), new RunComparison.Options("workers", List.of())));
    }

    /** What report says of a run cut short, compare says too; and a run given twice is compared with itself, said. */
    @Test
    void anUnfinishedRunAndARunGivenTwiceAreWarnedAbout() throws Exception {
        RunResults cut;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("cut"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 3)))) {
            for (int c : new int[] {1, 4}) {
                rd.append(Trial.of("clients=" + c, 0).param("clients", c).metric("tps", 100.0 * c).metric("latency_avg_ms", 1.0).build());
            }
            cut = RunDirectory.read(rd.path());
        }
        RunResults whole = SampleRuns.pgbenchSingle(tmp, 0);
        List<String> w = RunComparison.of(List.of(whole, cut)).warnings();
        assertTrue(w.stream().anyMatch(x -> x.startsWith(cut.directory().getFileName() + ": Unfinished: 2 of 2 cells have fewer trials than the 3 repeats")), w.toString());
        w = RunComparison.of(List.of(whole, whole)).warnings();
        assertTrue(w.contains(whole.directory().getFileName() + " is given twice: it is compared with itself"), w.toString());
        // a link to it, and a copy of it: the same run, said (neither was)
        Path link = Files.createSymbolicLink(tmp.resolve("link"), whole.directory().toAbsolutePath());
        w = RunComparison.of(List.of(whole, RunDirectory.read(link))).warnings();
        assertTrue(w.contains("link is given twice: it is compared with itself"), w.toString());
        Path copy = Files.createDirectories(tmp.resolve("copy"));
        try (var files = Files.list(whole.directory())) {
            for (Path f : files.toList()) if (Files.isRegularFile(f)) Files.copy(f, copy.resolve(f.getFileName()));
        }
        w = RunComparison.of(List.of(whole, RunDirectory.read(copy))).warnings();
        assertTrue(w.contains("copy holds the very trials of " + whole.directory().getFileName() + " (a copy?): it is compared with itself"), w.toString());
    }
}
