package dev.kensho.report.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.TickUnitSource;
import org.jfree.chart.axis.TickUnits;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYDataset;

/** One look for every chart: white plot, light grid, a colour-blind-safe palette (Okabe–Ito's, its yellow replaced). */
final class Style {
    /**
     * Okabe–Ito's colours but its yellow (#F0E442, 1.3:1 on white: SSB's q3.2 line was next to invisible), which is Paul
     * Tol's wine (#882255) here. A darker yellow or amber is seen by red–green colour-blind readers as the orange or the
     * vermillion (simulated, as close as 2 to 8 CIELAB units); the wine stays as far from every other colour, in each
     * kind of colour blindness, as those are from each other. The orange and the sky blue (2.2:1) are kept: darkened, the
     * orange meets the vermillion and the sky blue the blue.
     */
    static final Paint[] PALETTE = {
        new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
        new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0x882255),
    };
    static final Color GRID = new Color(0xDDDDDD);
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    static final BasicStroke LINE = new BasicStroke(2f);
    static final BasicStroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {7f, 4f}, 0f);

    private Style() {}

    /**
     * A value axis whose numbers read as the report's tables write them, whatever the JVM's locale: a German one
     * labelled a thousand "1.000" beside a table's "2551.3", an Arabic one in Arabic-Indic digits.
     */
    static NumberAxis numberAxis(String label, boolean integers) {
        NumberAxis a = new NumberAxis(label);
        a.setStandardTickUnits(tickUnits(integers));
        return a;
    }

    /**
     * Steps of 1, 2.5 and 5 times a power of ten, each written with the decimals it needs. JFreeChart's own units
     * follow the JVM's locale, and its locale-given ones write every step with at most three decimals: an SSB run's
     * 0.0005 s steps read 0, 0.001, 0.001, 0.002.
     */
    static TickUnitSource tickUnits(boolean integers) {
        TickUnits units = new TickUnits();
        for (int exp = integers ? 0 : -10; exp <= 15; exp++) {
            for (double m : new double[] {1, 2.5, 5}) {
                java.math.BigDecimal size = java.math.BigDecimal.valueOf(m).scaleByPowerOfTen(exp).stripTrailingZeros();
                int decimals = Math.max(0, size.scale());
                if (integers && decimals > 0) continue;
                units.add(new NumberTickUnit(size.doubleValue(), decimal(decimals == 0 ? "#,##0" : "#,##0." + "0".repeat(decimals))));
            }
        }
        return units;
    }

    /** A {@link DecimalFormat} of the tables' digits and separators, for axes that set their own. */
    static DecimalFormat decimal(String pattern) {
        return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
    }

    /**
     * A metric or parameter name as an axis reads it: latency_avg_ms is "latency avg (ms)", selectivity_pct
     * "selectivity (%)", tps "TPS". Anything that is not a bare name (already words) is left as it is.
     */
    static String axis(String name) {
        if (name == null || !name.matches("[a-z][a-z0-9_]*")) return name;
        if (name.equals("tps")) return "TPS";
        String[] w = name.split("_");
        String unit = switch (w[w.length - 1]) {
            case "ms" -> "ms";
            case "us" -> "µs";
            case "s" -> "s";
            case "pct", "percent" -> "%";
            case "mb" -> "MB";
            case "kb" -> "kB";
            default -> null;
        };
        String words = String.join(" ", unit == null ? w : java.util.Arrays.copyOf(w, w.length - 1)).replace("tps", "TPS");
        if (words.isEmpty()) {
            // a bare unit (query's and micro's "ms") is a time: the axis was left without a label
            return unit.equals("%") ? "share (%)" : unit.endsWith("s") ? "time (" + unit + ")" : unit;
        }
        return unit == null ? words : words + " (" + unit + ")";
    }

    /**
     * An axis of seconds whose values are all under one (SSB at a small scale: ticks at 0.002, 0.004…), named in
     * milliseconds: "seconds" is "milliseconds", "time (s)" "time (ms)"; null for any other axis, drawn as it is.
     */
    static String inMilliseconds(String axisName, double highest) {
        if (!(highest > 0 && highest < 1)) return null;
        if (axisName.equals("seconds")) return "milliseconds";
        return axisName.endsWith(" (s)") ? axisName.substring(0, axisName.length() - 4) + " (ms)" : null;
    }

    /** For a remainder ("other"): no palette colour, so it never looks like a named series. */
    static final Color REST = new Color(0xBBBBBB);

    static Paint paint(int i) {
        return PALETTE[i % PALETTE.length];
    }

    /** Dash patterns for the second, third and fourth rounds of the palette. */
    private static final float[][] DASHES = {{7f, 4f}, {2f, 3f}, {9f, 3f, 2f, 3f}};

    /**
     * Series i's line: solid for the first eight, then dashed, dotted, dash-dotted, so that a ninth line (study 001's
     * ninth client count, a host's ninth disk) is not drawn exactly as the first.
     */
    static BasicStroke stroke(int i, BasicStroke base) {
        int round = i / PALETTE.length;
        if (round == 0) return base;
        return new BasicStroke(base.getLineWidth(), BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f,
                DASHES[(round - 1) % DASHES.length], 0f);
    }

    /** Lines only, one SVG path each (not an element per segment: a sweep's report holds dozens of these charts). */
    static JFreeChart lines(String title, XYDataset data, ValueAxis x, ValueAxis y, BasicStroke stroke) {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        r.setDrawSeriesLineAsPath(true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesPaint(i, paint(i));
            r.setSeriesStroke(i, stroke(i, stroke));
            // a line through one point is not drawn: a 1-second trial's chart was empty axes
            if (data.getItemCount(i) == 1) r.setSeriesShapesVisible(i, true);
        }
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        return finish(title, plot, data.getSeriesCount() > 1);
    }

    static JFreeChart finish(String title, Plot plot, boolean legend) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        JFreeChart chart = new JFreeChart(title, TITLE, plot, legend);
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        if (chart.getLegend() != null) chart.getLegend().setFrame(org.jfree.chart.block.BlockBorder.NONE);
        return chart;
    }
}
