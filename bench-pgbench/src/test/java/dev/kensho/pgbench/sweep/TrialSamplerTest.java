package dev.kensho.pgbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.env.Environment;
import dev.kensho.core.env.HostSampler;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server host observed from afar: a server taken for one on another host is read through itself. */
@KenshoTarget
class TrialSamplerTest {

    @Test
    void serverOnAnotherHostIsReadThroughTheServer(Target pg) throws Exception {
        Target remote = elsewhere(pg);
        try (TrialSampler s = new TrialSampler(remote)) {
            long started = System.nanoTime();
            s.opened();
            Thread.sleep(3300);
            s.closed();
            double seconds = (System.nanoTime() - started) / 1e9;
            TrialSampler.Observation o = s.observation();
            assertEquals(Map.of("source", "the server's host, through pg_read_file()"), o.host());
            Timeline t = o.hostTimeline();
            // 3.3 s: three seconds and the rest, or on a loaded machine a late second skipped; at most one a second of the
            // window as it was (longer where this thread was descheduled before closing) and the rest
            assertTrue(t != null && t.size() >= 2 && t.size() <= (int) seconds + 1 && t.column("cpu.idle").size() == t.size(),
                    t + " in " + seconds + " s");
            assertTrue(o.cpu().containsKey("cpu") && o.memoryKb().containsKey("MemTotal"), o.toString());
            assertNull(o.error());
            // the busy share the report charts against clients: all but idle, as its host table's busy %
            assertEquals(100 - o.cpu().get("cpu").get("idle"), ((Number) o.metrics().get("cpu_busy_pct")).doubleValue(), 1e-9,
                    o.metrics().toString());
            // memory in use, the mean of its three seconds, as MemTotal − MemAvailable
            double used = ((Number) o.metrics().get("mem_used_mb")).doubleValue();
            double mean = t.column("mem.used_MB").stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            assertEquals(mean, used, 0.1);
            assertTrue(used > 0 && used < HostSampler.memory().get("MemTotal") / 1024.0, o.metrics().toString());
            // the server's processes read there too (its backends: this sampler's at least); Kensho is not on that host
            assertTrue(o.metrics().get("server_cpu_pct") instanceof Double && o.metrics().get("other_cpu_pct") instanceof Double
                    && !o.metrics().containsKey("kensho_cpu_pct"), o.metrics().toString());
        }
        // the run's environment names the server host's machine (here this one, read through the server)
        Map<String, Object> host = Environment.serverHost(remote);
        long cpus = HostSampler.cpu(Files.readString(Path.of("/proc/stat"))).perCpu().size() - 1;
        assertEquals(cpus, ((Number) host.get("cpus")).longValue(), host.toString());
        assertEquals(HostSampler.memory().get("MemTotal") * 1024, ((Number) host.get("memory_bytes")).longValue(), host.toString());
        assertTrue(String.valueOf(host.get("kernel")).startsWith("Linux version "), host.toString());
        assertFalse(host.containsKey("error"), host.toString());
    }

