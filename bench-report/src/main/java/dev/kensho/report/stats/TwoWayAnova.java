package dev.kensho.report.stats;

import dev.kensho.report.chart.Cells;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.stat.ranking.NaNStrategy;
import org.apache.commons.math3.stat.ranking.NaturalRanking;
import org.apache.commons.math3.special.Beta;
import org.apache.commons.math3.stat.ranking.TiesStrategy;

/**
 * Two-way analysis of variance with interaction, fixed effects (factor A × factor B, e.g. version ×
 * clients), as study 001 analyses TPS.
 *
 * <p>Sums of squares are Type III: each term's SS is the increase of the residual sum of squares
 * when the term's columns leave a sum-to-zero (effect) coded least-squares model. For a balanced
 * design this equals the textbook formulas (and R's {@code aov}); for an unbalanced one it equals
 * R's {@code car::Anova(type = 3)} with {@code contr.sum}, and the table carries a warning. Levels of
 * B not measured for every level of A are dropped with a warning (the interaction is not
 * estimable with empty cells).
 *
 * <p>{@link #alignedRank} is the aligned rank transform (Wobbrock et al. 2011) the study applied
 * because variances were unequal and n = 3: for each effect the responses are aligned (residual
 * plus that effect's estimate), ranked, and the same ANOVA is run on the ranks; only the effect's
 * own row is kept. The study fitted a mixed model (ARTool, lmer); this is the fixed-effects version.
 */
public final class TwoWayAnova {
    private TwoWayAnova() {}

    public record Observation(Object a, Object b, double y) {}

    /** One row of the table; df2/ms of the residual row are the error's. */
    public record Term(String name, double ss, int df, double ms, double f, double p) {}

    public record Table(String factorA, String factorB, List<Term> terms, int n, boolean balanced, List<String> warnings) {
        public Term term(String name) {
            return terms.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
        }

        public Term residual() {
            return terms.get(terms.size() - 1);
        }
    }

    /** Version difference at one level of B, with the pooled residual variance of the two-way model. */
    public record Contrast(Object b, Object a1, Object a2, double estimate, double se, double t, int df, double p,
                           double pAdjusted) {}

    public static Table fit(String nameA, String nameB, List<Observation> observations) {
        Design d = Design.of(observations);
        return d.table(nameA, nameB, d.y);
    }

    public static Table alignedRank(String nameA, String nameB, List<Observation> observations) {
        Design d = Design.of(observations);
        if (d.problem != null) return d.table(nameA, nameB, d.y);
        if (d.additive) return new Table(nameA, nameB, List.of(), d.y.length, true, List.of("ART needs 2 or more values per cell"));
        int n = d.y.length;
        double grand = Arrays.stream(d.y).average().orElse(Double.NaN);
        double[] cellMean = new double[d.na * d.nb], aMean = new double[d.na], bMean = new double[d.nb];
        int[] cellN = new int[d.na * d.nb], aN = new int[d.na], bN = new int[d.nb];
        for (int i = 0; i < n; i++) {
            cellMean[d.ai[i] * d.nb + d.bi[i]] += d.y[i];
            cellN[d.ai[i] * d.nb + d.bi[i]]++;
            aMean[d.ai[i]] += d.y[i];
            aN[d.ai[i]]++;
            bMean[d.bi[i]] += d.y[i];
            bN[d.bi[i]]++;
        }
        for (int k = 0; k < cellMean.length; k++) cellMean[k] /= cellN[k];
        for (int k = 0; k < d.na; k++) aMean[k] /= aN[k];
        for (int k = 0; k < d.nb; k++) bMean[k] /= bN[k];
        double[][] aligned = new double[3][n];
        for (int i = 0; i < n; i++) {
            double cm = cellMean[d.ai[i] * d.nb + d.bi[i]];
            double resid = d.y[i] - cm;
            double ea = aMean[d.ai[i]] - grand, eb = bMean[d.bi[i]] - grand;
            aligned[0][i] = resid + ea;
            aligned[1][i] = resid + eb;
            aligned[2][i] = resid + (cm - aMean[d.ai[i]] - bMean[d.bi[i]] + grand);
        }
        // alignments that are equal in exact arithmetic must tie; floating noise would break the tie
        double quantum = Arrays.stream(d.y).map(Math::abs).max().orElse(1) * 1e-10;
        for (double[] a : aligned) for (int i = 0; i < n; i++) a[i] = quantum > 0 ? Math.rint(a[i] / quantum) * quantum : a[i];
        NaturalRanking ranking = new NaturalRanking(NaNStrategy.FAILED, TiesStrategy.AVERAGE);
        List<Term> terms = new ArrayList<>();
        Term residual = null;
        for (int effect = 0; effect < 3; effect++) {
            Table t = d.table(nameA, nameB, ranking.rank(aligned[effect]));
            // ranks an exact fit leaves nothing to test against: no ART table, as for any other reason it has none
            if (t.terms().isEmpty()) return new Table(nameA, nameB, List.of(), n, d.balanced(), t.warnings());
            terms.add(t.terms().get(effect));
            residual = t.residual();
        }
        terms.add(residual);
        List<String> warnings = new ArrayList<>(d.warnings);
        warnings.add("aligned rank transform: each effect's row comes from its own ANOVA on aligned ranks");
        return new Table(nameA, nameB, terms, n, d.balanced(), warnings);
    }

