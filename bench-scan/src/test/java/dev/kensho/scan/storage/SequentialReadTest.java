package dev.kensho.scan.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /**
     * A probe file a killed run left (a kill -9 runs no deleteOnExit) is removed by the next probe there; a file of the
     * user's, or one a running probe holds, is not.
     */
    @Test
    void aKilledRunsProbeFileIsRemovedByTheNext(@TempDir Path dir) throws Exception {
        Path stale = Files.write(dir.resolve("kensho-seqread18147955097140826530.bin"), new byte[1 << 20]);
        Path mine = Files.write(dir.resolve("kensho-seqread-mine.bin"), new byte[16]);
        Path held = Files.write(dir.resolve("kensho-seqread42.bin"), new byte[16]);
        Process holder = lockInAnotherProcess(held, dir);
        try {
            Map<String, Object> m = SequentialRead.measure(dir, 2, false);
            assertTrue(((Number) m.get("mb_per_s")).doubleValue() > 0, m.toString());
            assertFalse(Files.exists(stale), "the killed run's probe is gone");
            assertTrue(Files.exists(mine), "the user's file stays");
            assertTrue(Files.exists(held), "a file another process holds stays");
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
    }

    /** Another process holding a lock on file (as a running probe does) until its stdin closes. */
    static Process lockInAnotherProcess(Path file, Path tmp) throws Exception {
        Path source = Files.writeString(tmp.resolve("Hold.java"), """
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                public class Hold {
                    public static void main(String[] a) throws Exception {
                        FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.WRITE);
                        ch.lock();
                        System.out.println("locked");
                        System.in.read();
                    }
                }
                """);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), source.toString(), file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        assertEquals("locked", new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream())).readLine());
        return p;
    }
}
