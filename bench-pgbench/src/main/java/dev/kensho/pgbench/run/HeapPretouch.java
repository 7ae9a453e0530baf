package dev.kensho.pgbench.run;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Writes the young generation once before the clock starts. A fresh JVM's eden is committed but unwritten, so the
 * clients' first pass through it faults on every 4 KB page it allocates into, until a run has allocated as much as
 * eden holds (tens of seconds); pgbench has no such cost. Where a fault is dear (machine J, a guest with shadow page
 * tables) those faults were 15-30 % of the client's CPU, and without them the wire engine ran select-only c=4
 * 10-20 % faster (four rotated pairs of 10 s runs). HotSpot's -XX:+AlwaysPreTouch would do it, but `java -jar bench.jar` cannot set
 * JVM flags. Allocating until the collector has run twice writes every eden region the heap then uses, and if a
 * collection grows the heap, two more: G1 takes young regions from the top of its free list and returns them there,
 * so later passes reuse the written ones.
 */
final class HeapPretouch {
    /** Below any collector's humongous-object threshold, so the arrays land in eden. */
    private static final int CHUNK = 64 * 1024;
    private static final long TIME_LIMIT_NANOS = 2_000_000_000L;

    @SuppressWarnings("unused")   // written so that the allocations cannot be optimised away
    private static volatile Object sink;

    private HeapPretouch() {}

    /** The committed heap after the last pretouch in this JVM: while it stays that size, eden stays written. */
    private static volatile long written = -1;

    /** Bytes allocated (0 where no collector reports collections, or eden was written already). */
    static long run() {
        // a sweep's trials and a test suite's runs share one JVM: one pretouch serves them all while the heap keeps its size
        if (Runtime.getRuntime().totalMemory() == written) return 0;
        long collections = collections();
        if (collections < 0) return 0;
        // at most half the heap's limit or 2 s: a collector that never reports (or a huge eden) cannot hold the start
        long budget = Runtime.getRuntime().maxMemory() / 2;
        long giveUp = System.nanoTime() + TIME_LIMIT_NANOS;
        long allocated = 0;
        long until = collections + 2;
        long committed = Runtime.getRuntime().totalMemory();
        while (allocated < budget && System.nanoTime() < giveUp) {
            for (int i = 0; i < 64; i++) sink = new byte[CHUNK];
            allocated += 64L * CHUNK;
            long now = collections();
            if (Runtime.getRuntime().totalMemory() != committed) {
                // a collection grew the heap (G1 does as eden grows to its size for this load): the new regions are
                // unwritten, so two more passes
                committed = Runtime.getRuntime().totalMemory();
                until = now + 2;
            }
            if (now >= until) break;
        }
        sink = null;
        written = Runtime.getRuntime().totalMemory();
        return allocated;
    }

    private static long collections() {
        long n = 0;
        boolean any = false;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long c = gc.getCollectionCount();
            if (c >= 0) {
                n += c;
                any = true;
            }
        }
        return any ? n : -1;
    }
}
