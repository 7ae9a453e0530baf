package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.report.chart.PercentileChart;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.JFreeChart;
import org.junit.jupiter.api.Test;

class FigureTest {

    private static Figure percentiles(int lines) {
        Map<String, Histogram> series = new LinkedHashMap<>();
        for (int i = 0; i < lines; i++) {
            Histogram h = new Histogram(3);
            for (int v = 1; v <= 1000; v++) h.recordValue(100L * v + i);
            series.put("clients=" + (i + 1) + ", run=r" + i, h);
        }
        return new Figure("Latency by percentile", PercentileChart.build("Latency by percentile", series), List.of());
    }

    /** The height of the plot's data area when the chart is drawn at the figure's size. */
    private static double plotHeight(Figure f) {
        BufferedImage img = new BufferedImage(Figure.WIDTH, f.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = img.createGraphics();
        ChartRenderingInfo info = new ChartRenderingInfo();
        f.chart().draw(g2, new Rectangle2D.Double(0, 0, Figure.WIDTH, f.height()), info);
        g2.dispose();
        return info.getPlotInfo().getDataArea().getHeight();
    }

    @Test
    void aFewLinesKeepTheStandardSize() {
        Figure f = percentiles(8);
        assertEquals(Figure.HEIGHT, f.height());
        assertTrue(f.svg("c1").contains("viewBox='0 0 860 480'"), f.svg("c1").substring(0, 200));
    }

    /** A 208-cell sweep's legend took the whole chart: its plot was gone. */
    @Test
    void aLongLegendMakesTheChartTallerNotThePlotSmaller() {
        double standard = plotHeight(percentiles(8));
        Figure f = percentiles(208);
        assertTrue(f.height() > Figure.HEIGHT + 200, "height " + f.height());
        assertTrue(plotHeight(f) >= standard * 0.9, "plot " + plotHeight(f) + " of " + standard);
        Matcher vb = Pattern.compile("viewBox='0 0 860 (\\d+)'").matcher(f.svg("c2"));
        assertTrue(vb.find());
        assertEquals(f.height(), Integer.parseInt(vb.group(1)));
    }

    @Test
    void aChartWithoutALegendKeepsTheStandardSize() {
        JFreeChart one = PercentileChart.build("one", Map.of("all", new Histogram(3) {{ recordValue(5); }}));
        one.removeLegend();
        assertEquals(Figure.HEIGHT, new Figure("one", one, List.of()).height());
    }

    /** Screen readers had nothing to say of a chart: SSB's time vs workers and compare's charts have no caption either. */
    @Test
    void theSvgIsNamedByItsTitle() {
        JFreeChart one = PercentileChart.build("p", Map.of("all", new Histogram(3) {{ recordValue(5); }}));
        String svg = new Figure("Latency <by> percentile 'A' & B", one, List.of()).svg("c3");
        assertTrue(svg.startsWith("<svg id='c3'"), svg.substring(0, 80));
        String name = "Latency &lt;by&gt; percentile &#39;A&#39; &amp; B";
        assertTrue(svg.contains(" role='img' aria-label='" + name + "'>"), svg.substring(0, 200));
        assertTrue(svg.contains("<title>" + name + "</title>"), svg.substring(0, 200));
    }
}
