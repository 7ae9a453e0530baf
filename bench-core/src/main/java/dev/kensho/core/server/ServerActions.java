package dev.kensho.core.server;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What Kensho does to servers (initdb, settings, restarts, ALTER SYSTEM) as it happens, so a run
 * can record it: a command starts a record ({@link #start()}), and its run directory, once open,
 * takes what came before and everything after ({@link #recordTo}). Targets may open before or
 * after the run directory, and restarts happen deep inside workloads, hence one place they report to.
 */
public final class ServerActions {
    /** Enough for any run; a library process that never starts a record must not grow without end. */
    private static final int KEEP = 10_000;
    private static final List<String> SINCE_START = new ArrayList<>();
    private static Consumer<String> sink;
    /** The last server crash since {@link #start()}: an error that followed it is explained by it. */
    private static String crash;

    private ServerActions() {}

    /** A new command: forget earlier actions and their sink. */
    public static synchronized void start() {
        SINCE_START.clear();
        sink = null;
        crash = null;
    }

    /** A managed server's crash (the server log's words), for the command's error line. */
    static synchronized void crashed(String target, String why) {
        crash = target + " crashed (server log: " + why + ")";
    }

    /** The last crash of a server this command ran, if any: a lost connection's error says little without it. */
    public static synchronized java.util.Optional<String> lastCrash() {
        return java.util.Optional.ofNullable(crash);
    }

    /** Sends every action since {@link #start()} to sink, then each new one as it happens. */
    public static synchronized void recordTo(Consumer<String> s) {
        SINCE_START.forEach(s);
        sink = s;
    }

    static synchronized void record(String target, String action) {
        String line = target + ": " + action;
        if (SINCE_START.size() < KEEP) SINCE_START.add(line);
        if (sink == null) return;
        try {
            sink.accept(line);
        } catch (RuntimeException e) {
            // the action itself stands; as the JVM ends the record may have nowhere to go, otherwise say it is missing
            if (!dev.kensho.core.JvmShutdown.begun()) {
                System.err.println("warning: could not record '" + line + "' in run.json: " + dev.kensho.core.KenshoException.firstLine(e));
            }
        }
    }
}
