package dev.kensho.pgbench.micro;

import dev.kensho.core.KenshoException;
import dev.kensho.jmh.TargetState;
import dev.kensho.pgbench.PgbenchInit;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The tables study 002's queries read ({@link Data}): pgbench's at a scale (made by {@link PgbenchInit}, reused when
 * pgbench_branches already holds that scale) and {@value #WIDE}, 100 text columns of 10 characters
 * each (one 1.1 kB row, so nothing is TOASTed). The wide table carries a COMMENT naming how it was
 * built; a table of that name without Kensho's comment is never touched.
 */
public final class MicroTables {
    public static final String WIDE = "kensho_wide";
    public static final int WIDE_COLUMNS = 100;
    static final String MARK = "kensho micro";

    private MicroTables() {}

    /** The two sets of tables; each benchmark reads one, and only the chosen benchmarks' sets are made. */
    public enum Data {
        /** pgbench's tables at a scale: join-group-count and encoding. */
        PGBENCH,
        /** {@value MicroTables#WIDE}: trailing-columns, one-column and leading-columns. */
        WIDE
    }

    /**
     * pgbench's tables as a JMH state, so the benchmarks also run from a user's own JMH set-up: before
     * a trial it makes them exist at {@code -Dkensho.micro.scale} (default 10), reusing what is there.
     * {@code bench micro} prepares them first and passes its scale, so in its forks this only checks.
     */
    @State(Scope.Benchmark)
    public static class PgbenchReady {
        @Setup(Level.Trial)
        public void prepare(TargetState server) throws SQLException {
            try (Connection c = server.target.connect()) {
                MicroTables.prepare(c, java.util.Set.of(Data.PGBENCH), Integer.getInteger(SCALE_PROPERTY, 10), 0, false, null);
            } catch (KenshoException e) {
                throw e.naming(java.util.Map.of("MicroTables.prepare scale", "-D" + SCALE_PROPERTY));   // what a JMH user set
            }
        }
    }

    /** {@value #WIDE} as a JMH state, at {@code -Dkensho.micro.wideRows} rows (default 100 000); as {@link PgbenchReady}. */
    @State(Scope.Benchmark)
    public static class WideReady {
        @Setup(Level.Trial)
        public void prepare(TargetState server) throws SQLException {
            try (Connection c = server.target.connect()) {
                MicroTables.prepare(c, java.util.Set.of(Data.WIDE), 0, Long.getLong(WIDE_ROWS_PROPERTY, 100_000), false, null);
            } catch (KenshoException e) {
                throw e.naming(java.util.Map.of("MicroTables.prepare wideRows", "-D" + WIDE_ROWS_PROPERTY));
            }
        }
    }

    static final String SCALE_PROPERTY = "kensho.micro.scale";
    static final String WIDE_ROWS_PROPERTY = "kensho.micro.wideRows";

    /**
     * What the tables hold once {@link #prepare} returns; a set that was not needed has nulls.
     *
     * @param scale         pgbench scale, null when pgbench's tables were not needed
     * @param wideRows      rows of {@value #WIDE}, null when it was not needed
     */
    public record Facts(Integer scale, Boolean pgbenchReused, Long wideRows, Boolean wideReused, String serverEncoding) { }

    /**
     * Makes the needed sets of tables exist, and leaves the others alone (a database with pgbench
     * tables of another scale, or no room for {@value #WIDE}, still runs the benchmarks that do not
     * read them). pgbench tables of another scale are re-created only with reinit (they are
     * pgbench's, which -i drops too); otherwise that is a usage error.
     */
    public static Facts prepare(Connection c, java.util.Set<Data> needed, int scale, long wideRows, boolean reinit, PrintStream log)
            throws SQLException {
        Integer scaleDone = null;
        Boolean reusePgbench = null;
        if (needed.contains(Data.PGBENCH)) {
            // bench micro's options refused --scale 0 before: only a caller of this method (or a JMH state) gets here
            if (scale < 1) throw KenshoException.usage("MicroTables.prepare scale must be at least 1");
            Integer existing = pgbenchScale(c);
            reusePgbench = existing != null && existing == scale;
            if (existing != null && !reusePgbench && !reinit) {
                throw KenshoException.usage("pgbench tables of scale " + existing + " exist in this database; give --scale "
                        + existing + " or --reinit to re-create them at scale " + scale);
            }
            if (reusePgbench) {
                // the scale is read from pgbench_branches: accounts someone deleted from were measured as the scale's
                // (1 000 of scale 1's 100 000 rows took 1.3 ms where the whole table takes 33)
                long accounts = count(c, "pgbench_accounts");
                if (accounts != scale * 100_000L) {
                    if (!reinit) {
                        throw KenshoException.usage("pgbench_accounts holds " + accounts + " rows, not the " + scale * 100_000L + " of scale " + scale
                                + " (pgbench_branches'); give --reinit to re-create the pgbench tables");
                    }
                    reusePgbench = false;
                }
            }
            if (!reusePgbench) {
                if (log != null) log.println("creating pgbench tables at scale " + scale);
                PgbenchInit.Result r = new PgbenchInit().scale(scale).quiet(true).log(null).run(c);
                if (log != null) log.println(r.line());
            }
            scaleDone = scale;
        }
        Long wideDone = null;
        Boolean reuseWide = null;
        if (needed.contains(Data.WIDE)) {
            if (wideRows < 1) throw KenshoException.usage("MicroTables.prepare wideRows must be at least 1");
            reuseWide = prepareWide(c, wideRows, log);
            wideDone = wideRows;
        }
        c.setAutoCommit(true);
        return new Facts(scaleDone, reusePgbench, wideDone, reuseWide, setting(c, "server_encoding"));
    }

    private static Integer pgbenchScale(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select to_regclass('pgbench_branches') is not null, to_regclass('pgbench_accounts') is not null")) {
            rs.next();
            if (!rs.getBoolean(1) || !rs.getBoolean(2)) return null;
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from pgbench_branches")) {
            rs.next();
            return (int) rs.getLong(1);
        }
    }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean prepareWide(Connection c, long rows, PrintStream log) throws SQLException {
        c.setAutoCommit(true);
        String mark = MARK + " rows=" + rows;
        String comment = comment(c);
        if (comment != null) {
            if (!comment.startsWith(MARK)) {
                throw KenshoException.usage("table " + WIDE + " exists and was not created by Kensho; run bench micro in another database");
            }
            // Kensho's own table, so one whose rows were changed since is made again rather than measured as the mark says
            if (comment.equals(mark) && count(c, WIDE) == rows) return true;
            exec(c, "drop table " + WIDE);
        }
        if (log != null) log.println("creating " + WIDE + " (" + WIDE_COLUMNS + " text columns, " + rows + " rows)");
        String cols = IntStream.range(0, WIDE_COLUMNS).mapToObj(i -> "col" + i + " text").collect(Collectors.joining(", "));
        exec(c, "create table " + WIDE + " (" + cols + ")");
        // The comment goes on first: a load interrupted half-way leaves a table Kensho may drop.
        exec(c, "comment on table " + WIDE + " is " + dev.kensho.core.server.SqlIdentifier.literal(mark + " (loading)"));
        String values = IntStream.range(0, WIDE_COLUMNS).mapToObj(i -> "v").collect(Collectors.joining(", "));
        exec(c, "insert into " + WIDE + " select " + values + " from (select lpad(g::text, 10, '0') v from generate_series(1, "
                + rows + ") g) s");
        // hint bits and the visibility map set now, so no measured query writes pages
        exec(c, "vacuum (freeze, analyze) " + WIDE);
        exec(c, "comment on table " + WIDE + " is " + dev.kensho.core.server.SqlIdentifier.literal(mark));
        return false;
    }

    private static String comment(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select obj_description(c.oid, 'pg_class') from pg_class c where c.oid = to_regclass(?)")) {
            ps.setString(1, WIDE);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                String s = rs.getString(1);
                return s == null ? "" : s;
            }
        }
    }

    static String setting(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select current_setting(?)")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
