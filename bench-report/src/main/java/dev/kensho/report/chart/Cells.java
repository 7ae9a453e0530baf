package dev.kensho.report.chart;

import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.Trial;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The cells of one run seen as a grid: which parameters vary, their values in a readable order
 * (numbers numerically, names naturally: Q1.1 &lt; Q1.2 &lt; Q2.1), and each cell's summary.
 */
public final class Cells {
    private final List<CellSummary> summaries;
    private final Map<String, List<Object>> values = new LinkedHashMap<>();
    private final Set<String> metrics = new LinkedHashSet<>();
    /** Parameters shown in the run's own order (value → position of its first trial), see {@link #RUN_ORDER}. */
    private final Map<String, Map<Object, Integer>> runOrder = new LinkedHashMap<>();
    /** Parameters with names for values, in the order the command gave them (value → position in the planned cells). */
    private final Map<String, Map<Object, Integer>> givenOrder = new LinkedHashMap<>();

    /**
     * Query names are the study's list, measured in its order (JIT verification 1: 乗算, 減算, sum, avg …; 2: integer,
     * numeric, real, double precision), which sorting by name would lose. A shuffled run (a later repeat of a cell
     * before an earlier one) has no such order: its names sort naturally.
     */
    public static final List<String> RUN_ORDER = List.of("query");

    public Cells(List<Trial> trials) {
        this(trials, List.of());
    }

    /**
     * @param planned the run's cell keys in the order its command gave them (run.json's planned_cells; empty when not
     *                recorded): a parameter with names for values shows them in that order (--matrix jit=on,off as on,
     *                off; --url A --url B as A, B), as the user listed them, where sorting put off before on
     */
    public Cells(List<Trial> trials, List<String> planned) {
        List<Trial> named = withParams(trials);
        this.summaries = CellSummary.of(named);
        Map<String, Map<String, Object>> paramsOf = new LinkedHashMap<>();
        for (Trial t : named) paramsOf.putIfAbsent(t.cell(), t.params());
        for (String key : planned) {
            Map<String, Object> p = paramsOf.get(key);
            if (p == null) continue;
            p.forEach((k, v) -> {
                Map<Object, Integer> pos = givenOrder.computeIfAbsent(k, x -> new LinkedHashMap<>());
                pos.putIfAbsent(normal(v), pos.size());
            });
        }
        if (inRepeatOrder(trials)) {
            for (String p : RUN_ORDER) {
                Map<Object, Integer> pos = new LinkedHashMap<>();
                for (Trial t : trials) if (t.params() != null && t.params().containsKey(p)) pos.putIfAbsent(normal(t.params().get(p)), pos.size());
                if (!pos.isEmpty()) runOrder.put(p, pos);
            }
        }
        Map<String, Set<Object>> seen = new LinkedHashMap<>();
        for (CellSummary c : summaries) {
            c.params().forEach((k, v) -> seen.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(normal(v)));
            metrics.addAll(c.median().keySet());
        }
        // numbers keep their numeric order, whatever the order given
        seen.forEach((k, v) -> {
            if (v.stream().allMatch(x -> x instanceof Number)) givenOrder.remove(k);
        });
        seen.forEach((k, v) -> {
            List<Object> sorted = new ArrayList<>(v);
            sorted.sort(order(k));
            values.put(k, sorted);
        });
    }

    private static boolean inRepeatOrder(List<Trial> trials) {
        Map<String, Integer> last = new LinkedHashMap<>();
        for (Trial t : trials) {
            Integer before = last.put(t.cell(), t.repeat());
            if (before != null && before > t.repeat()) return false;
        }
        return true;
    }

    /**
     * The run's cell keys in the order its command gave them (run.json's planned_cells), empty where a run did not
     * record them.
     */
    public static List<String> planned(dev.kensho.core.result.RunResults run) {
        Object p = run.info().parameters().get(dev.kensho.core.result.RunDirectory.PLANNED_CELLS);
        return p instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
    }

    /**
     * How a parameter's values are shown: names in the order the command gave them where the run recorded it, else in
     * the run's order for {@link #RUN_ORDER}'s, else {@link #ORDER}.
     */
    public Comparator<Object> order(String param) {
        Map<Object, Integer> pos = givenOrder.containsKey(param) ? givenOrder.get(param) : runOrder.get(param);
        if (pos == null) return ORDER;
        return Comparator.<Object>comparingInt(v -> pos.getOrDefault(normal(v), Integer.MAX_VALUE)).thenComparing(ORDER);
    }

    /**
     * A trial that failed before measuring may carry no parameters (the matrix records only its
     * cell key); it gets those of another trial of its cell, else the key's name=value parts.
     */
    static List<Trial> withParams(List<Trial> trials) {
        Map<String, Map<String, Object>> known = new LinkedHashMap<>();
        for (Trial t : trials) if (t.params() != null && !t.params().isEmpty()) known.putIfAbsent(t.cell(), t.params());
        List<Trial> out = new ArrayList<>(trials.size());
        for (Trial t : trials) {
            if (t.params() != null && !t.params().isEmpty()) {
                out.add(t);
                continue;
            }
            Map<String, Object> p = known.get(t.cell());
            if (p == null) {
                p = new LinkedHashMap<>();
                for (String part : String.valueOf(t.cell()).split(";")) {
                    int eq = part.indexOf('=');
                    if (eq > 0) p.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
                }
            }
            out.add(new Trial(t.cell(), t.repeat(), p, t.metrics() == null ? Map.of() : t.metrics(),
                    t.extra() == null ? Map.of() : t.extra(), t.status(), t.started(), t.finished()));
        }
        return out;
    }

