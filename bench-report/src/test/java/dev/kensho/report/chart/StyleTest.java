package dev.kensho.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.junit.jupiter.api.Test;

class StyleTest {
    @Test
    void axesReadAsWordsWithUnits() {
        assertEquals("latency avg (ms)", Style.axis("latency_avg_ms"));
        assertEquals("selectivity (%)", Style.axis("selectivity_pct"));
        assertEquals("TPS", Style.axis("tps"));
        assertEquals("clients", Style.axis("clients"));
        assertEquals("time (ms)", Style.axis("ms"));
        assertEquals("time (s)", Style.axis("s"));
        assertEquals("share (%)", Style.axis("pct"));
        assertEquals("MB", Style.axis("mb"));
        assertEquals("reduction % (positive = faster with JIT)", Style.axis("reduction % (positive = faster with JIT)"));
    }

    /**
     * A German JVM labelled a thousand TPS "1.000" (and 0.02 "0,02") beside a table's "2551.3"; an Arabic one drew
     * Arabic-Indic digits. Every axis reads as the tables do, whatever the JVM's locale.
     */
    @Test
    void axisNumbersIgnoreTheJvmsLocale() {
        Locale was = Locale.getDefault();
        try {
            for (Locale l : List.of(Locale.GERMANY, Locale.forLanguageTag("ar-SA"), Locale.forLanguageTag("th-TH-u-nu-thai"))) {
                Locale.setDefault(l);
                JFreeChart line = LineChart.build("t", "work_mem", "tps", Map.of("a", List.of(new Point(1.5, 2500.5, 2500, 2501, 1),
                        new Point(2.5, 6000, 6000, 6000, 1))), List.of());
                NumberAxis y = (NumberAxis) line.getXYPlot().getRangeAxis();
                assertEquals("2,500", y.getStandardTickUnits().getCeilingTickUnit(1000).valueToString(2500), l.toString());
                assertEquals("0.02", y.getStandardTickUnits().getCeilingTickUnit(0.01).valueToString(0.02), l.toString());
                // a step's decimals, not three for all (0.0005 s steps read 0, 0.001, 0.001, 0.002)
                assertEquals("0.0015", y.getStandardTickUnits().getCeilingTickUnit(0.0005).valueToString(0.0015), l.toString());
                assertEquals("0.75", y.getStandardTickUnits().getCeilingTickUnit(0.25).valueToString(0.75), l.toString());
                assertEquals("0.00015", y.getStandardTickUnits().getCeilingTickUnit(0.00005).valueToString(0.00015), l.toString());
                JFreeChart clients = LineChart.build("t", "clients", "latency_avg_ms", Map.of("a", List.of(new Point(1, 0.01, 0.01, 0.01, 1),
                        new Point(1024, 20, 20, 20, 1))), List.of());
                LogAxis x = (LogAxis) clients.getXYPlot().getDomainAxis();
                assertEquals("1024", x.getNumberFormatOverride().format(1024), l.toString());
                LogAxis ms = (LogAxis) clients.getXYPlot().getRangeAxis();
                assertEquals("0.01", ms.getNumberFormatOverride().format(0.01), l.toString());
                JFreeChart time = TimeChart.build("t", "tps", Map.of("a", List.of(new double[] {0, 1000}, new double[] {3, 2000})));
                NumberAxis t = (NumberAxis) time.getXYPlot().getRangeAxis();
                assertEquals("1,500", t.getStandardTickUnits().getCeilingTickUnit(500).valueToString(1500), l.toString());
                Histogram h = new Histogram(3);
                h.recordValueWithCount(1500, 100);
                LogAxis p = (LogAxis) PercentileChart.build("t", Map.of("a", h)).getXYPlot().getRangeAxis();
                assertEquals("1.5", p.getNumberFormatOverride().format(1.5), l.toString());
            }
        } finally {
            Locale.setDefault(was);
        }
    }

