package dev.kensho.report.chart;

import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** A value second by second (a run's timeline), one line per series (a cell's repeats). */
public final class TimeChart {
    private TimeChart() {}

    /** series label → (seconds, value) pairs in time order. */
    public static JFreeChart build(String title, String yLabel, Map<String, List<double[]>> series) {
        return build(title, yLabel, series, null);
    }

    /** As above; the series labelled rest (a remainder, "mean of the other 24 CPUs") is grey, never a palette colour. */
    public static JFreeChart build(String title, String yLabel, Map<String, List<double[]>> series, String rest) {
        XYSeriesCollection data = new XYSeriesCollection();
        List<Integer> coinciding = new java.util.ArrayList<>();
        List<Map.Entry<String, List<double[]>>> lines = List.copyOf(series.entrySet());
        for (int i = 0; i < lines.size(); i++) {
            var e = lines.get(i);
            // a line equal to an earlier one at every point (loopback's tx is its rx; two idle disks' 0 kB/s) was drawn
            // exactly over it, named in the legend and nowhere to be seen: it says so and is dashed, the earlier one showing through
            String same = lines.subList(0, i).stream().filter(o -> samePoints(o.getValue(), e.getValue()))
                    .map(Map.Entry::getKey).findFirst().orElse(null);
            if (same != null) coinciding.add(data.getSeriesCount());
            XYSeries s = new XYSeries(same == null ? e.getKey() : e.getKey() + " (same as " + same + ")", false, true);
            for (double[] p : e.getValue()) s.add(p[0], p[1]);
            data.addSeries(s);
        }
        NumberAxis x = Style.numberAxis("seconds since the clock started", true); // whole seconds, also on a 2 s run
        x.setAutoRangeIncludesZero(true);
        NumberAxis y = Style.numberAxis(Style.axis(yLabel), false);
        y.setAutoRangeIncludesZero(true);
        // hundreds of points per line: lines only
        JFreeChart chart = Style.lines(title, data, x, y, new java.awt.BasicStroke(1.5f));
        int r = new java.util.ArrayList<>(series.keySet()).indexOf(rest);   // by place: a coinciding rest was renamed
        if (r >= 0) chart.getXYPlot().getRenderer().setSeriesPaint(r, Style.REST);
        for (int i : coinciding) chart.getXYPlot().getRenderer().setSeriesStroke(i, COINCIDING);
        return chart;
    }

    /** Dashes as long as their gaps: half of the line beneath shows. */
    static final java.awt.BasicStroke COINCIDING = new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT,
            java.awt.BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 6f}, 0f);

    private static boolean samePoints(List<double[]> a, List<double[]> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (!java.util.Arrays.equals(a.get(i), b.get(i))) return false;
        return !a.isEmpty();
    }
}
