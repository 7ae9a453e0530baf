package dev.kensho.core.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What confines this process on Linux, as a CI container or a Kubernetes pod does: the CPUs it may run on (its affinity,
 * a cpuset), its cgroup's CPU quota and memory limit, beside the CPUs the host has. Runtime.availableProcessors()
 * folds the first two into one rounded-up number (0.5 CPU of quota reads 1) and says nothing of the host, so a run
 * made in a 1-CPU pod on a 32-CPU node and one made on the bare node were recorded as "cpus 1" and "cpus 32" with no
 * word of why. Reads cgroup v2 and v1; absent facts are left out.
 */
final class Confinement {
    private Confinement() {}

    /** host_cpus, cpus_allowed (Cpus_allowed_list), cpu_quota (CPUs, e.g. 0.5), memory_limit_bytes: only those found. */
    static Map<String, Object> of(Path root) {
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            String stat = read(root.resolve("proc/stat"));
            if (stat != null) m.put("host_cpus", stat.lines().filter(l -> l.matches("cpu\\d+ .*")).count());
            String status = read(root.resolve("proc/self/status"));
            if (status != null) status.lines().filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .findFirst().ifPresent(l -> m.put("cpus_allowed", l.substring(l.indexOf(':') + 1).strip()));
            Double quota = cpuQuota(root);
            if (quota != null) m.put("cpu_quota", quota);
            Long mem = memoryLimit(root);
            if (mem != null) m.put("memory_limit_bytes", mem);
        } catch (RuntimeException e) {
            // a /proc or /sys that reads otherwise than Linux's: the facts go unrecorded, the run goes on
        }
        return m;
    }

    static Map<String, Object> ofThisProcess() {
        return of(Path.of("/"));
    }

    /** The CPU quota in CPUs (quota / period), or null when unlimited or unknown. */
    static Double cpuQuota(Path root) {
        String v2 = cgroupPath(root, null);
        if (v2 != null) {
            String max = read(root.resolve("sys/fs/cgroup" + v2).resolve("cpu.max"));
            if (max != null) {
                String[] f = max.strip().split("\\s+");
                return f[0].equals("max") || f.length < 2 ? null : Double.parseDouble(f[0]) / Double.parseDouble(f[1]);
            }
        }
        String v1 = cgroupPath(root, "cpu");
        if (v1 != null) {
            Path dir = root.resolve("sys/fs/cgroup/cpu" + v1);
            String q = read(dir.resolve("cpu.cfs_quota_us")), p = read(dir.resolve("cpu.cfs_period_us"));
            if (q != null && p != null && Long.parseLong(q.strip()) > 0) return Double.parseDouble(q.strip()) / Double.parseDouble(p.strip());
        }
        return null;
    }

    /** The memory limit in bytes, or null when unlimited or unknown. */
    static Long memoryLimit(Path root) {
        String v2 = cgroupPath(root, null);
        if (v2 != null) {
            String max = read(root.resolve("sys/fs/cgroup" + v2).resolve("memory.max"));
            if (max != null) return max.strip().equals("max") ? null : Long.parseLong(max.strip());
        }
        String v1 = cgroupPath(root, "memory");
        if (v1 != null) {
            String l = read(root.resolve("sys/fs/cgroup/memory" + v1).resolve("memory.limit_in_bytes"));
            // v1's "unlimited" is a page-rounded LONG_MAX
            if (l != null && Long.parseLong(l.strip()) < (1L << 62)) return Long.parseLong(l.strip());
        }
        return null;
    }

    /** This process's cgroup path for a v1 controller, or (controller null) the v2 "0::" path; null if none. */
    static String cgroupPath(Path root, String controller) {
        String cg = read(root.resolve("proc/self/cgroup"));
        if (cg == null) return null;
        for (String l : cg.split("\n")) {
            String[] f = l.split(":", 3);
            if (f.length < 3) continue;
            if (controller == null && f[0].equals("0") && f[1].isEmpty()) return f[2].strip();
            if (controller != null && java.util.Arrays.asList(f[1].split(",")).contains(controller)) return f[2].strip();
        }
        return null;
    }

    private static String read(Path p) {
        try {
            return Files.isReadable(p) ? Files.readString(p) : null;
        } catch (IOException e) {
            return null;
        }
    }
}
