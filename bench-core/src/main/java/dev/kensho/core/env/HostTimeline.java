package dev.kensho.core.env;

import dev.kensho.core.result.Timeline;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The server host second by second while a trial runs, as the studies watched it with mpstat -P ALL 1
 * and sar -d / sar -n DEV: per CPU the share of time in usr, sys, iowait, irq, soft, steal and idle
 * (study 001 found softirq load pinned to eight of 32 CPUs this way), per whole disk the kB read and
 * written per second and its utilisation, per network interface kB and packets per second. Kept with the
 * trial as a {@link Timeline} under {@link #KEY}; a state that stayed at 0 on every CPU, and a disk or
 * interface that did nothing, are left out so a 32-CPU host's timeline stays small.
 *
 * <p>Columns: {@code cpu.usr} (all CPUs), {@code cpu3.soft}, {@code disk.vda.read_kB_s},
 * {@code disk.vda.write_kB_s}, {@code disk.vda.util_pct}, {@code net.eth0.rx_kB_s},
 * {@code net.eth0.tx_kB_s}, {@code net.eth0.rx_packets_s}, {@code net.eth0.tx_packets_s}, {@code mem.used_MB}.
 */
public final class HostTimeline {
    /** Where a trial keeps it. */
    public static final String KEY = Timeline.HOST;
    /** mpstat's names, in its order; user includes nice (and guest, as /proc/stat counts it). */
    static final String[] CPU_STATES = {"usr", "sys", "iowait", "irq", "soft", "steal", "idle"};
    private static final long PERIOD_NANOS = 1_000_000_000L;
    /** Memory in use at the end of each interval, MB: MemTotal − MemAvailable. */
    public static final String MEMORY_USED = "mem.used_MB";

    private final ProcFiles files;
    private final Timeline.Builder series = new Timeline.Builder();
    private List<String> disks = List.of();
    private Snapshot last;
    private long startNanos;
    private Thread thread;
    private volatile boolean stop;
    private volatile String error;

    public HostTimeline(ProcFiles files) {
        this.files = files;
    }

    /** Takes the first snapshot and samples every second from now on, in a thread of its own. */
    public void start() {
        try {
            disks = files.list("/sys/block").stream().filter(HostTimeline::realDisk).toList();
        } catch (IOException e) {
            disks = List.of();   // no /sys/block to tell disks from partitions: no disk columns
        }
        startNanos = System.nanoTime();
        last = snapshot();
        thread = new Thread(this::loop, "kensho-host-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops sampling after one last (shorter) interval and returns the series. */
    public Timeline stop() {
        stop = true;
        LockSupport.unpark(thread);
        try {
            if (thread != null) thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            // the rest of the run, unless it is a sliver: a few jiffies make shares of 33 % and 67 %
            if (last != null && System.nanoTime() - last.nanos >= PERIOD_NANOS / 4) sample();
            return withoutIdleColumns(series.build());
        }
    }

    /** Why sampling stopped early (the server went away, a file became unreadable), or null. */
    public String error() {
        return error;
    }

    public String source() {
        return files.source();
    }

    private void loop() {
        long next = startNanos + PERIOD_NANOS;
        while (!stop) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;   // woken early by stop(), or spuriously: look again
            }
            long taken;
            synchronized (this) {
                if (stop) return;
                if (!sample()) return;
                taken = last.nanos;
            }
            next += PERIOD_NANOS;
            // woken late (descheduled on a loaded machine), the next second's sample would cover a sliver of a few
            // jiffies, shares of 33 % and 67 % (stop() skips one too): the second after it instead
            if (next - taken < PERIOD_NANOS / 4) next += PERIOD_NANOS;
            if (next < System.nanoTime()) next = System.nanoTime() + PERIOD_NANOS;   // a slow read: skip, don't burst
        }
    }

    /** One interval: the rates since the last snapshot. False once the files cannot be read. */
    private boolean sample() {
        Snapshot now = snapshot();
        if (now == null) {
            last = null;
            return false;
        }
        double seconds = (now.nanos - last.nanos) / 1e9;
        if (seconds <= 0) return true;
        series.interval(round((now.nanos - startNanos) / 1e9, 3));
        for (var e : now.cpu.perCpu().entrySet()) {
            long[] b = last.cpu.perCpu().get(e.getKey());
            if (b == null) continue;
            long[] a = e.getValue();
            long[] d = new long[a.length];
            long total = 0;
            for (int i = 0; i < a.length; i++) total += d[i] = a[i] - b[i];
            // /proc/stat: user nice system idle iowait irq softirq steal
            long[] mp = {d[0] + d[1], d[2], d[4], d[5], d[6], d[7], d[3]};
            for (int i = 0; i < CPU_STATES.length; i++) {
                series.put(e.getKey() + "." + CPU_STATES[i], total <= 0 ? 0 : round(100.0 * mp[i] / total, 1));
            }
        }
        for (var e : now.disks.entrySet()) {
            long[] b = last.disks.get(e.getKey());
            if (b == null) continue;
            long[] a = e.getValue();
            String p = "disk." + e.getKey() + ".";
            series.put(p + "read_kB_s", round((a[1] - b[1]) / 2.0 / seconds, 1));
            series.put(p + "write_kB_s", round((a[3] - b[3]) / 2.0 / seconds, 1));
            series.put(p + "iops", round((a[0] - b[0] + a[2] - b[2]) / seconds, 1));
            series.put(p + "util_pct", round(Math.min(100, (a[4] - b[4]) / 10.0 / seconds), 1));
        }
        for (var e : now.net.entrySet()) {
            long[] b = last.net.get(e.getKey());
            if (b == null) continue;
            long[] a = e.getValue();
            String p = "net." + e.getKey() + ".";
            series.put(p + "rx_kB_s", round((a[0] - b[0]) / 1024.0 / seconds, 1));
            series.put(p + "tx_kB_s", round((a[2] - b[2]) / 1024.0 / seconds, 1));
            series.put(p + "rx_packets_s", round((a[1] - b[1]) / seconds, 1));
            series.put(p + "tx_packets_s", round((a[3] - b[3]) / seconds, 1));
        }
        Long total = now.mem.get("MemTotal"), available = now.mem.get("MemAvailable");
        // sar -r's kbmemused as the kernel now counts it: what is not available to a new program
        if (total != null && available != null) series.put(MEMORY_USED, round((total - available) / 1024.0, 1));
        last = now;
        return true;
    }

    private record Snapshot(long nanos, HostSampler.CpuTimes cpu, Map<String, long[]> disks, Map<String, long[]> net, Map<String, Long> mem) {}

    private Snapshot snapshot() {
        try {
            long t = System.nanoTime();
            HostSampler.CpuTimes cpu = HostSampler.cpu(files.read("/proc/stat"));
            Map<String, long[]> d = disks.isEmpty() ? Map.of() : HostSampler.disks(files.read("/proc/diskstats"), disks);
            Map<String, long[]> n = HostSampler.network(files.read("/proc/net/dev"));
            return new Snapshot(t, cpu, d, n, HostSampler.memory(files.read("/proc/meminfo")));
        } catch (IOException | RuntimeException e) {
            error = e.getMessage();
            return null;
        }
    }

    /** Loop, RAM and compressed-RAM devices are not storage the server writes to. */
    private static boolean realDisk(String name) {
        return !name.startsWith("loop") && !name.startsWith("ram") && !name.startsWith("zram");
    }

    /**
     * Drops what says nothing: a CPU state at 0 throughout on every CPU (steal and irq on most hosts), a disk
     * or an interface with no traffic (ifb0, an idle second disk). idle always stays: it is how busy a CPU was.
     */
    static Timeline withoutIdleColumns(Timeline t) {
        Map<String, List<Double>> cols = t.columns();
        java.util.Set<String> zeroStates = new java.util.HashSet<>(List.of(CPU_STATES));
        zeroStates.remove("idle");
        java.util.Set<String> busyDevices = new java.util.HashSet<>();
        for (var e : cols.entrySet()) {
            String k = e.getKey();
            if (k.equals(Timeline.T)) continue;
            boolean zero = e.getValue().stream().allMatch(v -> v == 0 || v.isNaN());
            int dot = k.lastIndexOf('.');
            if (k.startsWith("cpu")) {
                if (!zero) zeroStates.remove(k.substring(dot + 1));
            } else if (!zero) {
                busyDevices.add(k.substring(0, dot));
            }
        }
        Map<String, List<Double>> out = new LinkedHashMap<>();
        for (var e : cols.entrySet()) {
            String k = e.getKey();
            int dot = k.lastIndexOf('.');
            boolean keep = k.equals(Timeline.T) || (k.startsWith("cpu") ? !zeroStates.contains(k.substring(dot + 1))
                    : busyDevices.contains(k.substring(0, dot)));
            if (keep) out.put(k, new ArrayList<>(e.getValue()));
        }
        return new Timeline(out);
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
