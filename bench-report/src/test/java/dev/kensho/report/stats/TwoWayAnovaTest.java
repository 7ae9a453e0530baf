package dev.kensho.report.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Against R 4.2 on its ToothGrowth data set (tooth length by supplement × dose, 10 guinea pigs per
 * cell), whose two-way ANOVA is the textbook example: summary(aov(len ~ supp * factor(dose))) gives
 * F = 15.572 (supp), 92.000 (dose), 4.107 (interaction) on 1, 2, 2 and 54 df.
 */
class TwoWayAnovaTest {
    static final double[] LEN = {4.2, 11.5, 7.3, 5.8, 6.4, 10, 11.2, 11.2, 5.2, 7, 16.5, 16.5, 15.2, 17.3, 22.5, 17.3, 13.6,
        14.5, 18.8, 15.5, 23.6, 18.5, 33.9, 25.5, 26.4, 32.5, 26.7, 21.5, 23.3, 29.5, 15.2, 21.5, 17.6, 9.7, 14.5, 10, 8.2, 9.4,
        16.5, 9.7, 19.7, 23.3, 23.6, 26.4, 20, 25.2, 25.8, 21.2, 14.5, 27.3, 25.5, 26.4, 22.4, 24.5, 24.8, 30.9, 26.4, 27.3,
        29.4, 23};

    static String supp(int i) {
        return i < 30 ? "VC" : "OJ";
    }

    static double dose(int i) {
        return new double[] {0.5, 1, 2}[(i % 30) / 10];
    }

    static List<TwoWayAnova.Observation> toothGrowth(int... without) {
        List<TwoWayAnova.Observation> obs = new ArrayList<>();
        outer:
        for (int i = 0; i < LEN.length; i++) {
            for (int w : without) if (w == i) continue outer;
            obs.add(new TwoWayAnova.Observation(supp(i), dose(i), LEN[i]));
        }
        return obs;
    }

    @Test
    void balancedMatchesAov() {
        TwoWayAnova.Table t = TwoWayAnova.fit("supp", "dose", toothGrowth());
        assertTrue(t.balanced());
        assertTrue(t.warnings().isEmpty(), t.warnings().toString());
        assertEquals(205.3500, t.term("supp").ss(), 1e-4);
        assertEquals(2426.4343, t.term("dose").ss(), 1e-4);
        assertEquals(108.3190, t.term("supp:dose").ss(), 1e-4);
        assertEquals(712.1060, t.residual().ss(), 1e-4);
        assertEquals(54, t.residual().df());
        assertEquals(15.57198, t.term("supp").f(), 1e-4);
        assertEquals(91.99996, t.term("dose").f(), 1e-4);
        assertEquals(4.10699, t.term("supp:dose").f(), 1e-4);
        assertEquals(0.00023118, t.term("supp").p(), 1e-7);
        assertEquals(0.02186027, t.term("supp:dose").p(), 1e-7);
        assertTrue(t.term("dose").p() < 2.2e-16);
    }

