package dev.kensho.core.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Loads relations into shared buffers with pg_prewarm, as the studies do before warm measurements.
 * Creates the extension when it is missing and the role may (managed servers always may).
 */
public final class Prewarm {
    private Prewarm() {}

    /** Blocks read into the buffer cache. */
    public record Result(long blocks, int relations) { }

    public static void ensureExtension(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
        }
    }

    /** Every table, index, materialized view and TOAST relation of a schema. */
    public static Result schema(Connection c, String schema) throws SQLException {
        ensureExtension(c);
        String sql = "SELECT count(*), coalesce(sum(pg_prewarm(c.oid)), 0) FROM pg_class c "
                + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind IN ('r','i','m','t') "
                + "AND c.relpersistence <> 't'";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Result(rs.getLong(2), rs.getInt(1));
            }
        }
    }

    /** The given tables and all their indexes and TOAST tables. */
    public static Result tables(Connection c, List<String> tables) throws SQLException {
        ensureExtension(c);
        long blocks = 0;
        int rels = 0;
        String sql = "SELECT count(*), coalesce(sum(pg_prewarm(r)), 0) FROM ("
                + "SELECT ?::regclass AS r UNION ALL SELECT indexrelid::regclass FROM pg_index WHERE indrelid = ?::regclass "
                + "UNION ALL SELECT reltoastrelid::regclass FROM pg_class WHERE oid = ?::regclass AND reltoastrelid <> 0) x";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (String t : tables) {
                ps.setString(1, t);
                ps.setString(2, t);
                ps.setString(3, t);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    rels += rs.getInt(1);
                    blocks += rs.getLong(2);
                }
            }
        }
        return new Result(blocks, rels);
    }
}
