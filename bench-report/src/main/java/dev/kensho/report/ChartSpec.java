package dev.kensho.report;

import java.util.List;

/**
 * What one chart shows: a metric's median (with min–max bars over the repeats) against a parameter,
 * one line or bar group per combination of the series parameters, one chart per combination of the
 * facet parameters.
 *
 * @param title     chart title (the facet is appended)
 * @param kind      LINE (x numeric), BAR (x a category such as the query), REDUCTION (bars of
 *                  100·(off − on)/off between the two values of the single series parameter, e.g. jit)
 * @param metric    the metric charted
 * @param x         the x-axis parameter (or category parameter for bars)
 * @param series    parameters whose values make the series
 * @param facets    parameters that split the chart into several
 * @param crossover for LINE: mark where the "index" series of the scan parameter becomes slower than the other
 */
public record ChartSpec(String title, Kind kind, String metric, String x, List<String> series, List<String> facets,
                        boolean crossover) {

    public enum Kind { LINE, BAR, REDUCTION }

    public ChartSpec {
        series = List.copyOf(series);
        facets = List.copyOf(facets);
    }

    public static ChartSpec line(String metric, String x, List<String> series, List<String> facets) {
        return new ChartSpec(metric + " vs " + x, Kind.LINE, metric, x, series, facets, false);
    }

    public static ChartSpec bars(String metric, String category, List<String> series, List<String> facets) {
        return new ChartSpec(metric + " per " + category, Kind.BAR, metric, category, series, facets, false);
    }
}
