package dev.kensho.pgbench.run;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches the JVM's JIT compilers during the client warm-up, which goes on until they have been idle for a
 * while: their work must not compete with the measured run. The warm-up makes the client path hot;
 * compiling it at the top tier takes the C2 thread seconds of CPU on a saturated machine. The code must
 * stay hot while its compilations wait: HotSpot drops queued compile tasks of methods that stopped running
 * (TieredCompileTaskTimeout), and the run would request them again while the clock runs.
 * On Linux the compiler threads' CPU time is read from /proc (a long compile shows there while it runs);
 * elsewhere the JVM's total compilation time, which grows only when a compile finishes.
 */
final class JitSettle implements AutoCloseable {
    private static final long POLL_NANOS = 50_000_000L;
    /** Idle this long counts as settled: a C2 compile of a large method reports CPU well within it. */
    private static final long QUIET_NANOS = 300_000_000L;

    private final Thread watcher;
    private volatile boolean settled;

    private JitSettle() {
        watcher = new Thread(this::poll, "kensho-jit-watch");
        watcher.setDaemon(true);
    }

    /** Starts watching. */
    static JitSettle watch() {
        JitSettle s = new JitSettle();
        s.watcher.start();
        return s;
    }

    /** True once the compilers have been idle for {@link #QUIET_NANOS} (or cannot be watched). */
    boolean settled() {
        return settled;
    }

    @Override
    public void close() {
        watcher.interrupt();
    }

    private void poll() {
        long last = compilerWork();
        if (last < 0) {
            settled = true;
            return;
        }
        long quietSince = System.nanoTime();
        while (!Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(POLL_NANOS);
            long now = System.nanoTime();
            long work = compilerWork();
            if (work != last) {
                last = work;
                quietSince = now;
                settled = false;
            } else if (now - quietSince >= QUIET_NANOS) {
                settled = true;
            }
        }
    }

    /** A number that grows while the compilers work; -1 when neither source is available. */
    private static long compilerWork() {
        long ticks = compilerTicks();
        if (ticks >= 0) return ticks;
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /** CPU clock ticks of this process's compiler threads ("C1/C2 CompilerThread", JVMCI ones too). */
    private static long compilerTicks() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) return -1;
        long sum = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path t : ds) {
                try {
                    if (!Files.readString(t.resolve("comm")).contains("Compiler")) continue;
                    String stat = Files.readString(t.resolve("stat"));
                    // fields after the parenthesised name: state is 3rd, utime 14th, stime 15th
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                } catch (IOException | RuntimeException e) {
                    // the thread ended (compiler threads come and go): it no longer counts
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return sum;
    }
}
