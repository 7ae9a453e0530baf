package dev.kensho.report.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected values from R 4.2 (see each test). */
class VarianceAndRankTest {
    static List<double[]> toothGroups() {
        List<double[]> g = new ArrayList<>();
        for (int k = 0; k < 6; k++) g.add(Arrays.copyOfRange(TwoWayAnovaTest.LEN, k * 10, k * 10 + 10));
        return g;
    }

    /** R: anova(lm(abs(len − ave(len, g, FUN = median)) ~ g)), i.e. car::leveneTest(len ~ supp:dose): F 1.70858, p 0.14836. */
    @Test
    void leveneMedianCentred() {
        VarianceTest.Result r = VarianceTest.levene(toothGroups());
        assertEquals(1.70858, r.statistic(), 1e-5);
        assertEquals(0.14836, r.p(), 1e-5);
        assertEquals(5, r.df1());
        assertEquals(54, r.df2());
    }

    @Test
    void leveneNeedsThreeValuesInSomeGroup() {
        VarianceTest.Result r = VarianceTest.levene(List.of(new double[] {1, 2}, new double[] {5, 9}));
        assertTrue(Double.isNaN(r.statistic()) && Double.isNaN(r.p()));
        assertEquals(1, r.df1());
    }

    /** R: bartlett.test(len ~ interaction(supp, dose)): K² 6.92734995, df 5, p 0.226099702. */
    @Test
    void bartlett() {
        VarianceTest.Result r = VarianceTest.bartlett(toothGroups());
        assertEquals(5, r.df1());
        assertEquals(6.92734995, r.statistic(), 1e-7);
        assertEquals(0.226099702, r.p(), 1e-8);
    }

    /** R: wilcox.test(c(12.1, 13.4, 12.9), c(10.2, 11.5, 9.8)): W = 9, exact p = 0.1. */
    @Test
    void rankSumExactThreeRepeats() {
        RankSumTest.Result r = RankSumTest.test(new double[] {12.1, 13.4, 12.9}, new double[] {10.2, 11.5, 9.8});
        assertTrue(r.exact());
        assertEquals(9, r.u());
        assertEquals(0.1, r.p(), 1e-12);
    }

    /** R: wilcox.test(c(1.1, …, 7.7), c(2.5, 3.5, 8.1, 9.2, 10.3, 11.4)): W = 9, p = 0.1014. */
    @Test
    void rankSumExactUnequalSizes() {
        RankSumTest.Result r = RankSumTest.test(new double[] {1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7},
                new double[] {2.5, 3.5, 8.1, 9.2, 10.3, 11.4});
        assertEquals(9, r.u());
        assertEquals(0.10139860, r.p(), 1e-6);
    }

    /** R: wilcox.test(c(1, 2, 2, 3, 4), c(3, 4, 5, 5, 6)) with ties: normal approximation, p = 0.03445363704. */
    @Test
    void rankSumWithTies() {
        RankSumTest.Result r = RankSumTest.test(new double[] {1, 2, 2, 3, 4}, new double[] {3, 4, 5, 5, 6});
        assertFalse(r.exact());
        assertEquals(2, r.u());
        assertEquals(0.03445363704, r.p(), 1e-9);
    }

    /**
     * R 4.2.2: wilcox.test(c(2, 2, 2), c(1, 1, 1)): W = 9, p = 0.0468541776039 (ties: normal approximation with continuity
     * correction); wilcox.test(c(0, 0, 0), c(1, 2, 3)): W = 0, p = 0.0636025696208; wilcox.test(5, c(1, 2, 3)): W = 3,
     * exact p = 0.5; wilcox.test(c(1, 2, 3, 4), c(5, 6)): W = 0, exact p = 0.133333333333.
     */
    @Test
    void rankSumSmallSamplesAsR() {
        RankSumTest.Result tied = RankSumTest.test(new double[] {2, 2, 2}, new double[] {1, 1, 1});
        assertFalse(tied.exact());
        assertEquals(9, tied.u());
        assertEquals(0.0468541776039, tied.p(), 1e-12);
        assertEquals(0.0636025696208, RankSumTest.test(new double[] {0, 0, 0}, new double[] {1, 2, 3}).p(), 1e-12);
        RankSumTest.Result one = RankSumTest.test(new double[] {5}, new double[] {1, 2, 3});
        assertTrue(one.exact());
        assertEquals(3, one.u());
        assertEquals(0.5, one.p(), 1e-12);
        assertEquals(0.133333333333, RankSumTest.test(new double[] {1, 2, 3, 4}, new double[] {5, 6}).p(), 1e-11);
    }

    /**
     * R goes exact only when both samples are under 50: x = 1.5, 2.5, …, 50.5 against y = 0.1, 0.2, 0.3 gives W = 150,
     * p = 0.00413720518945 (normal approximation; exact = TRUE would give 8.5e-5); swapped, W = 0 and the same p.
     */
    @Test
    void rankSumFiftyIsNoLongerExact() {
        double[] x = new double[50];
        for (int i = 0; i < 50; i++) x[i] = i + 1.5;
        double[] y = {0.1, 0.2, 0.3};
        RankSumTest.Result r = RankSumTest.test(x, y);
        assertFalse(r.exact());
        assertEquals(150, r.u());
        assertEquals(0.00413720518945359, r.p(), 1e-12);
        RankSumTest.Result swapped = RankSumTest.test(y, x);
        assertFalse(swapped.exact());
        assertEquals(0, swapped.u());
        assertEquals(0.00413720518945359, swapped.p(), 1e-12);
    }

    /** An empty sample has no test (R stops with "not enough 'x' observations"). */
    @Test
    void rankSumEmptySampleIsNaN() {
        RankSumTest.Result r = RankSumTest.test(new double[0], new double[] {1, 2, 3});
        assertTrue(Double.isNaN(r.u()) && Double.isNaN(r.p()) && !r.exact());
    }

    /** R: wilcox.test(c(5, 5, 5), c(5, 5, 5)): W = 4.5, p = NA (no spread in the ranks). */
    @Test
    void rankSumAllEqualHasNoP() {
        RankSumTest.Result r = RankSumTest.test(new double[] {5, 5, 5}, new double[] {5, 5, 5});
        assertEquals(4.5, r.u());
        assertTrue(Double.isNaN(r.p()), "p " + r.p());
    }

    @Test
    void rankSumSmallestPOfFullySeparatedSamples() {
        assertEquals(0.1, RankSumTest.smallestP(3, 3), 1e-12);
        assertEquals(2.0 / 70, RankSumTest.smallestP(4, 4), 1e-12);
    }
}
