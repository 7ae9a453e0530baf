package dev.kensho.pgbench.run;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits, after the client warm-up, until the JVM's JIT compilers have gone idle, so their work does not
 * compete with the measured run. The warm-up makes the client path hot; compiling it at the top tier
 * takes the C2 thread seconds of CPU, and on a saturated machine that thread gets only its share of a
 * core: without this wait it was still compiling the driver and pgjdbc ten seconds into a run.
 * On Linux the compiler threads' CPU time is read from /proc (a long compile shows there while it
 * runs); elsewhere the JVM's total compilation time, which grows only when a compile finishes.
 */
final class JitSettle {
    private static final long POLL_NANOS = 50_000_000L;
    /** Idle this long counts as settled: a C2 compile of a large method reports CPU well within it. */
    private static final long QUIET_NANOS = 300_000_000L;

    private JitSettle() {}

    /**
     * Returns when the compilers have been idle for {@link #QUIET_NANOS}, or after {@code limitNanos}.
     *
     * @return nanoseconds waited
     */
    static long await(long limitNanos) {
        long start = System.nanoTime();
        long last = compilerWork();
        if (last < 0) return 0;
        long quietSince = start;
        while (true) {
            LockSupport.parkNanos(POLL_NANOS);
            long now = System.nanoTime();
            long work = compilerWork();
            if (work != last) {
                last = work;
                quietSince = now;
            } else if (now - quietSince >= QUIET_NANOS) {
                return now - start;
            }
            if (now - start >= limitNanos || Thread.currentThread().isInterrupted()) return now - start;
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
