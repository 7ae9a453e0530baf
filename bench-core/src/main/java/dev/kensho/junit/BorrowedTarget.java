package dev.kensho.junit;

import com.zaxxer.hikari.HikariDataSource;
import dev.kensho.core.server.ServerControl;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetKind;
import dev.kensho.core.server.WireLogin;
import dev.kensho.core.server.SettingsOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A shared server as one test (or one class's lifecycle) holds it: everything goes to the server, but
 * the pools the test makes close when it ends, and close() closes only those. Pools left open until the
 * plan ends held their idle connections, and a suite of a few dozen tests with pools ran out of
 * max_connections ("sorry, too many clients already"). Likewise the settings the test applies are put
 * back to what they were before it when it ends, so no later test measures under them unknowingly.
 */
@SuppressWarnings("deprecation")
final class BorrowedTarget implements Target, org.junit.jupiter.api.extension.ExtensionContext.Store.CloseableResource {
    private final Target shared;
    private final List<HikariDataSource> pools = new ArrayList<>();
    private final TestControl control;

    BorrowedTarget(Target shared) {
        this.shared = shared;
        this.control = new TestControl(shared);
    }

    @Override
    public HikariDataSource pool(int size) {
        HikariDataSource ds = shared.pool(size);
        synchronized (pools) {
            pools.add(ds);
        }
        return ds;
    }

    /**
     * Closes the pools made through this test's Target and puts back the settings it applied (a test that closes
     * its Target itself gets them back then); the server goes on for the tests after it.
     */
    @Override
    public void close() {
        List<HikariDataSource> made;
        synchronized (pools) {
            made = new ArrayList<>(pools);
            pools.clear();
        }
        for (HikariDataSource ds : made) {
            try {
                ds.close();
            } catch (Exception ignored) {
                // a pool that will not close goes with the server at the end of the plan
            }
        }
        control.restore();
    }

    @Override public TargetKind kind() { return shared.kind(); }
    @Override public String describe() { return shared.describe(); }
    @Override public String jdbcUrl() { return shared.jdbcUrl(); }
    @Override public String user() { return shared.user(); }
    @Override public String database() { return shared.database(); }
    @Override public String host() { return shared.host(); }
    @Override public int port() { return shared.port(); }
    @Override public Connection connect() throws SQLException { return shared.connect(); }
    @Override public Connection connect(Properties extra) throws SQLException { return shared.connect(extra); }
    @Override public WireLogin wireLogin() { return shared.wireLogin(); }
    @Override public java.util.Optional<java.nio.file.Path> serverPasswordFile() { return shared.serverPasswordFile(); }
    @Override public Connection connect(String database) throws SQLException { return shared.connect(database); }
    @Override public ServerControl control() { return control; }
    @Override public boolean sameHost() { return shared.sameHost(); }
    @Override public int serverVersionNum() { return shared.serverVersionNum(); }

    /** Equal for every test holding the same server: a suite may key what it loaded into a server by its Target. */
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof BorrowedTarget b && b.shared == shared;
    }

    @Override
    public int hashCode() {
        return shared.hashCode();
    }

    @Override
    public String toString() {
        return shared.describe();
    }

    /**
     * The shared server's control as one test uses it: before a setting is first changed, its value is noted (the
     * one Kensho applied earlier, else the server's own), and restore() applies the noted values back. A restart is
     * not undone, and needs none: the values are what count.
     */
    private static final class TestControl implements ServerControl {
        private final Target target;
        private final Map<String, String> before = new LinkedHashMap<>();

        TestControl(Target target) {
            this.target = target;
        }

        @Override
        public synchronized SettingsOutcome apply(Map<String, String> settings) {
            Map<String, String> applied = target.control().applied();
            for (String name : settings.keySet()) {
                if (before.containsKey(name)) continue;
                String value = applied.containsKey(name) ? applied.get(name) : serverValue(name);
                if (value != null) before.put(name, value);   // null: a setting the server does not know; apply refuses it
            }
            return target.control().apply(settings);
        }

        @Override
        public long logMark() {
            return target.control().logMark();
        }

        @Override
        public java.util.Optional<String> crashSince(long mark, long waitMillis) {
            return target.control().crashSince(mark, waitMillis);
        }

        /** Applies back what this test changed; fails the test when the server will not take its earlier values. */
        synchronized void restore() {
            Map<String, String> now = target.control().applied();
            Map<String, String> back = new LinkedHashMap<>();
            before.forEach((name, value) -> {
                // absent from applied() before and after: the change was refused, nothing to put back
                if (now.containsKey(name) && !value.equals(now.get(name))) back.put(name, value);
            });
            before.clear();
            if (back.isEmpty()) return;
            SettingsOutcome o = target.control().apply(back);
            if (!o.ok()) {
                throw new IllegalStateException("cannot put back the settings the test changed on " + target.describe() + ": "
                        + o.refusalReason() + "; the tests after it run under them");
            }
        }

        private String serverValue(String name) {
            try (Connection c = target.connect(); PreparedStatement s = c.prepareStatement("SELECT current_setting(?, true)")) {
                s.setString(1, name);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            } catch (SQLException e) {
                return null;
            }
        }

        @Override public boolean canRestart() { return target.control().canRestart(); }
        @Override public void restart() { target.control().restart(); }
        @Override public java.util.List<String> actions() { return target.control().actions(); }
        @Override public Map<String, String> applied() { return target.control().applied(); }
        @Override public java.util.Optional<java.nio.file.Path> dataDirectory() { return target.control().dataDirectory(); }
        @Override public java.util.Optional<java.nio.file.Path> binDirectory() { return target.control().binDirectory(); }
    }
}
