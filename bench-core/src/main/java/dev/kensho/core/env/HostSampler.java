package dev.kensho.core.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU split and memory of this host from /proc, for servers on the same host (the studies report
 * user/system/softirq/iowait per core next to TPS). Take a snapshot before and after; the
 * difference is the share of each state over the interval.
 */
public final class HostSampler {
    private HostSampler() {}

    /** Jiffies per state for "cpu" (all) and each "cpuN". */
    public record CpuTimes(Map<String, long[]> perCpu) {
        static final String[] STATES = {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"};
    }

    public static boolean available() {
        return Files.isReadable(Path.of("/proc/stat"));
    }

    public static CpuTimes cpu() {
        Map<String, long[]> m = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (!line.startsWith("cpu")) continue;
                String[] f = line.trim().split("\\s+");
                long[] v = new long[CpuTimes.STATES.length];
                for (int i = 0; i < v.length && i + 1 < f.length; i++) v[i] = Long.parseLong(f[i + 1]);
                m.put(f[0], v);
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: no CPU split
        }
        return new CpuTimes(m);
    }

    /** Percent of time in each state between two snapshots, per CPU ("cpu" = all cores). */
    public static Map<String, Map<String, Double>> split(CpuTimes before, CpuTimes after) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (var e : after.perCpu().entrySet()) {
            long[] a = e.getValue();
            long[] b = before.perCpu().get(e.getKey());
            if (b == null) continue;
            long total = 0;
            for (int i = 0; i < a.length; i++) total += a[i] - b[i];
            Map<String, Double> s = new LinkedHashMap<>();
            for (int i = 0; i < a.length; i++) s.put(CpuTimes.STATES[i], total == 0 ? 0.0 : 100.0 * (a[i] - b[i]) / total);
            out.put(e.getKey(), s);
        }
        return out;
    }

    /** MemTotal, MemAvailable, Cached, … in kB. */
    public static Map<String, Long> memory() {
        Map<String, Long> m = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                String[] f = line.split(":\\s+");
                if (f.length < 2) continue;
                String[] v = f[1].trim().split("\\s+");
                m.put(f[0], Long.parseLong(v[0]));
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return m;
    }

    static String cpuModel() {
        try {
            List<String> lines = Files.exists(Path.of("/proc/cpuinfo")) ? Files.readAllLines(Path.of("/proc/cpuinfo")) : new ArrayList<>();
            for (String l : lines) if (l.startsWith("model name")) return l.substring(l.indexOf(':') + 1).trim();
        } catch (IOException e) {
            // unknown
        }
        return System.getProperty("os.arch");
    }
}
