package dev.kensho.report.chart;

import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Latency by percentile, HdrHistogram's classic plot: the x axis counts nines (0 = p0, 1 = p90,
 * 2 = p99, 3 = p99.9 …), so the tail, where runs differ, gets as much room as the body. One line
 * per series (a cell's repeats merged), latency on a log axis.
 */
public final class PercentileChart {
    private PercentileChart() {}

    public static JFreeChart build(String title, Map<String, Histogram> series) {
        return build(title, series, Map.of());
    }

    /**
     * As above, each line no higher than its max in ms where maxMs has one: the histogram's values are its buckets' tops,
     * which lie above the largest latency the trials recorded (the line ended above the max its caption gives).
     */
    public static JFreeChart build(String title, Map<String, Histogram> series, Map<String, Double> maxMs) {
        XYSeriesCollection data = new XYSeriesCollection();
        double top = 1;
        for (var e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey(), false, true);
            Histogram h = e.getValue();
            double cap = maxMs.getOrDefault(e.getKey(), Double.MAX_VALUE);
            double last = 0;
            for (HistogramIterationValue v : h.percentiles(5)) {
                double p = v.getPercentileLevelIteratedTo() / 100;
                if (p >= 1) break;   // the max is drawn below, at the last nines the sample supports
                last = -Math.log10(1 - p);
                s.add(last, Math.max(0.001, Math.min(cap, v.getValueIteratedTo() / 1000.0)));
            }
            // the maximum at the percentile of the last transaction, 1 - 1/n (never left of the line's end)
            last = Math.max(last, Math.log10(Math.max(10, h.getTotalCount())));
            s.add(last, Math.max(0.001, Math.min(cap, h.getMaxValue() / 1000.0)));
            top = Math.max(top, last);
            data.addSeries(s);
        }
        NumberAxis x = Style.numberAxis("percentile", false);
        // a little room on the right, so the last label is not cut
        x.setRange(0, Math.ceil(top) + 0.15);
        x.setTickUnit(new NumberTickUnit(1));
        x.setNumberFormatOverride(new Nines());
        LogAxis y = new DecadeAxis("latency (ms)");
        y.setSmallestValue(0.001);
        // labels at 1, 2 and 5 of each decade (0.2, 0.5, 1, 2, 5 ms), the other steps as minor marks
        y.setMinorTickMarksVisible(true);
        y.setNumberFormatOverride(Style.decimal("0.###"));
        return Style.lines(title, data, x, y, Style.LINE);
    }

    /** 0 → "0%", 1 → "90%", 2 → "99%", 3 → "99.9%" … */
    static final class Nines extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double n, StringBuffer to, FieldPosition pos) {
            int k = (int) Math.round(n);
            if (Math.abs(n - k) > 1e-9) return to.append("");
            if (k <= 0) return to.append("0%");
            return to.append(k == 1 ? "90" : "99" + (k > 2 ? "." + "9".repeat(k - 2) : "")).append('%');
        }

        @Override
        public StringBuffer format(long n, StringBuffer to, FieldPosition pos) {
            return format((double) n, to, pos);
        }

        @Override
        public Number parse(String s, ParsePosition pos) {
            throw new UnsupportedOperationException("labels only");
        }
    }
}
