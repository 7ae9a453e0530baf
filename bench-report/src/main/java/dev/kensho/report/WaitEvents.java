package dev.kensho.report;

import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.Trial;
import dev.kensho.report.chart.Cells;
import dev.kensho.report.chart.StackedShareChart;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the server's client backends were doing, from the sweep's pg_stat_activity samples: a stacked
 * bar per client count of the share of each wait event (the busiest events named, the rest as
 * "other"), a chart per target or version. Study 000 explains its update results by such a profile
 * (ClogGroupUpdate); a lock or I/O wait that grows with the clients shows here first.
 */
public final class WaitEvents {
    /** Events named in a chart; the others are summed as "other". */
    static final int NAMED = 7;
    /** Where a sweep trial keeps its profile. */
    static final String KEY = "wait_events";

    private WaitEvents() {}

    /** @param planned the run's cell keys as its command gave them ({@link Cells#planned}), which orders named values */
    public static List<Figure> figures(List<Trial> trials, List<String> planned) {
        Cells cells = new Cells(trials, planned);
        Map<String, List<Trial>> byCell = LatencyPercentiles.byCell(trials);
        Map<String, Map<String, Double>> profile = new HashMap<>();
        for (CellSummary c : cells.ok()) {
            Map<String, Double> p = mean(byCell.get(c.cell()));
            if (!p.isEmpty()) profile.put(c.cell(), p);
        }
        if (profile.isEmpty()) return List.of();
        List<String> merged = sameNames(profile);
        // one order and one colour per event across the charts (a chart per version): side by side they line up
        Map<String, Double> overall = new HashMap<>();
        profile.values().forEach(p -> p.forEach((k, v) -> overall.merge(k, v, Double::sum)));
        List<String> ranked = overall.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey).toList();
        List<CellSummary> with = cells.ok().stream().filter(c -> profile.containsKey(c.cell())).toList();
        List<String> varying = new ArrayList<>(cells.varying());
        String x = varying.contains("clients") ? "clients" : null;
        List<String> facets = new ArrayList<>(varying);
        if (x != null) {
            facets.remove(x);
            facets.removeAll(cells.determinedBy(x, facets));
        }
        List<Figure> out = new ArrayList<>();
        for (var facet : cells.groupBy(x == null ? List.of() : facets, with).entrySet()) {
            Map<String, Map<String, Double>> shares = new LinkedHashMap<>();
            Map<String, Double> total = new HashMap<>();
            for (var g : cells.groupBy(x == null ? varying : List.of(x), facet.getValue()).entrySet()) {
                CellSummary c = g.getValue().get(0);
                Map<String, Double> p = profile.get(c.cell());
                shares.put(x == null ? Cells.label(c.params(), varying) : Cells.text(Cells.param(c, x)), p);
                p.forEach((k, v) -> total.merge(k, v, Double::sum));
            }
            List<String> top = total.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .limit(total.size() > NAMED + 1 ? NAMED : NAMED + 1).map(Map.Entry::getKey).toList();
            List<String> named = ranked.stream().filter(top::contains).toList();
            List<String> parts = new ArrayList<>(named);
            if (total.size() > named.size()) {
                parts.add("other");
                for (Map<String, Double> p : shares.values()) {
                    double rest = p.entrySet().stream().filter(e -> !named.contains(e.getKey())).mapToDouble(Map.Entry::getValue).sum();
                    Map<String, Double> kept = new LinkedHashMap<>();
                    named.forEach(n -> kept.put(n, p.getOrDefault(n, 0.0)));
                    kept.put("other", rest);
                    p.clear();
                    p.putAll(kept);
                }
            }
            String title = "Wait events of the client backends" + (x == null || facets.isEmpty() ? ""
                    : " — " + Cells.label(facet.getValue().get(0).params(), facets));
            List<String> notes = new ArrayList<>();
            for (var s : shares.entrySet()) {
                notes.add((x == null ? s.getKey() : x + "=" + s.getKey()) + ": " + s.getValue().entrySet().stream()
                        .filter(e -> e.getValue() >= 0.05).sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                        .map(e -> String.format(Locale.ROOT, "%s %.1f %%", e.getKey(), e.getValue()))
                        .reduce((a, b) -> a + ", " + b).orElse("no samples"));
            }
            notes.addAll(merged);
            // a profile cut short (the sampler's connection lost) or thin is said where it is drawn, as the console said it
            for (CellSummary c : facet.getValue()) {
                for (Trial t : byCell.getOrDefault(c.cell(), List.of())) {
                    if (!(t.extra().get("wait_events") instanceof Map<?, ?> w)) continue;
                    for (String k : List.of("stopped", "thin")) {
                        if (w.get(k) != null) notes.add(Cells.label(c.params(), varying) + " repeat " + (t.repeat() + 1) + ": "
                                + (k.equals("thin") ? "the profile has " : "") + w.get(k));
                    }
                }
            }
            List<Integer> colours = parts.stream().map(p -> p.equals("other") ? -1 : ranked.indexOf(p)).toList();
            out.add(new Figure(title, StackedShareChart.build(title, x == null ? "cell" : x, shares, parts, colours), notes));
        }
        return out;
    }

    /**
     * PostgreSQL 17 renamed wait events by case alone (IO:WALSync became IO:WalSync), and its early releases (17.2, the
     * study's) name an individual LWLock with its "Lock" suffix (LWLock:WALWrite is LWLock:WALWriteLock, as 18 no longer
     * does): a run across versions would show one wait as two. Such names are merged under the spelling most cells use
     * (in place, in every profile); returns a note per merge.
     */
    static List<String> sameNames(Map<String, Map<String, Double>> profile) {
        Map<String, Map<String, Integer>> spellings = new java.util.TreeMap<>();
        for (Map<String, Double> p : profile.values()) {
            for (String k : p.keySet()) spellings.computeIfAbsent(sameName(k), x -> new java.util.TreeMap<>()).merge(k, 1, Integer::sum);
        }
        List<String> notes = new ArrayList<>();
        for (Map<String, Integer> s : spellings.values()) {
            if (s.size() < 2) continue;
            String shown = s.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                    .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))).orElseThrow().getKey();
            for (Map<String, Double> p : profile.values()) {
                for (String other : s.keySet()) {
                    if (other.equals(shown) || !p.containsKey(other)) continue;
                    p.merge(shown, p.remove(other), Double::sum);
                }
            }
            notes.add(shown + " includes " + String.join(", ", s.keySet().stream().filter(k -> !k.equals(shown)).toList())
                    + ": one wait event, its name spelled otherwise in another PostgreSQL version");
        }
        return notes;
    }

    /** What two spellings of one wait event have in common: the name in lower case, an LWLock's without "lock" at its end. */
    private static String sameName(String event) {
        String k = event.toLowerCase(Locale.ROOT);
        return k.startsWith("lwlock:") && k.endsWith("lock") && k.length() > "lwlock:lock".length() ? k.substring(0, k.length() - 4) : k;
    }

    /** The cell's profile: each event's share averaged over its repeats that have one. */
    /** "100 ms", or each interval the trials' samplers used ("20 ms, 100 ms"); a trial of an older Kensho's sampled every 100 ms. */
    static String intervals(List<Trial> trials) {
        java.util.TreeSet<Long> ms = new java.util.TreeSet<>();
        for (Trial t : trials) {
            if (!t.ok() || t.extra() == null || !(t.extra().get(KEY) instanceof Map<?, ?> w) || !(w.get("percent") instanceof Map<?, ?> pct)
                    || pct.isEmpty()) continue;
            ms.add(w.get("interval_ms") instanceof Number n ? n.longValue() : 100L);
        }
        if (ms.isEmpty()) ms.add(100L);
        return String.join(", ", ms.stream().map(v -> v + " ms").toList());
    }

    private static Map<String, Double> mean(List<Trial> trials) {
        Map<String, Double> sum = new LinkedHashMap<>();
        int n = 0;
        for (Trial t : trials) {
            if (!t.ok() || t.extra() == null || !(t.extra().get(KEY) instanceof Map<?, ?> w) || !(w.get("percent") instanceof Map<?, ?> pct)) continue;
            if (pct.isEmpty()) continue;
            n++;
            for (var e : pct.entrySet()) {
                if (e.getValue() instanceof Number v) sum.merge(String.valueOf(e.getKey()), v.doubleValue(), Double::sum);
            }
        }
        int repeats = n;
        sum.replaceAll((k, v) -> v / repeats);
        return sum;
    }
}
