package dev.kensho.report;

import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunResults;
import dev.kensho.report.chart.BarChart;
import dev.kensho.report.chart.Cells;
import dev.kensho.report.chart.Crossover;
import dev.kensho.report.chart.LineChart;
import dev.kensho.report.chart.Point;
import dev.kensho.report.chart.Reduction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Charts of a run. {@link #defaults} picks what the studies chart for the run's command
 * ("pgbench sweep": tps and latency vs clients per version; "ssb": time vs workers, a line per query, per pool and
 * version, or time per query as bars where workers do not vary;
 * "ssb jit": time off/on per query and the reduction rate; "scan": time vs selectivity per scan
 * type and layout with the crossover marked) and falls back to the metric against the numeric
 * parameter that varies most for anything else. {@link #draw} turns a spec into figures.
 */
public final class Charts {
    /** Parameters that name what is being compared across runs and in series. */
    public static final List<String> VERSION_PARAMS = List.of("version", "pg_version", "target", "server_version", "pg");
    private static final List<String> SELECTIVITY = List.of("selectivity", "selectivity_pct", "percent", "pct", "fraction");
    private static final List<String> TIME = List.of("seconds", "time_s", "elapsed_s", "time_ms", "elapsed_ms", "ms",
            "duration_ms", "duration_s");

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {}

    public static List<ChartSpec> defaults(RunResults run) {
        return defaults(run.info().command(), new Cells(run.trials(), Cells.planned(run)));
    }

    static List<ChartSpec> defaults(String command, Cells cells) {
        String cmd = command == null ? "" : command.toLowerCase(Locale.ROOT).replace('-', ' ').trim();
        List<String> varying = new ArrayList<>(cells.varying());
        // threads = clients/2 and the like: follow their x, so they make no series of their own
        for (String x : List.of("clients", "selectivity_pct", "selectivity", "workers")) {
            if (varying.contains(x)) varying.removeAll(cells.determinedBy(x, without(varying, x)));
        }
        List<ChartSpec> out = new ArrayList<>();
        Optional<String> time = timeMetric(cells);
        if (cmd.startsWith("pgbench") && cells.params().contains("clients") && cells.varying().isEmpty()
                && cells.summaries().stream().anyMatch(c -> c.n() > 0)) {
            // one cell (a pgbench run): a line through one point says nothing; its latency distribution and the run
            // second by second (HtmlReport) are its charts
            return out;
        } else if (cmd.startsWith("pgbench") && cells.params().contains("clients")) {
            List<String> series = without(varying, "clients");
            metric(cells, "tps").ifPresent(m -> out.add(titled(ChartSpec.line(m, "clients", series, List.of()),
                    "TPS vs clients")));
            latencyMetric(cells).ifPresent(m -> out.add(titled(ChartSpec.line(m, "clients", series, List.of()),
                    "Latency vs clients")));
            // study 001 also charts the server's CPU and memory per version when they were sampled
            first(cells, List.of("cpu_busy_pct", "cpu_total_pct", "cpu_user_pct"), "cpu")
                    .ifPresent(m -> out.add(titled(ChartSpec.line(m, "clients", series, List.of()),
                            "Server host CPU vs clients (all its processes, a driver there too)")));
            // the server's own processes apart from the rest of the host: on a shared machine the line above is not theirs
            metric(cells, "server_cpu_pct").ifPresent(m -> out.add(titled(ChartSpec.line(m, "clients", series, List.of()),
                    "Server processes' CPU vs clients (% of the host; other programs' is other_cpu_pct)")));
            first(cells, List.of("mem_used_mb", "memory_used_mb", "mem_used_bytes"), "mem")
                    .ifPresent(m -> out.add(titled(ChartSpec.line(m, "clients", series, List.of()),
                            "Server host memory in use vs clients")));
            // the client's own share: where it nears a CPU per driver thread, the sweep measured the client, not the server
            metric(cells, "driver_cpu_pct").ifPresent(m -> out.add(titled(ChartSpec.line(m, "clients", series, List.of()),
                    "Driver CPU vs clients (% of one CPU)")));
        } else if (cmd.startsWith("ssb jit") && cells.params().contains("query") && varying.contains("jit") && time.isPresent()) {
            // one chart per verification (and version…): its queries, jit off and on side by side
            List<String> facets = without(varying, "query", "jit");
            out.add(titled(ChartSpec.bars(time.get(), "query", List.of("jit"), facets), "Time per query, JIT off/on"));
            out.add(new ChartSpec("JIT reduction rate 100·(off − on)/off per query", ChartSpec.Kind.REDUCTION, time.get(),
                    "query", List.of("jit"), facets, false));
        } else if (cmd.startsWith("ssb") && cells.params().contains("query") && time.isPresent() && varying.contains("workers")
                && cells.numeric("workers")) {
            // study 000 ch.7: per pattern (pool) and version, time against workers, a line per query (the speed-up
            // against workers=0 is HtmlReport's table); bars per query and worker count said the same less readably
            out.add(titled(ChartSpec.line(time.get(), "workers", List.of("query"), without(varying, "query", "workers")),
                    "Time vs workers"));
        } else if (cmd.startsWith("ssb") && cells.params().contains("query") && time.isPresent()) {
            // bars per query, a series per version (or whatever else varies)
            List<String> rest = without(varying, "query");
            List<String> series = rest.contains("workers") ? List.of("workers") : rest.isEmpty() ? List.of() : List.of(rest.get(0));
            List<String> facets = without(rest, series.toArray(String[]::new));
            out.add(titled(ChartSpec.bars(time.get(), "query", series, facets), "Time per query"));
        } else if (cmd.startsWith("scan") && selectivity(cells).isPresent() && time.isPresent()) {
            String x = selectivity(cells).get();
            List<String> rest = without(varying, x);
            List<String> series = rest.stream().filter(p -> p.equals("scan") || p.equals("layout") || p.equals("clustering")).toList();
            List<String> facets = without(rest, series.toArray(String[]::new));
            out.add(new ChartSpec("Time vs selectivity", ChartSpec.Kind.LINE, time.get(), x, series, facets,
                    series.contains("scan")));
        } else if (cmd.startsWith("micro") && time.isPresent()) {
            // study 002: bars for the single queries, and time against column position per test, a line per target
            List<String> series = varying.contains("target") ? List.of("target") : List.of();
            if (cells.params().contains("query")) out.add(titled(ChartSpec.bars(time.get(), "query", series, List.of()), "Time per query"));
            if (cells.params().contains("column")) {
                out.add(titled(ChartSpec.line(time.get(), "column", series, List.of("benchmark")), "Time vs column position"));
            }
        }
        if (out.isEmpty()) out.addAll(generic(cells, varying));
        return out;
    }

    private static List<ChartSpec> generic(Cells cells, List<String> varying) {
        Optional<String> x = varying.stream().filter(cells::numeric).filter(p -> cells.values(p).size() >= 3)
                .max(Comparator.comparingInt(p -> cells.values(p).size()));
        // the time first; then only metrics that the measured conditions change: a query's rows or bytes drawn
        // per work_mem are bars of equal height that say what the query returns, not how it ran
        List<String> metrics = new ArrayList<>(cells.metrics());
        timeMetric(cells).ifPresent(t -> { metrics.remove(t); metrics.add(0, t); });
        List<String> moving = metrics.stream().filter(m -> changes(cells, m)).toList();
        List<String> chosen = (moving.isEmpty() ? metrics : moving).stream().limit(4).toList();
        if (chosen.isEmpty()) return List.of();
        List<ChartSpec> out = new ArrayList<>();
        if (x.isPresent()) {
            List<String> series = without(varying, x.get());
            series.removeAll(cells.determinedBy(x.get(), series));
            for (String m : chosen) out.add(ChartSpec.line(m, x.get(), series, List.of()));
        } else if (!varying.isEmpty()) {
            String cat = varying.get(0);
            for (String m : chosen) out.add(ChartSpec.bars(m, cat, without(varying, cat), List.of()));
        }
        return out;
    }

    /** Parameters that say what was measured rather than under which conditions. */
    private static final List<String> IDENTITY = List.of("query", "target", "benchmark");

    /**
     * Whether a metric's median changes with the conditions: between cells of the same query (and target), or, where
     * there are none, between any cells. A query's rows differ from another query's, never with work_mem.
     */
    private static boolean changes(Cells cells, String metric) {
        List<String> identity = IDENTITY.stream().filter(cells.params()::contains).toList();
        for (List<CellSummary> g : cells.groupBy(identity, cells.ok()).values()) {
            if (g.stream().map(c -> c.median().get(metric)).filter(Objects::nonNull).distinct().count() > 1) return true;
        }
        return false;
    }

    /**
     * run.json parameters where a command records what it found rather than what it was asked (bench scan's
     * crossovers as its console words them, with their caveats, and the study's checks): rows of name → value.
     */
    public static final String CROSSOVERS = "crossovers", CHECKS = "checks";

    /** Draws one figure per combination of the spec's facet parameters. */
    public static List<Figure> draw(RunResults run, ChartSpec spec) {
        return draw(new Cells(run.trials(), Cells.planned(run)), spec, recorded(run, CROSSOVERS));
    }

    /** The rows a run recorded under a parameter (see {@link #CROSSOVERS}); none for runs from before. */
    public static List<Map<?, ?>> recorded(RunResults run, String parameter) {
        Object v = run.info().parameters() == null ? null : run.info().parameters().get(parameter);
        if (!(v instanceof List<?> l)) return List.of();
        return l.stream().filter(Map.class::isInstance).<Map<?, ?>>map(m -> (Map<?, ?>) m).toList();
    }

    /** crossovers: as {@link #recorded}; a curve pair they name is described by them, others by the report's own interpolation. */
    static List<Figure> draw(Cells cells, ChartSpec spec, List<Map<?, ?>> crossovers) {
        // a run can hold other kinds of trials too (ssb records its load next to the queries)
        List<CellSummary> ok = cells.ok().stream().filter(c -> c.median().containsKey(spec.metric()))
                .filter(c -> c.params().containsKey(spec.x())).toList();
        // cells where no repeat finished have no point: a line that stops at 2 clients read as a sweep that ended there
        var unmeasured = cells.groupBy(spec.facets(), cells.summaries().stream()
                .filter(c -> c.n() == 0 && c.params().containsKey(spec.x())).toList());
        List<String> pointNames = new ArrayList<>(spec.series());
        pointNames.add(spec.x());
        List<Figure> figures = new ArrayList<>();
        for (var facet : cells.groupBy(spec.facets(), ok).entrySet()) {
            List<CellSummary> scope = facet.getValue();
            String title = spec.title() + (spec.facets().isEmpty() ? "" : " — " + Cells.label(scope.get(0).params(), spec.facets()));
            List<String> notes = new ArrayList<>();
            if (spec.kind() != ChartSpec.Kind.REDUCTION) {
                for (CellSummary c : unmeasured.getOrDefault(facet.getKey(), List.of())) {
                    notes.add("No point for " + Cells.label(c.params(), pointNames) + ": no repeat finished (" + c.status()
                            + "; the reasons are under Skipped and failed)");
                }
            }
            switch (spec.kind()) {
                case LINE -> {
                    Map<String, List<Point>> series = series(cells, scope, spec.series(), spec.x(), spec.metric());
                    List<LineChart.Marker> markers = spec.crossover() ? crossovers(cells, scope, spec, notes, crossovers) : List.of();
                    figures.add(new Figure(title, LineChart.build(title, spec.x(), spec.metric(), series, markers,
                            looks(scope, spec.series())), notes));
                }
                case BAR -> {
                    Map<String, List<Point>> series = series(cells, scope, spec.series(), spec.x(), spec.metric());
                    figures.add(new Figure(title, BarChart.build(title, spec.x(), spec.metric(), series, cells.order(spec.x())), notes));
                }
                case REDUCTION -> {
                    String pair = spec.series().get(0);
                    List<String> others = spec.series().subList(1, spec.series().size());
                    List<Reduction.Row> rows = Reduction.compute(cells, scope, spec.metric(), pair, spec.x(), others);
                    if (rows.isEmpty()) {
                        List<Object> uncompiled = Reduction.uncompiled(cells, scope, pair, spec.x());
                        figures.add(Figure.none(title, !uncompiled.isEmpty() && uncompiled.size() == Cells.distinct(scope, spec.x()).size()
                                ? "no reduction rate: JIT never ran (" + pair + "=on compiled no function in any " + spec.x()
                                        + ": plan cost below jit_above_cost); lower --jit-above-cost"
                                : "no reduction rate: no " + spec.x() + " has both " + pair + " values measured"));
                        continue;
                    }
                    Map<String, List<Point>> series = new LinkedHashMap<>();
                    for (Reduction.Row r : rows) {
                        series.computeIfAbsent(r.series(), k -> new ArrayList<>())
                                .add(new Point(r.category(), r.percent(), r.percent(), r.percent(), 1));
                    }
                    rows.stream().collect(Collectors.groupingBy(Reduction.Row::series, LinkedHashMap::new, Collectors.toList()))
                            .forEach((s, rs) -> notes.add((others.isEmpty() ? "" : s + ": ") + "overall reduction on total time "
                                    + String.format(Locale.ROOT, "%.1f", Reduction.overall(rs)) + " %"));
                    figures.add(new Figure(title, BarChart.build(title, spec.x(), "reduction % (positive = faster with JIT)", series,
                            cells.order(spec.x())), notes));
                }
            }
        }
        return figures;
    }

    /** series label → points sorted by x. */
    static Map<String, List<Point>> series(Cells cells, List<CellSummary> scope, List<String> seriesParams, String x,
                                           String metric) {
        Map<String, List<Point>> out = new LinkedHashMap<>();
        for (var g : cells.groupBy(seriesParams, scope).entrySet()) {
            String label = Cells.label(g.getValue().get(0).params(), seriesParams);
            List<Point> points = new ArrayList<>();
            for (CellSummary c : g.getValue()) {
                points.add(new Point(Cells.param(c, x), c.median().get(metric), c.min().get(metric), c.max().get(metric), c.n()));
            }
            points.sort(Comparator.comparing(Point::x, cells.order(x)));
            out.put(label, points);
        }
        return out;
    }

    /**
     * With two series parameters (layout × scan), one colour per value of the first and a dashed
     * line for every other value of the second, so a layout's two scans read as a pair.
     */
    private static Map<String, LineChart.Look> looks(List<CellSummary> scope, List<String> seriesParams) {
        Map<String, LineChart.Look> looks = new LinkedHashMap<>();
        if (seriesParams.size() != 2) return looks;
        List<Object> first = Cells.distinct(scope, seriesParams.get(0));
        List<Object> second = Cells.distinct(scope, seriesParams.get(1));
        for (CellSummary c : scope) {
            looks.put(Cells.label(c.params(), seriesParams), new LineChart.Look(first.indexOf(Cells.param(c, seriesParams.get(0))),
                    second.indexOf(Cells.param(c, seriesParams.get(1))) % 2 == 1));
        }
        return looks;
    }

    private static List<LineChart.Marker> crossovers(Cells cells, List<CellSummary> scope, ChartSpec spec, List<String> notes,
                                                     List<Map<?, ?>> recorded) {
        List<LineChart.Marker> markers = new ArrayList<>();
        List<Object> scans = Cells.distinct(scope, "scan");
        Object index = scans.stream().filter(v -> Cells.text(v).toLowerCase(Locale.ROOT).contains("index")).findFirst().orElse(null);
        Object full = scans.stream().filter(v -> v != index).findFirst().orElse(null);
        if (index == null || full == null) return markers;
        String unit = spec.x().endsWith("pct") || spec.x().endsWith("percent") ? " %" : "";
        notes.add("Crossover: where the " + Cells.text(index) + " scan becomes slower than the " + Cells.text(full) + " scan ("
                + spec.x() + ")");
        List<String> others = without(spec.series(), "scan");
        for (var g : cells.groupBy(others, scope).entrySet()) {
            List<CellSummary> idx = g.getValue().stream().filter(c -> Cells.param(c, "scan").equals(index)).toList();
            List<CellSummary> seq = g.getValue().stream().filter(c -> Cells.param(c, "scan").equals(full)).toList();
            List<Point> a = series(cells, idx, List.of(), spec.x(), spec.metric()).getOrDefault("all", List.of());
            List<Point> b = series(cells, seq, List.of(), spec.x(), spec.metric()).getOrDefault("all", List.of());
            Crossover.Result r = Crossover.find(a, b, unit);
            String who = others.isEmpty() ? "" : Cells.label(g.getValue().get(0).params(), others) + ": ";
            Map<String, Object> params = g.getValue().get(0).params();
            // the command's own wording where it recorded one: the same number and caveats as its console
            String said = recorded.stream().filter(m -> m.get("crossover") != null && names(m, params))
                    .map(m -> "crossover " + m.get("crossover")).findFirst().orElse(r.text());
            notes.add(who + said);
            r.x().ifPresent(x -> markers.add(new LineChart.Marker(x, who + Cells.text(Math.round(x * 100) / 100.0) + unit)));
        }
        return markers;
    }

    /** Whether a recorded row's parameters (all but its finding) are those of the cells. */
    private static boolean names(Map<?, ?> row, Map<String, Object> params) {
        return row.entrySet().stream().filter(e -> !e.getKey().equals("crossover"))
                .allMatch(e -> params.containsKey(String.valueOf(e.getKey()))
                        && Cells.text(params.get(String.valueOf(e.getKey()))).equals(Cells.text(e.getValue())));
    }

    static Optional<String> metric(Cells cells, String preferred) {
        if (cells.metrics().contains(preferred)) return Optional.of(preferred);
        return cells.metrics().stream().filter(m -> m.contains(preferred)).findFirst();
    }

    private static Optional<String> first(Cells cells, List<String> names, String prefix) {
        for (String m : names) if (cells.metrics().contains(m)) return Optional.of(m);
        return cells.metrics().stream().filter(m -> m.startsWith(prefix)).findFirst();
    }

    static Optional<String> latencyMetric(Cells cells) {
        for (String m : List.of("latency_avg_ms", "latency_ms", "latency_average_ms", "latency_avg")) {
            if (cells.metrics().contains(m)) return Optional.of(m);
        }
        return cells.metrics().stream().filter(m -> m.startsWith("latency")).findFirst();
    }

    /** The metric that is a duration: seconds, time_ms…, else the first whose name says time. */
    public static Optional<String> timeMetric(Cells cells) {
        for (String m : TIME) if (cells.metrics().contains(m)) return Optional.of(m);
        return cells.metrics().stream().filter(m -> m.contains("time") || m.contains("seconds") || m.endsWith("_ms")
                || m.endsWith("_s")).findFirst();
    }

    static Optional<String> selectivity(Cells cells) {
        return SELECTIVITY.stream().filter(p -> cells.params().contains(p)).findFirst()
                .or(() -> cells.params().stream().filter(p -> p.startsWith("selectiv")).findFirst());
    }

    private static ChartSpec titled(ChartSpec s, String title) {
        // a metric that is only a unit ("seconds") is said by the axis, which draws seconds all under one in
        // milliseconds: "Time vs workers (seconds)" stood over an axis of milliseconds
        String named = s.metric().matches("s|seconds|ms|us") ? "" : " (" + s.metric() + ")";
        return new ChartSpec(title + named, s.kind(), s.metric(), s.x(), s.series(), s.facets(), s.crossover());
    }

    private static List<String> without(List<String> list, String... drop) {
        List<String> out = new ArrayList<>(list);
        out.removeAll(List.of(drop));
        return out;
    }
}
