package dev.kensho.core.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Loads relations into shared buffers with pg_prewarm, as the studies do before warm measurements.
 * Creates the extension when it is missing and the role may (managed servers always may), and says
 * so in its result: on a remote server that is a change to the user's database worth reporting.
 */
public final class Prewarm {
    private Prewarm() {}

    /**
     * Blocks read into the buffer cache.
     *
     * @param createdExtension true when this call created pg_prewarm (it was not in the database)
     * @param sharedBuffers    the server's shared_buffers in blocks (0 where unknown)
     */
    public record Result(long blocks, int relations, boolean createdExtension, long sharedBuffers) {
        public Result(long blocks, int relations, boolean createdExtension) {
            this(blocks, relations, createdExtension, 0);
        }

        /**
         * Why a warm measurement after this prewarm is partly cold, or null when shared buffers hold what was read:
         * pg_prewarm reads every block and the buffer ring keeps the last shared_buffers of them, so "prewarmed" said
         * nothing of the rest (SSB at SF 3: 293 189 blocks into 16 384).
         */
        public String partlyCold(String what) {
            if (sharedBuffers <= 0 || blocks <= sharedBuffers) return null;
            return String.format(java.util.Locale.ROOT, "%s (%,d blocks) exceed shared_buffers (%,d blocks): shared buffers hold at most"
                    + " %.1f%% of it, and the measurements read the rest from the OS cache or disk (raise shared_buffers to hold it"
                    + " for a warm measurement)", what, blocks, sharedBuffers, 100.0 * sharedBuffers / blocks);
        }
    }

    /** The server's shared_buffers in blocks, 0 where it cannot be read. */
    private static long sharedBuffers(Connection c) {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'")) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    /**
     * Creates pg_prewarm where the database lacks it, in public (not a workload's own schema, whose
     * drop would take the extension along or fail on it); true when it did.
     */
    public static boolean ensureExtension(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm'")) {
                if (rs.next()) return false;
            }
            // asked before the CREATE: pgjdbc's getCatalog() is a query, which a transaction the CREATE failed in refuses
            // (see OwnStatements), and the refusal's own words were lost
            String where = "database " + c.getCatalog(), user = c.getMetaData().getUserName();
            try {
                s.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm SCHEMA public");
            } catch (SQLException e) {
                throw unavailable(where, user, e);
            }
            return true;
        }
    }

    /**
     * Whether e says pg_prewarm cannot be had here, so that every later prewarm would fail alike: the role may not create
     * it (42501), the server lacks it (58P01), or the session is read-only (25006: a hot standby, whose primary's
     * pg_prewarm would replicate to it; default_transaction_read_only).
     */
    public static boolean cannotBeHad(SQLException e) {
        return "42501".equals(e.getSQLState()) || "58P01".equals(e.getSQLState()) || "25006".equals(e.getSQLState());
    }

    /**
     * pg_prewarm by its schema (public.pg_prewarm, quoted where the name needs it): where the search_path leaves out the extension's schema
     * (a database whose search_path is one schema of its own), an unqualified call found no such function, and every
     * sweep trial ran cold with a warning.
     */
    private static String function(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT quote_ident(n.nspname) FROM pg_extension e "
                + "JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_prewarm'")) {
            return rs.next() ? rs.getString(1) + ".pg_prewarm" : "pg_prewarm";
        }
    }

    /**
     * Why pg_prewarm cannot be had, in one line that says what would give it: the server's "permission denied to create
     * extension" names neither the database nor the remedy (pg_prewarm is not a trusted extension: only a superuser
     * creates it). The SQLSTATE is kept, so callers can tell a missing right (42501) from a failure.
     */
    private static SQLException unavailable(String where, String user, SQLException e) {
        if ("42501".equals(e.getSQLState())) {
            return new SQLException("pg_prewarm is not installed in " + where + " and role " + user
                    + " may not create it (a superuser can: CREATE EXTENSION pg_prewarm)", e.getSQLState(), e);
        }
        if ("58P01".equals(e.getSQLState())) {
            return new SQLException("pg_prewarm is not installed in " + where + " and the server lacks it (PostgreSQL's contrib modules)",
                    e.getSQLState(), e);
        }
        return e;
    }

    /** Every table, index, materialized view and TOAST relation of a schema. */
    public static Result schema(Connection c, String schema) throws SQLException {
        boolean created = ensureExtension(c);
        String sql = "SELECT count(*), coalesce(sum(" + function(c) + "(c.oid)), 0) FROM pg_class c "
                + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind IN ('r','i','m','t') "
                + "AND c.relpersistence <> 't'";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Result(rs.getLong(2), rs.getInt(1), created, sharedBuffers(c));
            }
        }
    }

    /**
     * The given tables and all their indexes and TOAST tables; a partitioned table's partitions (the
     * parent has no storage of its own: pgbench -i --partitions makes such a pgbench_accounts).
     */
    public static Result tables(Connection c, List<String> tables) throws SQLException {
        boolean created = ensureExtension(c);
        long blocks = 0;
        int rels = 0;
        int major = c.getMetaData().getDatabaseMajorVersion();
        String leaves = major >= 12
                // pg_partition_tree lists nothing for a table outside any partition tree: then the table itself
                ? "l AS (SELECT relid AS leaf FROM pg_partition_tree(?::regclass) WHERE isleaf"
                        + " UNION SELECT oid FROM pg_class WHERE oid = ?::regclass AND relkind <> 'p')"
                : major >= 10
                // 10 and 11 partition without pg_partition_tree: the partitions down from the table, those with storage
                ? "RECURSIVE t(r) AS (SELECT ?::regclass::oid WHERE ?::text IS NOT NULL UNION ALL SELECT i.inhrelid FROM pg_inherits i"
                        + " JOIN t ON i.inhparent = t.r JOIN pg_class k ON k.oid = i.inhrelid WHERE k.relispartition),"
                        + " l AS (SELECT r AS leaf FROM t JOIN pg_class k ON k.oid = t.r WHERE k.relkind <> 'p')"
                // 9.6 has no partitioned tables
                : "l AS (SELECT ?::regclass::oid AS leaf WHERE ?::text IS NOT NULL)";
        String sql = "WITH " + leaves + " SELECT count(*), coalesce(sum(" + function(c) + "(r)), 0) FROM ("
                + "SELECT leaf::regclass AS r FROM l "
                + "UNION ALL SELECT i.indexrelid::regclass FROM pg_index i JOIN l ON i.indrelid = l.leaf "
                + "UNION ALL SELECT c.reltoastrelid::regclass FROM pg_class c JOIN l ON c.oid = l.leaf WHERE c.reltoastrelid <> 0) x";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (String t : tables) {
                ps.setString(1, t);
                ps.setString(2, t);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    rels += rs.getInt(1);
                    blocks += rs.getLong(2);
                }
            }
        }
        return new Result(blocks, rels, created, sharedBuffers(c));
    }
}
