package dev.kensho.pgbench.run;

import dev.kensho.core.KenshoException;
import dev.kensho.pgbench.script.ServerError;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** pgbench's vacuum before a run (-n skips it), which leaves alone a pgbench_history that is not pgbench's. */
final class PreRunVacuum {
    private final RunConfig cfg;

    PreRunVacuum(RunConfig cfg) {
        this.cfg = cfg;
    }

    /**
     * pgbench's pre-run vacuum: each statement runs whatever the one before did (history is truncated even when
     * branches is missing); an error is a line of its own, ignored, as pgbench prints it, and "end." follows on its own line.
     */
    void run(Connection c) {
        cfg.err().print("starting vacuum...");
        cfg.err().flush();   // the errors stream passes whole lines (masked): this one is said before its end
        vacuumStep(c, "vacuum pgbench_branches");
        vacuumStep(c, "vacuum pgbench_tellers");
        String keep = historyKept(c);
        if (keep == null) vacuumStep(c, historyTruncate(c));
        cfg.err().println("end.");
        if (keep != null) cfg.err().println("warning: " + keep);
        if (cfg.vacuumAccounts()) {
            cfg.err().print("starting vacuum pgbench_accounts...");
            cfg.err().flush();
            vacuumStep(c, "vacuum analyze pgbench_accounts");
            cfg.err().println("end.");
        }
    }

    /** pgbench_history's columns as pgbench -i makes them (aid bigint from scale 20000 on), in pg_attribute's order. */
    private static final java.util.regex.Pattern PGBENCH_HISTORY_COLUMNS = java.util.regex.Pattern.compile(
            "tid integer,bid integer,aid (integer|bigint),delta integer,mtime timestamp without time zone,filler character\\(22\\)");

    /**
     * Why the pgbench_history the search_path finds is not pgbench's to truncate, or null when it is (or none is found:
     * the truncate's error says so, as pgbench's). pgbench truncates whichever comes first: a user's table in a schema
     * after the one of the other pgbench tables, or one of the user's own shape in their place, was emptied.
     */
    private static String historyKept(Connection c) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select quote_ident(hn.nspname) || '.' || quote_ident(h.relname),"
                + " hn.nspname is distinct from bn.nspname and b.oid is not null, bn.nspname,"
                + " (select string_agg(attname || ' ' || format_type(atttypid, atttypmod), ',' order by attnum) from pg_attribute"
                + "  where attrelid = h.oid and attnum > 0 and not attisdropped)"
                + " from pg_class h join pg_namespace hn on hn.oid = h.relnamespace"
                + " left join pg_class b on b.oid = to_regclass('pgbench_branches') left join pg_namespace bn on bn.oid = b.relnamespace"
                + " where h.oid = to_regclass('pgbench_history')")) {
            if (!rs.next()) return null;
            String history = rs.getString(1);
            if (rs.getBoolean(2)) {
                return history + " not truncated: it is not beside pgbench_branches in schema " + rs.getString(3)
                        + ", so not pgbench's (Kensho empties no table it did not create)";
            }
            if (!PGBENCH_HISTORY_COLUMNS.matcher(String.valueOf(rs.getString(4))).matches()) {
                return history + " not truncated: its columns are not pgbench's (" + rs.getString(4)
                        + "), so it is not pgbench's (Kensho empties no table it did not create)";
            }
            return null;
        } catch (SQLException e) {
            // not known to be pgbench's: kept (the truncate's own error, for a missing table, is the query's null row)
            return "pgbench_history not truncated: its schema and columns could not be read (" + KenshoException.firstLine(e) + ")";
        }
    }

    /**
     * pgbench's "truncate pgbench_history", but ONLY that table where it is no partitioned one: a user's table that inherits
     * from it was emptied with it, a table Kensho did not create (init refuses to run with one).
     */
    private static String historyTruncate(Connection c) {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                "select relkind from pg_class where oid = to_regclass('pgbench_history')")) {
            if (rs.next() && !"p".equals(rs.getString(1))) return "truncate only pgbench_history";
        } catch (SQLException e) {
            // the truncate says what is wrong
        }
        return "truncate pgbench_history";
    }

    private void vacuumStep(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            // as libpq prints notices: a role that does not own the tables is told "skipping ... only table or database
            // owner can vacuum it", and without it "starting vacuum...end." read as a vacuum done
            for (java.sql.SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) cfg.err().println(ServerError.noticeText(w, n -> sql));
        } catch (SQLException e) {
            cfg.err().println("error: ERROR:  " + Driver.oneLine(e) + " (ignoring this error and continuing anyway)");
        }
    }
}
