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
        XYSeriesCollection data = new XYSeriesCollection();
        for (var e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey(), false, true);
            for (double[] p : e.getValue()) s.add(p[0], p[1]);
            data.addSeries(s);
        }
        NumberAxis x = new NumberAxis("seconds since the clock started");
        x.setAutoRangeIncludesZero(true);
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());   // whole seconds, also on a 2 s run
        NumberAxis y = new NumberAxis(Style.axis(yLabel));
        y.setAutoRangeIncludesZero(true);
        // hundreds of points per line: lines only
        return Style.lines(title, data, x, y, new java.awt.BasicStroke(1.5f));
    }
}
