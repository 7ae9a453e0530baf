package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A run's claim on a remote server's configuration, so that one run at a time changes it ({@link #take}). */
final class SettingsClaim {
    private final Target server;
    /**
     * The session that holds this run's claim on the server's configuration ({@link #take}); null before any change.
     * Its callers order it by the server's lock, not this one: take() runs inside apply and restart, and close releases
     * only after its restore, which waits for them; a caller outside that lock could release under a running apply.
     */
    private Connection claim;
    private static final long CLAIM_KEY = 0x4b656e73686f5231L;   // "KenshoR1"

    SettingsClaim(Target server) {
        this.server = server;
    }

    /**
     * Claims the server's configuration for this run before it changes it (ALTER SYSTEM, --restart-command), with a
     * session advisory lock in database postgres (the server's, whichever database a run measures; the run's own where
     * it may not connect there). Two runs with --restart-command on one server undid each other's settings (one
     * "restored" the other's value, which then stayed in postgresql.auto.conf) and one's restart failed the other's
     * trials: the second now stops before it changes anything. Held until the settings are put back (close); a restart
     * ends its session, and it is taken again once the server is back.
     */
    synchronized void take() {
        try {
            if (claim != null && claim.isValid(5)) return;
        } catch (SQLException gone) {
            // taken again below
        }
        release();
        try {
            Connection c;
            try {
                c = server.connect("postgres");
            } catch (SQLException | KenshoException noPostgres) {
                try {
                    c = server.connect();
                } catch (SQLException | KenshoException down) {
                    // a server that does not answer (a failed restart left it down) runs no one else's change either: the
                    // restart that brings it back takes the claim after it
                    return;
                }
            }
            try (var ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, CLAIM_KEY);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getBoolean(1)) {
                        claim = c;
                        return;
                    }
                }
                String holder = dev.kensho.core.run.StudyLock.holder(c, CLAIM_KEY);
                c.close();
                throw KenshoException.usage("another Kensho run is changing the settings of the server at " + server.host() + ":" + server.port()
                        + (holder == null ? "" : " (" + holder + ")") + ": it would put back its values over this one's and restart"
                        + " under its trials; run one at a time");
            } catch (SQLException e) {
                c.close();
                throw e;
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot claim the settings of " + server.host() + ":" + server.port() + ": " + KenshoException.firstLine(e), e);
        }
    }

    synchronized void release() {
        if (claim == null) return;
        dev.kensho.core.run.StudyLock.release(claim, CLAIM_KEY);
        claim = null;
    }
}
