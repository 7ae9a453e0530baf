package dev.kensho.core.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.Timeline;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

@KenshoTarget
class HostTimelineTest {

    @Test
    void parsesDiskstatsOfWholeDisksAndNetDev() {
        String diskstats = """
                   7       0 loop0 9 0 18 1 0 0 0 0 0 4 1 0 0 0 0 0 0
                 252       0 vda 100 5 2000 30 400 7 8000 90 0 250 120 0 0 0 0 0 0
                 252       1 vda1 90 5 1900 28 390 7 7900 88 0 240 116 0 0 0 0 0 0
                """;
        Map<String, long[]> d = HostSampler.disks(diskstats, List.of("vda"));
        assertEquals(List.of("vda"), List.copyOf(d.keySet()));
        // reads, sectors read, writes, sectors written, ms doing I/O
        assertArrayEquals(new long[] {100, 2000, 400, 8000, 250}, d.get("vda"));
        String netDev = """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo:   44635     569    0    0    0     0          0         0    44636     570    0    0    0     0       0          0
                  eth0: 144543804    4365    0    0    0     0          0         0   282818    3371    0    0    0     0       0          0
                """;
        Map<String, long[]> n = HostSampler.network(netDev);
        assertEquals(List.of("lo", "eth0"), List.copyOf(n.keySet()));
        assertArrayEquals(new long[] {44635, 569, 44636, 570}, n.get("lo"));
        assertArrayEquals(new long[] {144543804, 4365, 282818, 3371}, n.get("eth0"));
    }

    @Test
    void leavesOutStatesAndDevicesThatStayedAtZero() {
        Map<String, List<Double>> cols = new LinkedHashMap<>();
        cols.put(Timeline.T, List.of(1.0, 2.0));
        cols.put("cpu.usr", List.of(50.0, 60.0));
        cols.put("cpu.steal", List.of(0.0, 0.0));
        cols.put("cpu0.steal", List.of(0.0, 0.0));
        cols.put("cpu0.soft", List.of(0.0, 0.0));
        cols.put("cpu1.soft", List.of(0.0, 3.5));   // soft on one CPU only: kept on every CPU, as the study plotted it
        cols.put("cpu.idle", List.of(0.0, 0.0));    // a saturated host: idle stays
        cols.put("net.ifb0.rx_kB_s", List.of(0.0, 0.0));
        cols.put("net.ifb0.tx_kB_s", List.of(0.0, 0.0));
        cols.put("net.eth0.100.rx_kB_s", List.of(0.0, 0.0));
        cols.put("net.eth0.100.tx_kB_s", List.of(1.0, 0.0));
        Timeline t = HostTimeline.withoutIdleColumns(new Timeline(cols));
        assertEquals(List.of(Timeline.T, "cpu.usr", "cpu0.soft", "cpu1.soft", "cpu.idle", "net.eth0.100.rx_kB_s", "net.eth0.100.tx_kB_s"),
                List.copyOf(t.columns().keySet()));
    }

    @Test
    void thisHostSecondBySecond() throws Exception {
        ProcFiles local = ProcFiles.local().orElse(null);
        Assumptions.assumeTrue(local != null, "no /proc on this host");
        Sampled sampled = sampleWhileBusy(local);
        checkSeries(sampled);
        Timeline t = sampled.timeline();
        // a core kept busy for 2.5 s: the all-CPU user share shows it (2 cores here: about 50 %)
        double busiest = t.column("cpu.usr").stream().mapToDouble(Double::doubleValue).max().orElse(0);
        assertTrue(busiest >= 100.0 / Runtime.getRuntime().availableProcessors() / 2, t.columns().toString());
    }

    /** A remote server's host, read through the server: the same series as from /proc directly. */
    @Test
    void serverHostThroughTheServer(Target pg) throws Exception {
        try (Connection c = pg.connect()) {
            ProcFiles.Reading r = ProcFiles.throughServer(c);
            assertNull(r.unavailable());
            assertTrue(r.files().source().contains("pg_read_file"), r.files().source());
            checkSeries(sampleWhileBusy(r.files()));
        }
    }