    /** Rows 1, 2 and 35 removed; R: options(contrasts = c("contr.sum", "contr.poly")); drop1(lm(...), . ~ ., test = "F"). */
    @Test
    void unbalancedMatchesTypeThree() {
        TwoWayAnova.Table t = TwoWayAnova.fit("supp", "dose", toothGrowth(0, 1, 34));
        assertFalse(t.balanced());
        // VC at 0.5 lost rows 1 and 2 (8 left), OJ at 0.5 row 35 (9), the other cells keep 10
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("unbalanced design (8 to 10 observations per cell)")),
                t.warnings().toString());
        assertEquals(683.62664, t.residual().ss(), 1e-4);
        assertEquals(187.68101, t.term("supp").ss(), 1e-4);
        assertEquals(2225.21941, t.term("dose").ss(), 1e-4);
        assertEquals(104.07092, t.term("supp:dose").ss(), 1e-4);
        assertEquals(14.00140, t.term("supp").f(), 1e-4);
        assertEquals(83.00305, t.term("dose").f(), 1e-4);
        assertEquals(3.88196, t.term("supp:dose").f(), 1e-4);
        assertEquals(0.00046439, t.term("supp").p(), 1e-7);
        assertEquals(0.02695980, t.term("supp:dose").p(), 1e-7);
    }

    /**
     * Aligned rank transform, checked against the alignment written out in R: r = y − cell mean;
     * rank(r + A mean − grand), rank(r + B mean − grand), rank(r + cell − A − B + grand), each
     * through anova(lm(rank ~ A * B)), keeping the effect's own row.
     */
    @Test
    void alignedRankTransformMatchesR() {
        TwoWayAnova.Table t = TwoWayAnova.alignedRank("supp", "dose", toothGrowth());
        assertEquals(17.6341, t.term("supp").f(), 1e-4);
        assertEquals(0.00010076, t.term("supp").p(), 1e-7);
        assertEquals(95.56223, t.term("dose").f(), 1e-4);
        assertEquals(3.53636, t.term("supp:dose").f(), 1e-4);
        assertEquals(0.036038, t.term("supp:dose").p(), 1e-6);
    }

    /**
     * One value per cell that the additive model fits exactly (a run compared with a copy of itself: y = a + b): the
     * residual is rounding noise, and F came out 6.8e32 with p < 0.0001. Nothing to test, said.
     */
    @Test
    void anExactFitIsNotTested() {
        List<TwoWayAnova.Observation> obs = List.of(new TwoWayAnova.Observation("16", 1.0, 1000.1), new TwoWayAnova.Observation("16", 2.0, 2000.3),
                new TwoWayAnova.Observation("17", 1.0, 1000.1), new TwoWayAnova.Observation("17", 2.0, 2000.3));
        TwoWayAnova.Table t = TwoWayAnova.fit("version", "clients", obs);
        assertTrue(t.terms().isEmpty(), t.toString());
        assertTrue(t.warnings().contains("the model fits every value exactly (no interaction left to test the effects against): nothing to test"),
                t.warnings().toString());
    }

    @Test
    void missingCellsAreDroppedWithWarning() {
        List<TwoWayAnova.Observation> obs = new ArrayList<>(toothGrowth());
        obs.add(new TwoWayAnova.Observation("VC", 4.0, 30));
        obs.add(new TwoWayAnova.Observation("VC", 4.0, 31));
        TwoWayAnova.Table t = TwoWayAnova.fit("supp", "dose", obs);
        // the factors by name: compare letters its runs A, B, …
        assertEquals(List.of("levels of dose without every level of supp dropped: [4]"), t.warnings());
        assertEquals(15.57198, t.term("supp").f(), 1e-4);
    }

    /**
     * One value per cell: no interaction can be told from error, so the additive model. R: anova(lm(y ~ A + B)) with
     * y = 1, 2, 3, 5: F 25 (p 0.1256659164) and 9 (p 0.2048327647), residual SS 0.25 on 1 df.
     */
    @Test
    void noReplicationFitsTheAdditiveModel() {
        List<TwoWayAnova.Observation> obs = List.of(new TwoWayAnova.Observation("a", 1, 1), new TwoWayAnova.Observation("a", 2, 2),
                new TwoWayAnova.Observation("b", 1, 3), new TwoWayAnova.Observation("b", 2, 5));
        TwoWayAnova.Table t = TwoWayAnova.fit("A", "B", obs);
        assertEquals(List.of("A", "B", "Residuals"), t.terms().stream().map(TwoWayAnova.Term::name).toList());
        assertEquals(25, t.term("A").f(), 1e-9);
        assertEquals(0.1256659164, t.term("A").p(), 1e-9);
        assertEquals(9, t.term("B").f(), 1e-9);
        assertEquals(0.2048327647, t.term("B").p(), 1e-9);
        assertEquals(0.25, t.residual().ss(), 1e-12);
        assertEquals(1, t.residual().df());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("additive model")), t.warnings().toString());
        assertTrue(TwoWayAnova.alignedRank("A", "B", obs).terms().isEmpty());
        assertTrue(TwoWayAnova.contrasts("A", "B", obs).isEmpty());
    }

    /** R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.030 0.060 0.060 0.020. */
    @Test
    void holm() {
        assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02}, TwoWayAnova.holm(new double[] {0.01, 0.04, 0.03, 0.005}), 1e-12);
    }

    /** Contrast OJ − VC at dose 0.5: means 13.23 and 7.98, SE = sqrt(13.187·(1/10 + 1/10)), t on 54 df. */
    @Test
    void contrastsUseResidualVariance() {
        List<TwoWayAnova.Contrast> cs = TwoWayAnova.contrasts("supp", "dose", toothGrowth());
        assertEquals(3, cs.size());
        TwoWayAnova.Contrast c = cs.get(0);
        assertEquals(0.5, ((Number) c.b()).doubleValue());
        assertEquals("OJ", c.a1());
        assertEquals(13.23 - 7.98, c.estimate(), 1e-9);
        assertEquals(Math.sqrt(712.106 / 54 * 0.2), c.se(), 1e-4);
        assertEquals(54, c.df());
        assertTrue(c.pAdjusted() >= c.p());
    }

    /**
     * Dose (three levels) as factor A, so A has more than one coded column: R's anova(lm(len ~ dose * supp)) has the
     * same F as supp * dose. Contrasts from R: cell means by tapply, t = diff / sqrt(13.1871481 · (1/10 + 1/10)),
     * 2·pt(−|t|, 54), p.adjust(…, "holm"), in the order OJ then VC, (0.5, 1), (0.5, 2), (1, 2).
     */
    @Test
    void threeLevelsOfA() {
        List<TwoWayAnova.Observation> obs = toothGrowth().stream()
                .map(o -> new TwoWayAnova.Observation(o.b(), o.a(), o.y())).toList();
        TwoWayAnova.Table t = TwoWayAnova.fit("dose", "supp", obs);
        assertEquals(91.99996, t.term("dose").f(), 1e-4);
        assertEquals(15.57198, t.term("supp").f(), 1e-4);
        assertEquals(4.10699, t.term("dose:supp").f(), 1e-4);
        assertEquals(0.02186027, t.term("dose:supp").p(), 1e-7);
        assertEquals(712.1060, t.residual().ss(), 1e-4);

        List<TwoWayAnova.Contrast> cs = TwoWayAnova.contrasts("dose", "supp", obs);
        double[][] r = { // estimate, t, p, Holm
            {-9.47, -5.83122150109, 3.17564054631e-07, 1.27025621853e-06},
            {-12.83, -7.90016598300, 1.42971201238e-10, 7.14856006190e-10},
            {-3.36, -2.06894448191, 4.33521450969e-02, 4.33521450969e-02},
            {-8.79, -5.41250654642, 1.46293144788e-06, 2.92586289576e-06},
            {-18.16, -11.18215231889, 1.13067681037e-15, 6.78406086225e-15},
            {-9.37, -5.76964577247, 3.98114048490e-07, 1.27025621853e-06}};
        assertEquals(r.length, cs.size());
        for (int i = 0; i < r.length; i++) {
            TwoWayAnova.Contrast c = cs.get(i);
            assertEquals(i < 3 ? "OJ" : "VC", c.b());
            assertEquals(r[i][0], c.estimate(), 1e-9, "estimate " + i);
            assertEquals(1.6240165115, c.se(), 1e-9);
            assertEquals(r[i][1], c.t(), 1e-9, "t " + i);
            assertEquals(1, c.p() / r[i][2], 1e-8, "p " + i);
            assertEquals(1, c.pAdjusted() / r[i][3], 1e-8, "Holm " + i);
        }
        assertEquals(List.of(0.5, 0.5, 1.0), cs.subList(0, 3).stream().map(c -> ((Number) c.a1()).doubleValue()).toList());
        assertEquals(List.of(1.0, 2.0, 2.0), cs.subList(0, 3).stream().map(c -> ((Number) c.a2()).doubleValue()).toList());
    }

    /**
     * Three levels of each factor, so the interaction has 2 × 2 coded columns. R: anova(lm(y ~ A * B)) with A = x, y, z
     * (6 each), B = 1, 2, 3 (2 each within A), y as below: F 10.98, 122.42, 3.71 on 2, 2, 4 and 9 df, p 0.00385023296843,
     * 2.97557585875e-07, 0.0474385023172; residual SS 18.75.
     */
    @Test
    void threeByThree() {
        double[] y = {10, 12, 15, 14, 20, 23, 11, 11.5, 18, 16, 30, 27, 9, 12, 14, 15, 21, 21.5};
        List<TwoWayAnova.Observation> obs = new ArrayList<>();
        for (int i = 0; i < y.length; i++) obs.add(new TwoWayAnova.Observation(List.of("x", "y", "z").get(i / 6), i % 6 / 2 + 1, y[i]));
        TwoWayAnova.Table t = TwoWayAnova.fit("A", "B", obs);
        assertEquals(10.98, t.term("A").f(), 1e-9);
        assertEquals(122.42, t.term("B").f(), 1e-9);
        assertEquals(3.71, t.term("A:B").f(), 1e-9);
        assertEquals(4, t.term("A:B").df());
        assertEquals(9, t.residual().df());
        assertEquals(18.75, t.residual().ss(), 1e-9);
        assertEquals(0.00385023296843, t.term("A").p(), 1e-12);
        assertEquals(2.97557585875e-07, t.term("B").p(), 1e-15);
        assertEquals(0.0474385023172, t.term("A:B").p(), 1e-12);
    }

    /** No difference between the A levels at all: R's anova(lm(y ~ A * B)) with y = 1, 3, 5, 7, 3, 1, 7, 5 gives F 0, p 1 for A. */
    @Test
    void zeroEffectHasPOne() {
        double[] y = {1, 3, 5, 7, 3, 1, 7, 5};
        List<TwoWayAnova.Observation> obs = new ArrayList<>();
        for (int i = 0; i < y.length; i++) obs.add(new TwoWayAnova.Observation(i < 4 ? "a" : "b", i % 4 < 2 ? 1 : 2, y[i]));
        TwoWayAnova.Table t = TwoWayAnova.fit("A", "B", obs);
        assertEquals(0, t.term("A").f(), 1e-12);
        assertEquals(1, t.term("A").p(), 1e-12);
        assertEquals(16, t.term("B").f(), 1e-9);
        assertEquals(8, t.residual().ss(), 1e-9);
    }

    /** Every repeat of a cell equal (a rounded metric): lm's residual would be rounding noise and F meaningless. */
    @Test
    void noSpreadWithinCellsIsReportedNotComputed() {
        List<TwoWayAnova.Observation> obs = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            obs.add(new TwoWayAnova.Observation("a", 1, 0.1));
            obs.add(new TwoWayAnova.Observation("a", 2, 0.3));
            obs.add(new TwoWayAnova.Observation("b", 1, 0.7));
            obs.add(new TwoWayAnova.Observation("b", 2, 0.7));
        }
        TwoWayAnova.Table t = TwoWayAnova.fit("A", "B", obs);
        assertTrue(t.terms().isEmpty(), t.terms().toString());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("no spread within any cell")), t.warnings().toString());
        assertTrue(TwoWayAnova.alignedRank("A", "B", obs).terms().isEmpty());
        assertTrue(TwoWayAnova.contrasts("A", "B", obs).isEmpty());
        assertTrue(TwoWayAnova.alignedRankContrasts(obs).isEmpty());
    }
}
