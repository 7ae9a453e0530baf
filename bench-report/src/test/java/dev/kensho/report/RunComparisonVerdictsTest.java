package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import dev.kensho.report.stats.RatioInterval;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verdicts for a metric where higher is better (tps), lower is better (latency) and neither (rows), with 4 repeats a
 * side (so Mann–Whitney can reach α: 2/C(8, 4) = 0.0286) and 2 at 64 clients. Expected from R 4.2.2, per metric:
 * p <- t.test(v17, v16)$p.value per cell (NA where neither side varies); p.adjust(p, "holm");
 * wilcox.test(v17, v16)$p.value; median(v17) / median(v16); exp(mean(log(ratio))).
 */
class RunComparisonVerdictsTest {
    static final int[] CLIENTS = {1, 4, 16, 64};
    /** metric → clients → {16, 17} → repeats */
    static final Map<String, double[][][]> DATA = Map.of(
            "tps", new double[][][] {{{100, 102, 98, 101}, {110, 112, 109, 111}}, {{400, 405, 395, 402}, {380, 378, 382, 379}},
                {{800, 810, 790, 805}, {801, 795, 812, 799}}, {{1000, 1010}, {1200, 1190}}},
            "latency_avg_ms", new double[][][] {{{10.0, 10.2, 9.8, 10.1}, {9.0, 9.1, 8.9, 9.2}}, {{10, 10.1, 9.9, 10.05}, {10.6, 10.7, 10.5, 10.65}},
                {{5, 5.2, 4.9, 5.1}, {5.05, 5.15, 4.95, 5.0}}, {{20, 20.4}, {20.2, 20.6}}},
            "rows", new double[][][] {{{5, 6, 7, 8}, {15, 16, 17, 18}}, {{20, 21, 22, 23}, {10, 11, 12, 13}},
                {{50, 50, 50, 50}, {50, 50, 50, 50}}, {{1, 2}, {3, 4}}});
    static final List<String> METRICS = List.of("tps", "latency_avg_ms", "rows");

    @TempDir
    Path tmp;

