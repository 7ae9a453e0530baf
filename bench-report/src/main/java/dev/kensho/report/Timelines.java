package dev.kensho.report;

import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.result.Trial;
import dev.kensho.report.chart.Cells;
import dev.kensho.report.chart.TimeChart;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each trial second by second: a chart per cell with a line per repeat, TPS against time. A mean
 * hides what these show: a checkpoint's dip, a run still warming up, one repeat unlike the others.
 */
public final class Timelines {
    private Timelines() {}

    /**
     * A cell with its finished trials in repeat order, and what names it in a title (" — version=17, clients=4"; ""
     * when nothing varies), for charts drawn per cell.
     */
    record TitledCell(CellSummary cell, List<Trial> ok, String label) {}

    static List<TitledCell> titledCells(List<Trial> trials, List<String> planned) {
        Cells cells = new Cells(trials, planned);
        Map<String, List<Trial>> byCell = LatencyPercentiles.byCell(trials);
        List<String> varying = new ArrayList<>(cells.varying());
        // threads = clients/2 says nothing new in a title
        if (varying.contains("clients")) varying.removeAll(cells.determinedBy("clients", varying));
        List<TitledCell> out = new ArrayList<>();
        for (var g : cells.groupBy(varying, cells.ok()).entrySet()) {
            CellSummary c = g.getValue().get(0);
            List<Trial> ok = byCell.get(c.cell()).stream().filter(Trial::ok).sorted(Comparator.comparingInt(Trial::repeat)).toList();
            out.add(new TitledCell(c, ok, varying.isEmpty() ? "" : " — " + Cells.label(c.params(), varying)));
        }
        return out;
    }

    public static List<Figure> figures(List<Trial> trials, List<String> planned) {
        List<Figure> out = new ArrayList<>();
        for (TitledCell tc : titledCells(trials, planned)) {
            Map<String, List<double[]>> lines = new LinkedHashMap<>();
            List<String> notes = new ArrayList<>();
            for (Trial t : tc.ok()) {
                Timeline tl = Timeline.of(t);
                if (tl == null || tl.size() == 0) continue;
                List<double[]> points = new ArrayList<>();
                List<Double> ts = tl.column(Timeline.T), tps = tl.column("tps");
                for (int i = 0; i < tl.size() && i < tps.size(); i++) points.add(new double[] {ts.get(i), tps.get(i)});
                String label = "repeat " + (t.repeat() + 1);
                lines.put(label, points);
                double lo = tps.stream().mapToDouble(Double::doubleValue).min().orElse(0);
                double hi = tps.stream().mapToDouble(Double::doubleValue).max().orElse(0);
                double p99 = tl.column("latency_p99_ms").stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
                double cv = tl.variationPercent("tps");
                notes.add(String.format(Locale.ROOT, "%s: tps per second %.1f–%.1f%s; highest p99 latency of a second %.3f ms%s", label, lo, hi,
                        Double.isNaN(cv) ? "" : String.format(Locale.ROOT, " (coefficient of variation %.1f %%)", cv), p99,
                        failed(tl)));
            }
            if (lines.isEmpty()) continue;
            String title = "TPS per second" + tc.label();
            out.add(new Figure(title, TimeChart.build(title, "tps", lines), notes));
        }
        return out;
    }

    private static String failed(Timeline tl) {
        double f = tl.column("failed").stream().mapToDouble(Double::doubleValue).sum();
        return f == 0 ? "" : String.format(Locale.ROOT, "; %.0f failed", f);
    }
}
