package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import dev.kensho.report.stats.TwoWayAnova;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench compare --by version on a sweep written through RunDirectory, against R 4.2.2 (car 3.1-1, emmeans 1.8.4,
 * ARTool 0.11.1) on the same data:
 *
 * <pre>
 * d1 &lt;- data.frame(version = factor(rep(c("16","17"), each = 12)),
 *   clients = factor(rep(rep(c(1,4,16,64), each = 3), 2), levels = c(1,4,16,64)),
 *   tps = c(1000,1012,991, 3900,4010,4120, 8000,7910,8105, 9100,8700,9900,
 *           1050,1041,1062, 4203,4150,4251, 7600,7710,7490, 9800,9750,9820))
 * options(contrasts = c("contr.sum", "contr.poly"))
 * Anova(lm(tps ~ version * clients, d1), type = 3)          # ANOVA
 * leveneTest(tps ~ version * clients, d1)                   # Levene, center = median
 * bartlett.test(tps ~ interaction(version, clients), d1)
 * anova(art(tps ~ version * clients, d1))                    # ART
 * p.adjust(summary(emmeans(lm(tps ~ version * clients, d1), pairwise ~ version | clients,
 *   adjust = "none"))$contrasts$p.value, "holm")              # contrasts
 * art.con(art(tps ~ version * clients, d1), "version:clients", adjust = "tukey")   # ART-C, rows 16,c - 17,c
 * t.test(tps17, tps16)$p.value per clients                   # Welch
 * </pre>
 *
 * d2 is d1[-5, ] (16 at 4 clients lost its second repeat), d3 has 16 at 1 client at 1000, 1000, 1000.
 */
class RunComparisonMatchesRTest {
    static final int[] CLIENTS = {1, 4, 16, 64};
    static final double[][][] TPS = {
        {{1000, 1012, 991}, {3900, 4010, 4120}, {8000, 7910, 8105}, {9100, 8700, 9900}},
        {{1050, 1041, 1062}, {4203, 4150, 4251}, {7600, 7710, 7490}, {9800, 9750, 9820}}};

    @TempDir
    Path tmp;

    /** A sweep of versions 16 and 17 as one run; trials the filter rejects (version index, clients index, repeat) are not written. */
    static RunResults sweep(Path root, double[][][] tps, Predicate<int[]> drop) {
        return sweep(root, new String[] {"16", "17"}, CLIENTS, tps, drop);
    }

