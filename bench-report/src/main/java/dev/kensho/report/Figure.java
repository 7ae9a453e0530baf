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

    /**
     * The chart as an inline &lt;svg&gt; element that scales with the page. The id prefixes the
     * element's clip-path ids so several charts can share one HTML document.
     */
    public String svg(String id) {
        SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
        g2.setDefsKeyPrefix(id + "-");
        // JFreeSVG writes every coordinate as a full double (61.517459869384766): a hundredth of a pixel is finer than any
        // screen, and a sweep's report of dozens of 300-second charts was three times the size for those digits
        g2.setGeomDoubleConverter(Figure::hundredths);
        chart.draw(g2, new java.awt.geom.Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        String svg = g2.getSVGElement(id, false, new ViewBox(0, 0, WIDTH, HEIGHT), null, null);
        // inline SVG in HTML needs no namespace declarations; dropping them keeps the file free of URLs
        return svg.replaceAll(" xmlns(:\\w+)?=(['\"])[^'\"]*\\2", "");
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
            ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
        } catch (IOException e) {
            throw dev.kensho.core.KenshoException.usage("cannot write " + file + ": " + dev.kensho.core.KenshoException.ioReason(e));
        }
    }
}
