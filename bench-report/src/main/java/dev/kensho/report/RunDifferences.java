package dev.kensho.report;

import dev.kensho.core.result.RunResults;
import dev.kensho.report.chart.Cells;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How compared runs differ outside their cells: run-level parameters (--set settings, the order, the warm-up), the
 * Kensho builds that measured them and the client machines they ran on. compare says each as a note.
 */
final class RunDifferences {
    private final List<RunResults> runs;
    private final List<String> notes = new ArrayList<>();

    private RunDifferences(List<RunResults> runs) {
        this.runs = runs;
    }

    /** The notes for these runs, parameters first, then builds, then client machines. */
    static List<String> of(List<RunResults> runs) {
        RunDifferences d = new RunDifferences(runs);
        d.runParametersThatDiffer();
        d.buildsThatDiffer();
        d.clientMachinesThatDiffer();
        return d.notes;
    }

    /** What each run drew or was pointed at: differs between any two runs, and compare is made across it. */
    // "seed" is query's order seed (drawn when --seed is not given)
    // scan's crossovers and checks are kept among the parameters but are outcomes, compared as results
    private static final Set<String> EXPECTED_TO_DIFFER = Set.of("order_seed", "random_seed", "seed", "targets", "target",
            dev.kensho.core.result.RunDirectory.PLANNED_CELLS, Charts.CROSSOVERS, Charts.CHECKS);

    /**
     * Run-level parameters (run.json's, not a trial's) that differ between the runs: a trial's parameters make the cells,
     * but --set settings, the order or the warm-up are the run's, and two runs compared across them (autovacuum off in
     * one) were compared without a word. Said as a note; the cells are still compared.
     */
    private void runParametersThatDiffer() {
        Set<String> keys = new java.util.TreeSet<>();
        runs.forEach(r -> keys.addAll(r.info().parameters().keySet()));
        // what each trial records is compared cell by cell (a remote sweep's scale, unset on its command line, is in its trials)
        Set<String> perTrial = new java.util.HashSet<>();
        runs.forEach(r -> r.trials().forEach(t -> perTrial.addAll(t.params().keySet())));
        for (String k : keys) {
            if (EXPECTED_TO_DIFFER.contains(k) || perTrial.contains(k)) continue;
            List<String> values = new ArrayList<>();
            for (RunResults r : runs) {
                Object v = r.info().parameters().get(k);
                values.add(!r.info().parameters().containsKey(k) ? "(not recorded)" : v == null || Cells.text(v).isEmpty() ? "(none)" : Cells.text(v));
            }
            // a map's members in another order are the same value (micro's jmh options: {forks=1, ...} and {..., forks=1})
            if (runs.stream().allMatch(r -> r.info().parameters().containsKey(k))
                    && runs.stream().map(r -> sorted(r.info().parameters().get(k))).distinct().count() < 2) continue;
            if (values.stream().distinct().count() < 2) continue;
            notes.add("the runs differ in " + k + ": " + perRun(values));
        }
    }

    /**
     * The runs' Kensho builds, where they differ: the measuring code is part of what a comparison compares (a driver
     * change between two builds of one version moved tps as a server change would). Runs that recorded none say nothing.
     */
    private void buildsThatDiffer() {
        List<String> commits = new ArrayList<>();
        for (RunResults r : runs) {
            Set<String> c = new java.util.TreeSet<>();
            r.info().kenshoCommits().stream().filter(Objects::nonNull).forEach(c::add);
            commits.add(c.isEmpty() ? "(not recorded)" : String.join(", ", c));
        }
        if (commits.stream().allMatch(c -> c.equals("(not recorded)")) || commits.stream().distinct().count() < 2) return;
        notes.add("the runs were measured by different builds of Kensho: commit " + perRun(commits));
    }

    /** The client facts whose difference changes what a driver on that client could do. */
    private static final List<String> CLIENT_FACTS = List.of("cpus", "host_cpus", "cpus_allowed", "cpu_quota", "memory_limit_bytes");

    /**
     * The client machine or its confinement, where they differ: a run made with 1 CPU (taskset, a pod's quota) and one
     * with 2 were compared without a word, though the driver shares (or lacks) the CPU the server needs.
     */
    private void clientMachinesThatDiffer() {
        for (String k : CLIENT_FACTS) {
            List<String> values = new ArrayList<>();
            for (RunResults r : runs) {
                Set<String> v = new java.util.TreeSet<>();
                if (r.info().environment() != null) {
                    for (Object e : r.info().environment().values()) {
                        // a limit left out of the cgroup that was read is none; where none was read (an older build,
                        // a cgroup not found), it is not known
                        if (e instanceof Map<?, ?> m && m.get("client") instanceof Map<?, ?> c) {
                            String readIn = k.equals("cpu_quota") ? "cpu_cgroup" : k.equals("memory_limit_bytes") ? "memory_cgroup" : null;
                            v.add(c.containsKey(k) ? Cells.text(c.get(k)) : readIn != null && c.containsKey(readIn) ? "none" : "(not recorded)");
                        }
                    }
                }
                values.add(v.isEmpty() ? "(not recorded)" : String.join(", ", v));
            }
            // a run of an older build says nothing of its confinement: no difference to name
            if (values.stream().anyMatch(v -> v.contains("(not recorded)")) || values.stream().distinct().count() < 2) continue;
            notes.add("the runs' client machines differ in " + k + ": " + perRun(values));
        }
    }

    /**
     * One value per run, each with its letter and directory ("16 in A (DIR); 17 in B (DIR)"): the groups may be named
     * otherwise (--by mode, targets), leaving A and B undefined.
     */
    private String perRun(List<String> values) {
        List<String> each = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) each.add(values.get(i) + " in " + RunComparison.runLetter(i) + " (" + runs.get(i).directory().getFileName() + ")");
        return String.join("; ", each);
    }

    /** A value with its maps' keys in order, so that two orders of one map compare equal. */
    private static Object sorted(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new java.util.TreeMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), sorted(x)));
            return out;
        }
        if (v instanceof List<?> l) return l.stream().map(RunDifferences::sorted).toList();
        return v;
    }
}
