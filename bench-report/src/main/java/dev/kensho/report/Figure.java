package dev.kensho.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

/**
 * A drawn chart and what the report says under it (crossover points, reductions).
 *
 * @param title   the chart's title
 * @param chart   the JFreeChart, for callers that want to restyle or render it otherwise; null where there was
 *                nothing to draw (an empty chart's axes would only mislead) and the notes say why
 * @param notes   one line each, shown below the chart, or instead of it
 */
public record Figure(String title, JFreeChart chart, List<String> notes) {
    public static final int WIDTH = 860;
    public static final int HEIGHT = 480;

    /** A chart left out: its title and one line saying why. */
    public static Figure none(String title, String why) {
        return new Figure(title, null, List.of(why));
    }

    public boolean drawn() {
        return chart != null;
    }

    /** Room a legend gets before the chart grows: three rows of entries. */
    private static final double LEGEND_ROOM = 60;

    /**
     * The chart's height: HEIGHT, taller by what its legend needs beyond three rows. JFreeChart takes the legend's room
     * from the plot, and a sweep of a hundred cells had a plot squeezed to a strip (at 208 lines, to nothing).
     */
    public int height() {
        if (chart == null || chart.getLegend() == null || !chart.getLegend().isVisible()) return HEIGHT;
        java.awt.image.BufferedImage scratch = new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g2 = scratch.createGraphics();
        try {
            // as JFreeChart arranges a top or bottom title: the chart's width, any height
            double big = 1e6;
            org.jfree.chart.ui.Size2D size = chart.getLegend().arrange(g2, new org.jfree.chart.block.RectangleConstraint(
                    WIDTH, new org.jfree.data.Range(0, WIDTH), org.jfree.chart.block.LengthConstraintType.RANGE,
                    big, new org.jfree.data.Range(0, big), org.jfree.chart.block.LengthConstraintType.RANGE));
            return HEIGHT + (int) Math.ceil(Math.max(0, size.getHeight() - LEGEND_ROOM));
        } finally {
            g2.dispose();
        }
    }

    /**
     * The chart as an inline &lt;svg&gt; element that scales with the page. The id prefixes the
     * element's clip-path ids so several charts can share one HTML document.
     */
    public String svg(String id) {
        int height = height();
        SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, height);
        g2.setDefsKeyPrefix(id + "-");
        // JFreeSVG writes every coordinate as a full double (61.517459869384766): a hundredth of a pixel is finer than any
        // screen, and a sweep's report of dozens of 300-second charts was three times the size for those digits
        g2.setGeomDoubleConverter(Figure::hundredths);
        chart.draw(g2, new java.awt.geom.Rectangle2D.Double(0, 0, WIDTH, height));
        String svg = g2.getSVGElement(id, false, new ViewBox(0, 0, WIDTH, height), null, null);
        // inline SVG in HTML needs no namespace declarations; dropping them keeps the file free of URLs
        svg = svg.replaceAll(" xmlns(:\\w+)?=(['\"])[^'\"]*\\2", "");
        // a name for screen readers and a tooltip: drawn text is paths and glyphs to them, and SSB's and compare's
        // charts have no caption
        int open = svg.indexOf('>');
        String name = dev.kensho.report.html.Html.esc(title);
        return svg.substring(0, open) + " role='img' aria-label='" + name + "'><title>" + name + "</title>" + svg.substring(open + 1);
    }

    /** A coordinate rounded to 0.01, without trailing zeros ("61.52", "290.7", "40"). */
    static String hundredths(double v) {
        if (!Double.isFinite(v) || Math.abs(v) > 1e12) return String.valueOf(v);
        long r = Math.round(v * 100);
        String sign = r < 0 ? "-" : "";
        r = Math.abs(r);
        long whole = r / 100, frac = r % 100;
        if (frac == 0) return sign + whole;
        if (frac % 10 == 0) return sign + whole + "." + frac / 10;
        return sign + whole + "." + (frac < 10 ? "0" : "") + frac;
    }

    public void png(Path file) {
        try {
            ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, height());
        } catch (IOException e) {
            throw dev.kensho.core.KenshoException.usage("cannot write " + file + ": " + dev.kensho.core.KenshoException.ioReason(e));
        }
    }
}