    /** A role that may not read server files: no series, and the reason in the server's words. */
    @Test
    void roleWithoutTheRightSaysWhy(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DO $$BEGIN CREATE ROLE kensho_no_files NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END$$");
            s.execute("SET ROLE kensho_no_files");
            ProcFiles.Reading r = ProcFiles.throughServer(c);
            assertNull(r.files());
            assertNotNull(r.unavailable());
            assertTrue(r.unavailable().contains("/proc/stat") && r.unavailable().contains("permission denied"), r.unavailable());
            // and who may: the server's message names the function, not the role that would allow it
            assertTrue(r.unavailable().endsWith("(a superuser or a member of pg_read_server_files may: GRANT pg_read_server_files TO kensho_no_files)"),
                    r.unavailable());
            s.execute("RESET ROLE");
        }
    }

    /** A series and the seconds from before its start to after its stop: no sample can lie beyond them. */
    private record Sampled(Timeline timeline, double seconds) {}

    private static Sampled sampleWhileBusy(ProcFiles files) {
        HostTimeline h = new HostTimeline(files);
        long started = System.nanoTime();
        h.start();
        long end = System.nanoTime() + 2_500_000_000L;
        long x = 0;
        while (System.nanoTime() < end) x += Long.numberOfTrailingZeros(x + System.nanoTime());
        try { Thread.sleep(1600); } catch (InterruptedException e) { throw new IllegalStateException(e); }
        Timeline t = h.stop();
        double seconds = (System.nanoTime() - started) / 1e9;
        assertNull(h.error());
        assertTrue(x != 42);   // keeps the loop from being optimised away
        return new Sampled(t, seconds);
    }

    /**
     * About a second each and the rest to the stop (2.5 s, more where this thread was descheduled before stopping);
     * each interval's CPU shares add up to 100 %. On a loaded machine a sample comes late, and one more late than a
     * second is skipped, not made up: two intervals at least, and at most one a second plus the rest.
     */
    private static void checkSeries(Sampled sampled) {
        Timeline t = sampled.timeline();
        List<Double> ts = t.column(Timeline.T);
        assertTrue(ts.size() >= 2 && ts.size() <= (int) sampled.seconds() + 1, ts + " in " + sampled.seconds() + " s");
        assertTrue(ts.get(0) >= 0.99, "never before its second: " + ts);
        for (int i = 1; i < ts.size(); i++) assertTrue(ts.get(i) - ts.get(i - 1) >= 0.25, "no sliver: " + ts);
        // the rest is sampled unless it is under a quarter of a second
        assertTrue(ts.get(ts.size() - 1) >= 2.25 && ts.get(ts.size() - 1) <= sampled.seconds(),
                "the last ends near the stop: " + ts + " in " + sampled.seconds() + " s");
        int n = ts.size();
        assertEquals(n, t.column(HostTimeline.MEMORY_USED).size(), t.columns().keySet().toString());
        assertTrue(t.column(HostTimeline.MEMORY_USED).stream().allMatch(mb -> mb > 0), t.column(HostTimeline.MEMORY_USED).toString());
        // /proc/stat's CPUs, which in a container may be more than the JVM may use
        List<String> cpus = t.columns().keySet().stream().filter(k -> k.matches("cpu\\d*\\.idle")).map(k -> k.substring(0, k.indexOf('.'))).toList();
        assertTrue(cpus.contains("cpu") && cpus.size() >= 2, t.columns().keySet().toString());
        for (String cpu : cpus) {
            assertEquals(n, t.column(cpu + ".idle").size(), cpu + " in " + t.columns().keySet());
            for (int i = 0; i < n; i++) {
                double sum = 0;
                for (String st : HostTimeline.CPU_STATES) {
                    List<Double> c = t.column(cpu + "." + st);
                    if (!c.isEmpty()) sum += c.get(i);
                }
                // a short last interval may have counted no jiffy at all on an idle CPU
                if (sum != 0) assertEquals(100.0, sum, 0.5, cpu + " interval " + i + ": " + t.columns());
            }
        }
        assertTrue(t.columns().keySet().stream().noneMatch(k -> k.startsWith("disk.loop") || k.startsWith("disk.zram")), t.columns().keySet().toString());
    }
}
