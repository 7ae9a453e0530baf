package dev.kensho.junit;

import dev.kensho.core.server.ServerControl;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetKind;
import dev.kensho.core.server.WireLogin;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * A shared server as one test (or one class's lifecycle) holds it: everything goes to the server, but
 * the pools the test makes close when it ends, and close() closes only those. Pools left open until the
 * plan ends held their idle connections, and a suite of a few dozen tests with pools ran out of
 * max_connections ("sorry, too many clients already").
 */
@SuppressWarnings("deprecation")
final class BorrowedTarget implements Target, org.junit.jupiter.api.extension.ExtensionContext.Store.CloseableResource {
    private final Target shared;
    private final List<DataSource> pools = new ArrayList<>();

    BorrowedTarget(Target shared) {
        this.shared = shared;
    }

    @Override
    public DataSource pool(int size) {
        DataSource ds = shared.pool(size);
        synchronized (pools) {
            pools.add(ds);
        }
        return ds;
    }

    /** Closes the pools made through this test's Target; the server goes on for the tests after it. */
    @Override
    public void close() {
        List<DataSource> made;
        synchronized (pools) {
            made = new ArrayList<>(pools);
            pools.clear();
        }
        for (DataSource ds : made) {
            try {
                ((AutoCloseable) ds).close();
            } catch (Exception ignored) {
                // a pool that will not close goes with the server at the end of the plan
            }
        }
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
    @Override public Connection connect(String database) throws SQLException { return shared.connect(database); }
    @Override public ServerControl control() { return shared.control(); }
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
}
