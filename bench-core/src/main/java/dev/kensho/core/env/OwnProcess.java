package dev.kensho.core.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This JVM's own counters from /proc/self/stat, read around a run: its CPU is what the client took from a server on
 * the same host, and its page faults say whether the kernel was busy under it (a fresh heap, or a host that keeps
 * clearing pages' accessed bits). Each reads -1 where there is no /proc (not Linux).
 */
public final class OwnProcess {
    private OwnProcess() {}

    /** User and system time so far, in clock ticks (/proc/stat's unit, so a difference reads as a share of the host). */
    public static long ticks() {
        try {
            String self = stat();
            return ServerCpu.field(self, 14) + ServerCpu.field(self, 15);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Minor page faults so far (minflt). */
    public static long minorFaults() {
        try {
            return ServerCpu.field(stat(), 10);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String stat() throws IOException {
        return Files.readString(Path.of("/proc/self/stat"));
    }
}
