package dev.kensho.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.junit.jupiter.api.Test;

class BarChartTest {
    /** ssb jit at a small scale, every query under a second: the bars stood under an axis of "seconds" in 0.0025 steps. */
    @Test
    void secondsAllUnderOneAreDrawnInMillisecondsAsLineChartDraws() {
        Map<String, List<Point>> fast = Map.of("jit=off", List.of(new Point("q1.1", 0.050, 0.048, 0.052, 3),
                new Point("q1.2", 0.020, 0.019, 0.021, 3)));
        CategoryPlot plot = BarChart.build("Time per query", "query", "seconds", fast).getCategoryPlot();
        assertEquals("milliseconds", plot.getRangeAxis().getLabel());
        assertEquals(50.0, plot.getDataset().getValue("jit=off", "q1.1").doubleValue(), 1e-9);
        assertEquals(52.0 * 1.06, plot.getRangeAxis().getUpperBound(), 1e-9, "the whiskers' top, in ms");
        assertEquals("time (ms)", BarChart.build("t", "query", "s", fast).getCategoryPlot().getRangeAxis().getLabel());
        // a query of a second or more keeps the axis in seconds; other metrics are never scaled
        JFreeChart slow = BarChart.build("t", "query", "seconds", Map.of("all", List.of(new Point("q1.1", 1.5, 1.4, 1.6, 3))));
        assertEquals("seconds", slow.getCategoryPlot().getRangeAxis().getLabel());
        assertEquals(1.5, slow.getCategoryPlot().getDataset().getValue("all", "q1.1").doubleValue(), 1e-9);
        assertEquals("reduction %", BarChart.build("t", "query", "reduction %", fast).getCategoryPlot().getRangeAxis().getLabel());
    }
}
