package dev.kensho.report;

import static dev.kensho.report.html.Html.esc;
import static dev.kensho.report.html.Html.n;
import static dev.kensho.report.html.Html.num;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import dev.kensho.report.chart.Cells;
import dev.kensho.report.chart.Reduction;
import dev.kensho.report.html.Html;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.VerticalAlignment;

/**
 * One self-contained HTML file per run: what was run and where, the charts (inline SVG), the
 * per-cell medians with min–max and n, what was skipped or failed and why, and what Kensho did on
 * the user's behalf. No scripts, no external files, so it can be mailed or archived as is.
 */
public final class HtmlReport {
    private HtmlReport() {}

    /**
     * Renders the run with its default charts and writes it atomically to out (a temporary file, then a rename).
     *
     * @param run what {@link dev.kensho.core.result.RunDirectory#read} gives
     * @return out
     */
    public static Path write(RunResults run, Path out) {
        return writeString(out, render(run));
    }

    /** The report {@link #write} writes, as a string. */
    public static String render(RunResults run) {
        return render(run, Charts.defaults(run));
    }

    /**
     * Every chart the report draws, in its order (the default charts, latency percentiles, wait events, timelines),
     * each captioned with {@link #caption}: a chart saved on its own (report --png) has no page around it to say
     * which run it is and what the run held fixed.
     */
    public static List<Figure> figures(RunResults run) {
        List<Figure> all = new ArrayList<>();
        for (ChartSpec spec : Charts.defaults(run)) all.addAll(Charts.draw(run, spec));
        List<String> planned = Cells.planned(run);
        all.addAll(LatencyPercentiles.figures(run.trials(), planned));
        all.addAll(WaitEvents.figures(run.trials(), planned));
        all.addAll(Timelines.figures(run.trials(), planned));
        all.addAll(HostTimelines.figures(run.trials(), planned));
        all.removeIf(f -> !f.drawn());   // the report says why there is no chart
        String caption = caption(run);
        for (Figure f : all) {
            f.chart().addSubtitle(new TextTitle(caption, CAPTION_FONT, Color.DARK_GRAY, RectangleEdge.BOTTOM, HorizontalAlignment.LEFT,
                    VerticalAlignment.BOTTOM, new RectangleInsets(4, 8, 2, 8)));
        }
        return all;
    }

    private static final Font CAPTION_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    /**
     * "bench pgbench sweep · script=select-only, mode=simple, engine=pgjdbc, duration_s=60, scale=100 ·
     * 20261202T181031Z-pgbench-sweep": the command, the parameters every cell shared (and the target and scale run.json
     * names where the cells do not), and the results directory.
     */
    static String caption(RunResults run) {
        Cells cells = new Cells(run.trials(), Cells.planned(run));
        Map<String, Object> fixed = new LinkedHashMap<>();
        for (String p : cells.params()) {
            List<Object> v = cells.values(p);
            // of every cell: an ssb run's load trial has a step, a scale and jobs that its query cells do not
            if (v.size() == 1 && cells.summaries().stream().allMatch(c -> c.params().containsKey(p))) fixed.put(p, v.get(0));
        }
        // what ssb jit's cells leave to run.json: the server and the data's scale
        Map<String, Object> asked = run.info().parameters() == null ? Map.of() : run.info().parameters();
        if (!cells.params().contains("target") && asked.get("target") instanceof String t) fixed.put("target", t);
        if (!cells.params().contains("scale") && asked.get("scale") instanceof Number n) fixed.put("scale", n);
        String conditions = fixed.isEmpty() ? "" : Cells.label(fixed, List.copyOf(fixed.keySet()));
        return "bench " + run.info().command() + (conditions.isEmpty() ? "" : " · " + conditions) + " · " + run.directory().getFileName();
    }

