package dev.kensho.core.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * A schema of the test's own, made with what the test puts in it and set as the target's search_path: objects named
 * as pgbench's tables there hide the database's own, which stay as they are. {@link #close} drops it.
 */
public final class ScratchSchema implements AutoCloseable {
    private final Target target;
    private final String name;

    private ScratchSchema(Target target, String name, String... ddl) throws SQLException {
        this.target = target;
        this.name = name;
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            s.execute("CREATE SCHEMA " + name);
            for (String sql : ddl) s.execute(sql.replace("{schema}", name));
        }
        target.control().apply(Map.of("search_path", name));
    }

    /** Schema "kensho_test_SUFFIX", then each statement with {schema} standing for its name. */
    public static ScratchSchema create(Target target, String suffix, String... ddl) throws SQLException {
        return new ScratchSchema(target, "kensho_test_" + suffix, ddl);
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA " + name + " CASCADE");
        }
    }
}
