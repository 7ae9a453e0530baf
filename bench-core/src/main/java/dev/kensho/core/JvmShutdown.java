package dev.kensho.core;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the JVM has begun to end (Ctrl-C, SIGTERM). Shutdown hooks run while the main thread goes on:
 * Kensho's own stop the embedded server and restore a remote one's settings, so a trial still running then
 * measures the ending, not the workload. Run directories keep no trial that finishes after this point
 * ({@code --resume} runs it again), and the hooks that act on servers say so first.
 *
 * <p>Once it is ending, a second Ctrl-C (or SIGTERM, SIGHUP) stops the commands the hooks wait for: a user's
 * {@code --restart-command} that hangs held the JVM up to 300 s, twice when the run's own restart was under way,
 * and the JVM's own handler takes no second signal while its hooks run.
 */
public final class JvmShutdown {
    private static volatile boolean begun;
    private static volatile boolean signalledAgain;
    private static boolean listening;
    /** Each process a second signal stops → what it is, as the line that says so names it. */
    private static final Map<Process, String> STOPPABLE = new ConcurrentHashMap<>();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(JvmShutdown::begin, "kensho-jvm-shutdown"));
        } catch (IllegalStateException alreadyEnding) {
            begun = true;
        }
    }

    private JvmShutdown() {}

    /** Called first by every hook of Kensho's that stops or changes a server. */
    public static void begin() {
        begun = true;
        listenForASecondSignal();
    }

    public static boolean begun() {
        return begun;
    }

    /** Whether a second Ctrl-C or SIGTERM came while the JVM was ending: what is left to wait for is given up. */
    public static boolean signalledAgain() {
        return signalledAgain;
    }

    /**
     * Until {@link #done}, a second signal ends p and what it started (a process in a session of its own, which
     * the terminal's Ctrl-C does not reach); what names it in the line that says so ("--restart-command").
     */
    public static void stoppable(Process p, String what) {
        STOPPABLE.put(p, what);
        if (signalledAgain) stop(p);   // the signal came as it started
    }

    public static void done(Process p) {
        STOPPABLE.remove(p);
    }

    private static synchronized void listenForASecondSignal() {
        if (listening) return;
        listening = true;
        for (String name : new String[] {"INT", "TERM", "HUP"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), s -> secondSignal());
            } catch (IllegalArgumentException | UnsupportedOperationException reserved) {
                // -Xrs, or a platform without it: the JVM's own handling stays
            }
        }
    }

    private static void secondSignal() {
        signalledAgain = true;
        STOPPABLE.forEach((p, what) -> {
            System.err.println("bench: interrupted again: stopping " + what);
            stop(p);
        });
    }

    /** Ends p and what it started, its descendants first, while they are still its (once p is gone, init adopts them). */
    public static void stop(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }
}
