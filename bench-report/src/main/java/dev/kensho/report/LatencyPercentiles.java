package dev.kensho.report;

import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.LatencyDistribution;
import dev.kensho.core.result.Trial;
import dev.kensho.report.chart.Cells;
import dev.kensho.report.chart.PercentileChart;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The latency distribution of every cell whose trials kept their histograms (pgbench runs and
 * sweeps): a cell's repeats merged into one histogram, so its p99.9 is that of all its transactions,
 * not a median of medians. A sweep gets one chart per target (or version) with a line per client count.
 */
public final class LatencyPercentiles {
    private LatencyPercentiles() {}

    public static List<Figure> figures(List<Trial> trials, List<String> planned) {
        Cells cells = new Cells(trials, planned);
        Map<String, List<Trial>> byCell = byCell(trials);
        // each cell's ok repeats, merged once (decoding is the costly part)
        Map<String, List<Trial>> ok = new LinkedHashMap<>();
        Map<String, Histogram> merged = new LinkedHashMap<>();
        for (CellSummary c : cells.ok()) {
            List<Trial> good = byCell.get(c.cell()).stream().filter(Trial::ok).toList();
            Histogram h = LatencyDistribution.merged(good);
            if (h == null) continue;
            ok.put(c.cell(), good);
            merged.put(c.cell(), h);
        }
        List<CellSummary> with = cells.ok().stream().filter(c -> merged.containsKey(c.cell())).toList();
        if (with.isEmpty()) return List.of();
        List<String> varying = new ArrayList<>(cells.varying());
        List<String> series = varying, facets = List.of();
        if (varying.contains("clients")) {
            List<String> rest = new ArrayList<>(varying);
            rest.remove("clients");
            rest.removeAll(cells.determinedBy("clients", rest));
            series = List.of("clients");
            facets = rest;
        }
        List<Figure> out = new ArrayList<>();
        for (var facet : cells.groupBy(facets, with).entrySet()) {
            Map<String, Histogram> lines = new LinkedHashMap<>();
            Map<String, Double> maxes = new LinkedHashMap<>();
            List<String> notes = new ArrayList<>();
            for (var g : cells.groupBy(series, facet.getValue()).entrySet()) {
                CellSummary c = g.getValue().get(0);
                Histogram h = merged.get(c.cell());
                int repeats = ok.get(c.cell()).size();
                String label = Cells.label(c.params(), series);
                lines.put(label, h);
                double max = LatencyDistribution.maxMs(ok.get(c.cell()), h);
                maxes.put(label, max);
                notes.add(String.format(Locale.ROOT, "%sp50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, p99.99 %.3f ms, max %.3f ms over %d transactions%s",
                        series.isEmpty() ? "" : label + ": ", ms(h, 50, max), ms(h, 99, max), ms(h, 99.9, max), ms(h, 99.99, max), max,
                        h.getTotalCount(), repeats == 1 ? "" : " (" + repeats + " repeats merged)"));
            }
            String title = "Latency by percentile" + (facets.isEmpty() ? "" : " — " + Cells.label(facet.getValue().get(0).params(), facets));
            out.add(new Figure(title, PercentileChart.build(title, lines, maxes), notes));
        }
        return out;
    }

    private static double ms(Histogram h, double percentile, double maxMs) {
        return LatencyDistribution.percentileMs(h, percentile, maxMs);
    }

    static Map<String, List<Trial>> byCell(List<Trial> trials) {
        Map<String, List<Trial>> m = new LinkedHashMap<>();
        for (Trial t : trials) m.computeIfAbsent(t.cell(), k -> new ArrayList<>()).add(t);
        return m;
    }
}
