package dev.kensho.report;

import static dev.kensho.report.RunComparison.ALPHA;
import static dev.kensho.report.RunComparison.PERCENTILES;
import static dev.kensho.report.RunComparison.runLetter;
import static dev.kensho.report.html.Html.esc;
import static dev.kensho.report.html.Html.n;
import static dev.kensho.report.html.Html.num;

import dev.kensho.core.result.RunResults;
import dev.kensho.core.run.DisplayWidth;
import dev.kensho.report.RunComparison.Analysis;
import dev.kensho.report.RunComparison.Better;
import dev.kensho.report.RunComparison.Group;
import dev.kensho.report.RunComparison.LatencyRow;
import dev.kensho.report.RunComparison.Row;
import dev.kensho.report.chart.Cells;
import dev.kensho.report.html.Html;
import dev.kensho.report.stats.RankSumTest;
import dev.kensho.report.stats.TwoWayAnova;
import dev.kensho.report.stats.VarianceTest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A {@link RunComparison} in the forms it is read in: the console table, compare.csv, and compare.html with the
 * per-metric sections the run report embeds.
 */
final class ComparisonReport {
    /** Where Levene rejects equal variances, the cell-mean contrasts' pooled variance is the assumption that failed. */
    static final String VARIANCES_DIFFER = " — variances differ: read the ART rows and ART-C contrasts (as study 001 does), "
            + "not the cell-mean contrasts";
    static final String VERDICT = "Welch's t-test, p Holm-adjusted over the metric's cells within each group (one family per metric and group), at α = " + ALPHA;
    static final String INTERVAL = "95% CI: of the ratio of the means, Fieller's with Welch's degrees of freedom, per cell "
            + "(it leaves out 1 where p Welch < 0.05)";
    static final String MANN_WHITNEY_LEFT_OUT = "Mann–Whitney left out: with these few repeats even fully separated "
            + "samples could not reach α";

    /** R's significance codes, as printed under its tables; nothing in it needs HTML escaping. */
    static final String SIGNIFICANCE_CODES = "Signif. codes: 0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1";

    private final RunComparison cmp;
    private final List<RunResults> runs;
    private final String by;
    private final List<Group> groups;
    private final List<String> keyParams;
    private final List<String> metrics;
    private final List<Row> rows;
    private final List<LatencyRow> latencyRows;
    private final List<Analysis> analyses;
    private final List<String> warnings;
    private final List<String> notes;

    ComparisonReport(RunComparison cmp) {
        this.cmp = cmp;
        this.runs = cmp.runs();
        this.by = cmp.by();
        this.groups = cmp.groups();
        this.keyParams = cmp.keyParams();
        this.metrics = cmp.metrics();
        this.rows = cmp.rows();
        this.latencyRows = cmp.latencyRows();
        this.analyses = cmp.analyses();
        this.warnings = cmp.warnings();
        this.notes = cmp.notes();
    }

    /** Why the Mann–Whitney column is left out, with the most repeats any row had ("2 against 2: p ≥ 0.33"). */
    private String mannWhitneyLeftOut() {
        Row most = rows.stream().filter(r -> Math.min(r.baselineN(), r.n()) >= 2)
                .min(java.util.Comparator.comparingDouble((Row r) -> RankSumTest.smallestP(r.baselineN(), r.n()))).orElse(null);
        if (most == null) return null;   // one value a side: every row says "not testable (n=1)" already
        return MANN_WHITNEY_LEFT_OUT + " (" + most.baselineN() + " against " + most.n() + ": p ≥ "
                + Cells.text(Math.floor(RankSumTest.smallestP(most.baselineN(), most.n()) * 100) / 100) + ")";
    }

    /** Whether any row's Mann–Whitney test could reach α; else its column would only say "not testable". */
    private boolean mannWhitneyShown() {
        return rows.stream().anyMatch(Row::mannWhitneyTestable);
    }

    private static String percentileName(double p) {
        return "p" + Cells.text(p);
    }

