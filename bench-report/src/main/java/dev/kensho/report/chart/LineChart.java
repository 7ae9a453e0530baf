package dev.kensho.report.chart;

import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/** Median against a numeric parameter, one line per series, min–max error bars. */
public final class LineChart {
    private LineChart() {}

    /** A vertical mark on the x axis (a crossover point). */
    public record Marker(double x, String label) {}

    /** Parameters that grow by doubling in the studies (1, 4, 16 … 1024 clients): charted on a log₂ axis. */
    public static final java.util.Set<String> DOUBLING = java.util.Set.of("clients", "threads", "connections", "jobs");

    /** Past this ratio of the largest to the smallest value (two orders of magnitude) the y axis is logarithmic. */
    public static final double LOG_SPAN = 100;

    /** How a series is drawn: palette colour index and whether its line is dashed. */
    public record Look(int color, boolean dashed) {}

    /**
     * A metric against a parameter as a reader names it, with the column it is drawn from: "TPS vs clients (tps)",
     * "Latency avg (ms) vs clients (latency_avg_ms)". Also what a screen reader announces for the chart.
     */
    public static String title(String metric, String x) {
        String words = Style.axis(metric);
        return Character.toUpperCase(words.charAt(0)) + words.substring(1) + " vs " + x + (words.equals(metric) ? "" : " (" + metric + ")");
    }

    public static JFreeChart build(String title, String xLabel, String yLabel, Map<String, List<Point>> series,
                                   List<Marker> markers) {
        return build(title, xLabel, yLabel, series, markers, Map.of());
    }

    /** looks: per series label; series without one get the next colour, solid. */
    public static JFreeChart build(String title, String xLabel, String yLabel, Map<String, List<Point>> series,
                                   List<Marker> markers, Map<String, Look> looks) {
        List<Point> all = series.values().stream().flatMap(List::stream).toList();
        double yLo = all.stream().mapToDouble(Point::min).min().orElse(0), yHi = all.stream().mapToDouble(Point::max).max().orElse(0);
        String yName = Style.axis(yLabel);
        double yScale = 1;
        String inMs = Style.inMilliseconds(yName, yHi);
        if (inMs != null) {
            yName = inMs;
            yScale = 1000;
            yLo *= yScale;
            yHi *= yScale;
        }
        YIntervalSeriesCollection data = new YIntervalSeriesCollection();
        double lo = Double.POSITIVE_INFINITY, hi = 0;
        for (var e : series.entrySet()) {
            YIntervalSeries s = new YIntervalSeries(e.getKey());
            for (Point p : e.getValue()) {
                double x = Cells.number(p.x());
                s.add(x, p.median() * yScale, p.min() * yScale, p.max() * yScale);
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
            }
            data.addSeries(s);
        }
        // client counts 1..1024 read best on a log axis, as the studies' doubling steps are
        ValueAxis xAxis;
        if (DOUBLING.contains(xLabel) && lo > 0 && hi / lo >= 4) {
            LogAxis log = new LogAxis(Style.axis(xLabel));
            log.setBase(2);
            log.setStandardTickUnits(Style.tickUnits(true));
            log.setSmallestValue(lo / 2);
            log.setNumberFormatOverride(Style.decimal("0"));
            xAxis = log;
        } else {
            boolean integers = series.values().stream().flatMap(List::stream)
                    .allMatch(p -> Cells.number(p.x()) == Math.rint(Cells.number(p.x())));
            NumberAxis lin = Style.numberAxis(Style.axis(xLabel), integers);
            lin.setAutoRangeIncludesZero(false);
            // sticky zero ends the axis at 0 exactly: SSB's workers=0 points and their bars were half cut off by the y axis
            if (lo <= 0) lin.setAutoRangeStickyZero(false);
            xAxis = lin;
        }
        ValueAxis yAxis;
        if (yLo > 0 && yHi / yLo > LOG_SPAN) {
            // one slow point (5.7 ms among 0.05 ms ones) would flatten every other onto the floor of a linear axis
            LogAxis log = new DecadeAxis(yName + ", log scale");
            log.setSmallestValue(yLo / 2);
            log.setMinorTickMarksVisible(true);
            yAxis = log;
        } else {
            NumberAxis lin = Style.numberAxis(yName, false);
            lin.setAutoRangeIncludesZero(true);
            yAxis = lin;
        }
        XYErrorRenderer r = new XYErrorRenderer();
        r.setDrawXError(false);
        r.setDefaultLinesVisible(true);
        r.setDefaultShapesVisible(true);
        r.setCapLength(6);
        int i = 0;
        for (String label : series.keySet()) {
            // past the palette (13 SSB queries) colours repeat: dashed the second time round
            Look look = looks.getOrDefault(label, new Look(i, i / Style.PALETTE.length % 2 == 1));
            r.setSeriesPaint(i, Style.paint(look.color()));
            r.setSeriesStroke(i, look.dashed() ? Style.DASHED : Style.LINE);
            i++;
        }
        XYPlot plot = new XYPlot(data, xAxis, yAxis, r);
        plot.setDomainGridlinePaint(Style.GRID);
        plot.setRangeGridlinePaint(Style.GRID);
        for (Marker m : markers) {
            ValueMarker vm = new ValueMarker(m.x());
            vm.setPaint(java.awt.Color.DARK_GRAY);
            vm.setStroke(new java.awt.BasicStroke(1f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER, 1f,
                    new float[] {5f, 4f}, 0f));
            vm.setLabel(m.label());
            vm.setLabelFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 11));
            vm.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            vm.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            plot.addDomainMarker(vm, Layer.FOREGROUND);
        }
        return Style.finish(title, plot, series.size() > 1 || !series.containsKey("all"));   // one unnamed line needs no legend
    }
}
