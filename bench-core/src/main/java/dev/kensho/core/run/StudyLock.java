package dev.kensho.core.run;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The session advisory lock a study holds on its database while it builds and measures its own objects. Two scans at
 * once on one database (two commands against a --url server, two test classes on a shared one) rebuilt each other's
 * tables between cells and timed each other's reads; two SSB index builds dropped each other's index mid-build. The
 * second now stops before it touches anything. A restart for a cold cell ends the session that held the lock:
 * {@link #hold()} takes it again before the next cell.
 */
public final class StudyLock implements AutoCloseable {
    /** bench scan's key ("KenshoS1"). */
    public static final long SCAN = 0x4b656e73686f5331L;
    /** bench ssb index-build's key ("KenshoB1"; pgbench init's is "KenshoI1"). */
    public static final long INDEX_BUILD = 0x4b656e73686f4231L;

    private final Target target;
    private final long key;
    private final String study, why;
    private Connection session;

    private StudyLock(Target target, long key, String study, String why) {
        this.target = target;
        this.key = key;
        this.study = study;
        this.why = why;
    }

    /**
     * Takes the lock, or says which server process holds it.
     *
     * @param study what holds it, as the refusal names it ("scan")
     * @param why   what a second one at once would do to the first, for the refusal
     */
    public static StudyLock take(Target target, long key, String study, String why) {
        StudyLock lock = new StudyLock(target, key, study, why);
        lock.hold();
        return lock;
    }

    /** Holds the lock again where its session ended (a restart); another study that took it meanwhile stops this one. */
    public void hold() {
        try {
            if (session != null && session.isValid(5)) return;
            closeSession();
            session = target.connect();
            try (PreparedStatement ps = session.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getBoolean(1)) return;
                }
            }
            String holder = holder(session, key);
            String database = session.getCatalog();
            closeSession();
            // exit 2, as for a kept data directory or a run another process is writing; and a trial does not fail of it,
            // the run stops (TrialMatrix passes usage errors on)
            throw KenshoException.usage("another " + study + " is measuring in database \"" + database + "\" now"
                    + (holder == null ? "" : " (" + holder + ")") + ": " + why + "; run one at a time");
        } catch (SQLException e) {
            closeSession();
            throw KenshoException.target("cannot take the " + study + "'s lock on " + target.describe() + ": " + KenshoException.firstLine(e), e);
        }
    }

    /** Who holds the session advisory lock key in c's database: its server process and, where the role may see it, its client. */
    public static String holder(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT l.pid, a.client_addr FROM pg_locks l "
                + "LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
                + "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                + "AND l.classid = ? AND l.objid = ? AND l.objsubid = 1")) {
            ps.setLong(1, key >>> 32);
            ps.setLong(2, key & 0xffffffffL);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                String client = rs.getString(2);
                return "server process " + rs.getInt(1) + (client == null ? "" : ", client " + client);
            }
        }
    }

    private void closeSession() {
        if (session == null) return;
        release(session, key);
        session = null;
    }

    /**
     * Lets go of the session advisory lock key, then closes its session. Not by the close alone: a closed session's
     * backend frees its locks as it exits, a moment after close() returns, and a study started right after this one
     * ended was refused as if this one still ran.
     */
    public static void release(Connection session, long key) {
        try (PreparedStatement ps = session.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        } catch (SQLException gone) {
            // its session ended: nothing held
        }
        try {
            session.close();
        } catch (SQLException ignored) {
            // a session already gone holds nothing
        }
    }

    @Override
    public void close() {
        closeSession();
    }
}
