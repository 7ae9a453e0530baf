package dev.kensho.ssb.load;

import dev.kensho.core.KenshoException;
import dev.kensho.ssb.SsbDatabase;
import dev.kensho.ssb.gen.RowFormat;
import dev.kensho.ssb.gen.SsbGenerator;
import dev.kensho.ssb.gen.SsbTable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Generates and loads in parallel: the tables are cut into chunks of generator units (the
 * generator seeks its random streams, so any chunk can be produced alone), and jobs threads each
 * hold one connection and stream chunk after chunk from the generator straight into COPY FROM STDIN
 * — no intermediate files, constant memory. Lineorder chunks go first, the small tables last, so
 * the threads finish together.
 *
 * <p>{@link #start} opens the connections while the caller still creates the tables (no serial step
 * before the first row), {@link #run} lets the rows flow.
 */
public final class CopyJobs implements AutoCloseable {
    private final SsbDatabase db;
    private final SsbGenerator gen;
    private final int jobs;
    private final Progress progress;
    private final CountDownLatch go = new CountDownLatch(1);
    private final AtomicBoolean failed = new AtomicBoolean();
    private final Map<SsbTable, AtomicLong> perTable = new EnumMap<>(SsbTable.class);
    private final AtomicLong cpuNanos = new AtomicLong();
    private final List<Future<?>> futures = new ArrayList<>();
    private ConcurrentLinkedQueue<Chunk> queue;
    private ExecutorService pool;
    private long totalRows;

    /** Rows per table, total rows, wall time of the whole COPY phase and client CPU of the generating threads. */
    public record Result(long rows, Map<String, Long> tableRows, double seconds, double generateCpuSeconds) { }

    private record Chunk(SsbTable table, long from, long to, long rows) { }

    public CopyJobs(SsbDatabase db, double scale, int jobs, Progress progress) {
        this.db = db;
        try {
            this.gen = new SsbGenerator(scale);
        } catch (IllegalArgumentException e) {
            throw KenshoException.usage(e.getMessage());
        }
        this.jobs = jobs;
        this.progress = progress;
        for (SsbTable t : SsbTable.values()) perTable.put(t, new AtomicLong());
    }

    /**
     * Loads the generator's and the COPY API's classes and runs the generator's hot loops on a daemon
     * thread, so that a process about to load finds them loaded and compiled instead of interpreting
     * them while the server waits for its first rows (start-up cost).
     */
    public static void warmUp() {
        Thread t = new Thread(() -> {
            try {
                // enough rows that the hot loops are compiled before the first COPY (~2 MB of text, a few ms once compiled)
                SsbGenerator g = new SsbGenerator(1);
                for (SsbTable tb : SsbTable.values()) {
                    g.write(tb, 0, Math.min(g.units(tb), tb == SsbTable.LINEORDER ? 20_000 : 5_000), RowFormat.COPY,
                            OutputStream.nullOutputStream());
                }
                Class.forName("org.postgresql.copy.CopyManager");
                Class.forName("org.postgresql.core.v3.CopyInImpl");
            } catch (Exception | LinkageError ignored) {
                // only a head start; the load itself reports real problems
            }
        }, "kensho-warm-up");
        t.setDaemon(true);
        t.start();
    }

    List<Chunk> chunks() {
        List<Chunk> out = new ArrayList<>();
        long orders = gen.units(SsbTable.LINEORDER);
        // ~25k orders (~100k rows, ~10 MB of text) per chunk; several per job so fast threads take more.
        long size = Math.max(5_000, Math.min(25_000, orders / Math.max(1, jobs * 4L)));
        for (long f = 0; f < orders; f += size) {
            long t = Math.min(orders, f + size);
            out.add(new Chunk(SsbTable.LINEORDER, f, t, gen.rowCount(SsbTable.LINEORDER, f, t)));
        }
        for (SsbTable tb : List.of(SsbTable.PART, SsbTable.CUSTOMER, SsbTable.SUPPLIER, SsbTable.DATE)) {
            long n = gen.units(tb);
            long step = Math.max(50_000, (n + 3) / 4);
            for (long f = 0; f < n; f += step) {
                long t = Math.min(n, f + step);
                out.add(new Chunk(tb, f, t, t - f));
            }
        }
        return out;
    }

    /** Opens the jobs connections now; rows flow only after {@link #run}. Idempotent. */
    public synchronized CopyJobs start() {
        if (pool != null) return this;
        List<Chunk> all = chunks();
        totalRows = all.stream().mapToLong(Chunk::rows).sum();
        queue = new ConcurrentLinkedQueue<>(all);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread th = new Thread(r, "kensho-copy");
            th.setDaemon(true);
            return th;
        });
        for (int j = 0; j < jobs; j++) {
            futures.add(pool.submit(() -> {
                try (Connection c = db.connect()) {
                    try (Statement s = c.createStatement()) {
                        s.execute("SET synchronous_commit = off");
                    }
                    go.await();
                    long cpu0 = mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : 0;
                    try {
                        Chunk ch;
                        // one COPY (and transaction) per chunk: measured faster than one long COPY per job
                        while (!failed.get() && (ch = queue.poll()) != null) {
                            copy(c, ch);
                            perTable.get(ch.table).addAndGet(ch.rows);
                            if (progress != null) progress.add(ch.rows);
                        }
                    } finally {
                        if (mx.isCurrentThreadCpuTimeSupported()) cpuNanos.addAndGet(mx.getCurrentThreadCpuTime() - cpu0);
                    }
                } catch (Exception e) {
                    failed.set(true);
                    throw e;
                }
                return null;
            }));
        }
        return this;
    }

    public Result run() {
        start();
        if (progress != null) progress.start("load SF " + fmt(gen.scaleFactor()), totalRows);
        long t0 = System.nanoTime();
        go.countDown();
        try {
            for (Future<?> f : futures) f.get();
        } catch (InterruptedException e) {
            failed.set(true);
            Thread.currentThread().interrupt();
            throw new KenshoException(KenshoException.FAILURE, "load interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof KenshoException ke) throw ke;
            String msg = cause instanceof SQLException se && se.getMessage() != null ? se.getMessage().split("\n")[0] : String.valueOf(cause);
            throw KenshoException.target("COPY failed: " + msg, cause);
        } finally {
            close();
            if (progress != null) progress.close();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        Map<String, Long> rows = new LinkedHashMap<>();
        long sum = 0;
        for (SsbTable t : SsbTable.values()) {
            rows.put(t.tableName(), perTable.get(t).get());
            sum += perTable.get(t).get();
        }
        return new Result(sum, Collections.unmodifiableMap(rows), secs, cpuNanos.get() / 1e9);
    }

    /** Abandons a started load that will not run, or ends a finished one; returns once the connections are closed. */
    @Override
    public synchronized void close() {
        if (pool == null) return;
        if (go.getCount() > 0) {
            failed.set(true);
            go.countDown();
        }
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS); // the connections are closed when this returns
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void copy(Connection c, Chunk ch) throws SQLException, IOException {
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI()
                .copyIn("COPY " + db.tableOf(ch.table) + " FROM STDIN (FORMAT text, DELIMITER '|')");
        try {
            gen.write(ch.table, ch.from, ch.to, RowFormat.COPY, new CopyStream(in));
            in.endCopy();
        } catch (SQLException | IOException | RuntimeException e) {
            if (in.isActive()) {
                try {
                    in.cancelCopy();
                } catch (SQLException ignored) {
                    // the original error is the one to report
                }
            }
            throw e;
        }
    }

    /** The generator's 1 MiB writes go straight to the COPY protocol, no second buffer. */
    private static final class CopyStream extends OutputStream {
        private final CopyIn in;

        CopyStream(CopyIn in) {
            this.in = in;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                in.writeToCopy(b, off, len);
            } catch (SQLException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
    }

    private static String fmt(double d) {
        // plain digits: SF 0.00001 printed as 1.0E-5, in the cache directory's name too
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
