package dev.kensho.pgbench;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.SqlIdentifier;
import dev.kensho.core.server.Target;
import dev.kensho.pgbench.init.CopyLoader;
import dev.kensho.pgbench.init.Tables;
import dev.kensho.pgbench.script.ServerError;
import dev.kensho.pgbench.script.expr.CFormat;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pgbench -i}: creates and fills pgbench_branches, _tellers, _accounts and _history with
 * exactly the rows pgbench 16/17 writes, step by step ({@code -I dtgGvpf}), and reports pgbench's
 * timing line. Only ever drops or truncates those four tables.
 *
 * <pre>
 * PgbenchInit.Result r = new PgbenchInit().scale(10).run(target);
 * System.err.println(r.line());   // done in 1.20 s (drop tables 0.00 s, create tables 0.01 s, ...)
 * </pre>
 *
 * One session setting differs from pgbench, to load faster without changing the result: a maintenance_work_mem of
 * at least 256MB so the primary-key sort stays in memory. (synchronous_commit=off did change it: vacuum marks no
 * page all-visible while the load's commit is unflushed, so -I G and partitioned loads left an empty visibility map.)
 */
public final class PgbenchInit {
    /** The run directory's command name for these runs: the report draws its charts by it. */
    public static final String COMMAND = "pgbench init";
    public static final String ALL_STEPS = "dtgGvpf";
    public static final String DEFAULT_STEPS = "dtgvp";

    private int scale = 1;
    private int fillfactor = 100;
    private boolean foreignKeys;
    private boolean unlogged;
    private int partitions;
    private PartitionMethod partitionMethod;
    private String tablespace;
    private String indexTablespace;
    private String steps;
    private boolean noVacuum;
    private boolean quiet;
    private Boolean overwriteProgress;
    private PrintStream log = System.err;
    /** The statement the server refused, for the error (pgbench's "Query was:"); null when none did. */
    private String failedStatement;
    /** The schema the last run worked in (see pinSearchPath), for its errors. */
    private String pinnedSchema;

    /** -s: 100 000 accounts, 10 tellers and 1 branch per unit. */
    public PgbenchInit scale(int s) { this.scale = s; return this; }
    /** -F: fillfactor of branches, tellers and accounts (10..100). */
    public PgbenchInit fillfactor(int f) { this.fillfactor = f; return this; }
    /** --foreign-keys: adds step f. */
    public PgbenchInit foreignKeys(boolean b) { this.foreignKeys = b; return this; }
    /** --unlogged-tables. */
    public PgbenchInit unlogged(boolean b) { this.unlogged = b; return this; }
    /** --partitions N: partition pgbench_accounts into N parts. */
    public PgbenchInit partitions(int n) { this.partitions = n; return this; }
    /** --partition-method range|hash (requires --partitions). */
    public PgbenchInit partitionMethod(PartitionMethod m) { this.partitionMethod = m; return this; }
    /** --tablespace: create the four tables in this tablespace (quoted as pgbench quotes it; null: the default). */
    public PgbenchInit tablespace(String name) { this.tablespace = name; return this; }
    /** --index-tablespace: create the primary-key indexes in this tablespace (null: the default). */
    public PgbenchInit indexTablespace(String name) { this.indexTablespace = name; return this; }
    /** -I: the steps to run, any of dtgGvpf (spaces ignored); default dtgvp. */
    public PgbenchInit steps(String s) { this.steps = s; return this; }
    /** -n / --no-vacuum: drops step v. */
    public PgbenchInit noVacuum(boolean b) { this.noVacuum = b; return this; }
    /** -q: progress every 5 s instead of every 100 000 rows. */
    public PgbenchInit quiet(boolean b) { this.quiet = b; return this; }
    /** Progress lines written over each other ('\r'), as pgbench on a terminal; default: when the log is a terminal's stderr. */
    public PgbenchInit overwriteProgress(boolean b) { this.overwriteProgress = b; return this; }
    /** Where progress and the timing line go (stderr, as pgbench); null for silence. */
    public PgbenchInit log(PrintStream out) { this.log = out; return this; }

    /** The same options in a new object (a sweep adjusts its own copy, never the caller's). */
    PgbenchInit copy() {
        PgbenchInit c = new PgbenchInit();
        c.scale = scale;
        c.fillfactor = fillfactor;
        c.foreignKeys = foreignKeys;
        c.unlogged = unlogged;
        c.partitions = partitions;
        c.partitionMethod = partitionMethod;
        c.tablespace = tablespace;
        c.indexTablespace = indexTablespace;
        c.steps = steps;
        c.noVacuum = noVacuum;
        c.quiet = quiet;
        c.overwriteProgress = overwriteProgress;
        c.log = log;
        return c;
    }

    /**
     * What one initialisation did.
     *
     * @param steps seconds per step, in the order run, named as pgbench names them
     */
    public record Result(int scale, String initSteps, Map<String, Double> steps, double totalSeconds, String line) {
        /** pgbench's line: {@code done in X s (drop tables X s, ...).} (a step given twice appears twice) */
        public String line() {
            return line;
        }

        /** The batch-load measurement as a trial (study 004). */
        public Trial trial(int repeat) {
            Trial.Builder b = Trial.of("init;scale=" + scale, repeat).param("scale", scale).param("steps", initSteps)
                    .metric("seconds", totalSeconds);
            steps.forEach((k, v) -> b.metric(k.replace(' ', '_').replace("-", "_") + "_s", v));
            return b.extra("line", line()).build();
        }
    }

    /** The effective -I steps after -n and --foreign-keys, validated as pgbench does. */
    public String effectiveSteps() {
        String s = steps == null ? DEFAULT_STEPS : steps;
        StringBuilder out = new StringBuilder();
        for (char ch : s.toCharArray()) {
            if (ch == ' ') continue;
            if (ALL_STEPS.indexOf(ch) < 0) {
                throw KenshoException.usage("unrecognized initialization step \"" + ch + "\"; allowed step characters are: \"" + ALL_STEPS + "\"");
            }
            if (noVacuum && ch == 'v') continue;
            out.append(ch);
        }
        if (s.isEmpty()) throw KenshoException.usage("no initialization steps specified");
        if (foreignKeys && out.indexOf("f") < 0) out.append('f');
        return out.toString();
    }

    /** pgbench's checks of the options and -I steps, before anything is opened (usage errors in its words). */
    public void validate() {
        if (scale < 1) throw KenshoException.usage("-s/--scale must be in range 1..2147483647");
        if (fillfactor < 10 || fillfactor > 100) throw KenshoException.usage("-F/--fillfactor must be in range 10..100");
        if (partitions < 0) throw KenshoException.usage("--partitions must be in range 0..2147483647");
        if (partitionMethod == PartitionMethod.NONE && partitions > 0) throw KenshoException.usage(PartitionMethod.invalid("none"));
        if (partitionMethod != null && partitionMethod != PartitionMethod.NONE && partitions == 0) {
            throw KenshoException.usage("--partition-method requires greater than zero --partitions");
        }
        effectiveSteps();   // -I as well: a sweep given an init template validates before its targets start
    }

    /** Runs the steps on the target's database. */
    public Result run(Target target) {
        try (Connection c = target.connect()) {
            return run(c);
        } catch (SQLException e) {
            // pgbench prints the server's DETAIL, HINT and "Query was: ..." on lines of their own: the one line keeps them
            // (the DETAIL is often the one that says what is in the way: "view v depends on table pgbench_accounts")
            org.postgresql.util.ServerErrorMessage m = e instanceof org.postgresql.util.PSQLException p ? p.getServerErrorMessage() : null;
            List<String> more = new ArrayList<>();
            if (m != null && m.getDetail() != null) more.add("DETAIL: " + KenshoException.firstLine(m.getDetail()));
            if (m != null && m.getHint() != null) more.add("HINT: " + KenshoException.firstLine(m.getHint()));
            String serverHint = more.isEmpty() ? "" : " (" + String.join("; ", more) + ")";
            // a table missing from the schema init works in, which may stand further along the search_path
            String where = "42P01".equals(e.getSQLState()) && pinnedSchema != null ? " (init works on the pgbench tables of schema "
                    + pinnedSchema + ", the search_path's first; those of schemas after it are left alone)" : "";
            throw new KenshoException(KenshoException.FAILURE, "pgbench init failed: " + KenshoException.firstLine(e) + serverHint
                    + where + hint(e, target) + (failedStatement == null ? "" : "; query was: " + failedStatement), e);
        }
    }

    private static final java.util.regex.Pattern SCHEMA_DENIED = java.util.regex.Pattern.compile("permission denied for schema (.+)");

    /**
     * What would allow a create the server refused for want of the right: since PostgreSQL 15 a role may no longer
     * create tables in public by default (only the database owner may), and the server's error does not say so.
     */
    private static String hint(SQLException e, Target target) {
        java.util.regex.Matcher m = SCHEMA_DENIED.matcher(String.valueOf(e.getMessage()));
        if (!"42501".equals(e.getSQLState()) || !m.find()) return "";
        return " (role " + target.user() + " may not create tables in schema " + m.group(1) + ": GRANT CREATE ON SCHEMA " + SqlIdentifier.quoteIdent(m.group(1).strip())
                + " TO " + SqlIdentifier.quoteIdent(target.user()) + ", or use a database the role owns)";
    }

    /** Runs the steps and appends the result as a trial. */
    public Result run(Target target, RunDirectory dir, int repeat) {
        java.time.Instant began = java.time.Instant.now();
        Result r = run(target);
        if (dir != null) dir.append(r.trial(repeat).startedAt(began));
        return r;
    }

    /**
     * The session advisory lock an initialisation holds on its database. Two at once (two test classes loading the
     * shared server under JUnit's parallel execution, two commands) dropped and created the same tables under each
     * other and failed on a catalog race ("duplicate key value violates unique constraint pg_type_typname_nsp_index")
     * that named neither; the second now stops at once, saying why.
     */
    static final long INIT_LOCK = 0x4b656e73686f4931L;   // "KenshoI1"

    /** Runs the steps on an open connection (left in autocommit). */
    public Result run(Connection c) throws SQLException {
        failedStatement = null;
        pinnedSchema = null;
        validate();
        String todo = effectiveSteps();
        PartitionMethod method = partitions == 0 ? PartitionMethod.NONE : partitionMethod == null ? PartitionMethod.RANGE : partitionMethod;
        ServerVersion version = ServerVersion.of(c);
        checkServer(version, todo, method);
        c.setAutoCommit(true);
        if (!advisoryLock(c, "pg_try_advisory_lock")) {
            // exit 2, as for the other locks: nothing was measured, and the run directory goes
            throw KenshoException.usage("another pgbench init is loading the pgbench tables of database \""
                    + c.getCatalog() + "\" now; run one at a time (from JUnit's parallel execution: mark the tests that load"
                    + " tables into the shared server @ChangesServer)");
        }
        String searchPath = null, maintenanceWorkMem = null;
        // no named server-side statements: behind a transaction pooler (PgBouncer's pool_mode=transaction) the server
        // connection keeps those of an earlier client, and "prepared statement S_1 already exists" failed the init midway
        int threshold = c.unwrap(org.postgresql.PGConnection.class).getPrepareThreshold();
        c.unwrap(org.postgresql.PGConnection.class).setPrepareThreshold(0);
        try {
            maintenanceWorkMem = setting(c, "maintenance_work_mem");
            searchPath = pinSearchPath(c);
            return runSteps(c, todo, method, version);
        } finally {
            try {
                // the session as it was: a caller's own connection, and a pooled server connection that the next client
                // of a transaction pooler gets with whatever settings it holds (it had 256MB of maintenance_work_mem)
                if (searchPath != null) setConfig(c, "search_path", searchPath);
                if (maintenanceWorkMem != null) setConfig(c, "maintenance_work_mem", maintenanceWorkMem);
                c.unwrap(org.postgresql.PGConnection.class).setPrepareThreshold(threshold);
                advisoryLock(c, "pg_advisory_unlock");
            } catch (SQLException gone) {
                // the connection broke: its session, and the lock with it, is gone
            }
        }
    }

    /**
     * Narrows the session's search_path to the schema the tables are made in, returning the one before (null: left as
     * it was, no schema of it exists). pgbench's unqualified TRUNCATE, ALTER TABLE and VACUUM find the first pgbench_*
     * of the search_path: with "public, userdata" and no pgbench_history in public, -I g emptied userdata's, and -I p
     * gave a user's tables there primary keys. Init works in one schema, as its drop and create steps do.
     */
    private String pinSearchPath(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                "select current_setting('search_path'), quote_ident(current_schema()), current_schema()")) {
            rs.next();
            pinnedSchema = rs.getString(3);
            if (pinnedSchema == null) return null;
            // pg_temp last: unnamed, a session's temporary tables come first (a caller's connection may hold some)
            setConfig(c, "search_path", rs.getString(2) + ", pg_temp");
            return rs.getString(1);
        }
    }

    private static String setting(Connection c, String name) throws SQLException {
        try (java.sql.PreparedStatement ps = c.prepareStatement("select current_setting(?)")) {
            ps.setString(1, name);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static void setConfig(Connection c, String name, String value) throws SQLException {
        try (java.sql.PreparedStatement ps = c.prepareStatement("select set_config(?, ?, false)")) {
            ps.setString(1, name);
            ps.setString(2, value);
            ps.execute();
        }
    }

    /**
     * A role that may not create tables where they go (PostgreSQL 15's public for all but the database owner): pgbench
     * drops the tables first and fails at the create, the tables it dropped lost. Said before any step, nothing dropped.
     */
    private static void refuseWithoutCreate(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("select current_schema(), current_user,"
                + " current_schema() is not null and has_schema_privilege(current_schema(), 'CREATE')")) {
            rs.next();
            String schema = rs.getString(1), user = rs.getString(2);
            if (schema == null) {
                throw KenshoException.target("pgbench init: no schema of the search_path exists to create the tables in"
                        + " (nothing was dropped)", null);
            }
            if (!rs.getBoolean(3)) {
                throw KenshoException.target("pgbench init: role " + user + " may not create tables in schema " + schema
                        + ": GRANT CREATE ON SCHEMA " + SqlIdentifier.quoteIdent(schema) + " TO " + SqlIdentifier.quoteIdent(user) + ", or use a database the role owns (nothing was dropped)", null);
            }
        }
    }

    /**
     * A server that takes no writes here (a hot standby; a database or role with default_transaction_read_only): every
     * step writes, and the first failed at its first statement, exit 1 with a run directory, where scan, ssb and micro
     * say so before they start. Said before any step, nothing changed.
     */
    private static void refuseReadOnly(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                "select pg_is_in_recovery(), current_setting('transaction_read_only') = 'on'")) {
            rs.next();
            if (rs.getBoolean(1)) {
                throw KenshoException.target("pgbench init: the server is a standby in recovery, which takes no writes: init its primary,"
                        + " whose tables replicate here (nothing was changed)", null);
            }
            if (rs.getBoolean(2)) {
                throw KenshoException.target("pgbench init: the session is read-only (default_transaction_read_only is on for database "
                        + c.getCatalog() + ", its role, or the URL's options): init where it may write (nothing was changed)", null);
            }
        }
    }

    /**
     * A table of one of the four names that lacks a column pgbench gives it is someone else's (a user's
     * pgbench_accounts(note text) in the first schema of the search_path): pgbench's drop step drops it, Kensho drops no
     * table it did not create, nor empties one (the generate steps' TRUNCATE). One with pgbench's columns, from Kensho or
     * pgbench -i (extended by a study, perhaps), is dropped as pgbench drops it. Said before any step, nothing changed.
     */
    private static void refuseOthersTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("select name, missing from (select t.name,"
                + " array(select x from unnest(t.columns) x where x <> all (array(select a.attname::text from pg_attribute a"
                + " where a.attrelid = k.oid and a.attnum > 0 and not a.attisdropped))) missing from (values"
                + " ('pgbench_accounts', array['aid', 'bid', 'abalance', 'filler']), ('pgbench_branches', array['bid', 'bbalance', 'filler']),"
                + " ('pgbench_history', array['tid', 'bid', 'aid', 'delta', 'mtime', 'filler']),"
                + " ('pgbench_tellers', array['tid', 'bid', 'tbalance', 'filler'])) t(name, columns)"
                // tables only: a view of the name fails at the drop step with the server's own words, as in pgbench
                + " join pg_class k on k.relname = t.name and k.relkind in ('r', 'p')"
                + " and k.relnamespace = (select oid from pg_namespace where nspname = current_schema())) x"
                + " where cardinality(missing) > 0 order by 1 limit 1")) {
            if (rs.next()) {
                String table = rs.getString(1);
                throw KenshoException.target("pgbench init: " + table + " in schema " + creationSchemaName(c) + " is not pgbench's (it has no "
                        + String.join(", ", (String[]) rs.getArray(2).getArray()) + "), a table Kensho did not create, which init"
                        + " would drop or empty: rename or drop it, or init in another schema or database (nothing was changed)", null);
            }
        }
    }

    private static String creationSchemaName(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("select current_schema()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * The schema the create step makes the tables in (current_schema(), quoted), or null when the search_path names none.
     * The drop step drops only there: unqualified, a search_path of "public, userdata" without public tables dropped
     * userdata's pgbench_history, someone's, and made the new one in public.
     */
    private static String creationSchema(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("select quote_ident(current_schema())")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static boolean advisoryLock(Connection c, String function) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("select " + function + "(" + INIT_LOCK + ")")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    private Result runSteps(Connection c, String todo, PartitionMethod method, ServerVersion version) throws SQLException {
        refuseReadOnly(c);
        if (todo.indexOf('d') >= 0 || todo.indexOf('g') >= 0 || todo.indexOf('G') >= 0) refuseOthersTables(c);
        if (todo.indexOf('t') >= 0) refuseWithoutCreate(c);
        if (todo.indexOf('g') >= 0 || todo.indexOf('G') >= 0) refuseChildTables(c, todo, version);
        exec(c, "select set_config('maintenance_work_mem', '256MB', false) "
                + "where pg_size_bytes(current_setting('maintenance_work_mem')) < 256 * 1024 * 1024");
        Map<String, Double> times = new LinkedHashMap<>();
        StringBuilder stats = new StringBuilder();
        double total = 0;
        for (char step : todo.toCharArray()) {
            long t0 = System.nanoTime();
            String name;
            switch (step) {
                case 'd' -> {
                    name = "drop tables";
                    say("dropping old tables...");
                    exec(c, Tables.drop(creationSchema(c)));
                }
                case 't' -> {
                    name = "create tables";
                    say("creating tables...");
                    List<String> ddl = Tables.create(scale, fillfactor, unlogged, partitions, method, tablespace, !version.atLeast(18));
                    for (int i = 0; i < ddl.size(); i++) {
                        if (i == 4) say("creating " + partitions + " partitions...");
                        exec(c, ddl.get(i));
                    }
                }
                case 'g' -> {
                    name = "client-side generate";
                    say("generating data (client-side)...");
                    generateClientSide(c);
                }
                case 'G' -> {
                    name = "server-side generate";
                    say("generating data (server-side)...");
                    c.setAutoCommit(false);
                    try {
                        exec(c, Tables.TRUNCATE);
                        for (String s : Tables.serverSideInserts(scale)) exec(c, s);
                        c.commit();
                    } finally {
                        rollbackQuietly(c);
                    }
                }
                case 'v' -> {
                    name = "vacuum";
                    say("vacuuming...");
                    for (String s : Tables.VACUUM) exec(c, s);
                }
                case 'p' -> {
                    name = "primary keys";
                    say("creating primary keys...");
                    for (String s : Tables.primaryKeys(indexTablespace)) exec(c, s);
                }
                case 'f' -> {
                    name = "foreign keys";
                    say("creating foreign keys...");
                    for (String s : Tables.FOREIGN_KEYS) exec(c, s);
                }
                default -> throw new IllegalStateException("step " + step);
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            times.merge(name, secs, Double::sum);
            total += secs;
            stats.append(stats.length() == 0 ? "" : ", ").append(CFormat.printf("%s %.2f s", name, secs));
        }
        Result r = new Result(generated(todo) ? scale : tablesScale(c), todo, times, total, CFormat.printf("done in %.2f s (%s).", total, stats));
        say(r.line());
        return r;
    }

    private static boolean generated(String steps) {
        return steps.indexOf('g') >= 0 || steps.indexOf('G') >= 0;
    }

    /**
     * The scale of tables this init did not fill (-I p, v or f alone): pgbench_branches' rows, as pgbench reads it, else
     * the one given. The trial had recorded -s's default 1 of tables at scale 2.
     */
    private int tablesScale(Connection c) {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                "SELECT CASE WHEN to_regclass('pgbench_branches') IS NULL THEN NULL ELSE (SELECT count(*) FROM pgbench_branches) END")) {
            rs.next();
            long n = rs.getLong(1);
            return rs.wasNull() || n == 0 ? scale : (int) n;
        } catch (SQLException e) {
            return scale;
        }
    }

    /**
     * What --partitions asks of the server, refused before any step runs (pgbench 15 sends it anyway and stops at the
     * server's error, its old tables dropped by then): partitioned tables came with 10, hash partitioning and a
     * partitioned table's primary key with 11, a foreign key referencing one (pgbench_history's aid) with 12.
     */
    private void checkServer(ServerVersion v, String todo, PartitionMethod method) {
        if (partitions == 0 || todo.indexOf('t') < 0) return;
        v.require("--partitions (a partitioned pgbench_accounts)", 10);
        if (method == PartitionMethod.HASH) v.require("--partition-method hash", 11);
        if (todo.indexOf('p') >= 0) v.require("--partitions with the primary keys step (p)", 11);
        if (todo.indexOf('f') >= 0) v.require("--partitions with the foreign keys step (f: pgbench_history references pgbench_accounts)", 12);
    }

    /**
     * What would stop every init of a sweep that rebuilds its tables each trial, asked once before the first: a user's
     * table of one of the four names (see refuseOthersTables), or one inheriting from one of them (see refuseChildTables).
     * Each trial had failed on it alike.
     */
    public void checkBeforeRepeatedInits(Target target) {
        String todo = effectiveSteps();
        boolean generates = todo.indexOf('g') >= 0 || todo.indexOf('G') >= 0;
        try (Connection c = target.connect()) {
            refuseReadOnly(c);
            if (!generates && todo.indexOf('d') < 0) return;
            pinSearchPath(c);   // as init asks it: of the tables in the schema it works in, not those further along the path
            refuseOthersTables(c);
            if (generates) refuseChildTables(c, todo, ServerVersion.of(c));
        } catch (SQLException e) {
            throw KenshoException.target("cannot read the pgbench tables and their children: " + KenshoException.firstLine(e), e);
        }
    }

    /**
     * A table of the user's that inherits from one of the four (not a partition of a partitioned pgbench_accounts, which
     * init makes): the generate steps' TRUNCATE empties it with its parent, as pgbench's does, and Kensho empties no
     * table it did not create. Asked before the first step, so a 'd' or 't' before it has not run either (the 'd' step
     * would fail on it anyway: DROP without CASCADE).
     */
    private static void refuseChildTables(Connection c, String todo, ServerVersion version) throws SQLException {
        try (Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("select p.relname, i.inhrelid::regclass::text from pg_inherits i"
                     + " join pg_class p on p.oid = i.inhparent join pg_class k on k.oid = i.inhrelid"
                     + " where i.inhparent in (select to_regclass(t) from unnest(array['pgbench_accounts', 'pgbench_branches',"
                     + " 'pgbench_history', 'pgbench_tellers']) t)" + (version.atLeast(10) ? " and not k.relispartition" : "")
                     + " order by 1, 2 limit 1")) {
            if (rs.next()) {
                String parent = rs.getString(1), child = rs.getString(2);
                throw new KenshoException(KenshoException.TARGET, child + " inherits from " + parent + ": the generate step (-I "
                        + todo + ") truncates " + parent + " and with it " + child + ", a table Kensho did not create; detach it "
                        + "(ALTER TABLE " + child + " NO INHERIT " + parent + ") or drop it first");
            }
        }
    }

    private void generateClientSide(Connection c) throws SQLException {
        // one transaction, truncate first: lets COPY FREEZE skip later hint-bit and freeze work
        c.setAutoCommit(false);
        try {
            exec(c, Tables.TRUNCATE);
            boolean v14 = ServerVersion.of(c).atLeast(14);
            CopyLoader loader = new CopyLoader();
            boolean overwrite = overwriteProgress != null ? overwriteProgress : log == System.err && stderrIsTerminal();
            for (CopyLoader.Table t : List.of(CopyLoader.Table.BRANCHES, CopyLoader.Table.TELLERS, CopyLoader.Table.ACCOUNTS)) {
                // as pgbench 17: all three by COPY, FREEZE for ordinary tables only. pgbench decides by --partitions, Kensho
                // asks the table, so -I g on an accounts table partitioned earlier loads, where pgbench's COPY FREEZE fails;
                // 15 and 16 INSERT branches and tellers: the same rows, not frozen
                loader.load(c, t, scale, v14 && ordinaryTable(c, t.tableName()), quiet, overwrite, log);
            }
            c.commit();
        } finally {
            rollbackQuietly(c);
        }
    }

    /**
     * pgbench's isatty(fileno(stderr)): Linux names the file behind fd 2; elsewhere a console is taken for one
     * (System.console() alone is wrong both ways: it asks of stdin and stdout, so "2> init.log" got carriage returns).
     */
    static boolean stderrIsTerminal() {
        try {
            String to = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/2")).toString();
            return to.startsWith("/dev/pts/") || to.startsWith("/dev/tty");
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    private static boolean ordinaryTable(Connection c, String table) throws SQLException {
        try (java.sql.PreparedStatement ps = c.prepareStatement("select relkind = 'r' from pg_class where oid = to_regclass(?)")) {
            ps.setString(1, table);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static void rollbackQuietly(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // connection already broken; the original error is reported
            }
            c.setAutoCommit(true);
        }
    }

    private void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            // in the server's severity, as libpq prints it: the vacuum of tables the role does not own is a WARNING
            for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) say(ServerError.noticeText(w, n -> sql));
        } catch (SQLException e) {
            failedStatement = sql;
            throw e;
        }
    }

    private void say(String line) {
        if (log != null) log.println(line);
    }
}
