package dev.kensho.pgbench;

import java.util.Locale;

/**
 * How a pgbench run's clients talk to the server.
 * <ul>
 * <li>{@link #WIRE}: pgbench's own model. Each -j thread owns its clients' connections and waits for whichever
 *     answers first; Kensho speaks the wire protocol itself (libpq's messages per -M mode), TLS included for
 *     sslmode prefer and require. Needs a login it can do (trust, password, md5, SCRAM-SHA-256, no certificate
 *     verification); otherwise the run says so and uses {@link #PGJDBC}. The only engine that runs pipelines.</li>
 * <li>{@link #PGJDBC}: one Java thread per client on a pgjdbc connection configured per -M mode
 *     (preferQueryMode, prepareThreshold). Any login pgjdbc can do, TLS included; with more clients than cores the
 *     threads cost throughput that pgbench's model does not pay.</li>
 * </ul>
 */
public enum Engine {
    WIRE, PGJDBC;

    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Engine parse(String s) {
        for (Engine e : values()) if (e.optionName().equals(s)) return e;
        throw new IllegalArgumentException("invalid engine: \"" + s + "\"; expected wire or pgjdbc");
    }
}
