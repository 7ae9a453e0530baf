package dev.kensho.scan.cache;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cold cell's os_cached_kb_before/after are the evidence that the drop emptied the page cache of the table's pages. */
class PageCacheTest {
    private static final int FILE_MB = 64;

    @Test
    void aDropRecordsTheFilePagesItRemoved(@TempDir Path dir) throws Exception {
        String unavailable = PageCache.unavailableReason();
        assumeTrue(unavailable == null, "the OS page cache cannot be dropped here: " + unavailable);
        // a table's worth of file pages, read through the page cache as PostgreSQL reads its files
        Path file = dir.resolve("pages");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer mb = ByteBuffer.allocate(1 << 20);
            for (int i = 0; i < FILE_MB; i++) {
                mb.clear();
                while (mb.hasRemaining()) ch.write(mb);
            }
            ch.force(true);
        }
        // the host's page cache is shared: beside the other modules' tests (servers loading tables) it fills again while the
        // drop is measured, and one try removed 39 of the file's 64 MB net. The drop is the evidence in at least one of three.
        PageCache.Drop d = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try (InputStream in = Files.newInputStream(file)) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            d = PageCache.drop();
            assertTrue(d.dropped(), d.reason());
            // Cached − Shmem − Mapped counted a mapped shared_buffers twice and recorded 0 before the drop
            assertTrue(d.cachedKbBefore() >= FILE_MB * 1024L, "before the drop: " + d.cachedKbBefore() + " kB");
            if (d.cachedKbBefore() - d.cachedKbAfter() >= FILE_MB * 1024L * 3 / 4) return;
        }
        org.junit.jupiter.api.Assertions.fail("the drop removed " + d.cachedKbBefore() + " → " + d.cachedKbAfter() + " kB, three times less than the file");
    }

    /**
     * Pages a running program maps stay through a drop: with 320 MB of them and little else cached, a working drop must
     * not be taken for a sandbox's no-op (that would make every later cold cell server-cold only).
     */
    @Test
    void mappedFilesThatStayDoNotMakeAWorkingDropLookRefused(@TempDir Path dir) throws Exception {
        String unavailable = PageCache.unavailableReason();
        assumeTrue(unavailable == null, "the OS page cache cannot be dropped here: " + unavailable);
        Path file = dir.resolve("mapped");
        long size = 320L << 20;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer mb = ByteBuffer.allocate(1 << 20);
            for (long i = 0; i < size; i += mb.capacity()) {
                mb.clear();
                while (mb.hasRemaining()) ch.write(mb);
            }
            ch.force(true);
            java.nio.MappedByteBuffer mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            mapped.load();
            PageCache.unavailableReason();   // drops what else was cached: the mapped pages are most of what stays
            PageCache.Drop d = PageCache.drop();
            assertTrue(d.dropped(), d.reason());
            assertTrue(d.cachedKbAfter() >= size / 1024 * 3 / 4, "the mapped pages stayed: " + d);
            assertTrue(mapped.get(0) == 0);   // keeps the mapping alive up to here
        }
    }
}
