package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.scan.cache.PageCache;
import dev.kensho.scan.sweep.Cell;
import dev.kensho.scan.sweep.SelectivitySweep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cold cells restart a private managed server; plus the refusals and the invalid-plan path on it. */
class ColdCacheTest {

    /**
     * A server down before a cell (a restart whose start failed, its port taken meanwhile; here stopped from outside)
     * is started again, as query and sweep do: every later cell failed in milliseconds on "Connection refused".
     */
    @Test
    void aServerDownBeforeACellIsStartedAgain(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(20_000).from(10).to(90).step(80)
                    .caches(List.of(CacheState.WARM)).throughputMb(0).build();
            ScanCrossover.run(pg, o, results, List.of("scan"), null);   // the tables
            Path pid = pg.control().dataDirectory().orElseThrow().resolve("postmaster.pid");
            String postmaster = Files.readAllLines(pid).get(0).strip();
            assertEquals(0, new ProcessBuilder("kill", "-INT", postmaster).start().waitFor());   // a fast shutdown
            for (int i = 0; i < 300 && Files.exists(pid); i++) Thread.sleep(100);
            try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("scan-down", List.of(), Map.of()))) {
                new SelectivitySweep(pg, 20_000, SelectivitySweep.Timing.SERVER, 0, false).run(dir, List.of(
                        new Cell("server", CacheState.WARM, Layout.HIGH, 10, Scan.INDEX), new Cell("server", CacheState.COLD, Layout.HIGH, 10, Scan.FULL)), 1, null);
                List<Trial> trials = dir.trials();
                for (Trial t : trials) assertEquals("ok", t.status(), t.cell() + ": " + t.extra().get("reason"));
                assertEquals(true, trials.get(0).extra().get("restarted_server"), trials.get(0).extra().toString());
                assertTrue(dir.info().notes().stream().anyMatch(n -> n.startsWith("scan: the server did not accept connections")
                        && n.endsWith("restarted it before " + trials.get(0).cell() + " #1")), dir.info().notes().toString());
            }
        }
    }

    private static int prewarmExtensions(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_extension WHERE extname = 'pg_prewarm'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void coldCellsRestartAndRecordTheOsCacheDrop(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            // A table of the same name that Kensho did not create is never dropped.
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE scan_low (x int)");
            }
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(20_000).from(10).to(90).step(80)
                    .caches(List.of(CacheState.COLD)).throughputMb(0).build();
            KenshoException e = assertThrows(KenshoException.class, () -> ScanCrossover.run(pg, o, results, List.of("scan"), null));
            assertTrue(e.getMessage().contains("not created by Kensho"), e.getMessage());
            // refused before building anything: scan_high, the first layout, used to be built (and left) before scan_low's refusal
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT to_regclass('scan_high') IS NULL")) {
                rs.next();
                assertTrue(rs.getBoolean(1), "scan_high was built before the refusal");
            }
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE scan_high (x int)");
            }
            KenshoException both = assertThrows(KenshoException.class, () -> ScanCrossover.run(pg, o, results, List.of("scan"), null));
            assertEquals(KenshoException.USAGE, both.exitCode());
            assertTrue(both.getMessage().startsWith("tables scan_high, scan_low exist and were not created by Kensho"), both.getMessage());
            // a warm run refused so puts no extension into the user's database first
            assertEquals(0, prewarmExtensions(pg), "a fresh cluster has no pg_prewarm");
            ScanCrossover.Options warm = ScanCrossover.Options.builder().rows(20_000).from(10).to(90).step(80)
                    .caches(List.of(CacheState.WARM)).throughputMb(0).build();
            KenshoException warmRefused = assertThrows(KenshoException.class, () -> ScanCrossover.run(pg, warm, results, List.of("scan"), null));
            assertTrue(warmRefused.getMessage().startsWith("tables scan_high, scan_low exist"), warmRefused.getMessage());
            assertEquals(0, prewarmExtensions(pg), "pg_prewarm created before the refusal");
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE scan_low");
                s.execute("DROP TABLE scan_high");
                s.execute("CREATE SEQUENCE scan_low");   // a relation of the name, not a table: CREATE TABLE would fail on it
            }
            KenshoException sequence = assertThrows(KenshoException.class, () -> ScanCrossover.run(pg, o, results, List.of("scan"), null));
            assertTrue(sequence.getMessage().startsWith("table scan_low exists and was not created by Kensho"), sequence.getMessage());
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT to_regclass('scan_high') IS NULL")) {
                rs.next();
                assertTrue(rs.getBoolean(1), "scan_high was built before the sequence's conflict");
            }
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP SEQUENCE scan_low");
            }

            int startBefore = postmasterStart(pg);
            ScanCrossover.Result r = ScanCrossover.run(pg, o, results, List.of("scan", "--cache", "cold"), null);
            r.report().forEach(System.out::println);
            boolean canDrop = PageCache.unavailableReason() == null;
            List<Trial> trials = RunDirectory.readTrials(r.directory().resolve(RunDirectory.TRIALS));
            assertEquals(2 * 2 * 2, trials.size());
            for (Trial t : trials) {
                assertEquals("ok", t.status(), t.cell() + ": " + t.extra().get("reason"));
                assertEquals("cold", t.params().get("cache"));
                assertTrue(t.metric("restart_ms") > 0, "restarted before " + t.cell());
                assertEquals(canDrop, t.extra().get("os_cache_dropped"), t.cell());
                String cold = (String) t.extra().get("cold");
                assertTrue(canDrop ? cold.contains("OS page cache dropped") : cold.startsWith("server-cold only"), cold);
                // a cold start reads the table from outside shared buffers
                assertTrue(t.metric("shared_read_blocks") > 0, t.cell() + " read nothing from disk: " + t.metrics());
            }
            assertTrue(postmasterStart(pg) != startBefore, "the server was restarted");
            // the run says why it could not drop the OS cache (null when it could), as each cold trial says
            for (Trial t : trials) {
                assertEquals(canDrop ? "server restarted, OS page cache dropped" : "server-cold only: " + r.osCache(), t.extra().get("cold"), t.cell());
            }
            assertEquals(canDrop, r.osCache() == null, String.valueOf(r.osCache()));
            assertEquals(2, r.crossovers().size());

            // A cell whose plan is not the intended one is recorded as invalid, with the plan it got.
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("ALTER TABLE scan_low DROP CONSTRAINT scan_low_pk");
            }
            try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("scan-invalid", List.of(), Map.of()))) {
                new SelectivitySweep(pg, 20_000, SelectivitySweep.Timing.SERVER, 0, false)
                        .run(dir, List.of(new Cell("server", CacheState.WARM, Layout.LOW, 10, Scan.INDEX)), 1, null);
                Trial t = dir.trials().get(0);
                assertEquals("invalid", t.status());
                assertTrue(String.valueOf(t.extra().get("reason")).contains("plan was Seq Scan"), t.extra().toString());
            }
            // A failed cell has the parameters of a measured one: from its key it had "selectivity" "10" beside none of
            // selectivity_pct, an extra column in summary.csv that shifted the rest of its row
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE scan_low");
            }
            try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("scan-failed", List.of(), Map.of()))) {
                Cell failing = new Cell("server", CacheState.WARM, Layout.LOW, 10, Scan.INDEX);
                new SelectivitySweep(pg, 20_000, SelectivitySweep.Timing.SERVER, 0, false).run(dir, List.of(failing), 1, null);
                Trial t = dir.trials().get(0);
                assertEquals("failed", t.status());
                assertEquals(failing.params(), t.params());
                dev.kensho.core.result.CellSummary.write(dir, List.of("time_ms", "rows"));
                assertTrue(Files.readString(dir.path().resolve(RunDirectory.SUMMARY)).startsWith("shared_buffers,cache,layout,selectivity_pct,scan,n,"),
                        Files.readString(dir.path().resolve(RunDirectory.SUMMARY)));
            }

            // --tablespace-dir: the tables move to a tablespace in a directory given to the server's
            // user, its read throughput is recorded, and a throw-away server leaves no table files there.
            Path tsDir = Files.createTempDirectory(Path.of("/var/tmp"), "kensho-scan-ts");
            // as a mount point is: enterable by the server's user, whom DIR itself is not given to
            Files.setPosixFilePermissions(tsDir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            var tsOwner = Files.getOwner(tsDir);
            try (Target other = new TargetSpec().open()) {
                // another server's tablespace in the same directory: a copy of the same initdb template, it has the
                // same system identifier, and a directory named by it was taken ("already in use as a tablespace")
                dev.kensho.scan.table.Tablespace.create(other, tsDir);
                Path others;
                try (Connection oc = other.connect()) {
                    others = dev.kensho.scan.table.Tablespace.location(oc, "kensho_scan").orElseThrow();
                }
                ScanCrossover.Options ts = ScanCrossover.Options.builder().rows(2_000).from(50).to(50).layouts(List.of(Layout.HIGH))
                        .tablespaceDir(tsDir).throughputMb(8).build();
                ScanCrossover.Result tr = ScanCrossover.run(pg, ts, results, List.of("scan", "--tablespace-dir", tsDir.toString()), null);
                assertEquals("kensho_scan", tr.layouts().get(0).tablespace());
                assertTrue(String.valueOf(tr.storage().get("directory")).startsWith(tsDir.toString()), tr.storage().toString());
                assertTrue(((Number) tr.storage().get("mb_per_s")).doubleValue() > 0, tr.storage().toString());
                assertEquals(tsOwner, Files.getOwner(tsDir), "DIR keeps its owner: only the directory made in it is the server's");
                try (Connection c = pg.connect(); Statement s = c.createStatement();
                     var rs = s.executeQuery("SELECT count(*) FROM pg_tablespace WHERE spcname = 'kensho_scan'")) {
                    rs.next();
                    assertEquals(0, rs.getInt(1), "tablespace of a throw-away server dropped after the run");
                }
                try (var left = Files.list(tsDir)) {
                    assertEquals(List.of(others), left.toList(), "the run's tablespace directory removed, the other server's kept");
                }
            } finally {
                try (var walk = Files.walk(tsDir)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    @Test
    void remoteStyleRefusalsAreUsageErrors() {
        KenshoException e = assertThrows(KenshoException.class, () -> ScanCrossover.Options.builder().from(50).to(10).build());
        assertEquals(KenshoException.USAGE, e.exitCode());
        e = assertThrows(KenshoException.class, () -> ScanCrossover.Options.builder().sharedBuffers(List.of("huge")).build());
        assertTrue(e.getMessage().contains("sharedBuffers() huge"), e.getMessage());
    }

    private static int postmasterStart(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT pg_postmaster_start_time()::text")) {
            rs.next();
            return rs.getString(1).hashCode();
        }
    }
}