    RunComparison compare() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
            for (int v = 0; v < 2; v++) {
                for (int c = 0; c < CLIENTS.length; c++) {
                    for (int r = 0; r < DATA.get("tps")[c][v].length; r++) {
                        Trial.Builder t = Trial.of("clients=" + CLIENTS[c] + ";version=" + (16 + v), r).param("version", String.valueOf(16 + v))
                                .param("clients", CLIENTS[c]);
                        for (String m : METRICS) t.metric(m, DATA.get(m)[c][v][r]);
                        rd.append(t.build());
                    }
                }
            }
            run = RunDirectory.read(rd.path());
        }
        return RunComparison.of(List.of(run), new RunComparison.Options("version", METRICS));
    }

    /**
     * Fieller's interval by hand for a = 10, 12, 14 and b = 20, 23, 26: means 12 and 23, variances of the means 4/3 and 3,
     * Welch's df = (13/3)² / ((4/3)²/2 + 3²/2) = 3.4845, t(0.975) = 2.9462 (SciPy: t.ppf(0.975, 3.4845)); the roots of
     * (144 − t²·4/3) r² − 2·12·23 r + 529 − 3t² = 0 are 1.3454 and 2.8229. Values whose variance squares past the
     * doubles' range leave df NaN: no interval, where the t quantile threw an exception out of compare.
     */
    @Test
    void fiellersIntervalAndValuesPastTheDoublesRange() {
        double[] ci = RatioInterval.fieller(new double[] {10, 12, 14}, new double[] {20, 23, 26});
        assertEquals(1.3454, ci[0], 5e-4);
        assertEquals(2.8229, ci[1], 5e-4);
        double[] huge = RatioInterval.fieller(new double[] {1e300, 1.1e300, 0.9e300}, new double[] {1.2e300, 1.3e300, 1.25e300});
        assertTrue(Double.isNaN(huge[0]) && Double.isNaN(huge[1]), java.util.Arrays.toString(huge));
    }

    /**
     * A baseline whose mean is not clearly away from 0 (a = −1, 1, 3) against b = 10, 11, 12: Welch rejects (p 0.005),
     * and Fieller's set is the ratios outside two roots, which leaves 1 out. It was said "unbounded" beside "worse".
     */
    @Test
    void fiellersSetOfTwoRaysLeavesOutOne() {
        double[] a = {-1, 1, 3}, b = {10, 11, 12};
        double[] ci = RatioInterval.fieller(a, b);
        assertTrue(ci[0] > ci[1], java.util.Arrays.toString(ci));
        // each bound a root of (mean b − r·mean a)² = t²(var b/3 + r² var a/3), t of Welch's df (2.9412)
        double df = (4.0 / 3 + 1.0 / 3) * (4.0 / 3 + 1.0 / 3) / ((4.0 / 3) * (4.0 / 3) / 2 + (1.0 / 3) * (1.0 / 3) / 2);
        double t = new org.apache.commons.math3.distribution.TDistribution(df).inverseCumulativeProbability(0.975);
        for (double r : ci) assertEquals(t * t * (1.0 / 3 + r * r * 4.0 / 3), (11 - r) * (11 - r), 1e-6, "root " + r);
        RunComparison.Row row = new RunComparison.Row("c", Map.of(), "tps", "A", "B", 1, 11, 11, 3, 3, 0.005, 0.005, 0.1,
                "better", ci[0], ci[1]);
        assertFalse(row.intervalHolds(1));
        assertTrue(row.intervalHolds(11) && row.intervalHolds(ci[0]) && row.intervalHolds(ci[1]));
        assertTrue(row.intervalText().startsWith("≤ ") && row.intervalText().contains(" or ≥ "), row.intervalText());
        assertEquals("two_rays", row.intervalShape(), "compare.csv says it: low above high read as a negative range");
    }

    @Test
    void verdictsFollowTheMetricsDirection() {
        RunComparison cmp = compare();
        List<RunComparison.Row> rows = cmp.rows();
        assertEquals(12, rows.size());
        double nan = Double.NaN;
        double[][] welch = {{0.00011303730991, 0.000826726352498, 0.931938108244, 0.00138217066749},
            {0.000147287406745, 6.00465026904e-05, 0.87777344597, 0.5527864045}, {3.43640280761e-05, 3.43640280761e-05, nan, 0.105572809}};
        double[][] holm = {{0.000452149239638, 0.00248017905749, 0.931938108244, 0.00276434133498},
            {0.000441862220234, 0.000240186010761, 1, 1}, {0.000103092084228, 0.000103092084228, nan, 0.105572809}};
        double[][] mw = {{0.0285714285714, 0.0285714285714, 1, 0.333333333333}, {0.0285714285714, 0.0285714285714, 1, 0.666666666667},
            {0.0285714285714, 0.0285714285714, nan, 0.333333333333}};
        String[][] verdict = {{"better", "worse", "no significant difference", "better"},
            {"better", "worse", "no significant difference", "no significant difference"},
            {"higher", "lower", "not testable (no variance)", "no significant difference"}};
        for (int m = 0; m < 3; m++) {
            for (int c = 0; c < 4; c++) {
                RunComparison.Row r = rows.get(m * 4 + c);
                String at = r.metric() + " " + r.cell();
                assertEquals(METRICS.get(m), r.metric());
                assertEquals("clients=" + CLIENTS[c], r.cell());
                assertEquals(welch[m][c], r.welchP(), tolerance(welch[m][c]), at);
                assertEquals(holm[m][c], r.welchHolmP(), tolerance(holm[m][c]), at);
                assertEquals(mw[m][c], r.mannWhitneyP(), 1e-11, at);
                assertEquals(verdict[m][c], r.verdict(), at);
            }
        }
        RunComparison.Row noVariance = rows.get(10), two = rows.get(3), four = rows.get(0);
        assertEquals("not testable (no variance)", noVariance.welchText());
        assertEquals("not testable (no variance)", noVariance.holmText());
        assertEquals("0.0286", four.mannWhitneyText());
        assertEquals("not testable (n=2/2)", two.mannWhitneyText());
        assertEquals("0.0028", two.holmText());

        assertEquals(1.05384709652, cmp.geometricMeanRatios().get("tps").get("17"), 1e-10);
        assertEquals(0.989606730179, cmp.geometricMeanRatios().get("latency_avg_ms").get("17"), 1e-10);
        assertEquals(1.33414086938, cmp.geometricMeanRatios().get("rows").get("17"), 1e-10);
        String text = cmp.text();
        assertTrue(text.contains("geometric mean ratio tps 17: 1.054 (2 better, 1 no significant difference, 1 worse of 4 cells)"), text);
        assertTrue(text.contains("geometric mean ratio latency_avg_ms 17: 0.990 (1 better, 2 no significant difference, 1 worse of 4 cells)"),
                text);
        assertTrue(text.contains("geometric mean ratio rows 17: 1.334 (1 higher, 1 lower, 1 no significant difference, 1 not testable of 4 cells)"),
                text);
    }

    /** R printed 12 digits: relative to p, and not below 1e-12 */
    static double tolerance(double p) {
        return Double.isNaN(p) ? 0 : Math.max(1e-12, 1e-9 * p);
    }

    /** With 4 repeats a side Mann–Whitney can reach α: its column is in the text, the report and the CSV. */
    @Test
    void mannWhitneyShownWhenItCanReachAlpha() {
        RunComparison cmp = compare();
        String text = cmp.text();
        assertFalse(text.contains(ComparisonReport.MANN_WHITNEY_LEFT_OUT), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("cell ") && l.contains(" p M-W ")), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("clients=64  tps") && l.contains("not testable (n=2/2)")), text);
        String html = cmp.html();
        assertTrue(html.contains("p Mann–Whitney"), "Mann–Whitney column in the report");
        assertFalse(html.contains(ComparisonReport.MANN_WHITNEY_LEFT_OUT));
        // its p is neither Holm-adjusted nor the verdict's; with 50 a side it is approximate even without ties
        assertTrue(html.contains("exact when there are no ties and both sides have fewer than 50 values (as R's wilcox.test), "
                + "else the normal approximation with tie and continuity corrections; not adjusted for the other cells and not "
                + "read by the verdict"), html);
    }

    /** Groups named by their version need no legend of run letters; the report marks the ratios whose Holm p is below α. */
    @Test
    void reportMarksSignificantRatios() {
        RunComparison cmp = compare();
        assertFalse(cmp.text().contains("\n  A = "), cmp.text());
        String html = cmp.html();
        assertTrue(html.contains("16 vs 17 · by version · ratios are group / 16 of the medians"), "subtitle");
        assertTrue(html.contains("<span class=\"sig\">1.100</span>"), "tps at 1 client, Holm p 0.0005");
        assertTrue(html.contains("<td class=\"num\">0.997</td>"), "tps at 16 clients, Holm p 0.93: not marked");
    }
}
