package dev.kensho.scan.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.run.StudyLock;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.scan.ScanCrossover;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two scans on one database rebuilt each other's tables and timed each other's reads: the second stops first. */
class ScanLockTest {

    @Test
    void aSecondScanOnTheDatabaseIsRefusedUntilTheFirstEnds(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            StudyLock first = StudyLock.take(pg, StudyLock.SCAN, "scan", "it would rebuild this one's tables and share its reads");
            int holder;
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted")) {
                assertTrue(rs.next());
                holder = rs.getInt(1);
            }
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(1000).to(11).step(10).throughputMb(32)
                    .sharedBuffers(List.of("small")).repeat(1).build();
            KenshoException refused = assertThrows(KenshoException.class,
                    () -> ScanCrossover.run(pg, o, results, List.of("bench", "scan"), System.err));
            assertEquals(KenshoException.USAGE, refused.exitCode());
            // the client's address where the server saw one (none over a Unix socket)
            assertTrue(refused.getMessage().matches("another scan is measuring in database \"" + pg.database() + "\" now \\(server process "
                    + holder + "(, client [0-9.:a-f]+)?\\): it would rebuild this one's tables and share its reads; run one at a time"),
                    refused.getMessage());
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_class WHERE relname LIKE 'kensho_scan%'")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "nothing was built");
            }

            // a restart ends the session that held the lock: held again before the next cell, and still the first's
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("SELECT pg_terminate_backend(" + holder + ")");
            }
            first.hold();
            assertThrows(KenshoException.class, () -> StudyLock.take(pg, StudyLock.SCAN, "scan", "why").close());

            first.close();
            ScanCrossover.Result r = ScanCrossover.run(pg, o, results, List.of("bench", "scan"), System.err);
            assertFalse(r.layouts().isEmpty());
            try (var runs = Files.list(results)) {
                assertEquals(2, runs.count(), "the refused run's directory and the one that ran");
            }
        }
    }
}
