package dev.kensho.core.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A login role with no privilege beyond owning a database of its own, on the machine's PostgreSQL (reached as its
 * superuser through {@code @LocalPostgres}): what an enterprise user usually is on a production-like host. The role
 * and its database are named after the test and dropped by {@link #close}; the role logs in through the server's
 * trust authentication, as a remote target.
 */
public final class PlainRole implements AutoCloseable {
    private final Target admin;
    private final String name;
    private final Target target;

    private PlainRole(Target admin, String name) throws SQLException {
        this.admin = admin;
        this.name = name;
        dropAll();
        try (Connection c = admin.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + name + " LOGIN");
            s.execute("CREATE DATABASE " + name + " OWNER " + name);
        }
        String url = admin.jdbcUrl().replaceFirst("/[^/?]*(\\?.*)?$", "/" + name);
        this.target = new TargetSpec().url(url).user(name).open();
    }

    /** A role "kensho_plain_SUFFIX" (a database of the same name, which it owns); SUFFIX tells concurrent tests apart. */
    public static PlainRole create(Target superuser, String suffix) throws SQLException {
        return new PlainRole(superuser, "kensho_plain_" + suffix);
    }

    /** The role's own database, connected as the role. */
    public Target target() {
        return target;
    }

    public String name() {
        return name;
    }

    /** Runs SQL as the superuser in the role's database (to grant it something, or to install what it may not). */
    public void asSuperuser(String sql) throws SQLException {
        try (Connection c = admin.connect(name); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private void dropAll() throws SQLException {
        try (Connection c = admin.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("DROP ROLE IF EXISTS " + name);
        }
    }

    @Override
    public void close() throws Exception {
        target.close();
        dropAll();
    }
}
