package dev.kensho.report.chart;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.axis.ValueTick;
import org.jfree.chart.ui.RectangleEdge;
import org.junit.jupiter.api.Test;

class DecadeAxisTest {
    /** The y axis's tick labels as the chart draws them at the report's size. */
    private static List<String> yLabels(JFreeChart chart) {
        BufferedImage img = new BufferedImage(860, 480, BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = img.createGraphics();
        ChartRenderingInfo info = new ChartRenderingInfo();
        chart.draw(g2, new Rectangle2D.Double(0, 0, 860, 480), info);
        ValueAxis y = chart.getXYPlot().getRangeAxis();
        Rectangle2D area = info.getPlotInfo().getDataArea();
        List<?> ticks = y.refreshTicks(g2, new AxisState(), area, RectangleEdge.LEFT);
        g2.dispose();
        return ticks.stream().map(DecadeAxisTest::text).filter(t -> t != null && !t.isEmpty()).toList();
    }

    /** LogAxis's own ticks carry their label as an attributed string. */
    private static String text(Object tick) {
        if (tick instanceof org.jfree.chart.axis.LogTick l && l.getAttributedLabel() != null) {
            var it = l.getAttributedLabel().getIterator();
            StringBuilder b = new StringBuilder();
            for (char c = it.first(); c != java.text.CharacterIterator.DONE; c = it.next()) b.append(c);
            return b.toString();
        }
        return ((ValueTick) tick).getText();
    }

    /** A pgbench run's latencies, 0.3 to 4 ms: the axis was labelled "1" and nothing else. */
    @Test
    void aLatencyAxisWithinADecadeOrTwoHasLabelsToReadBy() {
        Histogram h = new Histogram(3);
        for (int us = 300; us <= 4000; us += 10) h.recordValue(us);
        List<String> labels = yLabels(PercentileChart.build("Latency by percentile", Map.of("clients=2", h)));
        assertTrue(labels.containsAll(List.of("0.5", "1", "2", "3")), labels.toString());
    }

    /** Within half a decade (0.3–0.6 ms) every step is labelled. */
    @Test
    void halfADecadeLabelsEveryStep() {
        DecadeAxis y = new DecadeAxis("ms");
        y.setRange(0.28, 0.62);
        Graphics2D g2 = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        List<?> ticks = y.refreshTicks(g2, new AxisState(), new Rectangle2D.Double(0, 0, 800, 400), RectangleEdge.LEFT);
        g2.dispose();
        assertTrue(ticks.stream().map(DecadeAxisTest::text).toList().containsAll(List.of("0.3", "0.4", "0.5", "0.6")), ticks.toString());
    }

    /** Over many decades, powers of ten only, so the labels do not crowd. */
    @Test
    void manyDecadesArePowersOfTen() {
        JFreeChart chart = LineChart.build("t", "selectivity_pct", "ms", Map.of("a", List.of(
                new Point(1, 0.001, 0.001, 0.001, 1), new Point(100, 1000, 1000, 1000, 1))), List.of());
        List<String> labels = yLabels(chart);
        assertTrue(labels.containsAll(List.of("0.01", "1", "100")), labels.toString());
        assertTrue(labels.stream().noneMatch(l -> l.startsWith("2") || l.startsWith("5") || l.startsWith("0.5")), labels.toString());
    }

    /** The scan chart's 0.2–100 ms: labels between the powers of ten too. */
    @Test
    void scanTimesGetTwosAndFives() {
        JFreeChart chart = LineChart.build("t", "selectivity_pct", "ms", Map.of("a", List.of(
                new Point(1, 0.2, 0.2, 0.2, 1), new Point(100, 100, 100, 100, 1))), List.of());
        List<String> labels = yLabels(chart);
        assertTrue(labels.containsAll(List.of("0.2", "0.5", "1", "2", "5", "10", "20", "50", "100")), labels.toString());
    }
}