    public List<CellSummary> summaries() {
        return summaries;
    }

    public List<CellSummary> ok() {
        return summaries.stream().filter(c -> c.n() > 0).toList();
    }

    public Set<String> params() {
        return values.keySet();
    }

    public Set<String> metrics() {
        return metrics;
    }

    /** Distinct values of a parameter, in display order (empty when the parameter is absent). */
    public List<Object> values(String param) {
        return values.getOrDefault(param, List.of());
    }

    /** Parameters with more than one value, in first-seen order. */
    public List<String> varying() {
        return values.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).toList();
    }

    /**
     * Parameters that vary only because x does (threads = clients/2): one value per value of x.
     * They would split every series in two without saying anything new.
     */
    public List<String> determinedBy(String x, List<String> params) {
        List<String> out = new ArrayList<>();
        for (String p : params) {
            if (p.equals(x)) continue;
            Map<Object, Set<Object>> seen = new LinkedHashMap<>();
            for (CellSummary c : summaries) seen.computeIfAbsent(param(c, x), k -> new LinkedHashSet<>()).add(param(c, p));
            if (seen.values().stream().allMatch(v -> v.size() == 1)) out.add(p);
        }
        return out;
    }

    public boolean numeric(String param) {
        List<Object> v = values(param);
        return !v.isEmpty() && v.stream().allMatch(x -> x instanceof Number);
    }

    /** Whole numbers become longs (from 16, 16.0 or "16"), so "16" and 16 are one value. */
    public static Object normal(Object v) {
        if (v instanceof Number n) {
            double d = n.doubleValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? (Object) Long.valueOf((long) d) : (Object) Double.valueOf(d);
        }
        // "16" and 16 are one value; "16.10" stays text (a version, not 16.1)
        if (v instanceof String s && s.trim().matches("-?\\d{1,15}")) return Long.valueOf(s.trim());
        return v == null ? "" : v.toString();
    }

    public static Object param(CellSummary c, String name) {
        return normal(c.params().get(name));
    }

    /** "version=16, clients=4" for the given parameters of a cell. */
    public static String label(Map<String, Object> params, List<String> names) {
        if (names.isEmpty()) return "all";
        return names.stream().map(n -> names.size() == 1 && isSelfNaming(n) ? text(params.get(n)) : n + "=" + text(params.get(n)))
                .collect(Collectors.joining(", "));
    }

    // query names already say what they are ("Q1.1"); others read better as name=value
    private static boolean isSelfNaming(String param) {
        return param.equals("query") || param.equals("target") || param.equals("scan");
    }

    public static String text(Object v) {
        Object n = normal(v);
        return n instanceof Double d ? trim(d) : String.valueOf(n);
    }

    private static String trim(double d) {
        // a small value in plain digits, as the commands print it: SF 0.00001 was 1.00000e-05 in compare's notes
        if (d != 0 && Math.abs(d) < 1e-4 && Math.abs(d) >= 1e-9) {
            return new java.math.BigDecimal(d).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
        }
        String s = String.format(java.util.Locale.ROOT, "%.6g", d);
        if (s.contains("e") || s.contains("E")) return s;
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    public static double number(Object v) {
        Object n = normal(v);
        return n instanceof Number x ? x.doubleValue() : Double.NaN;
    }

    /** Groups cells by the values of the given parameters, keys in display order. */
    public Map<List<Object>, List<CellSummary>> groupBy(List<String> names, List<CellSummary> cells) {
        Map<List<Object>, List<CellSummary>> m = new java.util.TreeMap<>((a, b) -> {
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                int c = order(names.get(i)).compare(a.get(i), b.get(i));
                if (c != 0) return c;
            }
            return Integer.compare(a.size(), b.size());
        });
        for (CellSummary c : cells) {
            List<Object> key = names.stream().map(n -> param(c, n)).toList();
            m.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
        }
        return m;
    }

    /** Numbers before text, numbers by value, text with digit runs compared as numbers. */
    public static final Comparator<Object> ORDER = (a, b) -> {
        if (a instanceof Number x && b instanceof Number y) return Double.compare(x.doubleValue(), y.doubleValue());
        if (a instanceof Number) return -1;
        if (b instanceof Number) return 1;
        return natural(String.valueOf(a), String.valueOf(b));
    };

    public static final Comparator<List<Object>> LIST_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = ORDER.compare(a.get(i), b.get(i));
            if (c != 0) return c;
        }
        return Integer.compare(a.size(), b.size());
    };

    private static int natural(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i), cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                int c = new java.math.BigInteger(a.substring(si, i)).compareTo(new java.math.BigInteger(b.substring(sj, j)));
                if (c != 0) return c;
            } else {
                if (ca != cb) return Character.compare(ca, cb);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Distinct values a set of cells has for a parameter, in display order. */
    public static List<Object> distinct(List<CellSummary> cells, String param) {
        Set<Object> s = new TreeSet<>(ORDER);
        cells.forEach(c -> s.add(param(c, param)));
        return new ArrayList<>(s);
    }

    static boolean same(Object a, Object b) {
        return Objects.equals(normal(a), normal(b));
    }
}