    /** The report with these charts in place of the default ones ({@link Charts#defaults}). */
    public static String render(RunResults run, List<ChartSpec> charts) {
        List<String> planned = Cells.planned(run);
        Cells cells = new Cells(run.trials(), planned);
        String command = run.info().command();
        StringBuilder b = new StringBuilder();
        long ok = cells.summaries().stream().filter(c -> c.n() > 0).count();
        b.append("<h1>Kensho report: ").append(esc(command)).append("</h1>\n<p class=\"sub\">")
                .append(esc(run.directory().getFileName())).append(" · started ")
                .append(esc(run.info().started() == null ? "?" : DateTimeFormatter.ISO_INSTANT.format(run.info().started().truncatedTo(java.time.temporal.ChronoUnit.SECONDS))))
                .append(" · ").append(count(run.trials().size(), "trial")).append(" in ").append(count(cells.summaries().size(), "cell"))
                .append(" (").append(ok).append(" with results)</p>\n");
        unfinished(run).ifPresent(u -> b.append("<p class=\"warnings\">").append(esc(u)).append("</p>\n"));

        List<String> line = run.info().commandLine() == null ? List.of() : run.info().commandLine();
        b.append("<h2 id=\"run\">Run</h2>\n<h3>Command line</h3>\n")
                .append(line.isEmpty() ? "<p><i>not recorded</i></p>\n"
                        : "<pre>" + esc(line.stream().map(RunInfo::shellWord).collect(Collectors.joining(" "))) + "</pre>\n");
        Map<String, Object> asked = run.info().parameters() == null ? Map.of() : new LinkedHashMap<>(run.info().parameters());
        // findings are shown with the charts, not as what the run was asked; the planned cells are the results' rows
        asked.keySet().removeAll(List.of(Charts.CROSSOVERS, Charts.CHECKS, dev.kensho.core.result.RunDirectory.PLANNED_CELLS));
        if (!asked.isEmpty()) b.append("<h3>Parameters</h3>\n").append(parameterTable(run.info().command(), asked));
        if (run.info().environment() != null && !run.info().environment().isEmpty()) {
            b.append("<h2 id=\"environment\">Environment</h2>\n");
            Map<String, List<String>> varied = varied(run.trials());
            for (var e : run.info().environment().entrySet()) {
                // an SSB run files its server under the bare version ("18")
                String heading = e.getKey().matches("\\d+(\\.\\d+)?") ? "PostgreSQL " + e.getKey() : e.getKey();
                b.append("<h3>").append(esc(heading)).append("</h3>\n").append(value(e.getKey(), startValues(e.getValue(), varied), 0));
            }
        }

        List<Figure> figures = new ArrayList<>();
        List<String> reductions = new ArrayList<>();
        for (ChartSpec spec : charts) {
            figures.addAll(Charts.draw(run, spec));
            if (spec.kind() == ChartSpec.Kind.REDUCTION) reductions.add(reductionTable(cells, spec));
        }
        int[] ids = {0};
        if (!figures.isEmpty()) {
            b.append("<h2 id=\"charts\">Charts</h2>\n<p class=\"sub\">Median of the repeats; bars show min–max.</p>\n");
            figures(b, figures, ids);
        }
        b.append(checks(run));
        List<Figure> percentiles = LatencyPercentiles.figures(run.trials(), planned);
        if (!percentiles.isEmpty()) {
            b.append("<h2 id=\"latency\">Latency distribution</h2>\n<p class=\"sub\">Every transaction's latency (HdrHistogram), "
                    + "the repeats of a cell merged; the x axis counts nines (90 %, 99 %, 99.9 % …), the line ends at the maximum.</p>\n");
            figures(b, percentiles, ids);
        }
        List<Figure> waits = WaitEvents.figures(run.trials(), planned);
        if (!waits.isEmpty()) {
            b.append("<h2 id=\"waits\">Wait events</h2>\n<p class=\"sub\">pg_stat_activity sampled every " + WaitEvents.intervals(run.trials())
                    + " during each measured run: "
                    + "the share of client-backend samples per wait event, averaged over the repeats. <i>CPU</i>: running a "
                    + "statement with no wait event (on a core, or waiting for one); <i>Client:ClientRead</i>: between statements, "
                    + "waiting for the client's next one (time spent in the client and the network); <i>Idle:idle</i>: between "
                    + "statements but not waiting (flushing the last reply, or reading a next statement that had already arrived); any other name is PostgreSQL's "
                    + "wait_event_type:wait_event (a lock, I/O or LWLock wait).</p>\n");
            figures(b, waits, ids);
        }
        List<Figure> timelines = Timelines.figures(run.trials(), planned);
        if (!timelines.isEmpty()) {
            b.append("<h2 id=\"timelines\">Over time</h2>\n<p class=\"sub\">Each trial second by second from the moment its clock "
                    + "started, a line per repeat.</p>\n");
            // a sweep has dozens of cells: folded, so the summary stays near the top
            if (timelines.size() > 4) b.append("<details><summary>").append(timelines.size()).append(" cells</summary>\n");
            figures(b, timelines, ids);
            if (timelines.size() > 4) b.append("</details>\n");
        }
        List<HostTimelines.Cell> host = HostTimelines.cells(run.trials(), planned);
        if (!host.isEmpty()) {
            b.append("<h2 id=\"host\">Server host over time</h2>\n<p class=\"sub\">The server's host second by second during "
                    + "each cell's first repeat, as mpstat -P ALL 1 and sar -d / sar -n DEV show it: the CPU split of all CPUs, "
                    + "softirq per CPU, and disk and network kB/s. A CPU state, disk or interface that stayed at 0 is left out.</p>\n");
            if (host.size() <= 2) {
                figures(b, host.stream().flatMap(c -> c.figures().stream()).toList(), ids);
            } else {
                // a sweep's 18 cells drew 54 charts in one fold: their means side by side, each cell's charts a fold of its own
                List<String> columns = HostTimelines.MEAN_COLUMNS.stream()
                        .filter(k -> host.stream().anyMatch(c -> c.means().containsKey(k))).toList();
                List<List<String>> rows = new ArrayList<>();
                for (HostTimelines.Cell c : host) {
                    List<String> r = new ArrayList<>(List.of(esc(c.label())));
                    // the first three are single numbers, the others lists of CPUs or devices
                    for (String k : columns) {
                        String v = esc(c.means().getOrDefault(k, "–"));
                        r.add(HostTimelines.MEAN_COLUMNS.indexOf(k) < 3 ? n(v) : v);
                    }
                    rows.add(r);
                }
                List<String> header = new ArrayList<>(List.of("cell"));
                header.addAll(columns);
                b.append("<p class=\"sub\">Means over each cell's first repeat; the charts of a cell fold out below the table.</p>\n")
                        .append(Html.table(header, rows));
                for (HostTimelines.Cell c : host) {
                    b.append("<details><summary>").append(esc(c.label())).append(": ").append(c.figures().size())
                            .append(c.figures().size() == 1 ? " chart" : " charts").append("</summary>\n");
                    figures(b, c.figures(), ids);
                    b.append("</details>\n");
                }
            }
        }
        reductions.forEach(b::append);
        b.append(speedups(cells));
        b.append(workers(cells, run.trials()));
        b.append(versions(run, cells, charts));

        // the charted metrics first; everything else measured stays one click away
        List<String> charted = charts.stream().map(ChartSpec::metric).distinct().filter(cells.metrics()::contains).toList();
        // pgbench's failure counters, 0 in every cell: eight columns of 0 pushed the latencies off the page
        List<String> zero = cells.metrics().stream().filter(m -> zeroEverywhere(cells, m)).toList();
        List<String> first = (charted.isEmpty() ? new ArrayList<>(cells.metrics()) : charted).stream().filter(m -> !zero.contains(m)).toList();
        if (first.isEmpty()) first = charted.isEmpty() ? new ArrayList<>(cells.metrics()) : charted;
        b.append("<h2 id=\"summary\">Summary per cell</h2>\n");
        if (first.size() == cells.metrics().size()) {
            b.append(summary(run, cells, new ArrayList<>(cells.metrics()), true));
        } else {
            List<String> hidden = zero.stream().filter(m -> charted.isEmpty() || charted.contains(m)).toList();
            b.append(summary(run, cells, first, true));
            if (!hidden.isEmpty()) b.append("<p class=\"sub\">0 in every cell, in All metrics below: ").append(hidden.stream()
                    .map(m -> "<code>" + esc(m) + "</code>").collect(Collectors.joining(" "))).append("</p>\n");
            b.append("<details class=\"wide\"><summary>All ").append(cells.metrics().size())
                    .append(" metrics</summary>\n").append(summary(run, cells, new ArrayList<>(cells.metrics()), false))
                    .append("</details>\n<p class=\"print-only\">All ").append(cells.metrics().size())
                    .append(" metrics per cell: in summary.csv (a table too wide to print).</p>\n");
        }
        b.append(problems(run.trials()));

        List<String> notes = run.info().notes() == null ? List.of() : run.info().notes();
        b.append("<h2 id=\"notes\">Notes</h2>\n");
        // trials skipped for a setting are no note of the run's: they are listed under Skipped and failed
        if (notes.isEmpty()) b.append("<p>Kensho recorded no restarts or server changes.</p>\n");
        else b.append("<ul>\n").append(inARow(notes).stream().map(x -> "<li>" + esc(x) + "</li>\n").collect(Collectors.joining())).append("</ul>\n");
        // the sweep warns of each such trial as it finishes; a reader of the report alone found it in a folded column only
        List<Double> shared = run.trials().stream().filter(Trial::ok).map(t -> t.metric("other_cpu_pct"))
                .filter(v -> v != null && v >= SHARED_HOST_PCT).toList();
        if (!shared.isEmpty()) {
            b.append("<p class=\"warnings\">").append(shared.size()).append(" of ").append(run.trials().stream().filter(Trial::ok).count())
                    .append(" trials shared the machine: other processes took ")
                    .append(String.format(Locale.ROOT, "%.0f–%.0f %%", shared.stream().mapToDouble(d -> d).min().orElse(0),
                            shared.stream().mapToDouble(d -> d).max().orElse(0)))
                    .append(" of the host's CPU (other_cpu_pct), so their numbers are the server's and another program's.</p>\n");
        }
        long bad = run.trials().stream().filter(t -> !t.ok()).count();
        if (bad > 0) b.append("<p>").append(bad).append(bad == 1 ? " trial was" : " trials were")
                .append(" skipped or failed: their reasons are under Skipped and failed above.</p>\n");
        return Html.page("Kensho report: " + command, b.toString());
    }