    /**
     * Every pair of A levels at every level of B: difference of cell means, t with the model's
     * residual variance and df, p two-sided, Holm-adjusted over the whole family.
     */
    public static List<Contrast> contrasts(String nameA, String nameB, List<Observation> observations) {
        Design d = Design.of(observations);
        if (d.problem != null || d.additive) return List.of();
        Table t = d.table(nameA, nameB, d.y);
        Term res = t.residual();
        if (res.df() <= 0 || !(res.ms() > 0)) return List.of();
        double[] sum = new double[d.na * d.nb];
        int[] cnt = new int[d.na * d.nb];
        for (int i = 0; i < d.y.length; i++) {
            sum[d.ai[i] * d.nb + d.bi[i]] += d.y[i];
            cnt[d.ai[i] * d.nb + d.bi[i]]++;
        }
        TDistribution dist = new TDistribution(res.df());
        List<Contrast> raw = new ArrayList<>();
        for (int b = 0; b < d.nb; b++) {
            for (int a1 = 0; a1 < d.na; a1++) {
                for (int a2 = a1 + 1; a2 < d.na; a2++) {
                    int k1 = a1 * d.nb + b, k2 = a2 * d.nb + b;
                    double est = sum[k1] / cnt[k1] - sum[k2] / cnt[k2];
                    double se = Math.sqrt(res.ms() * (1.0 / cnt[k1] + 1.0 / cnt[k2]));
                    double tv = est / se;
                    double p = 2 * dist.cumulativeProbability(-Math.abs(tv));
                    raw.add(new Contrast(d.levelsB.get(b), d.levelsA.get(a1), d.levelsA.get(a2), est, se, tv, res.df(), p, p));
                }
            }
        }
        double[] adj = holm(raw.stream().mapToDouble(Contrast::p).toArray());
        List<Contrast> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            Contrast c = raw.get(i);
            out.add(new Contrast(c.b(), c.a1(), c.a2(), c.estimate(), c.se(), c.t(), c.df(), c.p(), adj[i]));
        }
        return out;
    }

    /**
     * Study 001's post-hoc test: ART-C contrasts (Elkin et al. 2021; ARTool's {@code art.con(m, "A:B", adjust =
     * "tukey")}) of every pair of A levels at every level of B. Aligning for the combined factor A:B leaves the
     * response minus the grand mean, so the responses are ranked as they are; each contrast is a difference of
     * cell mean ranks with the residual variance of the ranks' cell-means model, and p is Tukey-adjusted for the
     * family of all a·b cell means, as emmeans adjusts the study's "family of 16 estimates". Fixed effects: the
     * study's mixed model (repeats as a random factor) gives other df.
     */
    public static List<Contrast> alignedRankContrasts(List<Observation> observations) {
        Design d = Design.of(observations);
        if (d.problem != null || d.additive) return List.of();
        int n = d.y.length, cells = d.na * d.nb;
        double[] rank = new NaturalRanking(NaNStrategy.FAILED, TiesStrategy.AVERAGE).rank(d.y);
        double[] sum = new double[cells];
        for (int i = 0; i < n; i++) sum[d.ai[i] * d.nb + d.bi[i]] += rank[i];
        double within = 0;
        for (int i = 0; i < n; i++) {
            int k = d.ai[i] * d.nb + d.bi[i];
            double r = rank[i] - sum[k] / d.cellN[k];
            within += r * r;
        }
        int df = n - cells;
        double mse = within / df;
        if (!(mse > 0)) return List.of();
        TDistribution dist = new TDistribution(df);
        List<Contrast> out = new ArrayList<>();
        for (int b = 0; b < d.nb; b++) {
            for (int a1 = 0; a1 < d.na; a1++) {
                for (int a2 = a1 + 1; a2 < d.na; a2++) {
                    int k1 = a1 * d.nb + b, k2 = a2 * d.nb + b;
                    double est = sum[k1] / d.cellN[k1] - sum[k2] / d.cellN[k2];
                    double se = Math.sqrt(mse * (1.0 / d.cellN[k1] + 1.0 / d.cellN[k2]));
                    double tv = est / se;
                    double p = 2 * dist.cumulativeProbability(-Math.abs(tv));
                    out.add(new Contrast(d.levelsB.get(b), d.levelsA.get(a1), d.levelsA.get(a2), est, se, tv, df, p,
                            StudentizedRange.upperTail(Math.sqrt(2) * Math.abs(tv), cells, df)));
                }
            }
        }
        return out;
    }

    /**
     * P(F > f) on (df1, df2) degrees of freedom from the incomplete beta function directly: 1 − cdf lost
     * every p below 1e-16 (R's 7e-24 came out as 0).
     */
    static double fUpperTail(double f, double df1, double df2) {
        if (f <= 0) return 1;
        return Beta.regularizedBeta(df2 / (df2 + df1 * f), df2 / 2, df1 / 2);
    }

    /** Holm's step-down adjustment (R's p.adjust(method = "holm")). */
    public static double[] holm(double[] p) {
        int m = p.length;
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) order[i] = i;
        Arrays.sort(order, (x, y) -> Double.compare(p[x], p[y]));
        double[] adj = new double[m];
        double running = 0;
        for (int r = 0; r < m; r++) {
            running = Math.max(running, Math.min(1, (m - r) * p[order[r]]));
            adj[order[r]] = running;
        }
        return adj;
    }

    /** The observations indexed by level, after dropping what cannot be estimated. */
    private static final class Design {
        List<Object> levelsA, levelsB;
        int na, nb;
        int[] ai, bi, cellN;
        double[] y;
        final List<String> warnings = new ArrayList<>();
        String problem;
        /** One value per cell: A + B only. */
        boolean additive;

        static Design of(List<Observation> obs) {
            Design d = new Design();
            TreeSet<Object> as = new TreeSet<>(Cells.ORDER), bs = new TreeSet<>(Cells.ORDER);
            obs.forEach(o -> {
                as.add(Cells.normal(o.a()));
                bs.add(Cells.normal(o.b()));
            });
            // keep B levels measured under every A level
            Map<Object, TreeSet<Object>> aOfB = new LinkedHashMap<>();
            obs.forEach(o -> aOfB.computeIfAbsent(Cells.normal(o.b()), k -> new TreeSet<>(Cells.ORDER)).add(Cells.normal(o.a())));
            List<Object> dropped = new ArrayList<>();
            for (Object b : bs) if (aOfB.get(b).size() < as.size()) dropped.add(b);
            if (!dropped.isEmpty()) {
                d.warnings.add("levels of B without every level of A dropped: " + dropped);
                bs.removeAll(dropped);
            }
            d.levelsA = new ArrayList<>(as);
            d.levelsB = new ArrayList<>(bs);
            d.na = as.size();
            d.nb = bs.size();
            List<Observation> kept = obs.stream().filter(o -> bs.contains(Cells.normal(o.b()))).toList();
            int n = kept.size();
            d.ai = new int[n];
            d.bi = new int[n];
            d.y = new double[n];
            d.cellN = new int[d.na * d.nb];
            for (int i = 0; i < n; i++) {
                d.ai[i] = d.levelsA.indexOf(Cells.normal(kept.get(i).a()));
                d.bi[i] = d.levelsB.indexOf(Cells.normal(kept.get(i).b()));
                d.y[i] = kept.get(i).y();
                d.cellN[d.ai[i] * d.nb + d.bi[i]]++;
            }
            if (d.na < 2 || d.nb < 2) d.problem = "needs at least two levels of each factor";
            else if (n == d.na * d.nb) {
                // one value per cell: the interaction is the only error there is (Tukey's additive model)
                d.additive = true;
                d.warnings.add("one value per cell: additive model " + "without interaction, which is the error term "
                        + "(R: anova(lm(y ~ A + B))); no ART, no contrasts");
            } else if (d.noSpreadInAnyCell()) {
                // the residual would be rounding noise (1e-24) and F any number from 0 to 1e30
                d.problem = "no spread within any cell (each cell's values are equal): nothing to test the effects against";
            }
            if (d.problem == null && !d.balanced()) {
                int lo = Arrays.stream(d.cellN).min().orElse(0), hi = Arrays.stream(d.cellN).max().orElse(0);
                d.warnings.add("unbalanced design (" + lo + " to " + hi + " observations per cell): Type III sums of squares");
            }
            return d;
        }

        boolean noSpreadInAnyCell() {
            double[] first = new double[cellN.length];
            boolean[] seen = new boolean[cellN.length];
            for (int i = 0; i < y.length; i++) {
                int k = ai[i] * nb + bi[i];
                if (!seen[k]) {
                    seen[k] = true;
                    first[k] = y[i];
                } else if (y[i] != first[k]) {
                    return false;
                }
            }
            return true;
        }

        boolean balanced() {
            return Arrays.stream(cellN).distinct().count() == 1;
        }

        Table table(String nameA, String nameB, double[] response) {
            int n = response.length;
            String inter = nameA + ":" + nameB;
            // the factors by name: compare letters its runs A, B, …, which these are not
            List<String> named = warnings.stream().map(x -> x.replace("levels of B without every level of A",
                    "levels of " + nameB + " without every level of " + nameA)).toList();
            if (problem != null) {
                List<String> w = new ArrayList<>(named);
                w.add(problem);
                return new Table(nameA, nameB, List.of(), n, false, w);
            }
            int pa = na - 1, pb = nb - 1, pab = additive ? 0 : pa * pb;
            int cols = 1 + pa + pb + pab;
            double[][] x = new double[n][cols];
            for (int i = 0; i < n; i++) {
                x[i][0] = 1;
                double[] ca = effect(ai[i], na), cb = effect(bi[i], nb);
                for (int j = 0; j < pa; j++) x[i][1 + j] = ca[j];
                for (int k = 0; k < pb; k++) x[i][1 + pa + k] = cb[k];
                if (additive) continue;
                for (int j = 0; j < pa; j++) for (int k = 0; k < pb; k++) x[i][1 + pa + pb + j * pb + k] = ca[j] * cb[k];
            }
            RealVector yv = new ArrayRealVector(response);
            double rssFull = rss(x, yv, new boolean[cols]);
            // an exact fit (a run compared with a copy of itself, one value per cell: no interaction left): the residual
            // is rounding noise, and F was 6.8e32 with p < 0.0001, or 1.125 of one rounding error over another
            // rounding leaves about 1e-31 of the sum of squares: 1e-20 of it tells an exact fit from a near one (a
            // counter's repeats a few apart in a million), uncentred so that constant data are caught too
            double total = 0;
            for (double v : response) total += v * v;
            if (rssFull <= 1e-20 * total) {
                List<String> w = new ArrayList<>(named);
                w.add("the model fits every value exactly (no " + (additive ? "interaction" : "spread") + " left to test the effects"
                        + " against): nothing to test");
                return new Table(nameA, nameB, List.of(), n, false, w);
            }
            int dfe = n - cols;
            double mse = rssFull / dfe;
            List<Term> terms = new ArrayList<>();
            int[][] ranges = {{1, 1 + pa}, {1 + pa, 1 + pa + pb}, {1 + pa + pb, cols}};
            String[] names = {nameA, nameB, inter};
            for (int t = 0; t < (additive ? 2 : 3); t++) {
                boolean[] drop = new boolean[cols];
                for (int c = ranges[t][0]; c < ranges[t][1]; c++) drop[c] = true;
                double ss = Math.max(0, rss(x, yv, drop) - rssFull);
                int df = ranges[t][1] - ranges[t][0];
                double ms = ss / df;
                double f = ms / mse;
                double p = Double.isFinite(f) ? fUpperTail(f, df, dfe) : Double.NaN;
                terms.add(new Term(names[t], ss, df, ms, f, p));
            }
            terms.add(new Term("Residuals", rssFull, dfe, mse, Double.NaN, Double.NaN));
            return new Table(nameA, nameB, terms, n, balanced(), named);
        }

        private static double[] effect(int level, int levels) {
            double[] c = new double[levels - 1];
            if (level == levels - 1) Arrays.fill(c, -1);
            else c[level] = 1;
            return c;
        }

        private static double rss(double[][] x, RealVector y, boolean[] drop) {
            int keep = 0;
            for (boolean b : drop) if (!b) keep++;
            double[][] sub = new double[x.length][keep];
            for (int i = 0; i < x.length; i++) {
                for (int c = 0, k = 0; c < drop.length; c++) if (!drop[c]) sub[i][k++] = x[i][c];
            }
            RealMatrix m = new Array2DRowRealMatrix(sub, false);
            RealVector beta = new QRDecomposition(m).getSolver().solve(y);
            RealVector r = y.subtract(m.operate(beta));
            return r.dotProduct(r);
        }
    }
}
