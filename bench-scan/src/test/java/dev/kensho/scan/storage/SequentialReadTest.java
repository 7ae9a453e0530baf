package dev.kensho.scan.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The --throughput-mb probe: measured where it fits, never a file that would fill the disk. */
class SequentialReadTest {

    @Test
    void aProbeOfMoreThanHalfTheFreeSpaceIsNotWritten(@TempDir Path dir) throws Exception {
        long freeMb = Files.getFileStore(dir).getUsableSpace() >> 20;
        Map<String, Object> m = SequentialRead.measure(dir, (int) Math.min(Integer.MAX_VALUE, freeMb / 2 + 1024), false);
        assertNull(m.get("mb_per_s"), m.toString());
        assertTrue(String.valueOf(m.get("note")).startsWith("not measured: a "), m.toString());
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "no probe file was written");
        }
    }

    @Test
    void aSmallProbeIsMeasuredAndRemoved(@TempDir Path dir) throws Exception {
        Map<String, Object> m = SequentialRead.measure(dir, 4, false);
        assertEquals(4L << 20, ((Number) m.get("bytes")).longValue(), m.toString());
        assertTrue(((Number) m.get("mb_per_s")).doubleValue() > 0, m.toString());
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }
}
