package dev.kensho.core.server;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** What Kensho may change on a server, and how it tells the user what it did. */
public interface ServerControl {

    /** Managed servers always; remote ones only when the user gave --restart-command. */
    boolean canRestart();

    /**
     * Restarts the server (a cold server cache) and returns once it accepts connections. Where not permitted
     * ({@link #canRestart()} false) it throws a usage {@link dev.kensho.core.KenshoException} saying so.
     */
    void restart();

    /**
     * Brings the server to these settings for the next measurement. Managed servers write them to
     * postgresql.conf and reload, restarting only when a postmaster-level value changed. Remote
     * servers get them per session, on every new connection, where the context allows (user, backend; superuser ones as
     * a superuser); anything else is refused with a reason in the outcome (the measurement should then be skipped) unless
     * a restart command was given. A value the server rejects ({@code work_mem=lots}) is not a refusal but an error:
     * it throws a {@link dev.kensho.core.KenshoException} with the server's words, and the server keeps the values
     * it had.
     *
     * @return what was applied and whether the server restarted; {@link SettingsOutcome#ok()} false with
     *         {@link SettingsOutcome#refusalReason()} where a setting could not be had
     */
    SettingsOutcome apply(Map<String, String> settings);

    /** What Kensho did to this server so far (initdb, settings, restarts), oldest first. */
    java.util.List<String> actions();

    /** The settings Kensho has written or set so far (name → value). */
    Map<String, String> applied();

    /** The data directory of a managed server; empty for others. */
    Optional<Path> dataDirectory();

    /** Directory of the server's binaries (initdb, pg_ctl, pgbench…) where known. */
    Optional<Path> binDirectory();

    /** A place in the server's log to look for a crash from ({@link #crashSince}); -1 where Kensho does not read the log. */
    default long logMark() {
        return -1;
    }

    /**
     * The server log's line telling that a server process crashed or was killed (the OOM killer's signal 9) since mark,
     * waiting up to waitMillis for the postmaster to log it; empty where none did, or the log is not Kensho's to read.
     */
    default Optional<String> crashSince(long mark, long waitMillis) {
        return Optional.empty();
    }
}
