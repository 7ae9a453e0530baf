package dev.kensho.scan.storage;

import dev.kensho.scan.cache.PageCache;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Sequential read throughput of the device under a directory, the way the study quoted
 * {@code dd if=FILE of=/dev/null bs=1M} (HDD 60.5 MB/s, SSD 432 MB/s): write a file of random
 * bytes and fsync it, drop the OS page cache where permitted (and wanted), read it back in 1 MiB blocks
 * with O_DIRECT where the file system supports it, and delete it.
 */
public final class SequentialRead {
    private static final int BLOCK = 1 << 20;

    private SequentialRead() {}

    /** Facts for run.json: mb_per_s, bytes, direct_io, cache_dropped, note. */
    public static Map<String, Object> measure(Path dir, int megabytes, boolean dropCache) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("directory", dir.toString());
        Path file = null;
        FileChannel inUse = null;
        try {
            Files.createDirectories(dir);
            long free = Files.getFileStore(dir).getUsableSpace();
            long want = (long) megabytes * BLOCK;
            // the probe must not fill the disk the tables live on: 200000 MB went on writing into 74 GB free
            if (want > free / 2) {
                m.put("note", String.format(java.util.Locale.ROOT, "not measured: a %d MB probe file would take more than half of "
                        + "the %d MB free there (a smaller --throughput-mb is measured)", megabytes, free / BLOCK));
                return m;
            }
            removeStaleProbes(dir);
            file = Files.createTempFile(dir, dev.kensho.core.server.KenshoHome.OWN_PROBE_PREFIX, ".bin");
            // Ctrl-C ends the JVM without this method's finally: the file (gigabytes) went with it only here
            file.toFile().deleteOnExit();
            // held while the file is in use: a later probe removes only files no process holds (a kill -9 skips deleteOnExit)
            inUse = FileChannel.open(file, StandardOpenOption.WRITE);
            // one byte past the content: Windows enforces a lock on what it covers, and the probe's own writes failed
            inUse.lock(Long.MAX_VALUE - 1, 1, false);
            ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK);
            byte[] random = new byte[BLOCK];
            ThreadLocalRandom.current().nextBytes(random);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                for (int i = 0; i < megabytes; i++) {
                    buf.clear();
                    buf.put(random).flip();
                    while (buf.hasRemaining()) ch.write(buf);
                    random[i % BLOCK] ^= 0x5a; // no two blocks alike, so no layer can deduplicate them
                }
                ch.force(true);
            }
            PageCache.Drop drop = dropCache ? PageCache.drop() : new PageCache.Drop(false, "not asked to", -1, -1);
            m.put("cache_dropped", drop.dropped());
            boolean direct = true;
            long bytes;
            long t0 = System.nanoTime();
            try {
                bytes = read(file, true);
            } catch (IOException | UnsupportedOperationException e) {
                direct = false;
                t0 = System.nanoTime();
                bytes = read(file, false);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            m.put("direct_io", direct);
            m.put("bytes", bytes);
            m.put("seconds", seconds);
            m.put("mb_per_s", bytes / 1e6 / seconds);
            if (!direct && !drop.dropped()) m.put("note", "read may have come from the page cache (no O_DIRECT, no cache drop)");
            if (direct || drop.dropped()) m.put("note", "a virtual machine's host may still cache the device");
        } catch (IOException e) {
            m.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a leftover is removed by the next probe here
                }
            }
            if (inUse != null) {
                try {
                    inUse.close();
                } catch (IOException ignored) {
                    // closing lets go of the lock either way
                }
            }
        }
        return m;
    }

    /**
     * Probe files a killed run left (a kill -9 runs no deleteOnExit): gigabytes of root's in a tablespace's location that
     * no later run removed. Only Kensho's names (kensho-seqread, digits, .bin) and only where no process holds the file.
     */
    static void removeStaleProbes(Path dir) {
        java.util.regex.Pattern own = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(dev.kensho.core.server.KenshoHome.OWN_PROBE_PREFIX)
                + "\\d+\\.bin");
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files.filter(f -> own.matcher(f.getFileName().toString()).matches())::iterator) {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    java.nio.channels.FileLock lock = ch.tryLock(Long.MAX_VALUE - 1, 1, false);
                    if (lock == null) continue;   // a running probe's
                    Files.deleteIfExists(f);
                } catch (IOException | java.nio.channels.OverlappingFileLockException ignored) {
                    // this JVM's own, or gone meanwhile
                }
            }
        } catch (IOException ignored) {
            // nothing to list: nothing left over
        }
    }

    private static long read(Path file, boolean direct) throws IOException {
        OpenOption[] opts = direct ? new OpenOption[] {StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT}
                : new OpenOption[] {StandardOpenOption.READ};
        try (FileChannel ch = FileChannel.open(file, opts)) {
            int align = direct ? (int) Files.getFileStore(file).getBlockSize() : 1;
            ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK + align).alignedSlice(align);
            long total = 0;
            while (true) {
                buf.clear();
                int n = ch.read(buf);
                if (n <= 0) break;
                total += n;
            }
            return total;
        }
    }
}
