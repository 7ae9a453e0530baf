package dev.kensho.report;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.LatencyDistribution;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Stats;
import dev.kensho.core.result.Trial;
import dev.kensho.report.chart.Cells;
import dev.kensho.report.chart.LineChart;
import dev.kensho.report.chart.Point;
import dev.kensho.report.html.Html;
import dev.kensho.report.stats.RankSumTest;
import dev.kensho.report.stats.RatioInterval;
import dev.kensho.report.stats.TwoWayAnova;
import dev.kensho.report.stats.VarianceTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Runs side by side: cells matched by their parameters without the compared dimension (version,
 * target…), the ratio of each group's median to the first group's (the studies' "ratio to the
 * previous version"), Welch's t-test and the Mann–Whitney test over the repeats, and for sweeps a
 * two-way ANOVA group × swept parameter (plain and on aligned ranks), variance tests and pairwise
 * contrasts, as study 001 does.
 *
 * <p>Groups: with one run, the values of the compared dimension inside it; with several runs, each
 * run (split further by the dimension when a run holds several of its values), labelled by the
 * dimension's value or the server version, else by the run's directory.
 */
public final class RunComparison {
    /**
     * @param by         the compared parameter; null picks the first of {@link Charts#VERSION_PARAMS} present
     * @param metrics    metrics to compare and analyse; empty: the run's charted metrics (tps and latency
     *                   for pgbench, the time for ssb and scan), or every metric when none is charted
     * @param allMetrics with empty metrics: ratios for every metric all groups have (analyses stay on
     *                   the charted ones)
     * @param baseline   the by value whose group the others are compared with (null: the first run's first value)
     */
    public record Options(String by, List<String> metrics, boolean allMetrics, String baseline) {
        public Options {
            metrics = metrics == null ? List.of() : List.copyOf(metrics);
        }

        public Options(String by, List<String> metrics, boolean allMetrics) {
            this(by, metrics, allMetrics, null);
        }

        public Options(String by, List<String> metrics) {
            this(by, metrics, false);
        }

        public static Options defaults() {
            return new Options(null, List.of(), false);
        }
    }

    /** A compared group: a run (index into the inputs) and the compared dimension's value in it. */
    public record Group(String label, int run, Object value) {}

    /** The significance level of the verdicts. */
    public static final double ALPHA = 0.05;

    /** Which way a metric is better, read from its name; UNKNOWN gets no verdict of better or worse. */
    public enum Better {
        HIGHER, LOWER, UNKNOWN;

        public static Better of(String metric) {
            String m = metric.toLowerCase(Locale.ROOT);
            // tps_cv_pct is how steady tps was, not throughput: no opinion
            if (m.contains("_cv")) return UNKNOWN;
            if (m.equals("tps") || m.endsWith("_tps") || m.contains("per_second") || m.endsWith("_per_s")) return HIGHER;
            if (m.startsWith("latency") || m.startsWith("lag_") || m.equals("ms") || m.endsWith("_ms") || m.endsWith("_s")
                    || m.contains("seconds") || m.contains("time")) return LOWER;
            // pgbench's counters of transactions that failed, were retried, skipped or late for --rate
            if (m.equals("failed") || m.contains("failure") || m.contains("error") || m.equals("retries") || m.equals("retried")
                    || m.equals("skipped") || m.equals("late")) return LOWER;
            return UNKNOWN;
        }

        String text() {
            return this == HIGHER ? "higher is better" : this == LOWER ? "lower is better" : "no better direction known";
        }
    }

    /**
     * One matched cell and metric: the group against the baseline (first group). verdict: better, worse
     * (higher or lower when the metric has no better direction), no significant difference (Welch's p,
     * Holm-adjusted over the metric's cells of this group, at {@link #ALPHA}), or not testable.
     */
    public record Row(String cell, Map<String, Object> params, String metric, String baseline, String group,
                      double baselineMedian, double median, double ratio, int baselineN, int n, double welchP,
                      double welchHolmP, double mannWhitneyP, String verdict, double ratioLow, double ratioHigh) {
        /**
         * The 95 % confidence interval of the ratio of the means (group / baseline), Fieller's, with Welch's degrees of
         * freedom: it leaves out 1 exactly where Welch's p (before Holm) is below 0.05. Per cell, not adjusted for the
         * other cells. "–" where a side has one value or no variance; where the baseline's mean is not clearly away
         * from 0, two rays ("≤ −3.70 or ≥ 1.91", ratioLow above ratioHigh, see {@link RatioInterval#fieller}) or "unbounded".
         */
        public String intervalText() {
            if (Double.isNaN(ratioLow)) return "–";
            if (ratioLow > ratioHigh) return "≤ " + Html.ratio(ratioHigh) + " or ≥ " + Html.ratio(ratioLow);
            if (Double.isInfinite(ratioHigh)) return "unbounded";
            return "[" + Html.ratio(ratioLow) + ".." + Html.ratio(ratioHigh) + "]";
        }

        /**
         * compare.csv's word for the interval's shape: "interval" ([low..high]), "two_rays" (up to high and from low on:
         * low is above high), "unbounded", or "" where there is none. A spreadsheet read "two rays" as a negative range.
         */
        public String intervalShape() {
            if (Double.isNaN(ratioLow)) return "";
            if (ratioLow > ratioHigh) return "two_rays";
            return Double.isInfinite(ratioHigh) ? "unbounded" : "interval";
        }

        /** Whether the interval holds this ratio (1: no difference). */
        public boolean intervalHolds(double r) {
            if (Double.isNaN(ratioLow)) return false;
            return ratioLow > ratioHigh ? r <= ratioHigh || r >= ratioLow : ratioLow <= r && r <= ratioHigh;
        }

        /** Welch's p, or why there is none: with one value in a group there is no variance to test against. */
        public String welchText() {
            return pText(welchP);
        }

        /** Welch's p after Holm's adjustment over the metric's cells: the one the verdict reads. */
        public String holmText() {
            return pText(welchHolmP);
        }

        private String pText(double p) {
            if (Math.min(baselineN, n) < 2) return "not testable (n=" + Math.min(baselineN, n) + ")";
            return Double.isNaN(p) ? "not testable (no variance)" : Html.p(p);
        }

        boolean mannWhitneyTestable() {
            return Math.min(baselineN, n) >= 2 && RankSumTest.smallestP(baselineN, n) <= ALPHA;
        }

        /** Mann–Whitney's p, unless even the most extreme ranking of these few values could not reach α. */
        public String mannWhitneyText() {
            if (Math.min(baselineN, n) < 2) return "not testable (n=" + Math.min(baselineN, n) + ")";
            return RankSumTest.smallestP(baselineN, n) > ALPHA ? "not testable (n=" + baselineN + "/" + n + ")" : Html.p(mannWhitneyP);
        }
    }

    private static String verdict(double[] a, double[] b, double welchP, Better better) {
        if (Math.min(a.length, b.length) < 2) return "not testable (n=" + Math.min(a.length, b.length) + ")";
        if (Double.isNaN(welchP)) return "not testable (no variance)";
        if (welchP >= ALPHA) return "no significant difference";
        // the t-test compares means, the ratio medians: an outlier can turn one against the other, and then
        // neither direction is the verdict's to give
        boolean up = StatUtils.mean(b) > StatUtils.mean(a);
        double ma = StatUtils.percentile(a, 50), mb = StatUtils.percentile(b, 50);
        if (mb != ma && (mb > ma) != up) return "no clear direction (means and medians disagree)";
        return switch (better) {
            case HIGHER -> up ? "better" : "worse";
            case LOWER -> up ? "worse" : "better";
            case UNKNOWN -> up ? "higher" : "lower";
        };
    }

    /** Percentiles of {@link LatencyRow}. */
    public static final double[] PERCENTILES = {50, 90, 99, 99.9};

    /**
     * A matched cell's latency over every transaction of its repeats (their histograms merged), in the
     * group and the baseline, in ms at {@link #PERCENTILES}: the tail as the runs had it, not a median of
     * the repeats' percentiles.
     */
    public record LatencyRow(String cell, String baseline, String group, long baselineCount, long count,
                             List<Double> baselineMs, List<Double> ms) {}

    /**
     * Two-way analysis of one metric over group × the swept parameter, within one combination of the others.
     * contrasts: cell means, Holm-adjusted; artContrasts: study 001's ART-C contrasts, Tukey-adjusted. The variance
     * tests take the varianceCells of the design's cells that have 2 or more values (one value has no spread; R's
     * leveneTest would count it as a group whose deviation is 0, bartlett.test refuses it).
     */
    public record Analysis(String metric, String factor, String scope, TwoWayAnova.Table anova, TwoWayAnova.Table art,
                           VarianceTest.Result levene, VarianceTest.Result bartlett, List<TwoWayAnova.Contrast> contrasts,
                           List<TwoWayAnova.Contrast> artContrasts, int varianceCells, int cells) {}

    private final List<RunResults> runs;
    private final String by;
    private final List<Group> groups = new ArrayList<>();
    private final List<String> keyParams = new ArrayList<>();
    private final Map<String, Map<String, Object>> keys = new TreeMap<>();
    /** Cells no group finished ok (every repeat of every group failed or was skipped): named, and their parameters label the others. */
    private final Map<String, Map<String, Object>> notOkEverywhere = new TreeMap<>();
    private final Map<Group, Map<String, List<Trial>>> cells = new LinkedHashMap<>();
    private final List<String> metrics;
    private final List<String> analysed;
    private final List<Row> rows = new ArrayList<>();
    private final List<LatencyRow> latencyRows = new ArrayList<>();
    private final List<Analysis> analyses = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    /** Cells the baseline finished ok that a compared group failed in every repeat: "group cell (reason)", for the gate. */
    private final List<String> failedOnlyInGroup = new ArrayList<>();
    /** What was left out of the comparison and why (not a problem of the runs, unlike a warning). */
    private final List<String> notes = new ArrayList<>();
    private String factor;

    /**
     * Compares runs read with {@link dev.kensho.core.result.RunDirectory#read}, as {@code bench compare} does: by the
     * version (or the first compared parameter present), against the first run's.
     *
     * @throws dev.kensho.core.KenshoException a usage one where no run is given or one holds no trials
     */
    public static RunComparison of(List<RunResults> runs) {
        return of(runs, Options.defaults());
    }

    /** As {@link #of(List)}, compared by, on and against what options say. */
    public static RunComparison of(List<RunResults> runs, Options options) {
        if (runs.isEmpty()) throw KenshoException.usage("compare: no results directories given");
        for (RunResults r : runs) {
            // its run.json alone made the first run's header (every metric the others had) and left it out unsaid
            if (r.trials().isEmpty()) {
                throw KenshoException.usage("compare: " + r.directory() + " has no finished trial (" + dev.kensho.core.result.RunDirectory
                        .failedBeforeFirstTrial(r.info()).map(why -> "the run failed before its first: " + why).orElse("the run stopped before its first") + ")");
            }
            // left out, it left one group and the error asked for the two directories it was given
            if (r.trials().stream().noneMatch(Trial::ok)) {
                Trial last = r.trials().get(r.trials().size() - 1);
                String counts = r.trials().stream().collect(Collectors.groupingBy(Trial::status, java.util.TreeMap::new, Collectors.counting()))
                        .entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
                throw KenshoException.usage("compare: " + r.directory() + " has no trial that finished ok (" + counts + "; the last: "
                        + last.extra().getOrDefault("reason", last.status()) + ")");
            }
        }
        return new RunComparison(runs, options);
    }

    private RunComparison(List<RunResults> runs, Options options) {
        this.runs = List.copyOf(runs);
        // cells of a pgbench init and of a query share no parameters: nothing would match, the header would be nonsense
        List<String> commands = runs.stream().map(r -> String.valueOf(r.info().command())).distinct().toList();
        if (commands.size() > 1) {
            throw KenshoException.usage("compare: the runs are of different commands (" + String.join(", ", commands)
                    + "); compare runs of one command");
        }
        if (runs.size() > 1) notes.addAll(RunDifferences.of(this.runs));
        // what report says of a run cut short, compare says too: a median of 1 of 3 repeats compared as one of 3
        for (RunResults r : runs) HtmlReport.unfinished(r).ifPresent(u -> warnings.add(r.directory().getFileName() + ": " + u));
        Set<String> seen = new java.util.HashSet<>();
        Map<List<dev.kensho.core.result.Trial>, RunResults> byTrials = new java.util.HashMap<>();
        for (RunResults r : runs) {
            // a link to it, or a path spelled otherwise, is the same run too
            Path same = r.directory().toAbsolutePath().normalize();
            try {
                same = r.directory().toRealPath();
            } catch (java.io.IOException | RuntimeException e) {
                // as given
            }
            if (!seen.add(same.toString())) {
                warnings.add(r.directory().getFileName() + " is given twice: it is compared with itself");
            } else if (!r.trials().isEmpty() && byTrials.putIfAbsent(r.trials(), r) != null) {
                // a copy (cp -r): the same trials to the last timestamp, which no second run measures
                warnings.add(r.directory().getFileName() + " holds the very trials of " + byTrials.get(r.trials()).directory().getFileName()
                        + " (a copy?): it is compared with itself");
            }
        }
        Set<String> params = new LinkedHashSet<>();
        runs.forEach(r -> r.trials().forEach(t -> params.addAll(t.params().keySet())));
        this.by = options.by() != null ? options.by()
                : Charts.VERSION_PARAMS.stream().filter(params::contains).findFirst().orElse(null);
        if (options.by() != null && !params.contains(options.by())) {
            throw KenshoException.usage("compare: no trial has the parameter '" + options.by() + "' (parameters: " + params + ")");
        }
        List<List<Trial>> kept = new ArrayList<>();
        List<List<Trial>> notOk = new ArrayList<>();
        Set<String> without = new java.util.TreeSet<>();
        for (RunResults r : runs) {
            // an SSB run's load (step=load) has no workers: split off, it made a group of its own with nothing to compare
            boolean splits = by != null && r.trials().stream().anyMatch(t -> t.params().containsKey(by));
            List<Trial> ts = new ArrayList<>();
            List<Trial> failed = new ArrayList<>();
            for (Trial t : r.trials()) {
                if (!t.ok()) {
                    if (!splits || t.params().containsKey(by)) failed.add(t);
                    continue;
                }
                if (splits && !t.params().containsKey(by)) without.add(t.cell());
                else ts.add(t);
            }
            kept.add(ts);
            notOk.add(failed);
        }
        if (!without.isEmpty()) {
            notes.add("left out, without " + by + ": " + String.join(", ", without));
        }
        Set<String> compared = new LinkedHashSet<>();
        kept.forEach(ts -> ts.forEach(t -> compared.addAll(t.params().keySet())));
        compared.stream().filter(p -> !p.equals(by)).forEach(keyParams::add);
        // a parameter that names the by value one to one (micro's query "encoding SJIS" beside client_encoding SJIS, ssb's
        // version 18 beside target embedded-18)
        // is a label of the group, not a cell: kept in the key, no cell of one group would match another's
        List<String> labels = keyParams.stream().filter(p -> followsBy(kept, p)).toList();
        if (!labels.isEmpty()) {
            keyParams.removeAll(labels);
            notes.add("matched without " + String.join(", ", labels) + " (one value per " + by + ")");
        }
        buildGroups(kept);
        if (options.baseline() != null) {
            Group base = groups.stream().filter(g -> g.value() != null && Cells.text(g.value()).equals(options.baseline())).findFirst()
                    .orElseThrow(() -> KenshoException.usage("--baseline " + options.baseline() + ": no group has it (the groups: "
                            + groups.stream().map(Group::label).toList() + ")"));
            groups.remove(base);
            groups.add(0, base);
        }
        if (groups.size() < 2) {
            // a sweep of 16 and 17 whose 17 failed every trial: by did vary, and the way out named was no way out
            Map<Object, Trial> failedOnly = new LinkedHashMap<>();
            for (List<Trial> ts : notOk) {
                for (Trial t : ts) {
                    Object v = by == null ? null : Cells.normal(t.params().get(by));
                    if (v != null && groups.stream().noneMatch(g -> Objects.equals(g.value(), v))) failedOnly.put(v, t);
                }
            }
            String why = failedOnly.entrySet().stream().map(e -> "every trial of " + by + " " + Cells.text(e.getKey()) + " "
                    + e.getValue().status() + " (the last: " + e.getValue().extra().getOrDefault("reason", "") + ")")
                    .collect(Collectors.joining("; "));
            throw KenshoException.usage("compare: only one group to compare (" + (groups.isEmpty() ? "no ok trials" : groups.get(0).label())
                    + "); " + (why.isEmpty() ? "give two results directories or --by a parameter that varies" : why));
        }
        Set<String> common = null;
        for (Group g : groups) {
            Set<String> ms = new LinkedHashSet<>();
            cells.get(g).values().forEach(ts -> ts.forEach(t -> ms.addAll(numericMetrics(t))));
            if (common == null) common = ms;
            else common.retainAll(ms);
        }
        List<String> charted = charted(runs.get(0), kept.get(0)).stream().filter(common::contains).toList();
        if (!options.metrics().isEmpty()) {
            this.metrics = options.metrics();
            this.analysed = metrics;
        } else {
            List<String> offered = options.allMetrics() || charted.isEmpty() ? new ArrayList<>(common) : charted;
            // pgbench's failure counters are 0 in a healthy run: eight rows of 0 vs 0 said nothing
            List<String> zero = offered.stream().filter(this::zeroEverywhere).toList();
            boolean drop = !zero.isEmpty() && zero.size() < offered.size();
            this.metrics = drop ? offered.stream().filter(m -> !zero.contains(m)).toList() : offered;
            if (drop) notes.add("not compared, 0 in every cell of every group: " + String.join(", ", zero));
            this.analysed = charted.isEmpty() ? metrics.subList(0, Math.min(1, metrics.size())) : charted;
        }
        for (String m : metrics) {
            if (common.contains(m)) continue;
            // which group lacks it, and for pgbench's late and skipped why (a run without -L counts neither)
            List<String> lacking = groups.stream().filter(g -> cells.get(g).values().stream().flatMap(List::stream)
                    .noneMatch(t -> t.metric(m) != null)).map(Group::label).toList();
            warnings.add("metric " + m + " is in no trial of " + (lacking.isEmpty() ? "some cells of some groups" : String.join(", ", lacking))
                    + (List.of("late", "skipped").contains(m) ? " (pgbench runs record it only with " + (m.equals("late") ? "-L" : "-R and -L")
                    + ", and Kensho before its 2026-11-30 builds"
                    + " wrote 0 where it counted nothing)" : ""));
        }
        leaveOutUnmeasured();
        this.factor = factor();
        sayUnmatched(notOk);
        compare();
        compareLatency();
        analyse();
    }

    /**
     * Cells in which no group measured a compared metric (an SSB run's load, beside its queries' seconds) have nothing
     * to compare; kept, such a cell lacks the swept parameter, which took the chart away and gave the analyses a scope
     * without data ("no ANOVA").
     */
    private void leaveOutUnmeasured() {
        Set<String> left = new java.util.TreeSet<>();
        for (String key : new ArrayList<>(keys.keySet())) {
            if (groups.stream().anyMatch(g -> metrics.stream().anyMatch(m -> values(g, key, m).length > 0))) continue;
            keys.remove(key);
            for (Map<String, List<Trial>> byKey : cells.values()) {
                List<Trial> ts = byKey.remove(key);
                if (ts != null) ts.forEach(t -> left.add(t.cell()));
            }
        }
        if (left.isEmpty()) return;
        keyParams.removeIf(p -> keys.values().stream().noneMatch(k -> k.containsKey(p)));
        notes.add("left out, none of " + String.join(", ", metrics) + " measured: " + String.join(", ", left));
    }

    /**
     * Cells one group measured and the baseline did not, or the other way round, have no row: the ratio table and its
     * geometric mean silently stood on fewer cells. Where the group's repeats of the cell all failed (a version that
     * refuses 256 clients) that is a warning with the reason; where its run did not have the cell, a note.
     */
    private void sayUnmatched(List<List<Trial>> notOk) {
        // a cell that failed in every group had no row and no word: the table went on without it ("all" for the one left)
        Map<String, Trial> lastNotOk = new LinkedHashMap<>();
        for (List<Trial> ts : notOk) {
            for (Trial t : ts) {
                Map<String, Object> k = new LinkedHashMap<>();
                for (String p : keyParams) if (t.params().containsKey(p)) k.put(p, Cells.normal(t.params().get(p)));
                String key = keyText(k);
                if (keys.containsKey(key)) continue;
                notOkEverywhere.putIfAbsent(key, k);
                lastNotOk.put(key, t);
            }
        }
        for (var e : lastNotOk.entrySet()) {
            Map<String, Object> k = notOkEverywhere.get(e.getKey());
            String label = k.entrySet().stream().filter(p -> varies(p.getKey())).filter(p -> !followsAnother(p.getKey()))
                    .map(p -> p.getKey() + "=" + Cells.text(p.getValue())).collect(Collectors.joining(", "));
            warnings.add((label.isEmpty() ? e.getKey() : label) + " not compared: no group finished a repeat of it ok (the last "
                    + e.getValue().status() + ": " + e.getValue().extra().getOrDefault("reason", "") + ")");
        }
        Group base = groups.get(0);
        List<String> order = orderedKeys();
        for (Group g : groups.subList(1, groups.size())) {
            Set<String> shared = new LinkedHashSet<>(cells.get(g).keySet());
            shared.retainAll(cells.get(base).keySet());
            if (shared.isEmpty()) continue;   // the warning that no cell matches names the parameter that differs
            List<String> onlyBase = new ArrayList<>(), onlyGroup = new ArrayList<>();
            for (String key : order) {
                boolean inBase = cells.get(base).containsKey(key), inGroup = cells.get(g).containsKey(key);
                if (inBase == inGroup) continue;
                Group lacking = inBase ? g : base;
                Trial failed = notOkIn(lacking, key, notOk);
                if (failed != null) {
                    warnings.add(cellLabel(key) + " not compared: every repeat of " + lacking.label() + " " + failed.status() + ": "
                            + failed.extra().getOrDefault("reason", ""));
                    // the worst change there is (the baseline ran it, the candidate errors every time): a gate must see it;
                    // a skipped cell (a pattern the server cannot hold) is no failure
                    if (inBase && "failed".equals(failed.status())) {
                        failedOnlyInGroup.add(g.label() + " " + cellLabel(key) + " (" + failed.extra().getOrDefault("reason", "") + ")");
                    }
                } else {
                    (inBase ? onlyBase : onlyGroup).add(cellLabel(key));
                }
            }
            List<String> parts = new ArrayList<>();
            // both groups named: with three or more, "only in the baseline" was said of a cell the third group had too
            if (!onlyBase.isEmpty()) parts.add("in " + base.label() + " but not in " + g.label() + ": " + String.join("; ", onlyBase));
            if (!onlyGroup.isEmpty()) parts.add("in " + g.label() + " but not in " + base.label() + ": " + String.join("; ", onlyGroup));
            if (!parts.isEmpty()) notes.add("not compared, " + String.join(", ", parts));
        }
    }

    /** The last of g's trials in the cell that did not finish ok, or null. */
    private Trial notOkIn(Group g, String key, List<List<Trial>> notOk) {
        Trial last = null;
        for (Trial t : notOk.get(g.run())) {
            Object v = by == null ? null : Cells.normal(t.params().get(by));
            if (!Objects.equals(v, g.value())) continue;
            Map<String, Object> k = new LinkedHashMap<>();
            for (String p : keyParams) if (t.params().containsKey(p)) k.put(p, Cells.normal(t.params().get(p)));
            if (keyText(k).equals(key)) last = t;
        }
        return last;
    }

    /**
     * The metrics the run's report charts; a single pgbench run charts none (one point per line), so its
     * tps and latency, else the time, as for the sweeps.
     */
    private static List<String> charted(RunResults run, List<Trial> trials) {
        Cells cells = new Cells(trials);
        String command = run.info().command() == null ? "" : run.info().command().trim();
        // ssb, scan, query and micro compare the time, as the help says: the report may also chart a query's rows or
        // bytes where they change with a parameter, which say what it returned, not how fast
        java.util.Optional<String> time = Charts.timeMetric(cells);
        if (!command.startsWith("pgbench") && time.isPresent()) return List.of(time.get());
        List<String> out = Charts.defaults(run).stream().map(ChartSpec::metric).distinct().toList();
        if (!out.isEmpty()) return out;
        List<String> tps = java.util.stream.Stream.of(Charts.metric(cells, "tps"), Charts.latencyMetric(cells))
                .flatMap(java.util.Optional::stream).toList();
        return tps.isEmpty() ? Charts.timeMetric(cells).stream().toList() : tps;
    }

    private boolean zeroEverywhere(String metric) {
        return cells.values().stream().flatMap(byKey -> byKey.values().stream()).flatMap(List::stream)
                .map(t -> t.metric(metric)).filter(Objects::nonNull).allMatch(v -> v == 0);
    }

    private void compareLatency() {
        Group base = groups.get(0);
        for (String key : orderedKeys()) {
            List<Trial> aTrials = cells.get(base).getOrDefault(key, List.of());
            Histogram a = LatencyDistribution.merged(aTrials);
            if (a == null) continue;
            for (Group g : groups.subList(1, groups.size())) {
                List<Trial> bTrials = cells.get(g).getOrDefault(key, List.of());
                Histogram b = LatencyDistribution.merged(bTrials);
                if (b == null) continue;
                latencyRows.add(new LatencyRow(cellLabel(key), base.label(), g.label(), a.getTotalCount(), b.getTotalCount(),
                        percentiles(a, aTrials), percentiles(b, bTrials)));
            }
        }
    }

    private static List<Double> percentiles(Histogram h, List<Trial> trials) {
        double max = LatencyDistribution.maxMs(trials, h);
        List<Double> out = new ArrayList<>();
        for (double p : PERCENTILES) out.add(LatencyDistribution.percentileMs(h, p, max));
        return out;
    }

    public List<LatencyRow> latencyRows() {
        return latencyRows;
    }

    private static List<String> numericMetrics(Trial t) {
        return t.metrics().entrySet().stream().filter(e -> e.getValue() instanceof Number).map(Map.Entry::getKey).toList();
    }

    /** Whether p and by determine each other in every trial that has both, over at least two values of by. */
    private boolean followsBy(List<List<Trial>> kept, String p) {
        if (by == null) return false;
        Map<Object, Object> pOfBy = new LinkedHashMap<>(), byOfP = new LinkedHashMap<>();
        for (List<Trial> ts : kept) {
            for (Trial t : ts) {
                if (!t.params().containsKey(by) || !t.params().containsKey(p)) continue;
                Object b = Cells.normal(t.params().get(by)), v = Cells.normal(t.params().get(p));
                if (!Objects.equals(pOfBy.computeIfAbsent(b, x -> v), v) || !Objects.equals(byOfP.computeIfAbsent(v, x -> b), b)) return false;
                // and names it: a workload that merely differs with the target (a select-only sweep on one, tpcb-like on
                // the other) is no label, or their TPS were compared as one cell's
                if (!names(Cells.text(b), Cells.text(v))) return false;
            }
        }
        return pOfBy.size() >= 2;
    }

    /**
     * Whether one value is the other or a run of its words (18 in embedded-18, SJIS in "encoding SJIS", remote db:5432/x in
     * "15 remote db:5432/x"). Words, not characters: clients 2 and 4 were "in" remote 127.0.0.1:5432/kx_a, so two runs of
     * other client counts on two hosts were compared as one cell, and a CI gate passed.
     */
    static boolean names(String a, String b) {
        List<String> x = words(a), y = words(b);
        return !x.isEmpty() && !y.isEmpty() && (java.util.Collections.indexOfSubList(x, y) >= 0 || java.util.Collections.indexOfSubList(y, x) >= 0);
    }

    /** A label's words: split where a host, port, path or name part ends (127.0.0.1 and 16.10 stay whole). */
    private static List<String> words(String s) {
        return java.util.Arrays.stream(s.toLowerCase(java.util.Locale.ROOT).split("[\\s/:@,;=()\\[\\]-]+")).filter(w -> !w.isEmpty()).toList();
    }

    private void buildGroups(List<List<Trial>> kept) {
        Map<List<Object>, Map<String, List<Trial>>> raw = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            for (Trial t : kept.get(i)) {
                Object v = by == null ? null : Cells.normal(t.params().get(by));
                Map<String, Object> key = new LinkedHashMap<>();
                for (String p : keyParams) if (t.params().containsKey(p)) key.put(p, Cells.normal(t.params().get(p)));
                String k = keyText(key);
                keys.putIfAbsent(k, key);
                raw.computeIfAbsent(java.util.Arrays.asList(i, v), x -> new LinkedHashMap<>())
                        .computeIfAbsent(k, x -> new ArrayList<>()).add(t);
            }
        }
        List<List<Object>> ids = new ArrayList<>(raw.keySet());
        // within a run, its groups in the order its command gave them (run.json's planned cells), so that the default
        // baseline is "the first run's first value": sorted, --pg-version 9.6,10,11 compared with 10, and micro's
        // none,SJIS with SJIS (study 002's ratio inverted); runs that planned none keep the natural order
        List<Map<String, Integer>> given = new ArrayList<>();
        for (RunResults r : runs) given.add(byValuesAsGiven(r, by));
        ids.sort((a, b) -> {
            int c = Integer.compare((Integer) a.get(0), (Integer) b.get(0));
            if (c != 0) return c;
            Map<String, Integer> pos = given.get((Integer) a.get(0));
            Integer pa = a.get(1) == null ? null : pos.get(Cells.text(a.get(1))), pb = b.get(1) == null ? null : pos.get(Cells.text(b.get(1)));
            if (pa != null && pb != null) return Integer.compare(pa, pb);
            if (pa != null || pb != null) return pa != null ? -1 : 1;
            return Cells.ORDER.compare(Objects.requireNonNullElse(a.get(1), ""), Objects.requireNonNullElse(b.get(1), ""));
        });
        List<String> labels = new ArrayList<>();
        for (List<Object> id : ids) {
            int run = (Integer) id.get(0);
            labels.add(id.get(1) != null ? Cells.text(id.get(1)) : serverVersion(runs.get(run)));
        }
        boolean unique = labels.stream().noneMatch(Objects::isNull) && new LinkedHashSet<>(labels).size() == labels.size();
        for (int i = 0; i < ids.size(); i++) {
            int run = (Integer) ids.get(i).get(0);
            // run directories are 30-character timestamps: a letter per run heads the columns, the legend names the directory
            String label = unique ? labels.get(i) : runLetter(run) + (ids.get(i).get(1) == null ? "" : "/" + Cells.text(ids.get(i).get(1)));
            Group g = new Group(label, run, ids.get(i).get(1));
            groups.add(g);
            cells.put(g, raw.get(ids.get(i)));
        }
    }

    /** The by parameter's values in the order of the run's planned cells ("version=9.6;query=q2.1" ...): value text → position. */
    private static Map<String, Integer> byValuesAsGiven(RunResults r, String by) {
        Map<String, Integer> pos = new LinkedHashMap<>();
        if (by == null || !(r.info().parameters().get(dev.kensho.core.result.RunDirectory.PLANNED_CELLS) instanceof List<?> cells)) return pos;
        // a parameter the keys do not hold (ssb's target beside its version) is read off the trials of each planned cell:
        // otherwise the sorted order's first value was the baseline, and compare --by target inverted every ratio
        Map<String, Map<String, Object>> paramsOf = new LinkedHashMap<>();
        for (Trial t : r.trials()) if (t.params() != null) paramsOf.putIfAbsent(t.cell(), t.params());
        for (Object cell : cells) {
            Map<String, Object> p = paramsOf.get(String.valueOf(cell));
            if (p != null && p.containsKey(by)) {
                pos.putIfAbsent(Cells.text(Cells.normal(p.get(by))), pos.size());
                continue;
            }
            for (String part : String.valueOf(cell).split(";")) {
                int eq = part.indexOf('=');
                if (eq > 0 && part.substring(0, eq).equals(by)) pos.putIfAbsent(part.substring(eq + 1), pos.size());
            }
        }
        return pos;
    }

    static String runLetter(int run) {
        return run < 26 ? String.valueOf((char) ('A' + run)) : "R" + (run + 1);
    }

    /** The server version the run recorded, when it recorded exactly one. */
    private static String serverVersion(RunResults run) {
        Set<String> versions = new LinkedHashSet<>();
        if (run.info().environment() == null) return null;
        for (Object v : run.info().environment().values()) {
            if (v instanceof Map<?, ?> m && m.get("server") instanceof Map<?, ?> s && s.get("server_version") != null) {
                versions.add(String.valueOf(s.get("server_version")));
            }
        }
        return versions.size() == 1 ? versions.iterator().next() : null;
    }

    private String keyText(Map<String, Object> key) {
        return key.entrySet().stream().map(e -> e.getKey() + "=" + Cells.text(e.getValue())).collect(Collectors.joining(", "));
    }

    /** A cell's name for tables: only the parameters that differ between cells ("clients=16"). */
    private String cellLabel(String key) {
        Map<String, Object> k = keys.get(key);
        String s = k.entrySet().stream().filter(e -> varies(e.getKey())).filter(e -> !followsAnother(e.getKey()))
                .map(e -> e.getKey() + "=" + Cells.text(e.getValue())).collect(Collectors.joining(", "));
        return s.isEmpty() ? "all" : s;
    }

    private boolean varies(String param) {
        return java.util.stream.Stream.concat(keys.values().stream(), notOkEverywhere.values().stream())
                .map(x -> x.get(param)).distinct().count() > 1;
    }

    private double[] values(Group g, String key, String metric) {
        List<Trial> ts = cells.get(g).getOrDefault(key, List.of());
        // sorted: the tests' sums then do not depend on the order the trials ran or were written in (a shuffled
        // trials.jsonl, a resumed run) down to the last bit of welch_p in compare.csv
        return ts.stream().map(t -> t.metric(metric)).filter(Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
    }

    private List<String> orderedKeys() {
        List<String> ks = new ArrayList<>(keys.keySet());
        // named values as the first run's command gave them (jit=on,off), as its report shows them; numbers numerically
        if (given == null) given = new Cells(runs.get(0).trials(), Cells.planned(runs.get(0)));
        ks.sort((a, b) -> {
            List<String> names = new ArrayList<>(keys.get(a).keySet());
            for (String n : names) {
                Object x = keys.get(a).get(n), y = keys.get(b).get(n);
                if (x == null || y == null) continue;
                int c = given.order(n).compare(x, y);
                if (c != 0) return c;
            }
            return Cells.LIST_ORDER.compare(new ArrayList<>(keys.get(a).values()), new ArrayList<>(keys.get(b).values()));
        });
        return ks;
    }

    /** The first run's cells, whose order of named values the comparison's rows follow. */
    private Cells given;

    private void compare() {
        Group base = groups.get(0);
        TTest welch = new TTest();
        List<String> order = orderedKeys();
        for (String m : metrics) {
            // the table reads cell by cell, the groups of a cell together
            TreeMap<Integer, List<Row>> byCell = new TreeMap<>();
            for (Group g : groups.subList(1, groups.size())) {
                // one family per metric and group: nine client counts tested at 0.05 each would call about one in
                // three sweeps of two equal versions "better" or "worse" somewhere
                List<Integer> tested = new ArrayList<>();
                List<Double> raw = new ArrayList<>();
                for (int k = 0; k < order.size(); k++) {
                    double[] a = values(base, order.get(k), m), b = values(g, order.get(k), m);
                    if (a.length == 0 || b.length == 0) continue;
                    tested.add(k);
                    boolean spread = a.length >= 2 && b.length >= 2 && (StatUtils.variance(a) > 0 || StatUtils.variance(b) > 0);
                    raw.add(spread ? welch.tTest(a, b) : Double.NaN);
                }
                String unmatched = g.label() + " has no cell that matches one of " + base.label() + "'s" + mismatch(base, g);
                // once, not per metric; and only where no cell matches (a metric one side lacks is said above)
                boolean anyMatch = order.stream().anyMatch(k -> !cells.get(base).getOrDefault(k, List.of()).isEmpty()
                        && !cells.get(g).getOrDefault(k, List.of()).isEmpty());
                if (tested.isEmpty() && !anyMatch && !warnings.contains(unmatched)) warnings.add(unmatched);
                double[] adjusted = TwoWayAnova.holm(raw.stream().filter(x -> !Double.isNaN(x)).mapToDouble(Double::doubleValue).toArray());
                int next = 0;
                for (int i = 0; i < tested.size(); i++) {
                    String key = order.get(tested.get(i));
                    double[] a = values(base, key, m), b = values(g, key, m);
                    double p = raw.get(i), holm = Double.isNaN(p) ? Double.NaN : adjusted[next++];
                    double ma = Stats.median(a), mb = Stats.median(b);
                    double[] ci = RatioInterval.fieller(a, b);
                    byCell.computeIfAbsent(tested.get(i), x -> new ArrayList<>()).add(new Row(cellLabel(key), keys.get(key), m,
                            base.label(), g.label(), ma, mb, mb / ma, a.length, b.length, p, holm, RankSumTest.test(b, a).p(),
                            verdict(a, b, holm, Better.of(m)), ci[0], ci[1]));
                }
            }
            byCell.values().forEach(rows::addAll);
        }
    }

    /** ": duration_s is 3 there, 2 in A" for each parameter whose values in g's cells and base's have none in common. */
    private String mismatch(Group base, Group g) {
        List<String> out = new ArrayList<>();
        for (String p : keyParams) {
            Set<String> a = paramValues(base, p), b = paramValues(g, p);
            if (a.isEmpty() && b.isEmpty() || a.stream().anyMatch(b::contains)) continue;
            out.add(p + " is " + (b.isEmpty() ? "not a parameter" : String.join(", ", b)) + " there, "
                    + (a.isEmpty() ? "not one of " + base.label() + "'s" : String.join(", ", a) + " in " + base.label()));
        }
        if (out.size() == 1 && !out.get(0).contains("not a parameter")) {
            // two runs of one setting each (pgbench run -M simple, then -M prepared): that setting is the comparison
            out.set(0, out.get(0) + " (--by " + out.get(0).substring(0, out.get(0).indexOf(' ')) + " compares them)");
        }
        return out.isEmpty() ? "" : ": " + String.join("; ", out);
    }

    private Set<String> paramValues(Group g, String p) {
        Set<String> out = new java.util.TreeSet<>(Cells.ORDER);
        cells.get(g).keySet().forEach(k -> {
            if (keys.get(k).containsKey(p)) out.add(Cells.text(keys.get(k).get(p)));
        });
        return out;
    }

    /** The swept parameter: "clients" when present, else the numeric key parameter with most values. */
    private String factor() {
        Map<String, Set<Object>> vals = new LinkedHashMap<>();
        keys.values().forEach(k -> k.forEach((p, v) -> vals.computeIfAbsent(p, x -> new LinkedHashSet<>()).add(v)));
        if (vals.containsKey("clients") && vals.get("clients").size() > 1) return "clients";
        return vals.entrySet().stream().filter(e -> e.getValue().size() > 1)
                .filter(e -> e.getValue().stream().allMatch(v -> v instanceof Number))
                .max((x, y) -> Integer.compare(x.getValue().size(), y.getValue().size())).map(Map.Entry::getKey)
                .orElse(vals.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).findFirst().orElse(null));
    }

    private void analyse() {
        String factor = factor();
        if (factor == null) return;
        // parameters that follow the factor (threads = clients/2) are not scopes of their own
        List<String> scopeParams = keyParams.stream().filter(p -> !p.equals(factor))
                .filter(p -> !followsFactor(factor, p)).toList();
        Map<String, List<String>> scopes = new LinkedHashMap<>();
        for (String key : orderedKeys()) {
            Map<String, Object> k = keys.get(key);
            String scope = scopeParams.stream().filter(k::containsKey).filter(this::varies).map(p -> p + "=" + Cells.text(k.get(p)))
                    .collect(Collectors.joining(", "));
            scopes.computeIfAbsent(scope, x -> new ArrayList<>()).add(key);
        }
        for (String m : analysed) {
            // no group met the baseline in a cell: the warning says why, a "no ANOVA" per metric only repeated it
            if (rows.stream().noneMatch(r -> r.metric().equals(m)) && !warnings.isEmpty()) continue;
            for (var scope : scopes.entrySet()) {
                List<TwoWayAnova.Observation> obs = new ArrayList<>();
                List<double[]> cellsOfDesign = new ArrayList<>();
                int cellCount = 0;
                for (Group g : groups) {
                    for (String key : scope.getValue()) {
                        double[] v = values(g, key, m);
                        for (double y : v) obs.add(new TwoWayAnova.Observation(g.label(), keys.get(key).get(factor), y));
                        // the variance tests check the ANOVA's cells: not a level the ANOVA drops because a group lacks it
                        if (groups.stream().anyMatch(o -> values(o, key, m).length == 0)) continue;
                        if (v.length >= 2) cellsOfDesign.add(v);
                        if (v.length > 0) cellCount++;
                    }
                }
                TwoWayAnova.Table anova = TwoWayAnova.fit("group", factor, obs);
                if (anova.terms().isEmpty()) {
                    warnings.add(m + (scope.getKey().isEmpty() ? "" : " (" + scope.getKey() + ")") + ": no ANOVA: "
                            + String.join("; ", anova.warnings()));
                    continue;
                }
                VarianceTest.Result levene = cellsOfDesign.size() >= 2 ? VarianceTest.levene(cellsOfDesign) : null;
                VarianceTest.Result bartlett = cellsOfDesign.size() >= 2 ? VarianceTest.bartlett(cellsOfDesign) : null;
                analyses.add(new Analysis(m, factor, scope.getKey(), anova, TwoWayAnova.alignedRank("group", factor, obs),
                        levene, bartlett, TwoWayAnova.contrasts("group", factor, obs),
                        TwoWayAnova.alignedRankContrasts(obs), cellsOfDesign.size(), cellCount));
            }
        }
    }

    /** threads when clients determines it (and not the other way round). */
    private boolean followsAnother(String p) {
        return keyParams.stream().filter(q -> !q.equals(p) && varies(q))
                .anyMatch(q -> followsFactor(q, p) && (!followsFactor(p, q) || q.equals(factor)));
    }

    private boolean followsFactor(String factor, String p) {
        Map<Object, Set<Object>> seen = new LinkedHashMap<>();
        keys.values().forEach(k -> seen.computeIfAbsent(k.get(factor), x -> new LinkedHashSet<>()).add(k.get(p)));
        return seen.values().stream().allMatch(v -> v.size() == 1);
    }

    public List<Group> groups() {
        return groups;
    }

    /** The compared runs, as given. */
    List<RunResults> runs() {
        return runs;
    }

    /** The parameters the cells are matched by: compare.csv's first columns. */
    List<String> keyParams() {
        return keyParams;
    }

    /** One row per cell, metric and compared group: medians, ratio to the baseline, the tests' verdict (compare.csv). */
    public List<Row> rows() {
        return rows;
    }

    /**
     * The rows a gate fails on (compare's --fail-if-worse --tolerance pct): worse by the tests, or constantly worse (below),
     * and by more than pct percent in the metric's better direction. A Java harness gates on this as the CLI does.
     */
    public List<Row> worseBeyond(double pct) {
        return rows.stream().filter(r -> ("worse".equals(r.verdict()) || constantlyWorse(r)) && beyond(r, pct)).toList();
    }

    /** Whether no row could be tested for want of repeats (runs of one repeat): a gate judged nothing, and is no pass. */
    public boolean untestedForWantOfRepeats() {
        return !rows.isEmpty() && rows.stream().allMatch(r -> r.verdict().startsWith("not testable (n="));
    }

    /**
     * Why a gate (compare's --fail-if-worse --tolerance pct) fails, as the CLI says it; empty where it passes. It fails
     * where nothing was compared, where a cell is worse beyond pct ({@link #worseBeyond}), and where no cell could be
     * tested for want of repeats: a gate that judged nothing is no pass.
     */
    public java.util.Optional<String> gateFailure(double pct) {
        if (rows.isEmpty()) {
            return java.util.Optional.of("nothing compared: " + (warnings.isEmpty() ? "no cell matches one of the baseline's" : warnings.get(0)
                    + (warnings.size() > 1 ? " (and " + (warnings.size() - 1) + " more warning" + (warnings.size() > 2 ? "s" : "") + " above)" : "")));
        }
        List<Row> worse = worseBeyond(pct);
        if (!worse.isEmpty()) {
            String cells = worse.stream().limit(5).map(r -> r.group() + " " + r.cell() + " " + r.metric() + (Double.isNaN(r.ratio())
                    ? " (medians 0 and 0, worse in the mean)" : String.format(Locale.ROOT, " x%.3f", r.ratio())))
                    .collect(java.util.stream.Collectors.joining(", "));
            String tolerance = pct == Math.rint(pct) ? String.valueOf((long) pct) : String.valueOf(pct);
            return java.util.Optional.of(worse.size() + (worse.size() == 1 ? " cell is" : " cells are") + " worse than " + worse.get(0).baseline()
                    + (pct > 0 ? " by more than " + tolerance + " %" : "") + " (--fail-if-worse): " + cells + (worse.size() > 5 ? ", ..." : ""));
        }
        if (!failedOnlyInGroup.isEmpty()) {
            int n = failedOnlyInGroup.size();
            return java.util.Optional.of(n + (n == 1 ? " cell" : " cells") + " that " + groups.get(0).label() + " finished failed in every repeat"
                    + " (--fail-if-worse, whatever the tolerance): " + String.join(", ", failedOnlyInGroup.subList(0, Math.min(5, n)))
                    + (n > 5 ? ", ..." : ""));
        }
        // cells whose every repeat gave one value on each side were judged above: said to need more repeats, they had enough
        if (untestedForWantOfRepeats()) {
            return java.util.Optional.of("--fail-if-worse: no cell could be tested (" + rows.get(0).verdict() + "): run --repeat 2 or more on each side");
        }
        return java.util.Optional.empty();
    }

    /**
     * A cell whose every repeat gave one value on each side (a count such as failed, under -t), the candidate's the worse:
     * no test has a variance to use (Welch's, as R's, is undefined), yet the change is no chance; "not testable" let a
     * gate pass 100 failures every time become 120.
     */
    static boolean constantlyWorse(Row r) {
        if (!r.verdict().equals("not testable (no variance)") || Math.min(r.baselineN(), r.n()) < 2) return false;
        return switch (Better.of(r.metric())) {
            case HIGHER -> r.median() < r.baselineMedian();
            case LOWER -> r.median() > r.baselineMedian();
            case UNKNOWN -> false;
        };
    }

    /**
     * Whether a worse row is worse by more than pct percent, in its metric's better direction. Medians of 0 on both sides
     * (a count of failures whose worse verdict its means gave) have no ratio: any tolerance is passed, as from 0 to more.
     */
    static boolean beyond(Row r, double pct) {
        if (Double.isNaN(r.ratio())) return true;
        return switch (Better.of(r.metric())) {
            case HIGHER -> r.ratio() < 1 - pct / 100;
            case LOWER -> r.ratio() > 1 + pct / 100;
            case UNKNOWN -> false;   // no verdict of worse is given to it
        };
    }

    public List<Analysis> analyses() {
        return analyses;
    }

    public List<String> warnings() {
        return warnings;
    }

    /** The compared metrics, in the order of the tables. */
    public List<String> metrics() {
        return metrics;
    }

    public List<String> notes() {
        return notes;
    }

    public String by() {
        return by;
    }

    /**
     * Geometric mean of the per-cell ratios, per metric and group (the studies' "overall average"): ratios
     * multiply, so ×2 and ×0.5 cancel, and one ×3.5 outlier does not outweigh nine cells 10 % faster as
     * it does in their arithmetic mean.
     */
    public Map<String, Map<String, Double>> geometricMeanRatios() {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (String m : metrics) {
            for (Group g : groups.subList(1, groups.size())) {
                // a group without a matched cell has no mean ratio, and says so in a warning
                if (rows.stream().noneMatch(r -> r.metric().equals(m) && r.group().equals(g.label()))) continue;
                // a ratio of a median of 0, or to one, has no logarithm: such cells stay in the table only
                double mean = rows.stream().filter(r -> r.metric().equals(m) && r.group().equals(g.label()))
                        .mapToDouble(Row::ratio).filter(r -> r > 0 && Double.isFinite(r)).map(Math::log).average().orElse(Double.NaN);
                out.computeIfAbsent(m, x -> new LinkedHashMap<>()).put(g.label(), Math.exp(mean));
            }
        }
        return out;
    }

    /** The console table: one line per matched cell and metric. */
    public String text() {
        return new ComparisonReport(this).text();
    }

    /** compare.csv: one row per matched cell, metric and group. */
    public String csv() {
        return new ComparisonReport(this).csv();
    }

    /** compare.html: the runs compared, then {@link #sections} with charts, the latency table and how each test is read. */
    public String html() {
        return new ComparisonReport(this).html();
    }

    /**
     * The per-metric sections (ratio table, mean ratio, analyses) as an HTML fragment whose headings
     * start at level h; the run report embeds it without charts when a run sweeps versions.
     */
    public String sections(int h, boolean charts) {
        return new ComparisonReport(this).sections(h, charts);
    }

    /** The sections' chart of a metric over the swept parameter, a line per group; null where that is not numeric. */
    Figure chart(String metric) {
        String factor = factor();
        if (factor == null || !keys.values().stream().allMatch(k -> k.get(factor) instanceof Number)) return null;
        Map<String, List<Point>> series = new LinkedHashMap<>();
        List<String> others = keyParams.stream().filter(p -> !p.equals(factor)).filter(p -> !followsFactor(factor, p)).toList();
        for (Group g : groups) {
            for (String key : orderedKeys()) {
                double[] v = values(g, key, metric);
                if (v.length == 0) continue;
                Map<String, Object> k = keys.get(key);
                String label = g.label() + (others.isEmpty() ? "" : " " + Cells.label(k, others.stream().filter(p ->
                        keys.values().stream().map(x -> x.get(p)).distinct().count() > 1).toList()).replace("all", "").trim());
                series.computeIfAbsent(label.trim(), x -> new ArrayList<>())
                        .add(new Point(k.get(factor), Stats.median(v), StatUtils.min(v), StatUtils.max(v), v.length));
            }
        }
        series.values().forEach(ps -> ps.sort((x, y) -> Cells.ORDER.compare(x.x(), y.x())));
        String title = LineChart.title(metric, factor);
        return new Figure(title, LineChart.build(title, factor, metric, series, List.of()), List.of());
    }

    /** Writes compare.html and compare.csv into dir and returns their paths. */
    public List<Path> write(Path dir) {
        return List.of(HtmlReport.writeString(dir.resolve("compare.html"), html()),
                HtmlReport.writeString(dir.resolve("compare.csv"), csv()));
    }
}
