package dev.kensho.scan.table;

import dev.kensho.core.KenshoException;
import dev.kensho.scan.Layout;
import dev.kensho.scan.LayoutFacts;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The study's table {@code test(col01 char(30) primary key, col02 char(139))}, one per layout
 * (scan_high, scan_low): keys 1..N zero-padded to 30 characters, 40 rows of 199 bytes per 8 kB page.
 * Loaded server-side in one INSERT … SELECT generate_series whose order is the physical order; the
 * primary key is added after loading (as the study did, so both layouts get equally packed indexes);
 * VACUUM FREEZE ANALYZE sets hint bits and the visibility map so no measured scan writes pages.
 *
 * <p>A table carries a COMMENT naming how it was built; a later run with the same rows, layout and
 * tablespace reuses it. A table of that name without Kensho's comment is never touched.
 */
public final class ScanTable {
    static final String MARK = "kensho scan";

    private ScanTable() {}

    public static String name(Layout layout) {
        return "scan_" + layout.label();
    }

    /** p for the low-clustering permutation: nearest N·(√5−1)/2, moved up until coprime to N. */
    public static long multiplier(Layout layout, long rows) {
        if (layout == Layout.HIGH || rows <= 2) return 1;
        long p = Math.max(1, Math.round(rows * 0.6180339887498949));
        while (!BigInteger.valueOf(p).gcd(BigInteger.valueOf(rows)).equals(BigInteger.ONE)) p++;
        return p;
    }

    /**
     * Refuses (usage error) when a table of one of these layouts' names exists without Kensho's comment, naming every one:
     * checked before any is built, so a conflict on scan_low no longer comes after building scan_high.
     */
    public static void checkNoForeignTable(Connection c, java.util.List<Layout> layouts) throws SQLException {
        java.util.List<String> foreign = new java.util.ArrayList<>();
        for (Layout l : layouts) {
            String existing = comment(c, name(l));
            if (existing != null && !existing.startsWith(MARK)) foreign.add(name(l));
            // the primary key's name too: a user's index of that name failed the build's ALTER TABLE, exit 3 after a load
            else if (!keyOfOwnTable(c, name(l))) foreign.add(name(l) + "_pk");
        }
        if (!foreign.isEmpty()) {
            String what = foreign.stream().anyMatch(f -> f.endsWith("_pk")) ? "relation" : "table";
            throw KenshoException.usage(what + (foreign.size() == 1 ? " " : "s ") + String.join(", ", foreign)
                    + (foreign.size() == 1 ? " exists and was" : " exist and were") + " not created by Kensho; "
                    + "run bench scan in another database or schema");
        }
    }

    /** Bytes a layout takes per row, table and index: 40 rows per 8 kB page, a 30-character key in the index. */
    private static final long BYTES_PER_ROW = 8192 / 40 + 56;

    /** About what a layout of this many rows takes, table and index (saturated: 2^63 rows is not a negative size). */
    public static long estimatedBytes(long rows) {
        return rows > Long.MAX_VALUE / BYTES_PER_ROW ? Long.MAX_VALUE : rows * BYTES_PER_ROW;
    }

