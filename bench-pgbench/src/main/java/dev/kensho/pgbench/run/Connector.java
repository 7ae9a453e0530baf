package dev.kensho.pgbench.run;

import dev.kensho.core.target.Target;
import dev.kensho.pgbench.script.QueryMode;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.PGConnection;

/**
 * Opens client connections in the -M mode's pgjdbc configuration (preferQueryMode, prepareThreshold),
 * so the wire traffic matches pgbench's. One connection per client, never a pool.
 *
 * <p>Target has no public "connect with extra properties" yet; bench-core's JdbcTarget has it
 * package-private, so it is reached reflectively. Where that fails, the target's own connection is
 * used and the prepare threshold set on it (simple mode then still uses unnamed extended-protocol
 * statements, which {@link #exactMode()} reports).
 */
public final class Connector {
    private final Target target;
    private final QueryMode mode;
    private final Method connectWith;
    private final Method baseProperties;

    public Connector(Target target, QueryMode mode) {
        this.target = target;
        this.mode = mode;
        Method c = null;
        Method p = null;
        try {
            Class<?> jt = Class.forName("dev.kensho.core.target.JdbcTarget");
            if (jt.isInstance(target)) {
                c = jt.getDeclaredMethod("connect", String.class, Properties.class);
                p = jt.getDeclaredMethod("properties");
                c.setAccessible(true);
                p.setAccessible(true);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            c = null;
            p = null;
        }
        this.connectWith = c;
        this.baseProperties = p;
    }

    /** False when connections fall back to the target's defaults (see class comment). */
    public boolean exactMode() {
        return connectWith != null;
    }

    public Connection connect() throws SQLException {
        if (connectWith != null) {
            try {
                Properties props = new Properties();
                props.putAll((Properties) baseProperties.invoke(target));
                props.putAll(mode.connectionProperties());
                return (Connection) connectWith.invoke(target, target.database(), props);
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable t = e.getCause();
                if (t instanceof SQLException s) throw s;
                if (t instanceof RuntimeException r) throw r;
                throw new SQLException(t);
            } catch (IllegalAccessException e) {
                // fall through to the plain connection
            }
        }
        Connection c = target.connect();
        c.unwrap(PGConnection.class).setPrepareThreshold(mode == QueryMode.PREPARED ? 1 : 0);
        return c;
    }
}
