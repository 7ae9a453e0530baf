package dev.kensho.ssb.gen;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Parallel file generation: every table is cut into unit ranges, worker threads fill in-memory chunks (streams sought
 * by jump-ahead), the calling thread writes them in order. At most a few chunks per worker are in flight, and their
 * buffers are reused, so memory stays at roughly {@code (2 * threads + 2) * 4 MB} whatever the scale factor.
 */
final class ChunkPipeline {
    /** About 3.3 MB of lineorder text per chunk (≈ 4 lines of ≈ 100 bytes per order). */
    private static final long LINEORDER_UNITS = 8192;
    /** About 3 MB of dimension rows per chunk. */
    private static final long DIMENSION_UNITS = 32768;
    private static final int CHUNK_BYTES = 4 << 20;

    private record Chunk(SsbTable table, long from, long to, boolean last) {
    }

    private final SsbGenerator generator;
    private final int threads;
    private final ConcurrentLinkedQueue<RowBuffer> free = new ConcurrentLinkedQueue<>();

    ChunkPipeline(SsbGenerator generator, int threads) {
        this.generator = generator;
        this.threads = threads;
    }

    void writeFiles(Path dir) throws IOException {
        Files.createDirectories(dir);
        Iterator<Chunk> chunks = plan();
        AtomicInteger ids = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "ssb-gen-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        int window = 2 * threads + 2;
        ArrayDeque<Chunk> planned = new ArrayDeque<>();
        ArrayDeque<Future<RowBuffer>> inFlight = new ArrayDeque<>();
        FileChannel channel = null;
        try {
            while (true) {
                while (chunks.hasNext() && inFlight.size() < window) {
                    Chunk c = chunks.next();
                    planned.add(c);
                    inFlight.add(pool.submit(() -> fill(c)));
                }
                if (inFlight.isEmpty()) {
                    break;
                }
                Chunk chunk = planned.poll();
                RowBuffer filled = await(inFlight.poll());
                if (channel == null) {
                    channel = FileChannel.open(dir.resolve(chunk.table().fileName()), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                }
                ByteBuffer bytes = ByteBuffer.wrap(filled.array(), 0, filled.length());
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                free.add(filled);
                if (chunk.last()) {
                    channel.close();
                    channel = null;
                }
            }
        } finally {
            pool.shutdownNow();
            if (channel != null) {
                channel.close();
            }
        }
    }

    private RowBuffer fill(Chunk c) throws IOException {
        RowBuffer b = free.poll();
        if (b == null) {
            b = new RowBuffer(RowFormat.TBL, null, CHUNK_BYTES);
        }
        b.reset();
        generator.generate(c.table(), c.from(), c.to(), b);
        return b;
    }

    /** Unit ranges of every table in file order, produced lazily (at SF 100000 lineorder alone has 18 M chunks). */
    private Iterator<Chunk> plan() {
        return new Iterator<>() {
            private int table;
            private long from;

            @Override
            public boolean hasNext() {
                while (table < SsbTable.values().length && from >= generator.units(SsbTable.values()[table])) {
                    table++;
                    from = 0;
                }
                return table < SsbTable.values().length;
            }

            @Override
            public Chunk next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                SsbTable t = SsbTable.values()[table];
                long n = generator.units(t);
                long to = Math.min(n, from + (t == SsbTable.LINEORDER ? LINEORDER_UNITS : DIMENSION_UNITS));
                Chunk c = new Chunk(t, from, to, to == n);
                from = to;
                return c;
            }
        };
    }

    private static RowBuffer await(Future<RowBuffer> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("SSB generation interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }
}
