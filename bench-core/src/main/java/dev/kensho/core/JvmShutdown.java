package dev.kensho.core;

/**
 * Whether the JVM has begun to end (Ctrl-C, SIGTERM). Shutdown hooks run while the main thread goes on:
 * Kensho's own stop the embedded server and restore a remote one's settings, so a trial still running then
 * measures the ending, not the workload. Run directories keep no trial that finishes after this point
 * ({@code --resume} runs it again), and the hooks that act on servers say so first.
 */
public final class JvmShutdown {
    private static volatile boolean begun;

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
    }

    public static boolean begun() {
        return begun;
    }
}
