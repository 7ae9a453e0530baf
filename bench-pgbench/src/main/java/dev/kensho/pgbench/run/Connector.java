package dev.kensho.pgbench.run;

import dev.kensho.core.server.Target;
import dev.kensho.pgbench.QueryMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens client connections in the -M mode's pgjdbc configuration (preferQueryMode, prepareThreshold),
 * so the wire traffic matches pgbench's. One connection per client, never a pool.
 */
public final class Connector {
    private final Target target;
    private final QueryMode mode;
    /** A Unix-socket target has its own socket factory, whose reads block already. */
    private final boolean tcp;

    public Connector(Target target, QueryMode mode) {
        this.target = target;
        this.mode = mode;
        this.tcp = target.wireLogin().socketFile() == null;
    }

    /** What each connection sets after login (one statement, one round trip): libpq's session where pgjdbc's differs. */
    private volatile String settings;

    void settings(java.util.List<String> sets) {
        settings = sets.isEmpty() ? null : String.join("; ", sets);
    }

    public Connection connect() throws SQLException {
        return connect(0);
    }

    /**
     * With a login bounded to this many seconds (pgjdbc's loginTimeout; 0: none, as libpq without connect_timeout); a
     * URL's own loginTimeout wins.
     */
    Connection connect(int loginSeconds) throws SQLException {
        Properties p = mode.connectionProperties();
        if (loginSeconds > 0) p.setProperty("loginTimeout", String.valueOf(loginSeconds));
        if (tcp) p.setProperty("socketFactory", BlockingSocketFactory.class.getName());
        Connection c = target.connect(p);
        if (settings != null) {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute(settings);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
        }
        return c;
    }
}
