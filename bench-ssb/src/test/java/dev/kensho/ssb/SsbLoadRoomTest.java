package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A load the disk has no room for: it ran half a minute, failed with "No space left on device" and left the disk full.
 * Refused now before anything is dropped, on a small file system of its own (a tmpfs, which needs root).
 */
class SsbLoadRoomTest {

    @Test
    void aLoadTheDiskHasNoRoomForIsRefusedBeforeItStarts() throws Exception {
        Path mount = Files.createTempDirectory(Path.of("/var/tmp"), "kensho-small-disk");
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=128m", "tmpfs", mount.toString()).redirectErrorStream(true).start();
        boolean mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        try {
            assumeTrue(mounted, "cannot mount a tmpfs here (not root, or not allowed): " + new String(p.getInputStream().readAllBytes()).strip());
            try (Target pg = new TargetSpec().keepData(mount.resolve("pg")).open()) {
                SsbDatabase db = new SsbDatabase(pg, "public");
                KenshoException e = assertThrows(KenshoException.class, () -> db.load(new SsbDatabase.LoadOptions(0.1, 2, true, false), null));
                assertEquals(KenshoException.USAGE, e.exitCode());
                assertTrue(e.getMessage().matches("--scale 0\\.1: the SSB tables and the WAL of their load take about 2\\d\\d MB, and "
                        + java.util.regex.Pattern.quote(pg.control().dataDirectory().orElseThrow().toString())
                        + " has \\d+ MB free: free some space, use a smaller --scale, or keep the data on a larger disk"), e.getMessage());
                assertFalse(db.status().present(), "nothing was created");
                // a scale it has room for loads
                db.load(new SsbDatabase.LoadOptions(0.001, 2, true, false), null);
                assertTrue(db.status().complete());
            }
        } finally {
            if (mounted) new ProcessBuilder("umount", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
            Files.deleteIfExists(mount);
        }
    }

    /** A load that filled the disk anyway says which disk and the way out, not the server's words alone. */
    @Test
    void aFullDiskDuringTheLoadIsNamed() {
        try (Target pg = new TargetSpec().open()) {
            KenshoException full = KenshoException.target("COPY failed: ERROR: could not extend file \"base/16384/16453\": No space left on device", null);
            KenshoException said = SsbDatabase.withDiskSaid(full, pg);
            assertEquals(KenshoException.TARGET, said.exitCode());
            assertTrue(said.getMessage().matches("COPY failed: .*No space left on device \\(the disk of "
                    + java.util.regex.Pattern.quote(pg.control().dataDirectory().orElseThrow().toString())
                    + " is full, [0-9.]+ [MG]B free now: free some space, use a smaller --scale, or set KENSHO_HOME to a larger disk\\)"),
                    said.getMessage());
            KenshoException other = KenshoException.target("COPY failed: ERROR: permission denied", null);
            assertEquals(other, SsbDatabase.withDiskSaid(other, pg));
        }
    }
}
