package dev.kensho.core.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OwnProcessTest {
    private static volatile long sink;

    @Test
    void touchingFreshMemoryCountsItsPagesAsMinorFaults() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "read from /proc (Linux)");
        int pages = 8192;   // 32 MB of direct memory: new pages, not the heap's already written ones
        long before = OwnProcess.minorFaults();
        ByteBuffer b = ByteBuffer.allocateDirect(pages * 4096);
        for (int i = 0; i < pages; i++) b.put(i * 4096, (byte) 1);
        long faults = OwnProcess.minorFaults() - before;
        // allocateDirect zeroes the memory itself, so the pages fault there, none in the loop: once a 4 KB page, or once
        // a 2 MB one where transparent huge pages are always on
        assertTrue(faults >= pages / 512, faults + " faults for " + pages + " fresh pages");
    }

    @Test
    void ticksFollowTheJvmsCpuTime() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "read from /proc (Linux)");
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long ticks = OwnProcess.ticks(), cpu = os.getProcessCpuTime();
        long spinUntil = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < spinUntil) x += x * 31 + 7;
        sink = x;
        long tickDelta = OwnProcess.ticks() - ticks;
        double cpuTicks = (os.getProcessCpuTime() - cpu) / 1e7;   // USER_HZ is 100 on Linux
        assertTrue(cpuTicks >= 20, "spun 300 ms for only " + cpuTicks + " ticks of CPU");
        // the two clocks sample the same counters, /proc/self/stat in ticks rounded down per thread
        assertEquals(cpuTicks, tickDelta, Math.max(5, cpuTicks * 0.2), "ticks " + tickDelta + " vs " + cpuTicks);
    }
}
