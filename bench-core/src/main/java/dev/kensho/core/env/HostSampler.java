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

    /** Parses /proc/stat's "cpu" lines. */
    public static CpuTimes cpu(String procStat) {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (String line : procStat.split("\n")) {
            if (!line.startsWith("cpu")) continue;
            String[] f = line.trim().split("\\s+");
            long[] v = new long[CpuTimes.STATES.length];
            try {
                for (int i = 0; i < v.length && i + 1 < f.length; i++) v[i] = Long.parseLong(f[i + 1]);
            } catch (NumberFormatException e) {
                continue;
            }
            m.put(f[0], v);
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
        try {
            return memory(Files.readString(Path.of("/proc/meminfo")));
        } catch (IOException e) {
            return Map.of();   // not Linux
        }
    }

    /** Parses /proc/meminfo (kB). */
    public static Map<String, Long> memory(String meminfo) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String line : meminfo.split("\n")) {
            String[] f = line.split(":\\s+");
            if (f.length < 2) continue;
            try {
                m.put(f[0], Long.parseLong(f[1].trim().split("\\s+")[0]));
            } catch (NumberFormatException e) {
                // a line that is not "Name: value kB"
            }
        }
        return m;
    }

    /**
     * /proc/diskstats counters of the given devices (whole disks: /sys/block's names, not partitions, so no
     * I/O is counted twice): reads, sectors read, writes, sectors written, milliseconds spent doing I/O.
     * A sector here is always 512 bytes, whatever the device's own.
     */
    public static Map<String, long[]> disks(String diskstats, java.util.Collection<String> devices) {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (String line : diskstats.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 13 || !devices.contains(f[2])) continue;
            try {
                m.put(f[2], new long[] {Long.parseLong(f[3]), Long.parseLong(f[5]), Long.parseLong(f[7]), Long.parseLong(f[9]),
                        Long.parseLong(f[12])});
            } catch (NumberFormatException e) {
                // a line of another layout
            }
        }
        return m;
    }

    /** /proc/net/dev counters per interface: bytes received, packets received, bytes sent, packets sent. */
    public static Map<String, long[]> network(String netDev) {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (String line : netDev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            if (f.length < 10) continue;
            try {
                m.put(line.substring(0, colon).trim(), new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]),
                        Long.parseLong(f[8]), Long.parseLong(f[9])});
            } catch (NumberFormatException e) {
                // the two header lines have no colon; anything else unreadable is left out
            }
        }
        return m;
    }

    static String cpuModel() {
        try {
            if (Files.exists(Path.of("/proc/cpuinfo"))) {
                String model = cpuModel(Files.readString(Path.of("/proc/cpuinfo")));
                if (model != null) return model;
            }
        } catch (IOException e) {
            // unknown
        }
        return System.getProperty("os.arch");
    }

    /** The first "model name" of a /proc/cpuinfo, or null (ARM's cpuinfo has none). */
    static String cpuModel(String cpuinfo) {
        for (String l : cpuinfo.split("\n")) if (l.startsWith("model name")) return l.substring(l.indexOf(':') + 1).trim();
        return null;
    }
}