    /** "A = 20261122T120000Z-pgbench-run" per run when the groups are named by letters, else empty. */
    private List<String> legend() {
        if (groups.stream().noneMatch(g -> g.label().equals(runLetter(g.run())) || g.label().startsWith(runLetter(g.run()) + "/"))) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) out.add(runLetter(i) + " = " + runs.get(i).directory().getFileName());
        return out;
    }

    /** "2 better, 1 worse, 0 no significant difference of 3 cells" for a metric and group. */
    private String verdicts(String metric, String group) {
        Map<String, Long> counts = rows.stream().filter(r -> r.metric().equals(metric) && r.group().equals(group))
                .collect(Collectors.groupingBy(r -> r.verdict().startsWith("not testable") ? "not testable" : r.verdict(),
                        TreeMap::new, Collectors.counting()));
        long all = counts.values().stream().mapToLong(Long::longValue).sum();
        long averaged = rows.stream().filter(r -> r.metric().equals(metric) && r.group().equals(group))
                .filter(r -> r.ratio() > 0 && Double.isFinite(r.ratio())).count();
        return counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "))
                + " of " + all + (all == 1 ? " cell" : " cells")
                + (averaged < all ? "; the mean is over " + averaged + " of them, the others have a median of 0 in " + group + " or "
                        + groups.get(0).label() : "");
    }

    /** The console table: one line per matched cell and metric. */
    String text() {
        StringBuilder b = new StringBuilder();
        b.append("Comparing ").append(groups.stream().map(Group::label).collect(Collectors.joining(" | ")))
                .append(by == null ? "" : " (by " + by + ")").append("; ratios are group/").append(groups.get(0).label())
                .append(" of medians\n");
        legend().forEach(x -> b.append("  ").append(x).append('\n'));
        List<String[]> lines = new ArrayList<>();
        b.append("Better: ").append(metrics.stream().map(m -> m + " " + Better.of(m).text()).collect(Collectors.joining("; ")))
                .append(". Verdict: ").append(VERDICT).append(".\n").append(INTERVAL).append(".\n");
        boolean mw = mannWhitneyShown();
        if (!mw && mannWhitneyLeftOut() != null) b.append(mannWhitneyLeftOut()).append(".\n");
        lines.add(mw ? new String[] {"cell", "metric", "group", "baseline", "median", "ratio", "95% CI", "p Welch", "p Holm", "p M-W", "n", "verdict"}
                : new String[] {"cell", "metric", "group", "baseline", "median", "ratio", "95% CI", "p Welch", "p Holm", "n", "verdict"});
        for (Row r : rows) {
            List<String> l = new ArrayList<>(List.of(r.cell(), r.metric(), r.group(), num(r.baselineMedian()), num(r.median()),
                    Html.ratio(r.ratio()), r.intervalText(), r.welchText(), r.holmText()));
            if (mw) l.add(r.mannWhitneyText());
            l.add(r.baselineN() + "/" + r.n());
            l.add(r.verdict());
            lines.add(l.toArray(String[]::new));
        }
        int[] w = new int[lines.get(0).length];
        // terminal columns, not chars: a cell named in kanji shifted its row
        for (String[] l : lines) for (int i = 0; i < l.length; i++) w[i] = Math.max(w[i], DisplayWidth.of(l[i]));
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                String cell = l[i];
                boolean right = i >= 3 && i < l.length - 1;
                int pad = w[i] - DisplayWidth.of(cell);
                b.append(right ? " ".repeat(pad) + cell : i == l.length - 1 ? cell : cell + " ".repeat(pad));
                b.append(i == l.length - 1 ? "\n" : "  ");
            }
        }
        cmp.geometricMeanRatios().forEach((m, byGroup) -> byGroup.forEach((g, v) -> b.append("geometric mean ratio ").append(m).append(" ")
                .append(g).append(": ").append(Html.ratio(v)).append(" (").append(verdicts(m, g)).append(")\n")));
        for (Analysis a : analyses) {
            b.append('\n').append("Two-way ANOVA of ").append(a.metric()).append(": group × ").append(a.factor())
                    .append(a.scope().isEmpty() ? "" : " (" + a.scope() + ")").append('\n');
            for (TwoWayAnova.Term t : a.anova().terms()) {
                boolean resid = t.name().equals("Residuals");
                b.append(String.format(Locale.ROOT, "  %-22s df %4d  SS %14s  F %10s  p %s%n", t.name(), t.df(), num(t.ss()),
                        resid ? "" : num(t.f()), resid ? "" : pWithCode(t.p())));
            }
            for (TwoWayAnova.Term t : a.art().terms()) {
                if (t.name().equals("Residuals")) continue;
                b.append(String.format(Locale.ROOT, "  ART %-18s F %10s  p %s%n", t.name(), num(t.f()), pWithCode(t.p())));
            }
            if (a.levene() != null) {
                b.append("  ").append(varianceText(a)).append(a.levene().p() < 0.05 ? VARIANCES_DIFFER : "").append('\n');
            }
            a.anova().warnings().forEach(x -> b.append("  note: ").append(x).append('\n'));
            contrastsText(b, a.factor(), a.contrasts(), "Contrasts per " + a.factor()
                    + " (difference of cell means, the ANOVA's residual variance; p Holm-adjusted over these "
                    + a.contrasts().size() + ")", "p Holm");
            contrastsText(b, a.factor(), a.artContrasts(), "ART-C contrasts per " + a.factor()
                    + " (difference of mean ranks, as study 001; p Tukey-adjusted for the family of " + tukeyFamily(a.artContrasts())
                    + " cell means)",
                    "p Tukey");
            if (!a.anova().terms().isEmpty()) b.append("  ").append(SIGNIFICANCE_CODES).append('\n');
        }
        if (!latencyRows.isEmpty()) {
            b.append("\nLatency of all transactions (each cell's repeats merged), ms: ").append(groups.get(0).label())
                    .append(" -> group (ratio)\n");
            for (LatencyRow r : latencyRows) {
                b.append("  ").append(r.cell()).append(' ').append(r.group()).append(':');
                for (int i = 0; i < PERCENTILES.length; i++) {
                    b.append(' ').append(percentileName(PERCENTILES[i])).append(' ').append(num(r.baselineMs().get(i))).append(" -> ")
                            .append(num(r.ms().get(i))).append(" (").append(Html.ratio(r.ms().get(i) / r.baselineMs().get(i))).append(')');
                }
                b.append('\n');
            }
        }
        notes.forEach(x -> b.append("note: ").append(x).append('\n'));
        warnings.forEach(x -> b.append("warning: ").append(x).append('\n'));
        return b.toString();
    }

    private static void contrastsText(StringBuilder b, String factor, List<TwoWayAnova.Contrast> cs, String title, String adjusted) {
        if (cs.isEmpty()) return;
        b.append("  ").append(title).append(":\n");
        for (TwoWayAnova.Contrast c : cs) {
            b.append(String.format(Locale.ROOT, "    %-16s %s − %s  estimate %10s  SE %10s  t %8s  df %3d  %s %s%n",
                    factor + "=" + Cells.text(c.b()), c.a1(), c.a2(), num(c.estimate()), num(c.se()), num(c.t()), c.df(), adjusted,
                    pWithCode(c.pAdjusted())));
        }
    }

    /** The cell means the ART-C contrasts were adjusted for: every group at every level they cover (not the levels dropped). */
    private static int tukeyFamily(List<TwoWayAnova.Contrast> cs) {
        Set<Object> as = new LinkedHashSet<>(), bs = new LinkedHashSet<>();
        cs.forEach(c -> {
            as.add(c.a1());
            as.add(c.a2());
            bs.add(c.b());
        });
        return as.size() * bs.size();
    }

    /**
     * "Bartlett K² … p …"; a cell without spread among cells with some (two repeats at 100 % CPU) gives K² = ∞ and p = 0
     * as R's bartlett.test does, which read as strong evidence of unequal variances: Bartlett's log-variances are
     * undefined there, so it is said to be not testable.
     */
    private static String bartlettText(Analysis a) {
        return a.bartlett().statistic() == Double.POSITIVE_INFINITY ? "Bartlett not testable (a cell without spread)"
                : "Bartlett K² = " + num(a.bartlett().statistic()) + ", " + pIs(a.bartlett().p());
    }

    /** "Levene (median-centred, Brown–Forsythe) F … p …; Bartlett K² … p …", with the cells left out named. */
    private static String varianceText(Analysis a) {
        String over = a.varianceCells() < a.cells() ? " over the " + a.varianceCells() + " of " + a.cells()
                + " cells with 2 or more values" : "";
        if (Double.isNaN(a.levene().p())) {
            return "Variance homogeneity" + over + ": Levene's test needs 3 or more values in some cell; " + bartlettText(a);
        }
        return "Variance homogeneity" + over + ": " + VarianceTest.LEVENE + " F(" + num(a.levene().df1()) + ", "
                + num(a.levene().df2()) + ") = " + num(a.levene().statistic()) + ", " + pIs(a.levene().p())
                + "; " + bartlettText(a);
    }

    /** {@code "p = 0.0744"}, or {@code "p < 0.0001"}. */
    private static String pIs(double p) {
        String s = Html.p(p);
        return s.startsWith("<") ? "p " + s : "p = " + s;
    }

    /** R's significance code of p (symnum's cutpoints: each interval closed on the right, so p = 0.05 is '*'). */
    static String code(double p) {
        if (Double.isNaN(p)) return "";
        return p <= 0.001 ? "***" : p <= 0.01 ? "**" : p <= 0.05 ? "*" : p <= 0.1 ? "." : "";
    }

    private static String pWithCode(double p) {
        String c = code(p);
        return Html.p(p) + (c.isEmpty() ? "" : " " + c);
    }

    /** compare.csv: one row per matched cell, metric and group. */
    String csv() {
        StringBuilder b = new StringBuilder();
        List<String> header = new ArrayList<>(keyParams);
        header.addAll(List.of("metric", "baseline", "group", "baseline_median", "median", "ratio", "ratio_ci_low", "ratio_ci_high", "ratio_ci_shape", "baseline_n", "n",
                "welch_p", "welch_p_holm", "mann_whitney_p", "better", "alpha", "verdict"));
        b.append(header.stream().map(ComparisonReport::csvCell).collect(Collectors.joining(","))).append('\n');
        for (Row r : rows) {
            List<String> cellsOut = new ArrayList<>();
            for (String p : keyParams) cellsOut.add(r.params().containsKey(p) ? Cells.text(r.params().get(p)) : "");
            cellsOut.addAll(List.of(r.metric(), r.baseline(), r.group(), plain(r.baselineMedian()), plain(r.median()),
                    plain(r.ratio()), plain(r.ratioLow()), plain(r.ratioHigh()), r.intervalShape(), String.valueOf(r.baselineN()), String.valueOf(r.n()), plain(r.welchP()), plain(r.welchHolmP()),
                    // as the table: left out where even fully separated samples of these sizes could not reach α
                    r.mannWhitneyTestable() ? plain(r.mannWhitneyP()) : "",
                    Better.of(r.metric()) == Better.UNKNOWN ? "" : Better.of(r.metric()).name().toLowerCase(Locale.ROOT),
                    String.valueOf(ALPHA), r.verdict()));
            b.append(cellsOut.stream().map(ComparisonReport::csvCell).collect(Collectors.joining(","))).append('\n');
        }
        return b.toString();
    }

    private static String plain(double v) {
        // an unbounded interval's ends stay "-Infinity"/"Infinity", beside ratio_ci_shape "unbounded"
        return Double.isInfinite(v) ? Double.toString(v) : dev.kensho.core.result.Csv.number(v);
    }

    private static String csvCell(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    String html() {
        StringBuilder b = new StringBuilder();
        b.append("<h1>Kensho comparison</h1>\n<p class=\"sub\">").append(esc(groups.stream().map(Group::label)
                .collect(Collectors.joining(" vs ")))).append(by == null ? "" : " · by " + esc(by))
                .append(" · ratios are group / ").append(esc(groups.get(0).label())).append(" of the medians</p>\n");
        b.append("<h2>Runs</h2>\n");
        List<List<String>> runRows = new ArrayList<>();
        for (Group g : groups) {
            RunResults r = runs.get(g.run());
            runRows.add(List.of(esc(g.label()), esc(r.directory().getFileName()), esc(r.info().command()),
                    "<code>" + esc((r.info().commandLine() == null ? List.<String>of() : r.info().commandLine()).stream()
                            .map(dev.kensho.core.result.RunInfo::shellWord).collect(java.util.stream.Collectors.joining(" "))) + "</code>"));
        }
        b.append(Html.table(List.of("group", "directory", "command", "command line"), runRows));
        notes.forEach(x -> b.append("<p class=\"sub\">").append(esc(x)).append("</p>\n"));
        if (!warnings.isEmpty()) {
            b.append("<ul class=\"warnings\">").append(warnings.stream().map(w -> "<li>" + esc(w) + "</li>").collect(Collectors.joining()))
                    .append("</ul>\n");
        }
        b.append(sections(2, true));
        if (!latencyRows.isEmpty()) {
            b.append("<h2>Latency of all transactions</h2>\n<p class=\"sub\">Each cell's repeats merged (HdrHistogram), ms; "
                    + "ratio = group / ").append(esc(groups.get(0).label())).append(".</p>\n");
            List<String> header = new ArrayList<>(List.of("cell", "group", "transactions"));
            for (double p : PERCENTILES) {
                header.addAll(List.of(percentileName(p) + " " + groups.get(0).label(), percentileName(p), "ratio"));
            }
            List<List<String>> out = new ArrayList<>();
            for (LatencyRow r : latencyRows) {
                List<String> row = new ArrayList<>(List.of(esc(r.cell()), esc(r.group()), n(r.baselineCount() + "/" + r.count())));
                for (int i = 0; i < PERCENTILES.length; i++) {
                    row.add(n(esc(num(r.baselineMs().get(i)))));
                    row.add(n(esc(num(r.ms().get(i)))));
                    row.add(n(esc(Html.ratio(r.ms().get(i) / r.baselineMs().get(i)))));
                }
                out.add(row);
            }
            b.append(Html.table(header, out));
        }
        b.append("<p class=\"sub\">Welch: two-sided t-test without equal variances; its p, Holm-adjusted over the metric's "
                + "cells (one family per metric and group), gives the verdict at α = " + ALPHA
                + " (better or worse by the metric's direction; higher or lower when it has none). Mann–Whitney: exact when there "
                + "are no ties and both sides have fewer than 50 values (as R's wilcox.test), else the normal approximation with "
                + "tie and continuity corrections; not adjusted for the other cells and not read by the verdict; not testable where "
                + "even fully separated samples could not reach α (3 repeats per side: p ≥ 0.1). "
                + "Geometric mean ratio: exp of the mean log ratio over the cells. ANOVA: fixed effects, Type III sums of squares; "
                + "ART: aligned rank transform per effect. Contrasts: difference of cell means with the ANOVA's residual "
                + "variance, Holm-adjusted; ART-C: difference of mean ranks, Tukey-adjusted over all cell means (study 001's "
                + "post-hoc test, with fixed effects where the study had a mixed model). " + VarianceTest.LEVENE
                + ": car::leveneTest's default.</p>\n");
        return Html.page("Kensho comparison", b.toString());
    }


    /**
     * The per-metric sections (ratio table, mean ratio, analyses) as an HTML fragment whose headings
     * start at level h; the run report embeds it without charts when a run sweeps versions.
     */
    String sections(int h, boolean charts) {
        StringBuilder b = new StringBuilder();
        int fig = 0;
        for (String m : metrics) {
            b.append("<h" + h + ">").append(esc(m)).append("</h" + h + ">\n<p class=\"sub\">").append(esc(Better.of(m).text()))
                    .append("; verdict: ").append(VERDICT).append("; ").append(esc(INTERVAL)).append("</p>\n");
            Figure f = charts ? cmp.chart(m) : null;
            if (f != null) b.append("<figure>").append(f.svg("cmp" + (++fig))).append("</figure>\n");
            List<List<String>> out = new ArrayList<>();
            boolean mw = mannWhitneyShown();
            boolean whole = Html.whole(rows.stream().filter(r -> r.metric().equals(m))
                    .flatMap(r -> java.util.stream.Stream.of(r.baselineMedian(), r.median())).toList());
            for (Row r : rows) {
                if (!r.metric().equals(m)) continue;
                // marked where the verdict names a direction: not where means and medians disagree
                boolean sig = r.welchHolmP() < ALPHA && !r.verdict().startsWith("no clear direction");
                List<String> row = new ArrayList<>(List.of(esc(r.cell()), esc(r.group()), n(esc(num(r.baselineMedian(), whole))),
                        n(esc(num(r.median(), whole))), n((sig ? "<span class=\"sig\">" : "") + esc(Html.ratio(r.ratio())) + (sig ? "</span>" : "")),
                        n(esc(r.intervalText())), n(esc(r.welchText())), n(esc(r.holmText()))));
                if (mw) row.add(n(esc(r.mannWhitneyText())));
                row.add(n(r.baselineN() + "/" + r.n()));
                row.add(esc(r.verdict()));
                out.add(row);
            }
            // each median named by its group: "17 median" beside "16 median" (a bare "median" read as either's); where
            // several groups are compared with the baseline, the row's group column says whose
            List<String> compared = rows.stream().filter(r -> r.metric().equals(m)).map(Row::group).distinct().toList();
            String candidate = compared.size() == 1 ? compared.get(0) + " median" : "group's median";
            List<String> header = new ArrayList<>(List.of("cell", "group", groups.get(0).label() + " median", candidate, "ratio", "95 % CI", "p Welch", "p Holm"));
            if (mw) header.add("p Mann–Whitney");
            header.addAll(List.of("n", "verdict"));
            b.append(Html.table(header, out));
            if (!mw && !out.isEmpty() && mannWhitneyLeftOut() != null) {
                b.append("<p class=\"sub\">").append(esc(mannWhitneyLeftOut())).append(".</p>\n");
            }
            cmp.geometricMeanRatios().getOrDefault(m, Map.of()).forEach((g, v) -> b.append("<p>Geometric mean ratio ").append(esc(g))
                    .append(": <b>").append(esc(Html.ratio(v))).append("</b> (").append(esc(verdicts(m, g))).append(")</p>\n"));
            List<Analysis> mine = analyses.stream().filter(a -> a.metric().equals(m)).toList();
            // one analysis per query (ssb) would bury the ratios: fold them
            if (mine.size() > 2) b.append("<details><summary>").append(mine.size()).append(" two-way ANOVAs of ").append(esc(m))
                    .append("</summary>\n");
            for (Analysis a : mine) b.append(analysisHtml(a, h + 1));
            if (mine.size() > 2) b.append("</details>\n");
        }
        return b.toString();
    }

    /** A contrasts table's rows: the factor's level, the pair, estimate, SE, t, df and the adjusted p with its code. */
    private static List<List<String>> contrastRows(String factor, List<TwoWayAnova.Contrast> contrasts) {
        List<List<String>> rows = new ArrayList<>();
        for (TwoWayAnova.Contrast c : contrasts) {
            rows.add(List.of(esc(factor + "=" + Cells.text(c.b())), esc(c.a1() + " − " + c.a2()), n(esc(num(c.estimate()))),
                    n(esc(num(c.se()))), n(esc(num(c.t()))), n(String.valueOf(c.df())), n(stars(c.pAdjusted()))));
        }
        return rows;
    }

    private static String analysisHtml(Analysis a, int h) {
        StringBuilder b = new StringBuilder();
        b.append("<h" + h + ">Two-way ANOVA: group × ").append(esc(a.factor())).append(a.scope().isEmpty() ? "" : " (" + esc(a.scope()) + ")")
                .append("</h" + h + ">\n");
        if (a.levene() != null) {
            b.append("<p>").append(esc(varianceText(a)))
                    .append(a.levene().p() < 0.05 ? esc(VARIANCES_DIFFER) + "." : ".").append("</p>\n");
        }
        List<List<String>> rows = new ArrayList<>();
        for (TwoWayAnova.Term t : a.anova().terms()) {
            TwoWayAnova.Term art = a.art().terms().stream().filter(x -> x.name().equals(t.name())).findFirst().orElse(null);
            boolean resid = t.name().equals("Residuals");
            rows.add(List.of(esc(t.name()), n(String.valueOf(t.df())), n(esc(num(t.ss()))), n(esc(num(t.ms()))),
                    n(resid ? "" : esc(num(t.f()))), n(resid ? "" : stars(t.p())),
                    n(resid || art == null ? "" : esc(num(art.f()))), n(resid || art == null ? "" : stars(art.p()))));
        }
        b.append(Html.table(List.of("term", "df", "SS", "MS", "F", "p", "ART F", "ART p"), rows))
                .append("<p class=\"sub\">").append(SIGNIFICANCE_CODES).append("</p>\n");
        a.anova().warnings().forEach(w -> b.append("<p class=\"warnings\">").append(esc(w)).append("</p>\n"));
        if (!a.contrasts().isEmpty()) {
            List<List<String>> cr = contrastRows(a.factor(), a.contrasts());
            b.append("<details><summary>Pairwise contrasts per ").append(esc(a.factor())).append(" (Holm-adjusted)</summary>")
                    .append(Html.table(List.of(a.factor(), "contrast", "estimate", "SE", "t", "df", "p (Holm)"), cr))
                    .append("<p class=\"sub\">").append(SIGNIFICANCE_CODES).append("</p></details>\n");
        }
        if (!a.artContrasts().isEmpty()) {
            List<List<String>> cr = contrastRows(a.factor(), a.artContrasts());
            b.append("<details><summary>ART-C contrasts per ").append(esc(a.factor())).append(" (mean ranks, Tukey-adjusted for ")
                    .append(tukeyFamily(a.artContrasts())).append(" cell means, as study 001)</summary>")
                    .append(Html.table(List.of(a.factor(), "contrast", "rank difference", "SE", "t", "df", "p (Tukey)"), cr))
                    .append("<p class=\"sub\">").append(SIGNIFICANCE_CODES).append("</p></details>\n");
        }
        return b.toString();
    }

    private static String stars(double p) {
        String s = esc(Html.p(p)), c = code(p);
        if (c.isEmpty()) return s;
        if (c.equals(".")) return s + " .";
        return "<span class=\"sig\">" + s + " " + c + "</span>";
    }
}
