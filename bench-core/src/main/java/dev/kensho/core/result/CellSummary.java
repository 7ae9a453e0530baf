package dev.kensho.core.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Per-cell statistics over the repeats of a matrix: every repeat is kept in trials.jsonl; the
 * summary reports median, min and max of each metric, as the PGECons studies do.
 *
 * @param cell    the cell key
 * @param params  the cell's parameters (from its first ok trial, else its first)
 * @param n       repeats that finished ok
 * @param median  metric → median over the ok repeats
 * @param min     metric → minimum
 * @param max     metric → maximum
 * @param status  "ok", or "skipped"/"failed" when no repeat finished ok
 * @param reason  why it was skipped or failed; for an ok cell with failed repeats, how many and why; else empty
 */
public record CellSummary(String cell, Map<String, Object> params, int n, Map<String, Double> median,
                          Map<String, Double> min, Map<String, Double> max, String status, String reason) {

    /** Groups trials by cell in order of first appearance. */
    public static List<CellSummary> of(List<Trial> trials) {
        Map<String, List<Trial>> byCell = new LinkedHashMap<>();
        // cells in the order they first ran: a rerun repeat's cell, its failed trial passed over below, moved to the end
        for (Trial t : trials) byCell.putIfAbsent(t.cell(), new ArrayList<>());
        // a resumed run's rerun of a failed repeat: "2 of 4 repeats failed" where both repeats asked for were ok
        for (Trial t : Trial.standing(trials)) byCell.get(t.cell()).add(t);
        byCell.values().removeIf(List::isEmpty);
        List<CellSummary> out = new ArrayList<>();
        for (var e : byCell.entrySet()) {
            List<Trial> ok = e.getValue().stream().filter(Trial::ok).toList();
            Map<String, Double> med = new LinkedHashMap<>();
            Map<String, Double> lo = new LinkedHashMap<>();
            Map<String, Double> hi = new LinkedHashMap<>();
            Set<String> metrics = new LinkedHashSet<>();
            ok.forEach(t -> metrics.addAll(t.metrics().keySet()));
            for (String m : metrics) {
                // NaN or ∞ is stored as a string, which reads back as no value: the summary from memory leaves it out too
                double[] v = ok.stream().map(t -> t.metric(m)).filter(x -> x != null && Double.isFinite(x))
                        .mapToDouble(Double::doubleValue).sorted().toArray();
                if (v.length == 0) continue;
                med.put(m, Stats.median(v));
                lo.put(m, v[0]);
                hi.put(m, v[v.length - 1]);
            }
            // a repeat that failed before it knew its parameters has only the cell key's: an ok one has them all
            Trial first = ok.isEmpty() ? e.getValue().get(0) : ok.get(0);
            Trial last = e.getValue().get(e.getValue().size() - 1);
            String status = ok.isEmpty() ? last.status() : "ok";
            String reason = ok.isEmpty() ? String.valueOf(last.extra().getOrDefault("reason", "")) : "";
            List<Trial> notOk = e.getValue().stream().filter(t -> !t.ok()).toList();
            if (!ok.isEmpty() && !notOk.isEmpty()) {
                // The median stands on fewer repeats than asked for: say so where it is read.
                Trial t = notOk.get(notOk.size() - 1);
                reason = notOk.size() + " of " + e.getValue().size() + " repeats " + t.status() + ": "
                        + t.extra().getOrDefault("reason", "");
            }
            out.add(new CellSummary(e.getKey(), first.params(), ok.size(), med, lo, hi, status, reason));
        }
        return out;
    }

    /**
     * The run's cells in the order the command planned them, not the random order they ran in; unplanned ones
     * after them: summary.csv's rows, and the table a command prints beside it.
     */
    public static List<CellSummary> inPlannedOrder(RunDirectory dir) {
        List<CellSummary> cells = new ArrayList<>(of(dir.trials()));
        Map<String, Integer> planned = new java.util.HashMap<>();
        for (String cell : dir.plannedCells()) planned.putIfAbsent(cell, planned.size());
        cells.sort(java.util.Comparator.comparingInt(c -> planned.getOrDefault(c.cell(), Integer.MAX_VALUE)));
        return cells;
    }

    /** summary.csv: params, n, status, then median/min/max of each metric (in the order metrics lists them). */
    public static void write(RunDirectory dir, List<String> metrics) {
        List<CellSummary> cells = inPlannedOrder(dir);
        Set<String> paramNames = new LinkedHashSet<>();
        cells.forEach(c -> paramNames.addAll(c.params().keySet()));
        List<String> metricNames = metrics;
        if (metricNames == null || metricNames.isEmpty()) {
            Set<String> all = new LinkedHashSet<>();
            cells.forEach(c -> all.addAll(c.median().keySet()));
            metricNames = new ArrayList<>(all);
        }
        boolean keyed = paramNames.isEmpty();   // no parameters to tell the rows apart: the cell key does
        List<String> header = new ArrayList<>();
        if (keyed) header.add("cell");
        header.addAll(paramNames);
        header.add("n");
        header.add("status");
        for (String m : metricNames) {
            header.add(m + "_median");
            header.add(m + "_min");
            header.add(m + "_max");
        }
        header.add("reason");
        List<List<Object>> rows = new ArrayList<>();
        for (CellSummary c : cells) {
            List<Object> r = new ArrayList<>();
            if (keyed) r.add(c.cell());
            for (String p : paramNames) r.add(c.params().get(p));
            r.add(c.n());
            r.add(c.status());
            for (String m : metricNames) {
                r.add(c.median().get(m));
                r.add(c.min().get(m));
                r.add(c.max().get(m));
            }
            r.add(c.reason());
            rows.add(r);
        }
        dir.writeSummary(header, rows);
    }
}
