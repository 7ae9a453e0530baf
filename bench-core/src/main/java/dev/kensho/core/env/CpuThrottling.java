package dev.kensho.core.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The periods in which a cgroup's CPU quota held this process back (cpu.stat's nr_throttled of nr_periods). A driver in
 * a half-CPU pod reported "35% of one CPU" and looked idle while the quota stopped it in most periods: its numbers were
 * the quota's. Where no quota confines the process, there is nothing to read.
 */
public final class CpuThrottling {
    private final Path stat;

    private CpuThrottling(Path stat) {
        this.stat = stat;
    }

    /** Periods elapsed and periods throttled, as cpu.stat counts them since the cgroup was made. */
    public record Count(long periods, long throttled) {
        /** The share of the periods since before in which the quota held the process back, in percent; NaN where none passed. */
        public double percentSince(Count before) {
            long p = periods - before.periods;
            return p <= 0 ? Double.NaN : 100.0 * (throttled - before.throttled) / p;
        }
    }

    /** This process's quota, or null where none confines it (or this is not Linux). */
    public static CpuThrottling ofThisProcess() {
        return of(Path.of("/"));
    }

    static CpuThrottling of(Path root) {
        Path cgroup = Confinement.quotaCgroup(root);
        return cgroup == null || !Files.isReadable(cgroup.resolve("cpu.stat")) ? null : new CpuThrottling(cgroup.resolve("cpu.stat"));
    }

    /** The counts now; null where cpu.stat cannot be read. */
    public Count read() {
        try {
            long periods = -1, throttled = -1;
            for (String l : Files.readAllLines(stat)) {
                String[] f = l.split("\\s+");
                if (f.length < 2) continue;
                if (f[0].equals("nr_periods")) periods = Long.parseLong(f[1]);
                if (f[0].equals("nr_throttled")) throttled = Long.parseLong(f[1]);
            }
            return periods < 0 || throttled < 0 ? null : new Count(periods, throttled);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
