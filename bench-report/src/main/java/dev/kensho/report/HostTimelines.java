package dev.kensho.report;

import dev.kensho.core.result.Timeline;
import dev.kensho.core.result.Trial;
import dev.kensho.report.chart.TimeChart;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The server host second by second during a cell's first repeat, as the studies showed mpstat and sar
 * next to TPS: the CPU split of all CPUs, softirq per CPU (study 001 found it on eight of 32 CPUs only,
 * where irqbalance had put the disk and network interrupts), and disk and network traffic. One repeat,
 * not a mean: a mean would smear a CPU's spikes into its neighbours'.
 */
public final class HostTimelines {
    private HostTimelines() {}

    private static final String[] STATES = {"usr", "sys", "iowait", "irq", "soft", "steal"};

    /**
     * A cell's host charts.
     *
     * @param label   what names the cell and its repeat ("target=embedded-17, clients=1024 (repeat 1)")
     * @param figures its CPU split, softirq per CPU and disk and network charts, those it has data for
     * @param means   the run's means for a table of the cells, column → value ("busy %" → "82.6"), what the cell has
     */
    public record Cell(String label, List<Figure> figures, Map<String, String> means) {}

    /** The means' columns, in the table's order. */
    public static final List<String> MEAN_COLUMNS = List.of("busy %", "memory in use MB", "softirq % per CPU",
            "CPUs with over twice that, %", "disks busy %", "network packets/s received / sent");

    public static List<Figure> figures(List<Trial> trials, List<String> planned) {
        return cells(trials, planned).stream().flatMap(c -> c.figures().stream()).toList();
    }

    /** Per cell that kept its host, the charts of its first repeat that did. */
    public static List<Cell> cells(List<Trial> trials, List<String> planned) {
        List<Cell> cells = new ArrayList<>();
        for (Timelines.TitledCell tc : Timelines.titledCells(trials, planned)) {
            List<Figure> out = new ArrayList<>();
            Optional<Trial> first = tc.ok().stream()
                    .filter(t -> Timeline.of(t, Timeline.HOST) != null && Timeline.of(t, Timeline.HOST).size() > 0).findFirst();
            if (first.isEmpty()) continue;
            Timeline tl = Timeline.of(first.get(), Timeline.HOST);
            String repeat = " (repeat " + (first.get().repeat() + 1) + ")";
            String of = tc.label() + repeat;
            String source = source(first.get());

            Map<String, List<double[]>> split = new LinkedHashMap<>();
            for (String st : STATES) if (!tl.column("cpu." + st).isEmpty()) split.put(st, points(tl, "cpu." + st));
            double busy = mean(tl, "cpu.idle"), memory = mean(tl, "mem.used_MB");
            String title = "Host CPU, all CPUs, % of time" + of;
            String cpuNote = String.format(Locale.ROOT, "busy %.1f %% on average (100 − idle)%s", Double.isNaN(busy) ? Double.NaN : 100 - busy,
                    Double.isNaN(memory) ? "" : String.format(Locale.ROOT, "; memory in use %.0f MB on average (MemTotal − MemAvailable)", memory));
            out.add(new Figure(title, TimeChart.build(title, "%", split), List.of(source + "; " + cpuNote)));
            Map<String, String> means = new LinkedHashMap<>();
            if (!Double.isNaN(busy)) means.put(MEAN_COLUMNS.get(0), String.format(Locale.ROOT, "%.1f", 100 - busy));
            if (!Double.isNaN(memory)) means.put(MEAN_COLUMNS.get(1), String.format(Locale.ROOT, "%.0f", memory));

            List<String> cpus = cpus(tl);
            if (cpus.stream().anyMatch(cpu -> !tl.column(cpu + ".soft").isEmpty())) {
                title = "softirq per CPU, % of time" + of;
                out.add(new Figure(title, softChart(title, tl, cpus), List.of(softNote(tl, cpus, means))));
            }

            Map<String, List<double[]>> io = new LinkedHashMap<>();
            for (String col : tl.columns().keySet()) {
                if (!col.endsWith("_kB_s")) continue;
                // disk.vda.write_kB_s → "vda write", net.eth0.rx_kB_s → "eth0 rx"
                String dev = col.substring(col.indexOf('.') + 1, col.lastIndexOf('.'));
                String what = col.substring(col.lastIndexOf('.') + 1, col.length() - "_kB_s".length());
                io.put((col.startsWith("disk.") ? "disk " : "net ") + dev + " " + what, points(tl, col));
            }
            if (!io.isEmpty()) {
                title = "Host disks and network, kB/s" + of;
                out.add(new Figure(title, TimeChart.build(title, "kB/s", io), List.of(ioNote(tl, means))));
            }
            cells.add(new Cell((tc.label().isEmpty() ? "the run" : tc.label().substring(" — ".length())) + repeat, out, means));
        }
        return cells;
    }

    /** Lines a chart can tell apart: eight colours. */
    static final int NAMED_CPUS = 8;

