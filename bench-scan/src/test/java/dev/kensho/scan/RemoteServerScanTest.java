package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.PlainRole;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server Kensho may not restart (the machine's PostgreSQL 15 as --url): warm only, shared_buffers untouched. */
@KenshoTarget
class RemoteServerScanTest {

    /**
     * A role that may not create pg_prewarm (only a superuser may) can measure no warm cell: one line before any table is
     * built, where every cell used to fail after the load; given the extension, the same role runs.
     */
    @Test
    void warmCellsWithoutPgPrewarmAreRefusedBeforeTheLoad(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "scan")) {
            ScanCrossover.Options warm = ScanCrossover.Options.builder().rows(2_000).to(51).step(50).caches(List.of(CacheState.WARM)).build();
            KenshoException e = assertThrows(KenshoException.class, () -> ScanCrossover.run(role.target(), warm, results, List.of("scan"), null));
            assertEquals(KenshoException.TARGET, e.exitCode());
            assertEquals("the warm cells (--cache warm or both) prewarm the tables: pg_prewarm is not installed in database " + role.name() + " and role " + role.name()
                    + " may not create it (a superuser can: CREATE EXTENSION pg_prewarm)", e.getMessage());
            try (Connection c = role.target().connect(); var rs = c.createStatement().executeQuery(
                    "SELECT count(*) FROM pg_class WHERE relname IN ('scan_high', 'scan_low')")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "no table was built");
            }
            role.asSuperuser("CREATE EXTENSION pg_prewarm");
            ScanCrossover.Result r = ScanCrossover.run(role.target(), warm, results, List.of("scan"), null);
            assertEquals(0, r.failed());
            assertEquals(0, r.invalid());
        }
    }

    @Test
    void remoteServersRunWarmOnly(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        try {
            ScanCrossover.Options cold = ScanCrossover.Options.builder().rows(5_000).step(50).caches(List.of(CacheState.COLD)).build();
            KenshoException e = assertThrows(KenshoException.class, () -> ScanCrossover.run(pg, cold, results, List.of("scan"), null));
            assertTrue(e.getMessage().contains("--restart-command"), e.getMessage());
            ScanCrossover.Options small = ScanCrossover.Options.builder().rows(5_000).sharedBuffers(List.of("small")).build();
            e = assertThrows(KenshoException.class, () -> ScanCrossover.run(pg, small, results, List.of("scan"), null));
            assertTrue(e.getMessage().contains("--shared-buffers small needs a restart"), e.getMessage());
            // the size the server has needs none: it runs as the server's own sweep (it was refused as a change)
            String own;
            try (var c = pg.connect(); var rs = c.createStatement().executeQuery("SHOW shared_buffers")) {
                rs.next();
                own = rs.getString(1);
            }
            ScanCrossover.Options same = ScanCrossover.Options.builder().rows(5_000).from(50).to(50).layouts(List.of(Layout.HIGH))
                    .sharedBuffers(List.of("server", own)).throughputMb(0).build();
            ScanCrossover.Result sameRun = ScanCrossover.run(pg, same, results, List.of("scan"), null);
            assertEquals(2, sameRun.cells(), "one sweep: " + sameRun.report());
            assertEquals(0, sameRun.skipped());

            ScanCrossover.Options both = ScanCrossover.Options.builder().rows(5_000).to(51).step(50)
                    .caches(List.of(CacheState.COLD, CacheState.WARM)).build();
            ScanCrossover.Result r = ScanCrossover.run(pg, both, results, List.of("scan", "--cache", "both"), null);
            assertEquals(2, r.crossovers().size());
            assertTrue(r.crossovers().stream().allMatch(c -> c.cache() == CacheState.WARM && c.sharedBuffers().equals("server")));
            assertEquals(0, r.invalid());
            assertEquals(0, r.failed());
            // the cold half is recorded as skipped with the reason, in trials.jsonl and summary.csv
            assertEquals(16, r.cells());
            assertEquals(8, r.skipped());
            for (Trial t : RunDirectory.readTrials(r.directory().resolve(RunDirectory.TRIALS))) {
                assertEquals(t.params().get("cache").equals("cold") ? "skipped" : "ok", t.status(), t.cell());
            }
            List<String> coldRows = Files.readAllLines(r.directory().resolve(RunDirectory.SUMMARY)).stream()
                    .filter(l -> l.startsWith("server,cold,")).toList();
            assertEquals(8, coldRows.size());
            assertTrue(coldRows.stream().allMatch(l -> l.contains(",skipped,") && l.contains("no --restart-command")), coldRows.toString());
            String run = Files.readString(r.directory().resolve(RunDirectory.RUN));
            assertTrue(run.contains("cold cells skipped"), run);
        } finally {
            // only the tables Kensho made (its comment on them), never someone else's of the same name
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                for (String t : List.of("scan_high", "scan_low")) {
                    boolean ours;
                    try (var rs = s.executeQuery("SELECT coalesce(obj_description(to_regclass('" + t + "'), 'pg_class'), '') LIKE 'kensho scan%'")) {
                        rs.next();
                        ours = rs.getBoolean(1);
                    }
                    if (ours) s.execute("DROP TABLE " + t);
                }
            }
        }
    }
}
