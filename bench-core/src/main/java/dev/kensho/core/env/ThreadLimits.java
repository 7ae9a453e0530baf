package dev.kensho.core.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What bounds this process's threads, in words, for the line that says a thread could not start: the JVM's own
 * ("unable to create native thread: possibly out of memory") reads as heap exhaustion, while a process or task limit
 * (ulimit -u, a container's pids.max) is the usual cause, and a larger -Xmx cannot lift it.
 */
public final class ThreadLimits {
    private ThreadLimits() {}

    /** Whether a Thread.start() failed for want of a native thread (the only OutOfMemoryError it throws). */
    public static boolean isThreadRefused(OutOfMemoryError e) {
        return String.valueOf(e.getMessage()).startsWith("unable to create native thread");
    }

    /** "this process runs N threads; the user may run L processes and threads in all (ulimit -u); ...", as Linux tells them. */
    public static String describe() {
        List<String> parts = new ArrayList<>();
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("Threads:")) parts.add("this process runs " + l.substring(8).trim() + " threads");
            }
            for (String l : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (l.startsWith("Max processes")) {
                    String soft = l.substring(13).trim().split("\\s+")[0];
                    if (!soft.equals("unlimited")) parts.add("the user may run " + soft + " processes and threads in all (ulimit -u)");
                }
            }
            for (String l : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                // cgroup v2's one line (0::/path), or v1's pids controller (N:pids:/path)
                String[] f = l.split(":", 3);
                boolean v2 = f.length == 3 && f[0].equals("0") && f[1].isEmpty();
                if (f.length < 3 || !(v2 || List.of(f[1].split(",")).contains("pids"))) continue;
                Path max = Path.of(v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/pids", f[2], "pids.max");
                if (Files.isReadable(max)) {
                    String v = Files.readString(max).trim();
                    if (!v.equals("max")) parts.add("its cgroup " + v + " tasks (pids.max)");
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc (not Linux): the JVM's words alone
        }
        return parts.isEmpty() ? "the JVM's \"unable to create native thread\"" : String.join("; ", parts);
    }
}
