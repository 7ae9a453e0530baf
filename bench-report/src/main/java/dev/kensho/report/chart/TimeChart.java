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
        for (var e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey(), false, true);
            for (double[] p : e.getValue()) s.add(p[0], p[1]);
            data.addSeries(s);
        }
        NumberAxis x = Style.numberAxis("seconds since the clock started", true); // whole seconds, also on a 2 s run
        x.setAutoRangeIncludesZero(true);
        NumberAxis y = Style.numberAxis(Style.axis(yLabel), false);
        y.setAutoRangeIncludesZero(true);
        // hundreds of points per line: lines only
        JFreeChart chart = Style.lines(title, data, x, y, new java.awt.BasicStroke(1.5f));
        int r = rest == null ? -1 : data.getSeriesIndex(rest);
        if (r >= 0) chart.getXYPlot().getRenderer().setSeriesPaint(r, Style.REST);
        return chart;
    }
}
