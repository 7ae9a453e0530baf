package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.TargetSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The embedded cache: a second open reuses the loaded database; a concurrent open gets its own server. */
class SsbCacheTest {
    private static final double SF = 0.01; // its own cache key, so no real cache is touched

    @Test
    void secondOpenReusesTheLoadedDatabaseAndAConcurrentOneDoesNotShareIt() throws Exception {
        TargetSpec spec = new TargetSpec();
        Path dir = SsbCache.directory(spec, SF);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
        try {
            try (SsbCache c = SsbCache.open(spec, SF, Map.of(), true, true, err)) {
                assertEquals(dir, c.directory());
                SsbDatabase db = new SsbDatabase(c.target(), "public");
                db.load(new SsbDatabase.LoadOptions(SF, 2, true, false), null);
                // while this run holds the cache, another run must not share the data directory
                try (SsbCache other = SsbCache.open(spec, SF, Map.of(), true, false, err)) {
                    assertNull(other.directory());
                    assertTrue(!new SsbDatabase(other.target(), "public").status().present());
                }
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("in use by another run"));
            try (SsbCache c = SsbCache.open(spec, SF, Map.of(), true, false, err)) {
                SsbDatabase.Status st = new SsbDatabase(c.target(), "public").status();
                assertTrue(st.usable(SF), st.describe());
                assertEquals(new dev.kensho.ssb.gen.SsbGenerator(SF).rowCount(dev.kensho.ssb.gen.SsbTable.LINEORDER),
                        new SsbDatabase(c.target(), "public").rowCounts().get("lineorder"));
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("reusing the cached database"));
        } finally {
            if (Files.exists(dir)) SsbCache.deleteTree(dir);
            Files.deleteIfExists(dir.resolveSibling(dir.getFileName() + ".lock"));
        }
    }
}
