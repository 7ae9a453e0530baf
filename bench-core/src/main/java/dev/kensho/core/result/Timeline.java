package dev.kensho.core.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run second by second, as BenchBase keeps it and pgbench's -P prints it: per interval its end
 * time since the clock started, throughput and latency. Kept in a trial's extra as columns
 * ({@code "timeline": {"t_s": [...], "tps": [...], ...}}), which is a fraction of the size of one
 * object per second. The last interval is usually shorter: its tps is per its own length.
 *
 * @param columns column name → one value per interval; "t_s" first
 */
public record Timeline(Map<String, List<Double>> columns) {
    /** Where a trial keeps it. */
    public static final String KEY = "timeline";
    public static final String T = "t_s";
    /** Where a trial keeps its server host second by second (CPUs, disks, network; see core.env.HostTimeline). */
    public static final String HOST = "host_timeline";

    public Timeline {
        Map<String, List<Double>> copy = new LinkedHashMap<>();
        columns.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        columns = java.util.Collections.unmodifiableMap(copy);
    }

    /**
     * The same timeline with the named columns' values no higher than max: a second's latency read off a histogram is its
     * bucket's top, above the largest latency the run recorded (a second's p99 of 2.943 ms in a run whose max was 2.932).
     */
    public Timeline capped(java.util.Collection<String> names, double max) {
        Map<String, List<Double>> out = new LinkedHashMap<>(columns);
        for (String n : names) {
            List<Double> v = columns.get(n);
            if (v != null) out.put(n, v.stream().map(x -> x == null ? null : Math.min(x, max)).toList());
        }
        return new Timeline(out);
    }

    public int size() {
        List<Double> t = columns.get(T);
        return t == null ? 0 : t.size();
    }

    public List<Double> column(String name) {
        return columns.getOrDefault(name, List.of());
    }

    /** The trial's timeline, or null when it has none (older runs, other commands). */
    public static Timeline of(Trial t) {
        return of(t, KEY);
    }

    /** A timeline the trial keeps under another key (the host's, {@code host_timeline}), or null. */
    public static Timeline of(Trial t, String key) {
        Object v = t.extra() == null ? null : t.extra().get(key);
        if (!(v instanceof Map<?, ?> m) || !(m.get(T) instanceof List<?>)) return null;
        Map<String, List<Double>> cols = new LinkedHashMap<>();
        for (var e : m.entrySet()) {
            if (!(e.getValue() instanceof List<?> l)) continue;
            List<Double> d = new ArrayList<>(l.size());
            for (Object x : l) d.add(x instanceof Number n ? n.doubleValue() : Double.NaN);
            cols.put(String.valueOf(e.getKey()), d);
        }
        return new Timeline(cols);
    }

    /**
     * Coefficient of variation of a column over the whole intervals, in percent: how steady the run was
     * (the short last interval left out, as its rate is the noisiest). NaN with fewer than two.
     */
    public double variationPercent(String name) {
        List<Double> v = column(name);
        List<Double> t = column(T);
        int n = v.size();
        if (n >= 3 && t.size() == n) {
            double full = t.get(1) - t.get(0);
            if (t.get(n - 1) - t.get(n - 2) < full * 0.99) n--;
        }
        if (n < 2) return Double.NaN;
        double sum = 0, sq = 0;
        for (int i = 0; i < n; i++) sum += v.get(i);
        double mean = sum / n;
        for (int i = 0; i < n; i++) sq += (v.get(i) - mean) * (v.get(i) - mean);
        return mean == 0 ? Double.NaN : 100 * Math.sqrt(sq / (n - 1)) / mean;
    }

    /** Built one interval at a time. */
    public static final class Builder {
        private final Map<String, List<Double>> columns = new LinkedHashMap<>();

        public Builder() {
            columns.put(T, new ArrayList<>());
        }

        /** Starts an interval that ended tSeconds after the start; then {@link #put} its values. */
        public Builder interval(double tSeconds) {
            columns.get(T).add(tSeconds);
            return this;
        }

        public Builder put(String name, double value) {
            List<Double> c = columns.computeIfAbsent(name, k -> new ArrayList<>());
            // a column that appears late (none does today) is padded so every column lines up with t_s
            while (c.size() < columns.get(T).size() - 1) c.add(Double.NaN);
            c.add(value);
            return this;
        }

        public Timeline build() {
            return new Timeline(columns);
        }
    }
}