    /**
     * A line per CPU where there are few; on a larger host (study 001's 32 CPUs: 32 lines in eight colours were a
     * tangle, cpu0 drawn as cpu8) the CPUs with the most softirq, in number order, and the others' mean in grey.
     */
    private static org.jfree.chart.JFreeChart softChart(String title, Timeline tl, List<String> cpus) {
        Map<String, List<double[]>> soft = new LinkedHashMap<>();
        if (cpus.size() <= NAMED_CPUS) {
            for (String cpu : cpus) soft.put(cpu, points(tl, cpu + ".soft"));
            return TimeChart.build(title, "%soft", soft);
        }
        List<String> busiest = cpus.stream().filter(cpu -> !tl.column(cpu + ".soft").isEmpty()).sorted(Comparator.comparingDouble((String cpu) -> {
            double m = mean(tl, cpu + ".soft");
            return Double.isNaN(m) ? 0 : -m;
        })).limit(NAMED_CPUS).toList();
        List<String> others = cpus.stream().filter(cpu -> !busiest.contains(cpu)).toList();
        for (String cpu : cpus) if (busiest.contains(cpu)) soft.put(cpu, points(tl, cpu + ".soft"));
        String rest = "mean of the other " + others.size() + " CPUs";
        List<Double> t = tl.column(Timeline.T);
        List<double[]> mean = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            double sum = 0;
            int n = 0;
            for (String cpu : others) {
                List<Double> v = tl.column(cpu + ".soft");
                // a CPU whose softirq stayed 0 has no column: it counts as 0
                double x = i < v.size() && !v.get(i).isNaN() ? v.get(i) : 0;
                sum += x;
                n++;
            }
            mean.add(new double[] {t.get(i), sum / n});
        }
        soft.put(rest, mean);
        return TimeChart.build(title, "%soft", soft, rest);
    }

    private static String source(Trial t) {
        Object h = t.extra().get("host");
        Object s = h instanceof Map<?, ?> m ? m.get("source") : null;
        return "read from " + (s == null ? "this host" : s);
    }

    /** cpu0, cpu1, … in number order (cpu10 after cpu9). */
    private static List<String> cpus(Timeline tl) {
        return tl.columns().keySet().stream().filter(k -> k.matches("cpu\\d+\\.idle")).map(k -> k.substring(0, k.indexOf('.')))
                .sorted(Comparator.comparingInt(k -> Integer.parseInt(k.substring(3)))).toList();
    }

    /** Which CPUs carried the softirq load: those at more than twice the mean of all. */
    private static String softNote(Timeline tl, List<String> cpus, Map<String, String> means) {
        double all = 0;
        Map<String, Double> mean = new LinkedHashMap<>();
        for (String cpu : cpus) {
            double m = mean(tl, cpu + ".soft");
            mean.put(cpu, Double.isNaN(m) ? 0 : m);
            all += mean.get(cpu);
        }
        all /= Math.max(1, cpus.size());
        double avg = all;
        List<String> high = mean.entrySet().stream().filter(e -> e.getValue() > 2 * avg && e.getValue() >= 0.5)
                .map(e -> String.format(Locale.ROOT, "%s %.1f %%", e.getKey(), e.getValue())).toList();
        means.put(MEAN_COLUMNS.get(2), String.format(Locale.ROOT, "%.2f", avg));
        means.put(MEAN_COLUMNS.get(3), high.isEmpty() ? "none" : high.size() + " of " + cpus.size() + ": " + String.join(", ", high).replace(" %", ""));
        return String.format(Locale.ROOT, "softirq %.2f %% on average per CPU", avg)
                + (high.isEmpty() ? "; no CPU carried more than twice that" : "; more than twice that on " + high.size() + " of "
                + cpus.size() + " CPUs: " + String.join(", ", high));
    }

    private static String ioNote(Timeline tl, Map<String, String> means) {
        List<String> parts = new ArrayList<>(), disks = new ArrayList<>(), nets = new ArrayList<>();
        for (String col : tl.columns().keySet()) {
            if (col.endsWith(".util_pct")) {
                parts.add(String.format(Locale.ROOT, "%s busy %.1f %% of the time", col.substring(5, col.lastIndexOf('.')), mean(tl, col)));
                disks.add(String.format(Locale.ROOT, "%s %.1f", col.substring(5, col.lastIndexOf('.')), mean(tl, col)));
            } else if (col.endsWith("_packets_s") && col.contains(".rx_")) {
                String dev = col.substring(4, col.lastIndexOf('.'));
                parts.add(String.format(Locale.ROOT, "%s %.0f packets/s received, %.0f sent", dev, mean(tl, col),
                        mean(tl, "net." + dev + ".tx_packets_s")));
                nets.add(String.format(Locale.ROOT, "%s %.0f / %.0f", dev, mean(tl, col), mean(tl, "net." + dev + ".tx_packets_s")));
            }
        }
        if (!disks.isEmpty()) means.put(MEAN_COLUMNS.get(4), String.join(", ", disks));
        if (!nets.isEmpty()) means.put(MEAN_COLUMNS.get(5), String.join(", ", nets));
        return parts.isEmpty() ? "means over the run" : "means over the run: " + String.join("; ", parts);
    }

    private static List<double[]> points(Timeline tl, String col) {
        List<Double> t = tl.column(Timeline.T), v = tl.column(col);
        List<double[]> p = new ArrayList<>();
        for (int i = 0; i < t.size() && i < v.size(); i++) if (!v.get(i).isNaN()) p.add(new double[] {t.get(i), v.get(i)});
        return p;
    }

    /** Mean over the intervals weighted by their length (the last one is usually shorter). */
    private static double mean(Timeline tl, String col) {
        List<Double> t = tl.column(Timeline.T), v = tl.column(col);
        double sum = 0, span = 0, prev = 0;
        for (int i = 0; i < t.size() && i < v.size(); i++) {
            double len = t.get(i) - prev;
            prev = t.get(i);
            if (v.get(i).isNaN()) continue;
            sum += v.get(i) * len;
            span += len;
        }
        return span == 0 ? Double.NaN : sum / span;
    }
}