    /** The other processes' CPU share from which bench pgbench sweep warns that a trial shared the machine. */
    static final double SHARED_HOST_PCT = 10;

    /** "1 trial", "2 trials": a pgbench run's report read "1 trials in 1 cells". */
    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /**
     * Notes with a repeated one said once, with its count: a cold scan at the study's size restarts the server before
     * each of its 400 cells, and the list read as 400 identical lines.
     */
    static List<String> inARow(List<String> notes) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < notes.size(); ) {
            int j = i;
            while (j < notes.size() && notes.get(j).equals(notes.get(i))) j++;
            out.add(j - i == 1 ? notes.get(i) : notes.get(i) + " (" + (j - i) + " times in a row)");
            i = j;
        }
        return out;
    }

    /**
     * Why the run holds fewer results than it asked for, where it does: no trial at all, or cells with fewer trials than
     * its repeat parameter. Nothing in the results says a run was cut short, and a median of 1 of 3 repeats reads as
     * one of 3.
     */
    public static java.util.Optional<String> unfinished(RunResults run) {
        if (run.directory() != null && dev.kensho.core.result.RunDirectory.beingWritten(run.directory())) {
            return java.util.Optional.of("Still running: another process is writing to this run (" + run.trials().size()
                    + (run.trials().size() == 1 ? " trial" : " trials") + " so far); report it again when the run has ended.");
        }
        if (run.trials().isEmpty()) {
            return java.util.Optional.of(dev.kensho.core.result.RunDirectory.failedBeforeFirstTrial(run.info())
                    .map(why -> "No trial finished: the run failed before its first measurement (" + why + ").")
                    .orElse("No trial finished: the run stopped before its first measurement ("
                            + run.info().resumeCommand(run.directory()) + " runs it)."));
        }
        Map<String, Object> params = run.info().parameters() == null ? Map.of() : run.info().parameters();
        Object asked = params.get("repeat");
        if (asked == null && params.get("options") instanceof Map<?, ?> options) asked = options.get("repeat");   // bench scan's
        int repeats = asked instanceof Number n ? n.intValue() : 1;
        List<String> charted = Charts.defaults(run).stream().map(ChartSpec::metric).distinct().toList();
        Map<String, List<Trial>> byCell = run.trials().stream()
                .collect(Collectors.groupingBy(Trial::cell, LinkedHashMap::new, Collectors.toList()));
        // a cell without the charted metrics (an SSB run's load) is not one the repeats apply to, nor a load that has them
        // (index-build charts seconds, which the load trial has too)
        List<List<Trial>> measured = byCell.values().stream().filter(ts -> ts.stream().noneMatch(t -> "load".equals(t.params().get("step"))))
                .filter(ts -> ts.stream().anyMatch(t -> t.ok() && (charted.isEmpty() || charted.stream().anyMatch(m -> t.metric(m) != null)))).toList();
        List<String> shorter = measured.stream().filter(ts -> ts.size() < repeats)
                .map(ts -> ts.get(0).cell() + " (" + ts.size() + ")").toList();
        // the cells the run set out to measure (run.json keeps them since Kensho recorded them) that have no trial at all
        List<String> neverReached = params.get(dev.kensho.core.result.RunDirectory.PLANNED_CELLS) instanceof List<?> planned
                ? planned.stream().map(String::valueOf).filter(c -> !byCell.containsKey(c)).toList() : List.of();
        if (shorter.isEmpty() && neverReached.isEmpty()) {
            // a run that stopped after its load (an SSB run's first trial) and planned nothing yet read as complete
            // (not ssb load's own run: the load is all it measures)
            if (measured.isEmpty() && !"ssb load".equals(run.info().command()) && run.trials().stream().allMatch(t -> "load".equals(t.params().get("step")))) {
                return java.util.Optional.of("Unfinished: only the data load finished; the run stopped before its first measurement ("
                        + run.info().resumeCommand(run.directory()) + " runs the rest).");
            }
            return java.util.Optional.empty();
        }
        String fewer = shorter.isEmpty() ? "" : shorter.size() + " of " + measured.size() + (measured.size() == 1 ? " cell has" : " cells have")
                + " fewer trials than the " + repeats + " repeats asked for: " + names(shorter);
        String none = neverReached.isEmpty() ? "" : (fewer.isEmpty() ? "" : "; ") + neverReached.size()
                + (neverReached.size() == 1 ? " cell has" : " cells have") + " none: " + names(neverReached);
        return java.util.Optional.of("Unfinished: " + fewer + none + ", as an interrupted run leaves them ("
                + run.info().resumeCommand(run.directory()) + " runs the rest)"
                + (params.containsKey(dev.kensho.core.result.RunDirectory.PLANNED_CELLS) ? "." : "; cells it never reached are not listed."));
    }

    /** Up to ten names, then how many more. */
    private static String names(List<String> cells) {
        return cells.size() <= 10 ? String.join(", ", cells)
                : String.join(", ", cells.subList(0, 10)) + " and " + (cells.size() - 10) + " more";
    }

    private static void figures(StringBuilder b, List<Figure> figures, int[] ids) {
        for (Figure f : figures) {
            if (!f.drawn()) {
                b.append("<p><b>").append(esc(f.title())).append("</b>: ").append(esc(String.join(" ", f.notes()))).append("</p>\n");
                continue;
            }
            b.append("<figure>\n").append(f.svg("chart" + (++ids[0]))).append("\n");
            if (!f.notes().isEmpty()) {
                b.append("<figcaption>").append(f.notes().stream().map(Html::esc).collect(Collectors.joining("<br>")))
                        .append("</figcaption>\n");
            }
            b.append("</figure>\n");
        }
    }

    /** The study's expectations as the command checked them (bench scan records them in run.json). */
    private static String checks(RunResults run) {
        List<List<String>> rows = new ArrayList<>();
        for (Map<?, ?> k : Charts.recorded(run, Charts.CHECKS)) {
            String verdict = String.valueOf(k.get("verdict"));
            rows.add(List.of(verdict.equals("as expected") ? esc(verdict) : Html.bad(esc(verdict)), esc(k.get("expectation")),
                    esc(k.get("detail"))));
        }
        if (rows.isEmpty()) return "";
        long not = rows.stream().filter(r -> !r.get(0).equals("as expected")).count();
        return "<h3>Study checks</h3>\n<p>" + (rows.size() - not) + " of " + rows.size() + " as the study expects.</p>\n"
                + Html.table(List.of("verdict", "expectation", "detail"), rows);
    }

    /**
     * Study 000 ch.7's findings, made visible: cells whose Gather nodes launched fewer workers than planned, and cells
     * whose plan asked for fewer than their workers setting (the planner plans fewer for a small table), so that a
     * bar or point labelled workers=4 did not run with 4.
     */
    private static String workers(Cells cells, List<Trial> trials) {
        if (!cells.metrics().contains("workers_planned") || !cells.metrics().contains("workers_launched")) return "";
        List<String> varying = cells.varying();
        // the setting a cell's label gives: ssb's per-Gather workers, or index-build's max_parallel_maintenance_workers
        String setting = !cells.params().contains("workers") && cells.params().contains("maintenance_workers") ? "maintenance_workers" : "workers";
        List<List<String>> rows = new ArrayList<>(), fewer = new ArrayList<>();
        for (CellSummary c : cells.ok()) {
            Double planned = c.median().get("workers_planned"), launched = c.median().get("workers_launched");
            if (planned == null) continue;
            List<String> r = new ArrayList<>();
            for (String p : varying) r.add(esc(Cells.text(c.params().get(p))));
            if (launched != null && launched < planned) {
                List<String> row = new ArrayList<>(r);
                row.add(n(esc(num(planned))));
                row.add(n(esc(num(launched))));
                rows.add(row);
            }
            double requested = Cells.number(c.params().get(setting));
            double most = mostPlannedPerGather(trials, c.cell(), planned);
            if (requested > 0 && most < requested) {
                r.add(n(esc(num(most))));
                fewer.add(r);
            }
        }
        List<String> header = new ArrayList<>(varying);
        header.addAll(List.of("workers planned", "workers launched"));
        // ssb --fetch-size: the timed runs went through a cursor, whose plan runs without workers; the counts are the
        // EXPLAIN (ANALYZE)'s. "Every cell launched the workers its plan asked for" was said of them, unqualified
        long cursor = trials.stream().filter(t -> Boolean.TRUE.equals(t.extra().get("timed_without_workers"))).map(Trial::cell).distinct().count();
        String without = cursor == 0 ? "" : "<p>" + Html.bad(esc(cursor + (cursor == 1 ? " cell was" : " cells were")
                + " timed without workers (--fetch-size: a cursor's plan runs without them); their workers planned and launched "
                + "are those of the EXPLAIN (ANALYZE), not of the timed runs.")) + "</p>\n";
        String out = "<h3>Parallel workers launched</h3>\n" + without + (rows.isEmpty()
                ? "<p>Every cell launched the workers its plan asked for" + (cursor == 0 ? "" : " in its EXPLAIN (ANALYZE)") + ".</p>\n"
                : "<p>" + rows.size() + " cells launched fewer workers than planned (medians over the repeats):</p>\n"
                        + Html.table(header, rows));
        if (!cells.params().contains(setting) || !cells.numeric(setting)) return out;
        List<String> fewerHeader = new ArrayList<>(varying);
        fewerHeader.add(setting.equals("workers") ? "workers planned (most per Gather)" : "workers planned");
        return out + (fewer.isEmpty()
                ? "<p>Every cell's plan asked for the workers its <code>" + setting + "</code> setting allows.</p>\n"
                : "<p>" + fewer.size() + " cells planned fewer workers than their <code>" + setting + "</code> setting requested (the planner "
                        + "plans fewer for a small table" + (setting.equals("workers") ? ", none where it chose no parallel plan"
                        : " or maintenance_work_mem") + "): they did not run with the workers their label says.</p>\n"
                        + Html.table(fewerHeader, fewer));
    }

    /**
     * Workers Planned of the cell's largest Gather node (ssb records each node in the extra "gathers"): the sum over
     * nodes, as workers_planned is, would hide a node planned below the setting behind a second node.
     */
    private static double mostPlannedPerGather(List<Trial> trials, String cell, double plannedSum) {
        for (Trial t : trials) {
            if (!t.ok() || !cell.equals(t.cell()) || !(t.extra() != null && t.extra().get("gathers") instanceof List<?> gathers)) continue;
            return gathers.stream().filter(Map.class::isInstance).map(g -> ((Map<?, ?>) g).get("planned"))
                    .filter(Number.class::isInstance).mapToDouble(v -> ((Number) v).doubleValue()).max().orElse(0);
        }
        return plannedSum;
    }

    /** Study 000 ch.7's speed-up: time at workers=0 over time at n, per query and per everything else that varies. */
    private static String speedups(Cells cells) {
        var time = Charts.timeMetric(cells);
        List<Object> workers = cells.values("workers");
        if (time.isEmpty() || !cells.numeric("workers") || !workers.contains(0L) || workers.size() < 2
                || !cells.params().contains("query")) return "";
        List<String> others = cells.varying().stream().filter(p -> !p.equals("workers") && !p.equals("query")).toList();
        List<String> key = new ArrayList<>(others);
        key.add("query");
        List<String> header = new ArrayList<>(key);
        header.add(time.get() + " at workers=0");
        workers.stream().filter(w -> !w.equals(0L)).forEach(w -> header.add("×" + Cells.text(w)));
        List<List<String>> rows = new ArrayList<>();
        boolean[] anySerial = {false};
        for (var g : cells.groupBy(key, cells.ok().stream().filter(c -> c.median().containsKey(time.get())).toList()).entrySet()) {
            Map<Object, Double> at = new LinkedHashMap<>();
            java.util.Set<Object> serial = new java.util.HashSet<>();
            g.getValue().forEach(c -> {
                at.put(Cells.param(c, "workers"), c.median().get(time.get()));
                if (Double.valueOf(0).equals(c.median().get("workers_planned"))) serial.add(Cells.param(c, "workers"));
            });
            Double zero = at.get(0L);
            if (zero == null) continue;
            List<String> r = new ArrayList<>();
            g.getKey().forEach(v -> r.add(esc(Cells.text(v))));
            r.add(n(esc(num(zero))));
            for (Object w : workers) {
                if (w.equals(0L)) continue;
                Double t = at.get(w);
                // a plan without workers makes the ratio one of two serial runs: marked, not read as a speed-up
                r.add(n(t == null || t <= 0 ? "–" : String.format(Locale.ROOT, "%.2f", zero / t) + (serial.contains(w) ? " *" : "")));
                if (serial.contains(w) && t != null && t > 0) anySerial[0] = true;
            }
            rows.add(r);
        }
        if (rows.isEmpty()) return "";
        return "<h3>Speed-up against workers=0</h3>\n<p class=\"sub\">" + esc(time.get())
                + " at workers=0 divided by " + esc(time.get()) + " at n workers (medians); above 1 is faster, – where "
                + "the cell was skipped or failed" + (anySerial[0] ? "; * where the plan had no parallel workers, so the ratio "
                + "compares two serial runs" : "") + ".</p>\n" + Html.table(header, rows);
    }

    /** When the run itself sweeps versions or targets: the ratio tables and analyses of bench compare. */
    private static String versions(RunResults run, Cells cells, List<ChartSpec> charts) {
        String by = cells.varying().stream().filter(Charts.VERSION_PARAMS::contains).findFirst().orElse(null);
        if (by == null) return "";
        List<String> metrics = charts.stream().map(ChartSpec::metric).distinct().toList();
        try {
            RunComparison cmp = RunComparison.of(List.of(run), new RunComparison.Options(by, metrics));
            return "<h2 id=\"versions\">" + esc(by) + " compared</h2>\n<p class=\"sub\">Ratios of medians to " + esc(by) + " "
                    + esc(cmp.groups().get(0).label()) + "; the same tables as <code>bench compare</code>.</p>\n"
                    + cmp.sections(3, false);
        } catch (KenshoException e) {
            return "<p class=\"warnings\">No " + esc(by) + " comparison: " + esc(e.getMessage()) + "</p>\n";
        }
    }

    private static boolean zeroEverywhere(Cells cells, String metric) {
        return cells.ok().stream().filter(c -> c.median().containsKey(metric))
                .allMatch(c -> c.min().get(metric) == 0 && c.max().get(metric) == 0);
    }

    private static String summary(RunResults run, Cells cells, List<String> metrics, boolean constants) {
        StringBuilder b = new StringBuilder();
        List<String> varying = cells.varying();
        // one value, and in every cell: a parameter of one trial only (an SSB run's load) is not "the same everywhere"
        List<String> constant = cells.params().stream().filter(p -> !varying.contains(p)
                && cells.summaries().stream().allMatch(c -> c.params().containsKey(p))).toList();
        if (constants && !constant.isEmpty()) {
            b.append("<p>Same in every cell: ").append(constant.stream()
                    .map(p -> "<code>" + esc(p) + "=" + esc(Cells.text(cells.values(p).get(0))) + "</code>")
                    .collect(Collectors.joining(" "))).append("</p>\n");
        }
        Map<String, List<Trial>> byCell = new LinkedHashMap<>();
        run.trials().forEach(t -> byCell.computeIfAbsent(t.cell(), k -> new ArrayList<>()).add(t));
        List<String> header = new ArrayList<>(varying);
        header.add("n");
        header.add("status");
        metrics.forEach(m -> header.add(m + " median [min–max]"));
        header.add("notes");
        List<List<String>> rows = new ArrayList<>();
        List<String> elsewhere = new ArrayList<>();
        Map<String, Boolean> whole = new LinkedHashMap<>();
        for (String m : metrics) {
            whole.put(m, Html.whole(cells.summaries().stream().flatMap(c -> java.util.stream.Stream.of(c.median().get(m),
                    c.min().get(m), c.max().get(m))).toList()));
        }
        for (var g : cells.groupBy(varying, cells.summaries()).entrySet()) {
            for (CellSummary c : g.getValue()) {
                // the charted metrics' table (the first): a cell that has none of them is in the full one only
                if (constants && c.n() > 0 && metrics.size() < cells.metrics().size()
                        && metrics.stream().noneMatch(c.median()::containsKey)) {
                    elsewhere.add(c.cell());
                    continue;
                }
                List<String> r = new ArrayList<>();
                for (Object v : g.getKey()) r.add(esc(Cells.text(v)));
                List<Trial> all = byCell.getOrDefault(c.cell(), List.of());
                r.add(n(c.n() + (all.size() != c.n() ? "/" + all.size() : "")));
                r.add(esc(c.status()));
                for (String m : metrics) {
                    Double med = c.median().get(m);
                    boolean w = whole.get(m);
                    r.add(n(med == null ? "–" : esc(num(med, w)) + (c.n() > 1 ? " <span class=\"range\">["
                            + esc(num(c.min().get(m), w)) + "–" + esc(num(c.max().get(m), w)) + "]</span>" : "")));
                }
                // a measured trial's warning (ssb jit: "JIT not triggered …") is as much a note on the row as a failure's reason
                String why = java.util.stream.Stream.concat(all.stream().filter(t -> !t.ok()).map(t -> t.status() + ": " + reason(t)),
                        all.stream().map(t -> t.extra() == null ? null : t.extra().get("warning")).filter(w -> w != null)
                                .map(String::valueOf)).distinct().collect(Collectors.joining("; "));
                r.add(esc(why));
                // a cell with none of the varying parameters (an SSB run's load among its queries) is named by its key
                if (!varying.isEmpty() && varying.stream().noneMatch(c.params()::containsKey)) r.set(0, "<code>" + esc(c.cell()) + "</code>");
                if (c.n() == 0) r.set(0, Html.bad(r.get(0)));
                rows.add(r);
            }
        }
        b.append(Html.table(header, rows));
        if (!elsewhere.isEmpty()) {
            b.append("<p class=\"sub\">Measuring none of these metrics, in All metrics below: ")
                    .append(elsewhere.stream().map(x -> "<code>" + esc(x) + "</code>").collect(Collectors.joining(" "))).append("</p>\n");
        }
        return b.toString();
    }

    /** One row per status and reason (a setting the server lacks skips every trial that needs it), repeats 1-based as the CLI counts. */
    private static String problems(List<Trial> trials) {
        List<Trial> bad = trials.stream().filter(t -> !t.ok()).toList();
        if (bad.isEmpty()) return "";
        Map<List<String>, Map<String, List<Integer>>> byReason = new LinkedHashMap<>();
        for (Trial t : bad) {
            byReason.computeIfAbsent(List.of(t.status(), reason(t)), k -> new LinkedHashMap<>())
                    .computeIfAbsent(t.cell(), k -> new ArrayList<>()).add(t.repeat() + 1);
        }
        List<List<String>> rows = new ArrayList<>();
        for (var e : byReason.entrySet()) {
            List<String> cells = e.getValue().entrySet().stream().map(c -> "<code>" + esc(c.getKey()) + "</code> "
                    + (c.getValue().size() == 1 ? "repeat " : "repeats ")
                    + c.getValue().stream().sorted().map(String::valueOf).collect(Collectors.joining(", "))).toList();
            String list = String.join("<br>", cells);
            if (cells.size() > 8) list = "<details><summary>" + cells.size() + " cells</summary>" + list + "</details>";
            int count = e.getValue().values().stream().mapToInt(List::size).sum();
            rows.add(List.of(esc(e.getKey().get(0)), esc(e.getKey().get(1)), n(String.valueOf(count)), list));
        }
        long skipped = bad.stream().filter(t -> "skipped".equals(t.status())).count();
        return "<h2 id=\"problems\">Skipped and failed</h2>\n<p>" + skipped + " skipped, " + (bad.size() - skipped)
                + " failed.</p>\n" + Html.table(List.of("status", "reason", "trials", "cells"), rows);
    }

    private static String reason(Trial t) {
        Object r = t.extra() == null ? null : t.extra().get("reason");
        return r == null ? "(no reason recorded)" : r.toString();
    }

    private static String reductionTable(Cells cells, ChartSpec spec) {
        String pair = spec.series().get(0);
        List<String> others = new ArrayList<>(spec.facets());
        others.addAll(spec.series().subList(1, spec.series().size()));
        List<Reduction.Row> rows = Reduction.compute(cells, cells.ok(), spec.metric(), pair, spec.x(), others);
        if (rows.isEmpty()) return "";
        List<String> header = new ArrayList<>();
        if (!others.isEmpty()) header.add("series");
        header.addAll(List.of(spec.x(), spec.metric() + " " + pair + " off", spec.metric() + " " + pair + " on", "reduction %"));
        List<List<String>> out = new ArrayList<>();
        for (Reduction.Row r : rows) {
            List<String> row = new ArrayList<>();
            if (!others.isEmpty()) row.add(esc(r.series()));
            row.add(esc(Cells.text(r.category())));
            row.add(n(esc(num(r.off()))));
            row.add(n(esc(num(r.on()))));
            row.add(n(String.format(Locale.ROOT, "%.1f", r.percent())));
            out.add(row);
        }
        String overall = rows.stream().collect(Collectors.groupingBy(Reduction.Row::series, LinkedHashMap::new, Collectors.toList()))
                .entrySet().stream().map(e -> (others.isEmpty() ? "" : esc(e.getKey()) + ": ") + "<b>"
                        + String.format(Locale.ROOT, "%.1f", Reduction.overall(e.getValue())) + " %</b>")
                .collect(Collectors.joining("; "));
        return "<h3>" + esc(pair) + " reduction rate 100·(off − on)/off</h3>\n" + Html.table(header, out)
                + "<p>Overall reduction on total time 100·(Σoff − Σon)/Σoff: " + overall + "</p>\n";
    }

    /** Settings the run changed from cell to cell: a parameter or a trial's recorded "settings", with their values. */
    static Map<String, List<String>> varied(List<Trial> trials) {
        Map<String, java.util.LinkedHashSet<String>> seen = new java.util.TreeMap<>();
        for (Trial t : trials) {
            if (t.params() != null) t.params().forEach((k, v) -> seen.computeIfAbsent(k, x -> new java.util.LinkedHashSet<>()).add(String.valueOf(v)));
            if (t.extra() != null && t.extra().get("settings") instanceof Map<?, ?> m) {
                m.forEach((k, v) -> seen.computeIfAbsent(String.valueOf(k), x -> new java.util.LinkedHashSet<>()).add(String.valueOf(v)));
            }
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        seen.forEach((k, v) -> { if (v.size() > 1) out.put(k, new ArrayList<>(v)); });
        return out;
    }

    /**
     * The environment is captured once (before the first cell, or after the last): a setting the run varies would show
     * one value as if it held for the whole run, so such entries say that it is the value when the environment was read
     * and list the run's values. "At the start" was said of ssb's and index-build's, which are read after the last cell.
     */
    private static Object startValues(Object v, Map<String, List<String>> varied) {
        if (!(v instanceof Map<?, ?> m) || varied.isEmpty()) return v;
        Map<Object, Object> out = new LinkedHashMap<>();
        for (var e : m.entrySet()) {
            Object x = e.getValue();
            if (("kensho_settings".equals(e.getKey()) || "non_default_settings".equals(e.getKey())) && x instanceof Map<?, ?> settings) {
                Map<Object, Object> marked = new LinkedHashMap<>(settings);
                marked.replaceAll((k, val) -> varied.containsKey(String.valueOf(k))
                        ? val + " when the environment was read; the run varies it: " + String.join(", ", varied.get(String.valueOf(k))) : val);
                x = marked;
            } else {
                x = startValues(x, varied);
            }
            out.put(e.getKey(), x);
        }
        return out;
    }

    private static String value(String key, Object v, int depth) {
        if (v == null) return "<i>not set</i>";   // an option not given (pgbench's -R): "null" read as a value
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) return "<i>none</i>";
            String t = mapTable(m, depth + 1);
            // long lists (all non-default settings) stay folded
            if (depth > 0 && m.size() > 8) return "<details><summary>" + m.size() + " entries</summary>" + t + "</details>";
            return t;
        }
        if (v instanceof List<?> l && l.isEmpty()) return "<i>none</i>";   // an empty cell read as a value left out
        if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof Map<?, ?>)) return listTable(l, depth);
        if (v instanceof List<?> l) return esc(l.stream().map(HtmlReport::plain).collect(Collectors.joining(", ")));
        // bench scan's layouts say tableBytes, the storage probe bytes
        if (v instanceof Number x && key.toLowerCase(Locale.ROOT).endsWith("bytes")) return esc(bytes(x.doubleValue()));
        return esc(plain(v));
    }

    /**
     * A recorded value as text; a fractional number to six significant digits, never in exponent form: Java's own
     * text showed a scan's correlation as 4.8399752E-4 and its throughput as 902.4770078121794.
     */
    static String plain(Object v) {
        if (!(v instanceof Double || v instanceof Float) || !Double.isFinite(((Number) v).doubleValue())) return String.valueOf(v);
        double d = ((Number) v).doubleValue();
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return new java.math.BigDecimal(d).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    }

    /** A list of records (the scan's layouts): one row each, a column per key. */
    private static String listTable(List<?> list, int depth) {
        java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>();
        list.forEach(x -> ((Map<?, ?>) x).keySet().forEach(k -> keys.add(String.valueOf(k))));
        List<List<String>> rows = new ArrayList<>();
        for (Object x : list) {
            Map<?, ?> m = (Map<?, ?>) x;
            List<String> r = new ArrayList<>();
            for (String k : keys) r.add(m.containsKey(k) ? value(k, m.get(k), depth + 1) : "");
            rows.add(r);
        }
        return Html.table(new ArrayList<>(keys), rows);
    }

    /**
     * The run's parameters as a person reads them: a value with its unit (duration_s 2 is "2 s", a pgbench warm-up of
     * 20000 is "20000 transactions") and a script as it was given ("-b tpcb-like", where run.json says -btpcb-like).
     * The keys stay run.json's, which compare's notes name; run.json keeps the bare values, which compare and --resume read.
     */
    static String parameterTable(String command, Map<?, ?> m) {
        return parameterTable(command, m, 0);
    }

    private static String parameterTable(String command, Map<?, ?> m, int depth) {
        return mapTable(m, (key, v) -> {
            if (v instanceof Map<?, ?> inner && !inner.isEmpty() && depth == 0) {
                return parameterTable(command, inner, 1);   // micro's jmh (iteration_ms), scan's options (from, to, step)
            }
            if (key.equals("scripts") && v instanceof List<?> l && !l.isEmpty()) {
                return esc(l.stream().map(x -> script(String.valueOf(x))).collect(Collectors.joining(", ")));
            }
            String unit = v instanceof Number ? unit(command, key) : null;
            if (unit != null && unit.matches("[a-z]+s") && plain(v).equals("1")) unit = unit.substring(0, unit.length() - 1);   // 1 run
            return unit == null ? value(key, v, depth) : esc(plain(v) + " " + unit);
        });
    }

    /** A pgbench script spec as typed: -btpcb-like is "-b tpcb-like", -fread.sql@2 "-f read.sql@2". */
    private static String script(String spec) {
        return spec.matches("-[bf].+") ? spec.substring(0, 2) + " " + spec.substring(2) : spec;
    }

    /** A number's unit, from its name's suffix or, where the name has none, what the command counts in it. */
    static String unit(String command, String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (k.endsWith("_s") || k.equals("seconds")) return "s";
        if (k.endsWith("_ms")) return "ms";
        if (k.endsWith("_mb") || key.endsWith("Mb")) return "MB";   // bench scan's options are camel case: throughputMb
        if (k.endsWith("_pct")) return "%";
        boolean pgbench = command != null && command.startsWith("pgbench");
        if (pgbench && k.equals("warmup")) return "transactions";   // the clients' warm-up, all together (--warmup)
        if (pgbench && k.equals("rate")) return "transactions/s";    // -R
        if ("query".equals(command) && k.equals("warmup")) return "runs";   // unrecorded runs before the first repeat
        if ("scan".equals(command) && List.of("from", "to", "step").contains(k)) return "%";   // selectivity, --from … --step
        return null;
    }

    private static String mapTable(Map<?, ?> m, int depth) {
        return mapTable(m, (key, v) -> value(key, v, depth));
    }

    /** A row per key: its name, then cell(key, value) as HTML. */
    private static String mapTable(Map<?, ?> m, java.util.function.BiFunction<String, Object, String> cell) {
        StringBuilder b = new StringBuilder("<table>\n");
        for (var e : m.entrySet()) {
            String key = String.valueOf(e.getKey());
            b.append("<tr><th>").append(esc(key)).append("</th><td>").append(cell.apply(key, e.getValue())).append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }

    private static String bytes(double v) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    }

    static Path writeString(Path out, String content) {
        Path abs = out.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try {
            if (abs.getParent() != null) Files.createDirectories(abs.getParent());
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return abs;
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // createDirectories met a file where a directory of the path should be: "already exists" named neither
            throw KenshoException.usage("cannot write " + out + ": " + e.getFile() + " is not a directory");
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);   // a full disk left a cut report.html.tmp behind
            } catch (IOException ignored) {
                // what could not be written may not be removable either
            }
            String why = KenshoException.ioReason(e);
            // a full disk is no mistake of the command line's (a path it cannot write is): exit 1, not 2
            if (why.contains("No space left on device")) throw new KenshoException(KenshoException.FAILURE, "cannot write " + out + ": " + why);
            throw KenshoException.usage("cannot write " + out + ": " + why);
        }
    }
}
