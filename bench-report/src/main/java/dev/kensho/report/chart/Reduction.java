package dev.kensho.report.chart;

import dev.kensho.core.result.CellSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JIT study's reduction rate, 100·(t_off − t_on)/t_off, between the two values of one parameter
 * ("off" and "on"; false/true, 0/1 and no/yes are read the same way), per category and series. A
 * category whose "on" side compiled no function (jit_functions 0) has none.
 */
public final class Reduction {
    private Reduction() {}

    /** One category in one series: medians of both sides and the reduction in percent. */
    public record Row(String series, Object category, double off, double on, double percent) {}

    public static List<Row> compute(Cells cells, List<CellSummary> scope, String metric, String pair, String category,
                                    List<String> others) {
        Object off = off(scope, pair), on = on(scope, pair);
        List<Row> rows = new ArrayList<>();
        if (off == null || on == null) return rows;
        List<String> key = new ArrayList<>(others);
        key.add(category);
        for (Map.Entry<List<Object>, List<CellSummary>> g : cells.groupBy(key, scope).entrySet()) {
            Double a = median(g.getValue(), pair, off, metric);
            Double b = median(g.getValue(), pair, on, metric);
            if (a == null || b == null) continue;
            // jit=on compiled nothing (cost under jit_above_cost): a difference there is noise, not JIT's doing
            Double compiled = median(g.getValue(), pair, on, "jit_functions");
            if (compiled != null && compiled == 0) continue;
            String series = Cells.label(g.getValue().get(0).params(), others);
            rows.add(new Row(series, g.getKey().get(g.getKey().size() - 1), a, b, 100 * (a - b) / a));
        }
        return rows;
    }

    /**
     * 100·(Σoff − Σon)/Σoff over the rows: the reduction of the total time. A mean of the rows'
     * percentages weighs a 1 s query's 50 % like a 100 s query's, and reads as a saving nobody gets.
     */
    public static double overall(List<Row> rows) {
        double off = rows.stream().mapToDouble(Row::off).sum(), on = rows.stream().mapToDouble(Row::on).sum();
        return 100 * (off - on) / off;
    }

    /** Categories whose "on" side compiled no function (below jit_above_cost): JIT never ran for them. */
    public static List<Object> uncompiled(Cells cells, List<CellSummary> scope, String pair, String category) {
        Object on = on(scope, pair);
        List<Object> out = new ArrayList<>();
        for (var g : cells.groupBy(List.of(category), scope).entrySet()) {
            Double compiled = median(g.getValue(), pair, on, "jit_functions");
            if (compiled != null && compiled == 0) out.add(g.getKey().get(0));
        }
        return out;
    }

    private static Object off(List<CellSummary> scope, String pair) {
        List<Object> vals = Cells.distinct(scope, pair);
        return vals.stream().filter(v -> isOff(v)).findFirst().orElse(vals.isEmpty() ? null : vals.get(0));
    }

    private static Object on(List<CellSummary> scope, String pair) {
        Object off = off(scope, pair);
        List<Object> vals = Cells.distinct(scope, pair);
        return vals.stream().filter(v -> !Cells.same(v, off)).filter(Reduction::isOn).findFirst()
                .orElse(vals.stream().filter(v -> !Cells.same(v, off)).findFirst().orElse(null));
    }

    private static Double median(List<CellSummary> cells, String pair, Object value, String metric) {
        return cells.stream().filter(c -> Cells.same(Cells.param(c, pair), value)).map(c -> c.median().get(metric))
                .filter(v -> v != null).findFirst().orElse(null);
    }

    static boolean isOff(Object v) {
        String s = Cells.text(v).toLowerCase(Locale.ROOT);
        return s.equals("off") || s.equals("false") || s.equals("0") || s.equals("no");
    }

    static boolean isOn(Object v) {
        String s = Cells.text(v).toLowerCase(Locale.ROOT);
        return s.equals("on") || s.equals("true") || s.equals("1") || s.equals("yes");
    }
}
