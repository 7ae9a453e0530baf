package dev.kensho.report.chart;

import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/** Shares in percent stacked to 100 per category (a wait-event profile per client count). */
public final class StackedShareChart {
    private StackedShareChart() {}

    /**
     * @param shares category → (part → percent), categories in display order
     * @param parts  the parts in stacking order (bottom first)
     */
    public static JFreeChart build(String title, String categoryLabel, Map<String, Map<String, Double>> shares, List<String> parts) {
        return build(title, categoryLabel, shares, parts, java.util.stream.IntStream.range(0, parts.size()).boxed().toList());
    }

    /**
     * With the palette colour of each part given (-1: a grey for a remainder such as "other"), so that one part has
     * one colour in every chart of a report.
     */
    public static JFreeChart build(String title, String categoryLabel, Map<String, Map<String, Double>> shares, List<String> parts,
                                   List<Integer> colours) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (String part : parts) {
            for (var c : shares.entrySet()) data.addValue(c.getValue().getOrDefault(part, 0.0), part, c.getKey());
        }
        CategoryAxis x = new CategoryAxis(Style.axis(categoryLabel));
        if (shares.size() > 8) x.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        NumberAxis y = Style.numberAxis("% of backend samples", false);
        y.setRange(0, 100);
        StackedBarRenderer r = new StackedBarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setDrawBarOutline(false);
        r.setMaximumBarWidth(0.12);
        for (int i = 0; i < parts.size(); i++) r.setSeriesPaint(i, colours.get(i) < 0 ? Style.REST : Style.paint(colours.get(i)));
        CategoryPlot plot = new CategoryPlot(data, x, y, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        plot.setRangeGridlinePaint(Style.GRID);
        return Style.finish(title, plot, true);
    }
}
