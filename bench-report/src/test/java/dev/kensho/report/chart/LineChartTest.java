package dev.kensho.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.ValueAxis;
import org.junit.jupiter.api.Test;

class LineChartTest {
    /** The axis as the chart is drawn at the report's size (ranges and ticks are settled by drawing). */
    static ValueAxis drawn(JFreeChart chart, boolean domain) {
        BufferedImage img = new BufferedImage(860, 480, BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = img.createGraphics();
        chart.draw(g2, new Rectangle2D.Double(0, 0, 860, 480));
        g2.dispose();
        return domain ? chart.getXYPlot().getDomainAxis() : chart.getXYPlot().getRangeAxis();
    }

    /**
     * SSB's time vs workers 0, 1, 2: the x axis began at 0 exactly (JFreeChart's sticky zero), so the workers=0 points
     * and their min–max bars sat on the y axis, half of each cut off.
     */
    @Test
    void theFirstXValueIsNotOnTheAxisEdge() {
        JFreeChart chart = LineChart.build("Time vs workers", "workers", "s", Map.of("q1.1", List.of(
                new Point(0, 0.010, 0.009, 0.012, 2), new Point(1, 0.008, 0.007, 0.009, 2), new Point(2, 0.006, 0.005, 0.007, 2))),
                List.of());
        ValueAxis x = drawn(chart, true);
        assertTrue(x.getLowerBound() < 0, "x from " + x.getLowerBound());
        assertTrue(x.getUpperBound() > 2, "x to " + x.getUpperBound());
    }

    /** SSB at a small scale, every query under a second: the axis read "time (s)" with ticks at 0.002, 0.004… */
    @Test
    void secondsAllUnderOneAreDrawnInMilliseconds() {
        Map<String, List<Point>> fast = Map.of("q1.1", List.of(new Point(0, 0.010, 0.009, 0.012, 2), new Point(1, 0.008, 0.007, 0.009, 2)));
        JFreeChart chart = LineChart.build("Time vs workers", "workers", "s", fast, List.of());
        ValueAxis y = drawn(chart, false);
        assertEquals("time (ms)", y.getLabel());
        assertEquals(10.0, chart.getXYPlot().getDataset().getYValue(0, 0), 1e-9);
        // ssb's own metric is named "seconds"
        assertEquals("milliseconds", drawn(LineChart.build("Time vs workers", "workers", "seconds", fast, List.of()), false).getLabel());
        assertTrue(y.getUpperBound() >= 12 && y.getUpperBound() < 20, "y to " + y.getUpperBound());
        // a query of a second or more keeps the axis in seconds
        Map<String, List<Point>> slow = Map.of("q1.1", List.of(new Point(0, 1.5, 1.2, 1.8, 2), new Point(1, 0.8, 0.7, 0.9, 2)));
        JFreeChart inSeconds = LineChart.build("Time vs workers", "workers", "s", slow, List.of());
        assertEquals("time (s)", drawn(inSeconds, false).getLabel());
        assertEquals(1.5, inSeconds.getXYPlot().getDataset().getYValue(0, 0), 1e-9);
    }
}