    /**
     * The sampler's connection terminated during the run: its profile says it stopped (it said "the sampler got few
     * turns on a busy host"), and the database's counts are read on a new connection (the trial had none of them).
     */
    @Test
    void aSamplerWhoseConnectionIsLostSaysSoAndStillReadsTheDatabase(Target pg) throws Exception {
        try (java.sql.Connection run = pg.connect(); java.sql.Statement s = run.createStatement()) {
            try (TrialSampler sampler = new TrialSampler(pg)) {
                int samplerPid;
                try (java.sql.ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                        + "AND pid <> pg_backend_pid() AND backend_type = 'client backend' ORDER BY backend_start DESC LIMIT 1")) {
                    rs.next();
                    samplerPid = rs.getInt(1);
                }
                sampler.opened();
                Thread.sleep(300);
                try (java.sql.ResultSet rs = s.executeQuery("SELECT pg_terminate_backend(" + samplerPid + ")")) {
                    rs.next();
                    assertTrue(rs.getBoolean(1));
                }
                // the run's own work, after the sampler lost its connection: 20 commits of its own connection
                try (java.sql.Connection client = pg.connect(); java.sql.Statement cs = client.createStatement()) {
                    for (int i = 0; i < 20; i++) cs.execute("SELECT 1");
                }
                Thread.sleep(1200);
                sampler.closed();
                TrialSampler.Observation o = sampler.observation();
                assertTrue(o.error() != null && o.error().contains("terminating connection"), String.valueOf(o.error()));
                assertTrue(String.valueOf(o.waitProfile().get(TrialSampler.STOPPED)).startsWith("the sampler's connection failed after "),
                        o.waitProfile().toString());
                assertNull(o.waitProfile().get(TrialSampler.THIN), o.waitProfile().toString());
                assertTrue(o.databaseDelta().getOrDefault("xact_commit", 0L) >= 20, o.databaseDelta().toString());
            }
        }
    }

    /**
     * --wait-sample-ms: 0 sends no sampling query at all (a sample showed in a saturated host's p99.9) while the database's
     * counts are still read; another interval is the one used and recorded.
     */
    @Test
    void theIntervalIsTheOneAskedForAndZeroSamplesNothing(Target pg) throws Exception {
        for (int period : new int[] {0, 20}) {
            try (TrialSampler sampler = new TrialSampler(pg, period)) {
                sampler.opened();
                // the run's client, gone before the "after" snapshot as a run's are (its counts land as it ends)
                try (java.sql.Connection client = pg.connect(); java.sql.Statement cs = client.createStatement()) {
                    for (int i = 0; i < 20; i++) cs.execute("SELECT 1");
                    Thread.sleep(1000);
                }
                sampler.closed();
                TrialSampler.Observation o = sampler.observation();
                long samples = ((Number) o.waitProfile().get("samples")).longValue();
                assertEquals(period, ((Number) o.waitProfile().get("interval_ms")).intValue(), o.waitProfile().toString());
                if (period == 0) {
                    assertEquals(0, samples, o.waitProfile().toString());
                    assertEquals("wait events not sampled (--wait-sample-ms 0)", o.waitProfile().get(TrialSampler.OFF));
                } else {
                    // 50 in the second at 20 ms; at the default 100 ms it would be 10
                    assertTrue(samples >= 20, o.waitProfile().toString());
                }
                assertTrue(o.databaseDelta().getOrDefault("xact_commit", 0L) >= 20, o.databaseDelta().toString());
            }
        }
    }

    /**
     * The server's clock stepped back after the sampler connected (an NTP step on its host): every client's backend_start
     * then lay before the sampler's own, the run's backends were taken for others' and the profile came out empty,
     * unsaid. Simulated by dating the sampler's connection an hour ahead, as such a step leaves it.
     */
    @Test
    void theRunsBackendsAreCountedWhenTheServersClockSteppedBack(Target pg) throws Exception {
        try (TrialSampler sampler = new TrialSampler(pg)) {
            java.lang.reflect.Field since = TrialSampler.class.getDeclaredField("since");
            since.setAccessible(true);
            try (java.sql.Connection c = pg.connect(); java.sql.Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT (now() + interval '1 hour')::text")) {
                rs.next();
                since.set(sampler, rs.getString(1));
            }
            sampler.opened();
            try (java.sql.Connection client = pg.connect(); java.sql.Statement cs = client.createStatement()) {
                cs.execute("SELECT pg_sleep(1.5)");
            }
            sampler.closed();
            long backendSamples = ((Number) sampler.observation().waitProfile().get("backend_samples")).longValue();
            assertTrue(backendSamples >= 5, sampler.observation().waitProfile().toString());
        }
    }

    /**
     * pg_stat_reset() during the trial: the counts began again, and the "deltas" were negative block counts and 0
     * commits. The trial has none now, and says why.
     */
    @Test
    @dev.kensho.junit.ChangesServer
    void countsResetDuringTheTrialGiveNoDelta(Target pg) throws Exception {
        // reset first, so that the counts after the second reset pass those before it: only stats_reset tells it
        try (java.sql.Connection c = pg.connect(); java.sql.Statement s = c.createStatement()) {
            s.execute("SELECT pg_stat_reset()");
        }
        try (TrialSampler sampler = new TrialSampler(pg, 0)) {
            sampler.opened();
            try (java.sql.Connection client = pg.connect(); java.sql.Statement cs = client.createStatement()) {
                Thread.sleep(20);   // stats_reset's clock moves on
                cs.execute("SELECT pg_stat_reset()");
                for (int i = 0; i < 500; i++) cs.execute("SELECT count(*) FROM pg_class");
            }
            Thread.sleep(300);
            sampler.closed();
            TrialSampler.Observation o = sampler.observation();
            assertTrue(o.databaseReset(), o.databaseDelta().toString());
            assertEquals(Map.of(), o.databaseDelta());
            assertTrue(o.metrics().keySet().stream().noneMatch(k -> k.startsWith("db_")), o.metrics().toString());
        }
        // and without a reset, none is said
        try (TrialSampler sampler = new TrialSampler(pg, 0)) {
            sampler.opened();
            try (java.sql.Connection client = pg.connect(); java.sql.Statement cs = client.createStatement()) {
                for (int i = 0; i < 20; i++) cs.execute("SELECT 1");
            }
            Thread.sleep(300);
            sampler.closed();
            assertFalse(sampler.observation().databaseReset(), sampler.observation().databaseDelta().toString());
            assertTrue(sampler.observation().databaseDelta().getOrDefault("xact_commit", 0L) >= 20, sampler.observation().databaseDelta().toString());
        }
    }

    /** The same server, but sameHost() says no, as for a server on another machine. */
    private static Target elsewhere(Target pg) {
        return (Target) Proxy.newProxyInstance(Target.class.getClassLoader(), new Class<?>[] {Target.class}, (p, m, args) -> {
            if (m.getName().equals("sameHost")) return false;
            try {
                return m.invoke(pg, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    /** A profile of far fewer samples than its window should hold says so; a short window or a fair share does not. */
    @Test
    void aThinProfileSaysSo() {
        assertEquals("6 samples where one every 100 ms would be 106: the sampler got few turns on a busy host, and the shares are rough",
                TrialSampler.thin(6, 10_600_000_000L));
        assertNull(TrialSampler.thin(60, 10_600_000_000L));
        assertNull(TrialSampler.thin(2, 500_000_000L), "half a second: too short to tell");
        // a query the server answered 40 s late (a stalled connection) is no starved thread
        assertEquals("12 samples where one every 100 ms would be 470: one of its queries waited 40.0 s for the server's answer, and the"
                + " shares are rough", TrialSampler.thin(12, 47_000_000_000L, 100_000_000L, 40_000_000_000L));
    }
}
