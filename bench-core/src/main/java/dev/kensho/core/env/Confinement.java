package dev.kensho.core.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What confines this process on Linux, as a CI container or a Kubernetes pod does: the CPUs it may run on (its affinity,
 * a cpuset), its cgroup's CPU quota and memory limit, beside the CPUs the host has. Runtime.availableProcessors()
 * folds the first two into one rounded-up number (0.5 CPU of quota reads 1) and says nothing of the host, so a run
 * made in a 1-CPU pod on a 32-CPU node and one made on the bare node were recorded as "cpus 1" and "cpus 32" with no
 * word of why. Reads cgroup v2 and v1, found as the JDK finds them (/proc/self/mountinfo: a container's own cgroup is
 * mounted at the hierarchy's mount point, not under the host's path); the lowest limit on the way up counts (a
 * systemd slice's). Absent facts are left out; {@code cpu_cgroup} and {@code memory_cgroup} name the directories
 * read, so that a limit left out there is none, and one never looked for is unknown.
 */
final class Confinement {
    private Confinement() {}

    /** host_cpus, cpus_allowed, cpu_cgroup, cpu_quota (CPUs, e.g. 0.5), memory_cgroup, memory_limit_bytes: those found. */
    static Map<String, Object> of(Path root) {
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            String stat = read(root.resolve("proc/stat"));
            // every "cpuN" line, less the all-CPU "cpu" one
            Map<String, long[]> cpus = stat == null ? Map.of() : HostSampler.cpu(stat).perCpu();
            if (cpus.containsKey("cpu")) m.put("host_cpus", (long) cpus.size() - 1);
            String status = read(root.resolve("proc/self/status"));
            if (status != null) status.lines().filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .findFirst().ifPresent(l -> m.put("cpus_allowed", l.substring(l.indexOf(':') + 1).strip()));
            // each controller where v1 mounts it, else in v2 where v2 holds it (a hybrid host mounts a cgroup2 that holds none)
            Mount cpu1 = mount(root, "cpu"), cpu2 = cpu1 == null ? v2Holding(root, "cpu") : null;
            Mount mem1 = mount(root, "memory"), mem2 = mem1 == null ? v2Holding(root, "memory") : null;
            Mount cpu = cpu1 != null ? cpu1 : cpu2, memory = mem1 != null ? mem1 : mem2;
            if (cpu != null) {
                m.put("cpu_cgroup", "/" + root.relativize(cpu.dir));
                Double quota = cpu.lowest(cpu1 != null ? Confinement::quotaV1 : Confinement::quotaV2);
                if (quota != null) m.put("cpu_quota", quota);
            }
            if (memory != null) {
                m.put("memory_cgroup", "/" + root.relativize(memory.dir));
                Double limit = memory.lowest(mem1 != null ? Confinement::memoryV1 : Confinement::memoryV2);
                if (limit != null) m.put("memory_limit_bytes", limit.longValue());
            }
        } catch (RuntimeException e) {
            // a /proc or /sys that reads otherwise than Linux's: the facts go unrecorded, the run goes on
        }
        return m;
    }

    static Map<String, Object> ofThisProcess() {
        return of(Path.of("/"));
    }

    /** A cgroup directory of this process and the mount point its hierarchy is mounted at (the walk up stops there). */
    private record Mount(Path dir, Path top) {
        /** The lowest of a limit read from dir and each directory above it up to top; null where none is set. */
        Double lowest(java.util.function.Function<Path, Double> limit) {
            Path at = lowestAt(limit);
            return at == null ? null : limit.apply(at);
        }

        /** The directory, dir or one above it up to top, that sets the lowest limit; null where none does. */
        Path lowestAt(java.util.function.Function<Path, Double> limit) {
            Double low = null;
            Path at = null;
            for (Path d = dir; d != null && d.startsWith(top); d = d.getParent()) {
                Double v = limit.apply(d);
                if (v != null && (low == null || v < low)) {
                    low = v;
                    at = d;
                }
            }
            return at;
        }
    }

    /**
     * The cgroup whose CPU quota confines this process (its own or one above it), for its cpu.stat; null where no quota
     * is set or none is found.
     */
    static Path quotaCgroup(Path root) {
        try {
            Mount cpu = mount(root, "cpu");
            if (cpu != null) return cpu.lowestAt(Confinement::quotaV1);
            Mount v2 = v2Holding(root, "cpu");
            return v2 == null ? null : v2.lowestAt(Confinement::quotaV2);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** This process's v2 cgroup where v2 holds the controller (its hierarchy's cgroup.controllers lists it); else null. */
    private static Mount v2Holding(Path root, String controller) {
        Mount v2 = mount(root, null);
        if (v2 == null) return null;
        String controllers = read(v2.top.resolve("cgroup.controllers"));
        return controllers != null && Arrays.asList(controllers.strip().split("\\s+")).contains(controller) ? v2 : null;
    }

    /** Where this process's cgroup of a v1 controller (or, controller null, of v2) lies; null where there is none. */
    private static Mount mount(Path root, String controller) {
        String path = cgroupPath(root, controller);
        if (path == null) return null;
        String mountinfo = read(root.resolve("proc/self/mountinfo"));
        if (mountinfo == null) return null;
        for (String l : mountinfo.split("\n")) {
            String[] halves = l.split(" - ", 2);
            if (halves.length < 2) continue;
            String[] f = halves[0].split(" "), g = halves[1].split(" ");
            if (f.length < 5 || g.length < 3) continue;
            boolean ours = controller == null ? g[0].equals("cgroup2")
                    : g[0].equals("cgroup") && Arrays.asList(g[2].split(",")).contains(controller);
            if (!ours) continue;
            String mountRoot = f[3];
            Path top = root.resolve(f[4].substring(1));
            // as the JDK's CgroupV1SubsystemController: the host's path under a root of "/", else the part below the
            // mount's root, else (a container's view of a path outside it) the mount point itself
            String below = mountRoot.equals("/") ? path : path.startsWith(mountRoot) ? path.substring(mountRoot.length()) : "";
            Path dir = below.isEmpty() || below.equals("/") ? top : top.resolve(below.substring(below.startsWith("/") ? 1 : 0));
            return Files.isDirectory(dir) ? new Mount(dir, top) : null;
        }
        return null;
    }

    private static Double quotaV2(Path dir) {
        String max = read(dir.resolve("cpu.max"));
        if (max == null) return null;
        String[] f = max.strip().split("\\s+");
        return f[0].equals("max") || f.length < 2 ? null : Double.parseDouble(f[0]) / Double.parseDouble(f[1]);
    }

    private static Double quotaV1(Path dir) {
        String q = read(dir.resolve("cpu.cfs_quota_us")), p = read(dir.resolve("cpu.cfs_period_us"));
        return q == null || p == null || Long.parseLong(q.strip()) <= 0 ? null : Double.parseDouble(q.strip()) / Double.parseDouble(p.strip());
    }

    private static Double memoryV2(Path dir) {
        String max = read(dir.resolve("memory.max"));
        return max == null || max.strip().equals("max") ? null : Double.valueOf(Long.parseLong(max.strip()));
    }

    private static Double memoryV1(Path dir) {
        String l = read(dir.resolve("memory.limit_in_bytes"));
        // v1's "unlimited" is a page-rounded LONG_MAX
        return l == null || Long.parseLong(l.strip()) >= (1L << 62) ? null : Double.valueOf(Long.parseLong(l.strip()));
    }

    /** This process's cgroup path for a v1 controller, or (controller null) the v2 "0::" path; null if none. */
    private static String cgroupPath(Path root, String controller) {
        String cg = read(root.resolve("proc/self/cgroup"));
        if (cg == null) return null;
        for (String l : cg.split("\n")) {
            String[] f = l.split(":", 3);
            if (f.length < 3) continue;
            if (controller == null && f[0].equals("0") && f[1].isEmpty()) return f[2].strip();
            if (controller != null && Arrays.asList(f[1].split(",")).contains(controller)) return f[2].strip();
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
