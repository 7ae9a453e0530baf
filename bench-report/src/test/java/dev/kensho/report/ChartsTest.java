package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
    @TempDir
    Path tmp;

    /** A sweep that recorded the server's and the driver's CPU charts them per clients beside TPS and latency; one without them does not. */
    @Test
    void sweepChartsTheDriversCpuWhereRecorded() {
        for (boolean recorded : new boolean[] {true, false}) {
            RunResults run;
            try (RunDirectory rd = RunDirectory.create(tmp.resolve("r" + recorded), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
                for (int c : new int[] {1, 4, 16}) {
                    Trial.Builder t = Trial.of("clients=" + c, 0).param("clients", c).metric("tps", 100.0 * c).metric("latency_avg_ms", 1.0);
                    if (recorded) t.metric("driver_cpu_pct", 10.0 * c).metric("server_cpu_pct", 5.0 * c);
                    rd.append(t.build());
                }
                run = RunDirectory.read(rd.path());
            }
            List<String> metrics = Charts.defaults(run).stream().map(ChartSpec::metric).toList();
            assertEquals(recorded ? List.of("tps", "latency_avg_ms", "server_cpu_pct", "driver_cpu_pct") : List.of("tps", "latency_avg_ms"), metrics);
        }
    }

    /** SSB over 2 versions × 3 worker counts: time vs workers, a line per query, one chart per version (study 000 ch.7). */
    @Test
    void ssbTimeVsWorkersPerVersion() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("ssb", List.of("bench", "ssb"), Map.of()))) {
            for (String v : List.of("16", "17")) {
                for (int w : new int[] {0, 2, 4}) {
                    for (String q : List.of("Q1.1", "Q1.2", "Q4.3")) {
                        for (int r = 0; r < 3; r++) {
                            rd.append(Trial.of(q + w + v, r).param("query", q).param("workers", w).param("version", v)
                                    .metric("seconds", 10.0 / (w + 1) + r).metric("rows", 1).metric("workers_planned", w)
                                    .metric("workers_launched", q.equals("Q4.3") && w == 4 ? 3 : w).build());
                        }
                    }
                }
            }
            // the load is recorded in the same run, without a query
            rd.append(Trial.of("load;version=16", 0).param("step", "load").param("version", "16").param("scale", 1)
                    .metric("seconds", 99.0).build());
            run = RunDirectory.read(rd.path());
        }
        List<ChartSpec> specs = Charts.defaults(run);
        assertEquals(1, specs.size());
        ChartSpec s = specs.get(0);
        assertEquals(ChartSpec.Kind.LINE, s.kind());
        assertEquals("seconds", s.metric());
        assertEquals("workers", s.x());
        assertEquals(List.of("query"), s.series());
        assertEquals(List.of("version"), s.facets());
        List<Figure> figures = Charts.draw(run, s);
        assertEquals(2, figures.size());
        assertTrue(figures.get(1).title().endsWith("— version=17"), figures.get(1).title());
        String svg = figures.get(0).svg("x");
        for (String text : List.of(">Q1.1<", ">Q4.3<", ">workers<")) assertTrue(svg.contains(text), text);
        String html = HtmlReport.render(run);
        assertTrue(html.contains("2 cells launched fewer workers than planned"), "Q4.3 with 4 workers, both versions");
        assertTrue(html.contains("<tr><td>Q4.3</td><td>4</td><td>17</td><td class=\"num\">4</td><td class=\"num\">3</td></tr>"),
                "planned 4, launched 3");
        var plot = (org.jfree.chart.plot.XYPlot) figures.get(0).chart().getPlot();
        assertEquals(List.of("Q1.1", "Q1.2", "Q4.3"), java.util.stream.IntStream.range(0, plot.getDataset().getSeriesCount())
                .mapToObj(i -> plot.getDataset().getSeriesKey(i)).toList(), "the load is not a query line");
    }

    /** A chart of one named series (the other worker counts skipped) still says which it is; an unnamed one needs no legend. */
    @Test
    void oneNamedSeriesKeepsItsLegend() {
        List<dev.kensho.report.chart.Point> points = List.of(new dev.kensho.report.chart.Point("Q1.1", 1, 1, 1, 1));
        assertTrue(dev.kensho.report.chart.BarChart.build("t", "query", "seconds", Map.of("workers=2", points)).getLegend() != null);
        assertTrue(dev.kensho.report.chart.BarChart.build("t", "query", "seconds", Map.of("all", points)).getLegend() == null);
    }

    /** An unknown command: the metric against the numeric parameter with most values, series by the rest. */
    @Test
    void genericFallback() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("experiment", List.of("bench", "experiment"), Map.of()))) {
            for (String mode : List.of("a", "b")) {
                for (int size : new int[] {10, 20, 30, 40}) {
                    rd.append(Trial.of(mode + size, 0).param("mode", mode).param("size", size).metric("ms", size * 2.0)
                            .metric("mb", 1.0).build());
                }
            }
            run = RunDirectory.read(rd.path());
        }
        List<ChartSpec> specs = Charts.defaults(run);
        assertEquals(ChartSpec.Kind.LINE, specs.get(0).kind());
        assertEquals("size", specs.get(0).x());
        assertEquals(List.of("mode"), specs.get(0).series());
        // mb is 1.0 in every cell: a flat line says nothing (the summary table still has it)
        assertEquals(List.of("ms"), specs.stream().map(ChartSpec::metric).toList());
    }

    /**
     * bench query over a settings matrix: time per query, bars per work_mem. A query's rows and bytes differ
     * between queries but not with the setting; bars of equal height per query are no measurement, so not drawn.
     */
    @Test
    void queryChartsOnlyWhatTheSettingsChange() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("query", List.of("bench", "query"), Map.of()))) {
            for (String q : List.of("q1", "q2")) {
                for (String wm : List.of("4MB", "64MB")) {
                    rd.append(Trial.of(q + wm, 0).param("query", q).param("work_mem", wm)
                            .metric("ms", wm.equals("4MB") ? 10.0 : 4.0).metric("rows", q.equals("q1") ? 1 : 999)
                            .metric("bytes", q.equals("q1") ? 7 : 2889).metric("first_row_ms", wm.equals("4MB") ? 9.0 : 3.0).build());
                }
            }
            run = RunDirectory.read(rd.path());
        }
        List<ChartSpec> specs = Charts.defaults(run);
        assertEquals(List.of("ms", "first_row_ms"), specs.stream().map(ChartSpec::metric).toList());
        assertEquals(ChartSpec.Kind.BAR, specs.get(0).kind());
        assertEquals("query", specs.get(0).x());
        assertEquals(List.of("work_mem"), specs.get(0).series());

        // one query: its rows are as constant, though no two cells share anything but the query
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("one"), RunInfo.of("query", List.of("bench", "query"), Map.of()))) {
            for (String wm : List.of("4MB", "64MB")) {
                rd.append(Trial.of(wm, 0).param("query", "q1").param("work_mem", wm).metric("ms", wm.equals("4MB") ? 10.0 : 4.0)
                        .metric("rows", 1).metric("bytes", 7).build());
            }
            run = RunDirectory.read(rd.path());
        }
        assertEquals(List.of("ms"), Charts.defaults(run).stream().map(ChartSpec::metric).toList());
    }
}