    /**
     * Creates (or reuses) the layout's table in tablespace (null = default) and returns its facts.
     *
     * @param storage  the directory the table would be written to, when it is on this host: a table it has no room
     *                 for is refused before it is built (empty: not checked)
     * @param progress where a rebuild of a table changed since Kensho built it is said (null: nowhere)
     */
    public static LayoutFacts prepare(Connection c, Layout layout, long rows, String tablespace, boolean rebuild,
                                      java.util.Optional<java.nio.file.Path> storage, java.io.PrintStream progress) throws SQLException {
        String table = name(layout);
        long p = multiplier(layout, rows);
        String mark = MARK + " layout=" + layout.label() + " rows=" + rows + " multiplier=" + p
                + " tablespace=" + (tablespace == null ? "pg_default" : tablespace);
        String existing = comment(c, table);
        long freed = 0;
        if (existing != null) {
            if (!existing.startsWith(MARK)) {
                throw KenshoException.usage("table " + table + " exists and was not created by Kensho; "
                        + "run bench scan in another database or schema");
            }
            String built = mark + PAGES;
            if (existing.startsWith(built) && !rebuild && exists(c, table + "_pk")) {
                // the comment alone was trusted: rows deleted or updated since read as the study's table, and its
                // 51 % cell returned 500 rows where 510 were expected, "an unintended plan"
                String changed = changedSince(c, layout, table, rows, Long.parseLong(existing.substring(built.length()).strip()));
                if (changed == null) return facts(c, layout, table, rows, p, 0, true);
                if (progress != null) progress.println(table + " was changed since Kensho built it (" + changed + "): rebuilding it");
            } else if (existing.equals(mark) && !rebuild && progress != null) {
                // the same table as asked, from a Kensho that kept no size to check it against: rebuilt, said so
                progress.println(table + " was built by an earlier Kensho, which recorded no size to check it against: rebuilding it");
            }
            freed = relationBytes(c, table);
        }
        if (storage.isPresent()) {
            long need = estimatedBytes(rows);
            long free;
            try {
                free = java.nio.file.Files.getFileStore(existingAncestor(storage.get())).getUsableSpace();
            } catch (java.io.IOException e) {
                free = Long.MAX_VALUE;   // unknown: the server's own error says it if the disk fills
            }
            if (free != Long.MAX_VALUE && need - freed > free) {
                throw KenshoException.usage(String.format(java.util.Locale.ROOT, "--rows %d: %s would take about %s, and %s has "
                        + "%s free", rows, table, gb(need), storage.get(), gb(free + freed)));
            }
        }
        if (existing != null) exec(c, "DROP TABLE " + table);
        String ts = tablespace == null ? "" : " TABLESPACE " + dev.kensho.core.server.SqlIdentifier.quoted(tablespace);
        long t0 = System.nanoTime();
        exec(c, "CREATE TABLE " + table + " (col01 char(30) NOT NULL, col02 char(139))" + ts);
        // The comment goes on first: a load interrupted half-way leaves a table Kensho may drop.
        // a literal: the mark holds the tablespace's name, a user's ("o'brien", or SQL after a quote)
        exec(c, "COMMENT ON TABLE " + table + " IS " + dev.kensho.core.server.SqlIdentifier.literal(mark + " (loading)"));
        String key = layout == Layout.HIGH ? "g" : "(g * " + p + ") % " + rows;
        exec(c, "INSERT INTO " + table + " SELECT lpad((" + key + " + 1)::text, 30, '0'), "
                + "rpad('row ' || (" + key + " + 1), 139, '.') FROM generate_series(0::bigint, " + (rows - 1) + ") g");
        exec(c, "ALTER TABLE " + table + " ADD CONSTRAINT " + table + "_pk PRIMARY KEY (col01)"
                + (tablespace == null ? "" : " USING INDEX TABLESPACE " + dev.kensho.core.server.SqlIdentifier.quoted(tablespace)));
        exec(c, "VACUUM (FREEZE, ANALYZE) " + table);
        // its size as built: an UPDATE since puts new row versions on new pages (a full page has no room for them)
        exec(c, "COMMENT ON TABLE " + table + " IS " + dev.kensho.core.server.SqlIdentifier.literal(mark + PAGES + pages(c, table)));
        double seconds = (System.nanoTime() - t0) / 1e9;
        return facts(c, layout, table, rows, p, seconds, false);
    }