    /**
     * Study 001's nine client counts (1 … 1024) on one latency chart: with eight colours the ninth line was drawn exactly
     * as the first, clients=1 and clients=1024 told apart by nothing. Every line now differs in colour or dash.
     */
    @Test
    void nineLinesAreNineLooks() {
        Map<String, Histogram> lines = new LinkedHashMap<>();
        for (int c : new int[] {1, 2, 4, 8, 16, 32, 64, 128, 1024}) {
            Histogram h = new Histogram(3);
            h.recordValueWithCount(100L * c, 1000);
            lines.put("clients=" + c, h);
        }
        JFreeChart chart = PercentileChart.build("Latency by percentile", lines);
        XYItemRenderer r = chart.getXYPlot().getRenderer();
        Set<List<Object>> looks = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            java.awt.BasicStroke s = (java.awt.BasicStroke) r.getSeriesStroke(i);
            looks.add(List.of(r.getSeriesPaint(i), s.getDashArray() == null ? List.of() : List.of(java.util.Arrays.toString(s.getDashArray()))));
        }
        assertEquals(lines.size(), looks.size(), "a line drawn as another");
    }

    /**
     * SSB's eighth query (q3.2) was drawn in Okabe–Ito's yellow, 1.3:1 against the white plot: named in the legend,
     * hardly seen. Every series colour stands out from white at least as the palette's orange and sky blue do (2.2:1).
     */
    @Test
    void everyLineStandsOutFromTheWhite() {
        Map<String, List<Point>> queries = new LinkedHashMap<>();
        for (String q : List.of("q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2")) {
            queries.put(q, List.of(new Point(0, 1, 1, 1, 1), new Point(2, 0.5, 0.5, 0.5, 1)));
        }
        XYItemRenderer r = LineChart.build("Time vs workers", "workers", "seconds", queries, List.of()).getXYPlot().getRenderer();
        for (int i = 0; i < queries.size(); i++) {
            java.awt.Color c = (java.awt.Color) r.getSeriesPaint(i);
            double contrast = 1.05 / (luminance(c) + 0.05);
            assertTrue(contrast >= 2, "series " + i + " " + Integer.toHexString(c.getRGB()) + " at " + contrast + ":1 on white");
        }
    }

    /** WCAG's relative luminance. */
    private static double luminance(java.awt.Color c) {
        double[] lin = new double[3];
        float[] rgb = c.getRGBColorComponents(null);
        for (int i = 0; i < 3; i++) lin[i] = rgb[i] <= 0.04045 ? rgb[i] / 12.92 : Math.pow((rgb[i] + 0.055) / 1.055, 2.4);
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
    }

    /**
     * The host's network chart drew loopback's tx exactly over its rx (on lo they are one traffic): "net lo tx" was in
     * the legend and nowhere on the plot. It now says whose line it shares and is dashed over it.
     */
    @Test
    void aLineOverAnotherSaysSoAndIsDashed() {
        Map<String, List<double[]>> io = new LinkedHashMap<>();
        io.put("disk vda write", List.of(new double[] {1, 48797.9}, new double[] {2, 42583.0}));
        io.put("net lo rx", List.of(new double[] {1, 3570.1}, new double[] {2, 2845.0}));
        io.put("net lo tx", List.of(new double[] {1, 3570.1}, new double[] {2, 2845.0}));
        io.put("mean of the other 8 CPUs", List.of(new double[] {1, 3570.1}, new double[] {2, 2845.0}));
        JFreeChart chart = TimeChart.build("Host disks and network, kB/s", "kB/s", io, "mean of the other 8 CPUs");
        org.jfree.data.xy.XYDataset data = chart.getXYPlot().getDataset();
        assertEquals(List.of("disk vda write", "net lo rx", "net lo tx (same as net lo rx)", "mean of the other 8 CPUs (same as net lo rx)"),
                java.util.stream.IntStream.range(0, data.getSeriesCount()).mapToObj(i -> String.valueOf(data.getSeriesKey(i))).toList());
        XYItemRenderer r = chart.getXYPlot().getRenderer();
        assertEquals(null, ((java.awt.BasicStroke) r.getSeriesStroke(1)).getDashArray(), "the line beneath is solid");
        assertTrue(((java.awt.BasicStroke) r.getSeriesStroke(2)).getDashArray() != null, "the line over it is dashed");
        assertEquals(null, ((java.awt.BasicStroke) r.getSeriesStroke(0)).getDashArray());
        assertEquals(java.awt.Color.decode("#BBBBBB"), r.getSeriesPaint(3), "the rest stays grey");
    }

    /** A 1-second trial's TPS per second is one point, which a line does not draw: its chart was empty axes. */
    @Test
    void aLineOfOnePointShowsThePoint() {
        Map<String, List<double[]>> lines = new LinkedHashMap<>();
        lines.put("repeat 1", List.of(new double[] {1, 380}));
        lines.put("repeat 2", List.of(new double[] {1, 300}, new double[] {2, 310}));
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r =
                (org.jfree.chart.renderer.xy.XYLineAndShapeRenderer) TimeChart.build("TPS per second", "tps", lines).getXYPlot().getRenderer();
        assertEquals(true, r.getItemShapeVisible(0, 0), "the one point is drawn");
        assertEquals(false, r.getItemShapeVisible(1, 0), "a line of seconds stays a line");
    }
}
