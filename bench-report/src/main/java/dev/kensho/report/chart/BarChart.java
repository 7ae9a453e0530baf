package dev.kensho.report.chart;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

/** Median per category (query), grouped bars per series, min–max whiskers. */
public final class BarChart {
    private BarChart() {}

    /** series → points whose x is the category. */
    public static JFreeChart build(String title, String categoryLabel, String yLabel, Map<String, List<Point>> series) {
        return build(title, categoryLabel, yLabel, series, Cells.ORDER);
    }

    /** order: of the categories along the axis (the run's query order, {@link Cells#order}). */
    public static JFreeChart build(String title, String categoryLabel, String yLabel, Map<String, List<Point>> series,
                                   java.util.Comparator<Object> order) {
        String yName = Style.axis(yLabel);
        String inMs = Style.inMilliseconds(yName, series.values().stream().flatMap(List::stream).mapToDouble(Point::max)
                .filter(Double::isFinite).max().orElse(0));
        if (inMs != null) {
            // as LineChart: SSB's queries at a small scale were bars under an axis of 0.0025 s steps
            yName = inMs;
            Map<String, List<Point>> ms = new java.util.LinkedHashMap<>();
            series.forEach((k, ps) -> ms.put(k, ps.stream().map(p -> new Point(p.x(), p.median() * 1000, p.min() * 1000, p.max() * 1000, p.n())).toList()));
            series = ms;
        }
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        Map<String, Point> ranges = new HashMap<>();
        java.util.Set<Object> categories = new java.util.TreeSet<>(order);
        series.values().forEach(ps -> ps.forEach(p -> categories.add(p.x())));
        for (Object c : categories) {
            for (var e : series.entrySet()) {
                Point p = e.getValue().stream().filter(q -> Cells.same(q.x(), c)).findFirst().orElse(null);
                String col = Cells.text(c);
                data.addValue(p == null ? null : p.median(), e.getKey(), col);
                if (p != null) ranges.put(e.getKey() + "\u0000" + col, p);
            }
        }
        CategoryAxis xAxis = new CategoryAxis(Style.axis(categoryLabel));
        if (categories.size() > 8) xAxis.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        xAxis.setCategoryMargin(0.15);
        NumberAxis yAxis = Style.numberAxis(yName, false);
        // the axis must hold the whiskers, not only the bars
        double top = series.values().stream().flatMap(List::stream).mapToDouble(Point::max).filter(Double::isFinite).max().orElse(0);
        double bottom = Math.min(0, series.values().stream().flatMap(List::stream).mapToDouble(Point::min)
                .filter(Double::isFinite).min().orElse(0));
        if (top > 0) yAxis.setRange(bottom * 1.06, top * 1.06);
        RangeBarRenderer r = new RangeBarRenderer(ranges);
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setItemMargin(0.03);
        r.setMaximumBarWidth(0.08);
        r.setDrawBarOutline(false);
        for (int i = 0; i < series.size(); i++) r.setSeriesPaint(i, Style.paint(i));
        CategoryPlot plot = new CategoryPlot(data, xAxis, yAxis, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        plot.setRangeGridlinePaint(Style.GRID);
        // one series still needs its name ("workers=2" when the pool's other worker counts were skipped); only the
        // unnamed series of a chart without series parameters goes without
        return Style.finish(title, plot, series.size() > 1 || !series.containsKey("all"));
    }

    /** Bars with a min–max whisker over each (the spread of the repeats). */
    static final class RangeBarRenderer extends BarRenderer {
        private static final long serialVersionUID = 1L;
        private final transient Map<String, Point> ranges;

        RangeBarRenderer(Map<String, Point> ranges) {
            this.ranges = ranges;
        }

        @Override
        public void drawItem(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot,
                             CategoryAxis domainAxis, ValueAxis rangeAxis, CategoryDataset dataset, int row, int column,
                             int pass) {
            super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
            Point p = ranges.get(dataset.getRowKey(row) + "\u0000" + dataset.getColumnKey(column));
            if (p == null || p.n() < 2 || pass != 0) return;
            double x = calculateBarW0(plot, plot.getOrientation(), dataArea, domainAxis, state, row, column)
                    + state.getBarWidth() / 2;
            double y0 = rangeAxis.valueToJava2D(p.min(), dataArea, plot.getRangeAxisEdge());
            double y1 = rangeAxis.valueToJava2D(p.max(), dataArea, plot.getRangeAxisEdge());
            double cap = Math.min(6, state.getBarWidth() / 3);
            g2.setPaint(Color.BLACK);
            g2.setStroke(new java.awt.BasicStroke(1f));
            g2.draw(new Line2D.Double(x, y0, x, y1));
            g2.draw(new Line2D.Double(x - cap, y0, x + cap, y0));
            g2.draw(new Line2D.Double(x - cap, y1, x + cap, y1));
        }
    }
}
