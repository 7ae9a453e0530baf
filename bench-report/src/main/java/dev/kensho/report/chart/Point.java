package dev.kensho.report.chart;

/** One charted value: median with the min–max range of the repeats, n repeats. */
public record Point(Object x, double median, double min, double max, int n) {
}