    private static LayoutFacts facts(Connection c, Layout layout, String table, long rows, long p, double seconds,
                                     boolean reused) throws SQLException {
        String sql = "SELECT pg_relation_size(c.oid), pg_relation_size(?::regclass), c.relpages, "
                + "coalesce(t.spcname, 'pg_default'), "
                + "(SELECT correlation FROM pg_stats s WHERE s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = 'col01') "
                + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace "
                + "WHERE c.oid = ?::regclass";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, table + "_pk");
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long pages = rs.getLong(3);
                double corr = rs.getDouble(5);
                if (rs.wasNull()) corr = Double.NaN;
                return new LayoutFacts(layout, table, rows, p, corr, rs.getLong(1), rs.getLong(2), pages,
                        pages == 0 ? 0 : (double) rows / pages, rs.getString(4), seconds, reused);
            }
        }
    }

    private static final String PAGES = " pages=";

    /**
     * Refuses (usage error) layouts the directory has no room for, all of them together, before the first is dropped:
     * checked per table, the first was rebuilt larger and the second refused, the disk left full and the pair half-made.
     * Kensho's tables there now count as room (they are dropped or reused). Empty storage: not checked.
     */
    public static void checkRoom(Connection c, java.util.List<Layout> layouts, long rows, java.util.Optional<java.nio.file.Path> storage)
            throws SQLException {
        if (storage.isEmpty()) return;
        long need = 0, have = 0;
        for (Layout l : layouts) {
            need = Math.max(need, need + estimatedBytes(rows));   // saturating
            String existing = comment(c, name(l));
            if (existing != null && existing.startsWith(MARK)) have += relationBytes(c, name(l));
        }
        long free;
        try {
            free = java.nio.file.Files.getFileStore(existingAncestor(storage.get())).getUsableSpace();
        } catch (java.io.IOException e) {
            return;   // unknown: the server's own error says it if the disk fills
        }
        if (need - have > free) {
            throw KenshoException.usage(String.format(java.util.Locale.ROOT, "--rows %d: %s would take about %s, and %s has %s free%s",
                    rows, String.join(" and ", layouts.stream().map(ScanTable::name).toList()), gb(need), storage.get(), gb(free),
                    have > 0 ? " (and " + gb(have) + " in Kensho's tables there now)" : ""));
        }
    }

    /** A size as the preparing line gives it (binary units: 1 GB is 1024³ bytes), MB below a GB. */
    private static String gb(long bytes) {
        double g = bytes / (1024.0 * 1024 * 1024);
        return g >= 1 ? String.format(java.util.Locale.ROOT, "%.1f GB", g)
                : String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    }

    /** Whether no relation is named table_pk, or it is the primary key of table (Kensho's, checked by its caller). */
    private static boolean keyOfOwnTable(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NULL OR EXISTS (SELECT 1 FROM pg_index i "
                + "WHERE i.indexrelid = to_regclass(?) AND i.indrelid = to_regclass(?) AND i.indisprimary)")) {
            ps.setString(1, table + "_pk");
            ps.setString(2, table + "_pk");
            ps.setString(3, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static long pages(Connection c, String table) throws SQLException {
        return number(c, "SELECT pg_relation_size(?::regclass) / current_setting('block_size')::bigint", table);
    }

    /** Table, index and TOAST bytes of a relation that exists (what dropping it gives back). */
    private static long relationBytes(Connection c, String table) throws SQLException {
        return number(c, "SELECT coalesce(pg_total_relation_size(to_regclass(?)), 0)", table);
    }

    /** The one number a query of the table's name returns. */
    private static long number(Connection c, String sql, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Null when the table still has the rows, pages and order it was built with; else what differs. One scan of it: the
     * reuse of a 10M-row table costs a count, not a reload. The order is the study's subject: a low table CLUSTERed since
     * kept its rows and pages, and its curves were reported as low clustering's, with pg_stats' correlation from before.
     */
    private static String changedSince(Connection c, Layout layout, String table, long rows, long builtPages) throws SQLException {
        long now = pages(c, table);
        if (now != builtPages) return now + " pages, not the " + builtPages + " it was built with";
        double corr;
        // the order exactly, in the same scan, and without ANALYZE: fresh statistics at every reuse moved the planner's
        // estimates from run to run; the block each key lies in against the key
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*), corr((ctid::text::point)[0], col01::numeric) FROM " + table)) {
            rs.next();
            long n = rs.getLong(1);
            if (n != rows) return n + " rows, not " + rows;
            corr = rs.getDouble(2);
            if (rs.wasNull()) return null;   // one page: no order to tell
        }
        // as built: high 1.0, low about 0 (a multiplicative permutation of the keys)
        boolean asBuilt = layout == Layout.HIGH ? corr >= 0.9 : Math.abs(corr) <= 0.5;
        return asBuilt ? null : String.format(java.util.Locale.ROOT, "its keys have correlation %.3f with the pages they lie in,"
                + " where the %s layout has %s", corr, layout.label(), layout == Layout.HIGH ? "1" : "about 0");
    }

    private static java.nio.file.Path existingAncestor(java.nio.file.Path dir) {
        java.nio.file.Path d = dir.toAbsolutePath();
        while (d != null && !java.nio.file.Files.exists(d)) d = d.getParent();
        return d == null ? dir.toAbsolutePath().getRoot() : d;
    }

    private static String comment(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                // any relation of the name (a sequence or an index too): CREATE TABLE would fail on it after the other
                // layout's table was built
                "SELECT c.oid, obj_description(c.oid, 'pg_class') FROM pg_class c WHERE c.oid = to_regclass(?)")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                String s = rs.getString(2);
                return s == null ? "" : s;
            }
        }
    }

    private static boolean exists(Connection c, String relation) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, relation);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