    static RunResults sweep(Path root, String[] versions, int[] clients, double[][][] tps, Predicate<int[]> drop) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of("bench", "pgbench", "sweep"), Map.of()))) {
            for (int v = 0; v < versions.length; v++) {
                for (int c = 0; c < clients.length; c++) {
                    for (int r = 0; r < tps[v][c].length; r++) {
                        if (drop.test(new int[] {v, c, r})) continue;
                        rd.append(Trial.of("clients=" + clients[c] + ";version=" + versions[v], r).param("version", versions[v])
                                .param("clients", clients[c]).metric("tps", tps[v][c][r]).build());
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    static RunComparison compare(RunResults run) {
        return RunComparison.of(List.of(run), new RunComparison.Options("version", List.of("tps")));
    }

    static void assertTerms(TwoWayAnova.Table t, double[] f, double[] p) {
        String[] names = {"group", "clients", "group:clients"};
        for (int i = 0; i < 3; i++) {
            assertEquals(f[i], t.term(names[i]).f(), 1e-6 * Math.max(1, f[i]), names[i] + " F");
            assertEquals(p[i], t.term(names[i]).p(), 1e-6 * p[i], names[i] + " p");
        }
    }

    static void assertContrasts(List<TwoWayAnova.Contrast> cs, double[] est, double[] se, double[] pAdjusted) {
        assertEquals(est.length, cs.size());
        for (int i = 0; i < est.length; i++) {
            assertEquals(CLIENTS[i], ((Number) cs.get(i).b()).intValue());
            assertEquals("16", String.valueOf(cs.get(i).a1()));
            assertEquals(est[i], cs.get(i).estimate(), 1e-6);
            assertEquals(se[i], cs.get(i).se(), 1e-6);
            assertEquals(pAdjusted[i], cs.get(i).pAdjusted(), 1e-8);
        }
    }

    @Test
    void balancedSweep() {
        RunComparison cmp = compare(sweep(tmp, TPS, x -> false));
        double[] welch = {0.004360634457, 0.0769144408, 0.009151285566, 0.2550391997};
        for (int i = 0; i < 4; i++) assertEquals(welch[i], cmp.rows().get(i).welchP(), 1e-10);
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertTerms(a.anova(), new double[] {1.127001179, 1685.339213, 4.61553178},
                new double[] {0.3041781022, 3.269276133e-20, 0.01645406301});
        assertEquals(16, a.anova().residual().df());
        assertEquals(2.350427515, a.levene().statistic(), 1e-8);
        assertEquals(0.07438737405, a.levene().p(), 1e-10);
        assertEquals(36.29485592, a.bartlett().statistic(), 1e-7);
        assertEquals(6.377124795e-06, a.bartlett().p(), 1e-14);
        assertTerms(a.art(), new double[] {4.644274809, 86.4, 7.661250615},
                new double[] {0.04673476025, 4.24419672e-10, 0.002141264019});
        double se = 185.0974218;
        assertContrasts(a.contrasts(), new double[] {-50, -191.3333333, 405, -556.6666667}, new double[] {se, se, se, se},
                new double[] {0.7905149973, 0.6333067909, 0.1315534317, 0.03339659207});
        double rse = 1.08012345;
        assertContrasts(a.artContrasts(), new double[] {-3, -3, 3, -1}, new double[] {rse, rse, rse, rse},
                new double[] {0.1690081063, 0.1690081063, 0.1690081063, 0.97869046});
        // before Tukey's adjustment, R: 2 * pt(-abs(estimate / SE), 16)
        double[] unadjusted = {0.0134520602685, 0.0134520602685, 0.0134520602685, 0.368294063297};
        for (int i = 0; i < 4; i++) assertEquals(unadjusted[i], a.artContrasts().get(i).p(), 1e-8);
        assertEquals(8, a.cells());

        String text = cmp.text();
        assertTrue(text.contains("Levene (median-centred, Brown–Forsythe) F(7, 16) = 2.350, p = 0.0744; Bartlett K² = 36.295, "
                + "p < 0.0001\n"), text);
        assertTrue(!text.contains(ComparisonReport.VARIANCES_DIFFER) && !cmp.html().contains("variances differ"), "Levene p 0.0744 ≥ 0.05");
        assertTrue(text.contains("p Holm 0.0334 *"), text);
        assertTrue(text.contains("ART-C contrasts per clients (difference of mean ranks, as study 001; p Tukey-adjusted for the "
                + "family of 8 cell means)"), text);
        assertTrue(text.contains("p Tukey 0.9787"), text);
        assertTrue(text.contains("ART group:clients      F      7.661  p 0.0021 **"), text);
        String html = cmp.html();
        assertTrue(html.contains("ART-C contrasts per clients"), "ART-C table in the report");
        assertTrue(html.contains("<td class=\"num\">0.9787</td>"), "ART-C p in the report");
    }

    /** One repeat lost: Type III sums of squares, as car::Anova(type = 3) with sum-to-zero contrasts. */
    @Test
    void missingRepeat() {
        RunComparison cmp = compare(sweep(tmp, TPS, x -> x[0] == 0 && x[1] == 1 && x[2] == 1));
        assertEquals(0.3178499834, cmp.rows().get(1).welchP(), 1e-10);
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertTrue(a.anova().warnings().stream().anyMatch(w -> w.contains("unbalanced")), a.anova().warnings().toString());
        assertTerms(a.anova(), new double[] {0.9944128049, 1562.589631, 4.310423105},
                new double[] {0.3344819015, 6.140470854e-19, 0.02216961237});
        assertEquals(2.259141004, a.levene().statistic(), 1e-8);
        assertEquals(0.08774509029, a.levene().p(), 1e-10);
        assertEquals(34.62011264, a.bartlett().statistic(), 1e-7);
        assertEquals(1.318107649e-05, a.bartlett().p(), 1e-13);
        assertTerms(a.art(), new double[] {0.5651628511, 79.86102898, 7.438548294},
                new double[] {0.4638209404, 1.888638979e-09, 0.002798649952});
        assertContrasts(a.contrasts(), new double[] {-50, -191.3333333, 405, -556.6666667},
                new double[] {191.1677952, 213.7320926, 191.1677952, 191.1677952},
                new double[] {0.7972254304, 0.7696393075, 0.153696747, 0.04292750258});
        assertContrasts(a.artContrasts(), new double[] {-3, -2.5, 3, -1},
                new double[] {1.085254706, 1.213351648, 1.085254706, 1.085254706},
                new double[] {0.1767498562, 0.4781072348, 0.1767498562, 0.978921784});
    }

    /**
     * A cell without spread: Welch still tests it against the other side; Bartlett's K² is ∞ and p 0, as in R, which the
     * text printed as "K² = ∞, p < 0.0001" (strong evidence of unequal variances, where the test cannot be made).
     */
    @Test
    void cellWithoutSpread() {
        double[][][] tps = {TPS[0].clone(), TPS[1]};
        tps[0][0] = new double[] {1000, 1000, 1000};
        RunComparison cmp = compare(sweep(tmp, tps, x -> false));
        assertEquals(0.01392878117, cmp.rows().get(0).welchP(), 1e-10);
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertTerms(a.anova(), new double[] {1.133049758, 1685.972861, 4.615846421},
                new double[] {0.3029269345, 3.259492015e-20, 0.01645013975});
        assertEquals(2.373565225, a.levene().statistic(), 1e-8);
        assertEquals(0.07215902144, a.levene().p(), 1e-10);
        assertEquals(Double.POSITIVE_INFINITY, a.bartlett().statistic());
        assertEquals(0, a.bartlett().p());
        assertTerms(a.art(), new double[] {4.97763951, 89.07216495, 7.695351137},
                new double[] {0.04033622244, 3.375743237e-10, 0.002098421134});
        assertTrue(cmp.text().contains("; Bartlett not testable (a cell without spread)"), cmp.text());
        assertFalse(cmp.text().contains("K² = ∞"), cmp.text());
    }

    /** 17 never ran 64 clients: that level leaves the design (R: the same data without clients = 64). */
    @Test
    void cellMissingInOneGroup() {
        RunComparison cmp = compare(sweep(tmp, TPS, x -> x[0] == 1 && x[1] == 3));
        assertEquals(3, cmp.rows().size());
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertTrue(a.anova().warnings().stream().anyMatch(w -> w.contains("dropped: [64]")), a.anova().warnings().toString());
        assertTerms(a.anova(), new double[] {2.201693182, 11354.48833, 23.94346015},
                new double[] {0.1636437907, 2.170328649e-20, 6.472850794e-05});
        // Levene on the ANOVA's cells, R: leveneTest(tps ~ version * clients, droplevels(d1[d1$clients != 64, ]))
        assertEquals(6, a.cells());
        assertEquals(1.473166476, a.levene().statistic(), 1e-8);
        assertEquals(0.2690837587, a.levene().p(), 1e-10);
        // Tukey's family is the 6 cell means left, not the 7 measured
        assertTrue(cmp.text().contains("p Tukey-adjusted for the family of 6 cell means"), cmp.text());
    }

    /**
     * One repeat per cell (the first of each): R's Anova(lm(tps ~ version + clients, d1[c(1,4,7,10,13,16,19,22), ]),
     * type = 3): F 0.5014950053 (p 0.5299075095) and 269.6513825 (p 0.000380847849) on 1, 3 and 3 df.
     */
    @Test
    void oneRepeatGivesTheAdditiveModel() {
        RunComparison cmp = compare(sweep(tmp, TPS, x -> x[2] > 0));
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertEquals(0.5014950053, a.anova().term("group").f(), 1e-8);
        assertEquals(0.5299075095, a.anova().term("group").p(), 1e-9);
        assertEquals(269.6513825, a.anova().term("clients").f(), 1e-6);
        assertEquals(0.000380847849, a.anova().term("clients").p(), 1e-11);
        assertEquals(3, a.anova().residual().df());
        assertTrue(a.anova().terms().stream().noneMatch(t -> t.name().equals("group:clients")));
        assertTrue(a.contrasts().isEmpty() && a.artContrasts().isEmpty() && a.levene() == null);
        String text = cmp.text();
        assertTrue(text.contains("note: one value per cell: additive model"), text);
        assertTrue(cmp.html().contains("additive model"), "the report says which model");
    }

    /**
     * 16 at 4 clients kept one value of three: it has no spread, and the variance tests leave it out and say so. R on
     * the other 7 cells: leveneTest F 2.453305639, p 0.07811543474; bartlett.test K² 34.99341354, p 4.322183156e-06
     * (leveneTest(tps ~ version * clients, d1[-c(4, 5), ]) keeps the cell as a group whose deviation is 0: F 2.1457).
     */
    @Test
    void cellWithOneValueIsLeftOutOfTheVarianceTests() {
        RunComparison cmp = compare(sweep(tmp, TPS, x -> x[0] == 0 && x[1] == 1 && x[2] > 0));
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertEquals(7, a.varianceCells());
        assertEquals(8, a.cells());
        assertEquals(2.453305639, a.levene().statistic(), 1e-8);
        assertEquals(0.07811543474, a.levene().p(), 1e-10);
        assertEquals(34.99341354, a.bartlett().statistic(), 1e-7);
        assertEquals(4.322183156e-06, a.bartlett().p(), 1e-14);
        assertTrue(cmp.text().contains("Variance homogeneity over the 7 of 8 cells with 2 or more values: "), cmp.text());
    }

    /**
     * Where Levene rejects equal variances (17's repeats spread by thousands, 16's by one), the cell-mean contrasts'
     * pooled variance is the assumption that failed: the console and the page point to the ART-C contrasts; where it
     * does not reject (TPS: p 0.074), neither does.
     */
    @Test
    void unequalVariancesPointToTheRankContrasts() {
        double[][][] tps = new double[2][4][];
        for (int c = 0; c < 4; c++) {
            double base = 1000 * (c + 1);
            tps[0][c] = new double[] {base, base + 1, base + 2, base + 3};
            tps[1][c] = new double[] {base, base + 1000, base + 3000, base + 4000};
        }
        RunComparison spread = compare(sweep(tmp.resolve("a"), tps, x -> false));
        assertTrue(spread.analyses().get(0).levene().p() < 0.001, "p " + spread.analyses().get(0).levene().p());
        assertTrue(spread.text().contains("variances differ: read the ART rows and ART-C contrasts (as study 001 does), "
                + "not the cell-mean contrasts"), spread.text());
        RunComparison even = compare(sweep(tmp.resolve("b"), TPS, x -> false));
        assertTrue(!even.text().contains("variances differ"), even.text());
    }

    /**
     * A repeat whose tps is not a number (written as "NaN") is no value: the cell has 2, and Welch is R's
     * t.test(c(1050, 1041, 1062), c(1000, 991))$p.value = 0.00526842010524; a tps of 0 is a value.
     */
    @Test
    void notANumberIsLeftOutAndZeroIsKept() {
        double[][][] tps = {TPS[0].clone(), TPS[1].clone()};
        tps[0][0] = new double[] {1000, Double.NaN, 991};
        tps[1][1] = new double[] {0, 4150, 4251};
        RunComparison cmp = compare(sweep(tmp, tps, x -> false));
        RunComparison.Row first = cmp.rows().get(0);
        assertEquals(2, first.baselineN());
        assertEquals(0.00526842010524, first.welchP(), 1e-12);
        RunComparison.Row zero = cmp.rows().get(1);
        assertEquals(3, zero.n());
        assertEquals(4150, zero.median());
        assertEquals(23, cmp.analyses().get(0).anova().n(), "the ANOVA has the 23 values");
    }

    /**
     * Three versions, five client counts, spread growing with clients (R: set.seed(7), lognormal noise; the data as
     * written below), same R calls as above with versions 15, 16, 17: every pair of versions per client count, Holm
     * over the 15 contrasts and Tukey over the 15 cell means. p below 1e-16 as R has it (7.1572697e-24), not 0.
     */
    @Test
    void threeVersions() {
        double[][][] tps = {
            {{1125.181, 1012.686, 1028.189}, {3284.966, 3227.016, 3229.423}, {5447.316, 5273.435, 5327.022},
                {8395.548, 7521.173, 8665.14}, {13310.394, 9923.747, 12562.768}},
            {{1115.665, 1070.672, 1089.826}, {3486.382, 3598.495, 3581.512}, {5697.56, 5827.345, 5267.405},
                {8324.458, 7798.056, 8068.437}, {10822.305, 8545.37, 9501.388}},
            {{1120.116, 1175.263, 1153.854}, {3636.307, 3596.88, 3580.678}, {6022.161, 5565.557, 5770.182},
                {8216.747, 8674.5, 7731.599}, {9919.32, 8504.253, 9763.465}}};
        RunComparison cmp = compare(sweep(tmp, new String[] {"15", "16", "17"}, new int[] {1, 8, 32, 128, 512}, tps, x -> false));
        RunComparison.Analysis a = cmp.analyses().get(0);
        assertTerms(a.anova(), new double[] {1.562381, 307.0562, 3.5577883}, new double[] {0.22621809, 7.1572697e-24, 0.0051901699});
        assertEquals(1.4882457, a.levene().statistic(), 1e-6);
        assertEquals(0.1755439, a.levene().p(), 1e-7);
        assertEquals(68.574567, a.bartlett().statistic(), 1e-5);
        assertEquals(3.4932459e-09, a.bartlett().p(), 1e-16);
        assertTerms(a.art(), new double[] {5.2534918, 149.61786, 2.3172411}, new double[] {0.011062932, 2.3268685e-19, 0.04558341});
        double[] holm = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.0012705205, 0.0003893097, 1};
        double[] tukey = {1, 0.80493149, 0.92993052, 0.87646438, 0.62309876, 0.99999996, 0.99975363, 0.87646438, 0.99975363,
            0.99997051, 1, 0.99997051, 0.80493149, 0.62309876, 1};
        assertEquals(15, a.contrasts().size());
        for (int i = 0; i < 15; i++) {
            assertEquals(holm[i], a.contrasts().get(i).pAdjusted(), 1e-7 * holm[i], "Holm " + i);
            assertEquals(tukey[i], a.artContrasts().get(i).pAdjusted(), 1e-7, "Tukey " + i);
        }
        assertEquals("15", String.valueOf(a.contrasts().get(12).a1()));
        assertEquals("16", String.valueOf(a.contrasts().get(12).a2()));
        assertTrue(cmp.text().contains("family of 15 cell means"), cmp.text());
    }

    /**
     * R: symnum(c(0.0005, 0.001, 0.0011, 0.01, 0.05, 0.0500001, 0.1, 0.2), corr = FALSE, na = FALSE,
     * cutpoints = c(0, 0.001, 0.01, 0.05, 0.1, 1), symbols = c("***", "**", "*", ".", " ")), as printCoefmat:
     * *** *** ** ** * . . (blank); the intervals are closed on the right.
     */
    @Test
    void significanceCodesAsR() {
        double[] p = {0.0005, 0.001, 0.0011, 0.01, 0.05, 0.0500001, 0.1, 0.2};
        String[] codes = {"***", "***", "**", "**", "*", ".", ".", ""};
        for (int i = 0; i < p.length; i++) assertEquals(codes[i], ComparisonReport.code(p[i]), "p = " + p[i]);
    }
}
