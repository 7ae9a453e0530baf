package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --shared-buffers takes a value as postgresql.conf does: a bare number is blocks, units are PostgreSQL's. */
class SharedBuffersValueTest {

    /**
     * A bare --shared-buffers 16384 was compared with the server's value as 16384 bytes: a server already at 16384 blocks
     * (128MB, the default) was restarted for it, and the cells were labelled 16384, read as bytes by anyone reading it.
     */
    @Test
    void aBareNumberIsBlocksAsTheServerReadsIt(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            long blocks;
            long blockSize;
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT setting::bigint, current_setting('block_size')::bigint FROM pg_settings "
                         + "WHERE name = 'shared_buffers'")) {
                rs.next();
                blocks = rs.getLong(1);
                blockSize = rs.getLong(2);
            }
            String size = ScanCrossover.sizeLabel(blocks * blockSize);
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(2_000).from(10).to(90).step(80).layouts(List.of(Layout.HIGH))
                    .sharedBuffers(List.of(String.valueOf(blocks))).throughputMb(0).build();
            ScanCrossover.Result r = ScanCrossover.run(pg, o, results, List.of("scan"), null);
            List<Trial> trials = RunDirectory.readTrials(r.directory().resolve(RunDirectory.TRIALS));
            assertEquals(4, trials.size());
            for (Trial t : trials) {
                assertEquals("ok", t.status(), t.cell());
                // the server already ran with it: nothing changed, nothing restarted
                assertNull(t.extra().get("settings"), t.cell() + ": " + t.extra().get("settings"));
                assertEquals(size, t.params().get("shared_buffers"), t.cell());
            }
            assertTrue(r.report().stream().anyMatch(l -> l.contains("shared_buffers " + size)), r.report().toString());
        }
    }

    /**
     * "server" is the server's own value: its cells after a 16MB sweep ran with 16MB under server's name (the partly-warm
     * note gave it away). Two values of one size are one sweep, said so; their cells had merged without a word.
     */
    @Test
    void serverIsTheServersOwnValueAfterAnotherAndOneSizeIsMeasuredOnce(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            String own;
            try (Connection c = pg.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW shared_buffers")) {
                rs.next();
                own = rs.getString(1);
            }
            assertTrue(!own.equals("16MB") && !own.equals("32MB"), own);
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(2_000).from(10).to(90).step(80).layouts(List.of(Layout.HIGH))
                    .sharedBuffers(List.of("16MB", "server", "32MB", "4096", "large")).throughputMb(0).build();
            java.io.ByteArrayOutputStream progress = new java.io.ByteArrayOutputStream();
            ScanCrossover.Result r = ScanCrossover.run(pg, o, results, List.of("scan"),
                    new java.io.PrintStream(progress, true, java.nio.charset.StandardCharsets.UTF_8));
            List<Trial> trials = RunDirectory.readTrials(r.directory().resolve(RunDirectory.TRIALS));
            assertEquals(List.of("16MB", "16MB", "16MB", "16MB", "server", "server", "server", "server", "32MB", "32MB", "32MB", "32MB"),
                    trials.stream().map(t -> String.valueOf(t.params().get("shared_buffers"))).toList(), "4096 blocks are 32MB: one sweep");
            Trial firstServer = trials.get(4);
            assertEquals(own, firstServer.extra().get("shared_buffers_server"), firstServer.toString());
            assertTrue(String.valueOf(firstServer.extra().get("settings")).contains("set shared_buffers 16MB → " + own + " (restart)"), firstServer.toString());
            String note = "--shared-buffers 4096 is 32MB, as 32MB is: measured once";
            assertTrue(progress.toString(java.nio.charset.StandardCharsets.UTF_8).contains(note), progress.toString());
            assertTrue(RunDirectory.read(r.directory()).info().notes().stream().anyMatch(n -> n.contains(note)));
            // large of 2000 rows is the server's own size: server's sweep, not a second one of the same size
            assertTrue(progress.toString(java.nio.charset.StandardCharsets.UTF_8).contains("--shared-buffers large is " + own + ", as server is: measured once"),
                    progress.toString());
        }
    }

    @Test
    void unitsArePostgresqls() {
        assertEquals(List.of("16384", "128MB", "131072kB", " 1 GB "), ScanCrossover.Options.builder()
                .sharedBuffers(List.of("16384", "128MB", "131072kB", " 1 GB ")).build().sharedBuffers());
        for (String bad : List.of("128mb", "1gb", "128M", "-5", "99999999999")) {
            var e = assertThrows(KenshoException.class, () -> ScanCrossover.Options.builder().sharedBuffers(List.of(bad)).build(), bad);
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("sharedBuffers() " + bad + ":"),
                    e.getMessage());
        }
    }
}
