package dev.kensho.report.chart;

import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
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
        NumberAxis y = new NumberAxis(yLabel);
        y.setAutoRangeIncludesZero(true);
        // hundreds of points per line: lines only
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        // one SVG path per line, not an element per segment: a sweep's report holds dozens of these
        r.setDrawSeriesLineAsPath(true);
        for (int i = 0; i < series.size(); i++) {
            r.setSeriesPaint(i, Style.paint(i));
            r.setSeriesStroke(i, new java.awt.BasicStroke(1.5f));
        }
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setDomainGridlinePaint(Style.GRID);
        plot.setRangeGridlinePaint(Style.GRID);
        return Style.finish(title, plot, series.size() > 1);
    }
}
