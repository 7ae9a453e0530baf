package dev.kensho.ssb;

import dev.kensho.core.KenshoException;
import dev.kensho.core.measure.Prewarm;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.ssb.gen.SsbTable;
import dev.kensho.ssb.load.CopyJobs;
import dev.kensho.ssb.load.Progress;
import java.io.PrintStream;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The SSB tables in one schema of a target. Kensho keeps a marker table, kensho_ssb_meta, listing the
 * tables it created there and their OIDs; it drops (on --reload) only tables listed there that are still the ones it
 * created, and refuses to load over, or measure, same-named tables it did not create.
 */
public final class SsbDatabase {
    /**
     * What the loaded rows are: the generator reproduces this dbgen commit byte for byte. Part of
     * the embedded cache key; change it when the generated data or the schema change.
     */
    public static final String GENERATOR_VERSION = "ssb-dbgen@ae1e254/schema1";
    public static final String META = "kensho_ssb_meta";
    /** The five SSB tables in load order. */
    public static final List<String> TABLES = List.of("part", "supplier", "customer", "date", "lineorder");
    /** The JIT study's lineorder copies (verification 2): suffix → type of lo_extendedprice. */
    public static final Map<String, String> VARIANTS = Map.of("lineorder_n", "numeric", "lineorder_r", "real",
            "lineorder_d", "double precision");

    private final Target target;
    private final String schema;
    /** Why pg_prewarm cannot be had here (the role may not create it, the server lacks it), once known: said once. */
    private String noPrewarm;

    /**
     * Refuses (usage error) a scale factor the loaded data would not match: dbgen truncates one of 1 or more to its
     * integer part, so -s 1.5 would load SF 1's rows while run.json and the cache said 1.5.
     */
    public static void checkScale(double sf) {
        // the scale as typed (-s 0, not "got 0.0")
        String typed = Double.isFinite(sf) ? fmt(sf) : String.valueOf(sf);
        if (!(sf > 0) || sf > 100_000) throw KenshoException.usage("--scale " + typed + ": must be greater than 0 and at most 100000");
        if (sf >= 1 && sf != Math.rint(sf)) {
            throw KenshoException.usage("--scale " + typed + ": a scale factor of 1 or more must be a whole number (dbgen truncates it: "
                    + "-s " + typed + " generates the data of SF " + (long) sf + ")");
        }
    }

    /**
     * What kensho_ssb_meta says.
     *
     * @param present  a marker table exists
     * @param complete the last load finished (keys and ANALYZE included)
     * @param tables   tables Kensho created in this schema
     * @param keys     lineorder has its primary key (a load without --no-keys)
     * @param missing  of the five SSB tables, those no longer there (dropped since the load)
     * @param replaced of the tables listed, those there now that are not the ones Kensho created (a user dropped one and
     *                 made a table of that name): never dropped nor measured
     */
    public record Status(boolean present, double scale, String generatorVersion, boolean complete, Instant loadedAt,
                         List<String> tables, boolean keys, List<String> missing, List<String> replaced) {
        public Status(boolean present, double scale, String generatorVersion, boolean complete, Instant loadedAt, List<String> tables) {
            this(present, scale, generatorVersion, complete, loadedAt, tables, false, List.of(), List.of());
        }

        /** Loaded, complete and whole, at this scale by this generator: a run may use it as is (keys aside, see below). */
        public boolean usable(double sf) {
            return present && complete && missing.isEmpty() && replaced.isEmpty() && scale == sf && GENERATOR_VERSION.equals(generatorVersion);
        }

        /** {@link #usable(double)}, and with the primary keys exactly when asked for: --no-keys on keyed tables measured index plans. */
        public boolean usable(LoadOptions opts) {
            return usable(opts.scale()) && keys == opts.keys();
        }

        /** What makes these data other than opts asks for, for the refusal: "this run asks for SF 1 (-s)". */
        String difference(LoadOptions opts) {
            List<String> d = new ArrayList<>();
            if (!missing.isEmpty()) d.add("its table" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                    + (missing.size() == 1 ? " is" : " are") + " gone (dropped since the load)");
            if (!replaced.isEmpty()) d.add(String.join(", ", replaced) + (replaced.size() == 1 ? " is a table" : " are tables")
                    + " Kensho did not create (dropped and made anew since the load), which it neither measures nor drops");
            if (scale != opts.scale()) d.add("this run asks for SF " + fmt(opts.scale()) + " (-s)");
            if (!GENERATOR_VERSION.equals(generatorVersion)) d.add("this Kensho generates " + GENERATOR_VERSION);
            if (keys != opts.keys()) d.add(keys ? "it has the primary keys and --no-keys asks for none"
                    : "it was loaded with --no-keys and this run asks for the primary keys (without --no-keys)");
            return String.join("; ", d);
        }

        public String describe() {
            if (!present) return "no SSB data loaded by Kensho";
            return "SSB SF " + fmt(scale) + (complete ? "" : " (incomplete load)") + (keys ? "" : " without primary keys")
                    + " generated by " + generatorVersion + (loadedAt == null ? "" : ", loaded " + loadedAt);
        }
    }

    /**
     * How to load.
     *
     * @param scale  dbgen's -s
     * @param jobs   parallel COPY connections (and generator threads)
     * @param keys   add the primary keys of keys.sql after the COPY
     * @param reload  replace data Kensho loaded before (never other tables)
     * @param analyze VACUUM (ANALYZE) after loading (off only to time the bare load against other tools)
     */
    public record LoadOptions(double scale, int jobs, boolean keys, boolean reload, boolean analyze) {
        /**
         * The command line's options as this record's components: a harness that wrote LoadOptions.of(0) is told of its
         * scale, not of a --scale it never typed. bench ssb turns them back.
         */
        public static final Map<String, String> COMPONENT_NAMES = Map.of("--scale", "LoadOptions scale", "--jobs", "LoadOptions jobs");

        public LoadOptions {
            try {
                if (jobs < 1) throw KenshoException.usage("--jobs must be at least 1, got " + jobs);
                checkScale(scale);
            } catch (KenshoException e) {
                throw e.naming(COMPONENT_NAMES);
            }
        }

        public LoadOptions(double scale, int jobs, boolean keys, boolean reload) {
            this(scale, jobs, keys, reload, true);
        }

        public static LoadOptions of(double scale) {
            return new LoadOptions(scale, Runtime.getRuntime().availableProcessors(), true, false);
        }
    }

    /**
     * What a load took. generateCpuSeconds is the client CPU time of the generator threads (generation
     * overlaps the COPY, whose wall time is copySeconds). serverSettings: the server settings that shape a
     * load's speed as the load saw them (the COPY sessions add synchronous_commit=off).
     */
    public record LoadReport(double scale, int jobs, long rows, Map<String, Long> tableRows, double generateCpuSeconds,
                             double copySeconds, double keysSeconds, double analyzeSeconds, double totalSeconds,
                             Map<String, String> serverSettings) {
        public double rowsPerSecond() {
            return copySeconds > 0 ? rows / copySeconds : 0;
        }

        public Map<String, Number> metrics() {
            Map<String, Number> m = new LinkedHashMap<>();
            m.put("rows", rows);
            m.put("generate_cpu_seconds", generateCpuSeconds);
            m.put("copy_seconds", copySeconds);
            m.put("index_seconds", keysSeconds);
            m.put("analyze_seconds", analyzeSeconds);
            m.put("total_seconds", totalSeconds);
            m.put("rows_per_second", rowsPerSecond());
            return m;
        }
    }

    /** @param schema where the tables live (null: public) */
    public SsbDatabase(Target target, String schema) {
        checkSchema(schema);
        this.target = target;
        this.schema = schema == null ? "public" : schema;
    }

    /**
     * --schema "" loaded into public and recorded "" as the schema: refused, as a name PostgreSQL cannot have. So is one
     * longer than the server keeps (63 bytes): it loaded under the cut name, and the next run, asking for the whole
     * one, found none and failed on the cut one ("already exists").
     */
    static void checkSchema(String schema) {
        if (schema != null && schema.isBlank()) throw KenshoException.usage("--schema must name a schema (default public)");
        int bytes = schema == null ? 0 : schema.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_IDENTIFIER_BYTES) {
            throw KenshoException.usage("--schema " + schema + ": " + bytes + " bytes, and PostgreSQL keeps " + MAX_IDENTIFIER_BYTES
                    + " of a name (it would cut this one): give a shorter one");
        }
    }

    /** NAMEDATALEN - 1 of a stock build. */
    static final int MAX_IDENTIFIER_BYTES = 63;

    /** The server the tables are on. */
    public Target target() {
        return target;
    }

    /** The schema the tables are in. */
    public String schema() {
        return schema;
    }

    /** A connection whose search_path is this schema (the queries name tables unqualified). */
    public Connection connect() throws SQLException {
        Connection c = target.connect();
        try (Statement s = c.createStatement()) {
            // public stays on the path for extensions such as pg_prewarm
            s.execute("SET search_path TO " + ident(schema) + (schema.equals("public") ? "" : ", public"));
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** What kensho_ssb_meta in the schema says: whether Kensho loaded SSB data there, at which scale, and whether whole. */
    public Status status() {
        try (Connection c = connect()) {
            return status(c);
        } catch (SQLException e) {
            throw KenshoException.target("cannot read " + META + " in schema " + schema + ": " + KenshoException.firstLine(e), e);
        }
    }

    private Status status(Connection c) throws SQLException {
        if (!exists(c, META)) return new Status(false, 0, null, false, null, List.of());
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT scale, generator_version, complete, loaded_at, tables FROM " + own(META))) {
            if (!rs.next()) return new Status(true, 0, null, false, null, List.of());
            java.sql.Timestamp at = rs.getTimestamp(4);
            Array a = rs.getArray(5);
            List<String> tables = a == null ? List.of() : List.of((String[]) a.getArray());
            List<String> missing = new ArrayList<>();
            for (String t : TABLES) if (!exists(c, t)) missing.add(t);
            Map<String, Long> created = createdOids(c);
            List<String> replaced = new ArrayList<>();
            for (String t : tables) {
                Long now = oid(c, t);
                if (now != null && !(created != null ? now.equals(created.get(t)) : hasKenshoColumns(c, t))) replaced.add(t);
            }
            return new Status(true, rs.getDouble(1), rs.getString(2), rs.getBoolean(3), at == null ? null : at.toInstant(), tables,
                    !missing.contains("lineorder") && !replaced.contains("lineorder") && hasPrimaryKey(c, "lineorder"), missing, replaced);
        }
    }

    /**
     * The OIDs Kensho's loads recorded per table it created; null for a marker from before they were recorded. A name
     * alone was taken for Kensho's table: a user's table made under it after dropping Kensho's was dropped by --reload.
     */
    private Map<String, Long> createdOids(Connection c) throws SQLException {
        if (!hasColumn(c, META, "table_oids")) return null;
        Map<String, Long> m = new LinkedHashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT t, o FROM " + own(META) + ", unnest(tables, table_oids) AS u(t, o)")) {
            while (rs.next()) if (rs.getObject(2) != null) m.put(rs.getString(1), rs.getLong(2));
        }
        return m;
    }

    /**
     * For a marker from before OIDs were recorded: whether the table has the columns Kensho's DDL gives it, in order. A
     * user's table of another shape is then not taken for Kensho's.
     */
    private boolean hasKenshoColumns(Connection c, String table) throws SQLException {
        List<String> expected = KENSHO_COLUMNS.get(VARIANTS.containsKey(table) ? "lineorder" : table);
        List<String> actual = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT attname FROM pg_attribute WHERE attrelid = ?::regclass "
                + "AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            ps.setString(1, own(table));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) actual.add(rs.getString(1));
            }
        }
        return actual.equals(expected);
    }

    /** Each SSB table's columns as schema.sql creates them. */
    private static final Map<String, List<String>> KENSHO_COLUMNS = kenshoColumns();

    private static Map<String, List<String>> kenshoColumns() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (String ddl : statements(SsbQuery.resource("schema.sql"))) {
            String table = ddl.replaceFirst("(?s)^CREATE TABLE \"?([a-z_]+)\"?.*", "$1");
            List<String> cols = new ArrayList<>();
            java.util.regex.Matcher col = java.util.regex.Pattern.compile("(?m)^\\s+([a-z_0-9]+)\\s").matcher(ddl);
            while (col.find()) cols.add(col.group(1));
            m.put(table, List.copyOf(cols));
        }
        return m;
    }

    private Long oid(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT r.oid FROM pg_class r JOIN pg_namespace n ON n.oid = r.relnamespace "
                + "WHERE n.nspname = ? AND r.relname = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    private boolean hasColumn(Connection c, String table, String column) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_attribute WHERE attrelid = ?::regclass "
                + "AND attname = ? AND NOT attisdropped")) {
            ps.setString(1, own(table));
            ps.setString(2, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Loads the SSB at opts.scale: schema, parallel COPY from the generator, keys, VACUUM (ANALYZE).
     * Refuses when SSB data are already loaded (unless reload) and when a same-named table exists
     * that Kensho did not create.
     *
     * @param progress where the progress bar goes (stderr), or null for none
     */
    public LoadReport load(LoadOptions opts, PrintStream progress) {
        long t0 = System.nanoTime();
        // the COPY connections open while this one creates the tables: no serial step before the first row
        CopyJobs copy = new CopyJobs(this, opts.scale(), opts.jobs(), progress == null ? null : new Progress(progress)).start();
        try (Connection c = connect()) {
            try (Statement s = c.createStatement()) {
                // no WAL flush per DDL commit; a crash loses a suffix of them in order, so marker and tables stay consistent
                s.execute("SET synchronous_commit = off");
            }
            try {
                // one load per schema at a time: two at once dropped each other's tables mid-COPY, left a marker of two
                // rows or of one table, and (through the search_path, before the names were qualified) wrote into public's
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(hashtext('kensho ssb load'), hashtext(?))")) {
                    ps.setString(1, schema);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (!rs.getBoolean(1)) {
                            throw KenshoException.usage("another process is loading SSB data into schema " + schema + " of "
                                    + target.describe() + ": wait for it to finish, or load into another schema");
                        }
                    }
                }
                boolean createdSchema = ensureSchema(c);
                Status st = status(c);
                // refused before anything is dropped (a refused --reload had dropped Kensho's own tables first), and before the
                // advice to --reload, which this refusal would then meet
                List<String> foreign = new ArrayList<>();
                for (String t : allNames()) {
                    if (exists(c, t) && !(st.present && st.tables.contains(t) && !st.replaced.contains(t))) foreign.add(t);
                }
                if (!foreign.isEmpty()) {
                    throw KenshoException.usage("table(s) " + String.join(", ", foreign) + " already exist in schema " + schema
                            + " and were not created by Kensho; Kensho never drops them: load into another schema or database");
                }
                if (st.present && st.complete && !opts.reload()) {
                    String difference = st.difference(opts);
                    throw KenshoException.usage(st.describe() + " is already in schema " + schema + " of " + target.describe()
                            + (difference.isEmpty() ? "" : "; " + difference) + ": use --reload to replace it");
                }
                refuseWithoutRoom(c, opts, st);
                dropOwn(c, st);
                createMeta(c, opts.scale(), createdSchema);
                for (String ddl : statements(SsbQuery.resource("schema.sql"))) {
                    String table = ddl.replaceFirst("(?s)^CREATE TABLE \"?([a-z_]+)\"?.*", "$1");
                    // quoted as a replacement: a '$' in a schema's name (legal in PostgreSQL) was read as a group reference
                    createOwned(c, table, ddl.replaceFirst("^CREATE TABLE \"?[a-z_]+\"?", java.util.regex.Matcher.quoteReplacement("CREATE TABLE " + own(table))));
                }
            } catch (SQLException e) {
                throw KenshoException.target("cannot create the SSB schema in " + schema + ": " + KenshoException.firstLine(e), e);
            }

            Map<String, String> settings = loadSettings(c);
            CopyJobs.Result copied = copy.run();

            double keys = 0;
            if (opts.keys()) {
                long k0 = System.nanoTime();
                // qualified: ALTER TABLE part of a schema whose part is gone went on to public's part, through the search_path
                parallel(opts.jobs(), statements(SsbQuery.resource("keys.sql")).stream()
                        .map(k -> k.replaceFirst("^ALTER TABLE\\s+\"?([a-z_]+)\"?", "ALTER TABLE " + java.util.regex.Matcher.quoteReplacement(ident(schema)) + ".\"$1\"")).toList());
                keys = (System.nanoTime() - k0) / 1e9;
            }
            long a0 = System.nanoTime();
            List<String> vacuums = new ArrayList<>();
            // VACUUM too: it sets hint bits and the visibility map once, instead of the first measured query doing it
            for (String t : List.of("lineorder", "part", "customer", "supplier", "date")) vacuums.add("VACUUM (ANALYZE) " + own(t));
            if (opts.analyze()) parallel(opts.jobs(), vacuums);
            double analyze = (System.nanoTime() - a0) / 1e9;
            try (Statement s = c.createStatement()) {
                s.execute("SET synchronous_commit = on"); // the load is complete once this says so
                s.executeUpdate("UPDATE " + own(META) + " SET complete = true, loaded_at = now()");
            } catch (SQLException e) {
                throw KenshoException.target("cannot update " + META + ": " + KenshoException.firstLine(e), e);
            }
            return new LoadReport(opts.scale(), opts.jobs(), copied.rows(), copied.tableRows(), copied.generateCpuSeconds(),
                    copied.seconds(), keys, analyze, (System.nanoTime() - t0) / 1e9, settings);
        } catch (SQLException e) {
            throw KenshoException.target("cannot connect to " + target.describe() + ": " + KenshoException.firstLine(e), e);
        } catch (KenshoException e) {
            throw withDiskSaid(e, target);
        } finally {
            copy.close();
        }
    }

    /**
     * A load that filled the disk anyway (the estimate is one; other files grew meanwhile) said only the server's "No
     * space left on device": which disk, and the way out, where Kensho manages the server.
     */
    static KenshoException withDiskSaid(KenshoException e, Target target) {
        if (e.getMessage() == null || !e.getMessage().contains("No space left on device") || !target.kind().managed()) return e;
        java.util.Optional<java.nio.file.Path> data = target.control().dataDirectory();
        if (data.isEmpty()) return e;
        String free;
        try {
            free = gib(java.nio.file.Files.getFileStore(data.get()).getUsableSpace());
        } catch (java.io.IOException io) {
            return e;
        }
        return new KenshoException(e.exitCode(), e.getMessage() + " (the disk of " + data.get() + " is full, " + free + " free now: "
                + roomRemedy(data.get()) + ")", e.getCause());
    }

    /** The way out of a disk too small for a load, for the data directory it would go to. */
    private static String roomRemedy(java.nio.file.Path data) {
        return "free some space, use a smaller --scale, or " + (data.startsWith(dev.kensho.core.server.KenshoHome.dir())
                ? "set KENSHO_HOME to a larger disk" : "keep the data on a larger disk");
    }

    /** Settings that decide how fast COPY can go, as this session sees them. */
    private static Map<String, String> loadSettings(Connection c) throws SQLException {
        Map<String, String> m = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name, current_setting(name) FROM pg_settings "
                + "WHERE name IN ('wal_level', 'max_wal_senders', 'fsync', 'full_page_writes', 'wal_buffers', 'max_wal_size', "
                + "'shared_buffers', 'checkpoint_timeout', 'autovacuum', 'wal_compression') ORDER BY name")) {
            while (rs.next()) m.put(rs.getString(1), rs.getString(2));
        }
        m.put("synchronous_commit (COPY sessions)", "off");
        return m;
    }

    /**
     * Creates the JIT study's lineorder_n / lineorder_r / lineorder_d when missing (CREATE TABLE AS,
     * lo_extendedprice cast), listed in kensho_ssb_meta so --reload removes them.
     */
    public void ensureVariant(String name) {
        String type = VARIANTS.get(name);
        if (type == null) throw new IllegalArgumentException("unknown lineorder variant " + name);
        try (Connection c = connect()) {
            Status st = status(c);
            if (!st.present || !st.tables.contains("lineorder")) {
                throw KenshoException.usage("no SSB data loaded by Kensho in schema " + schema + ": run bench ssb load first");
            }
            if (st.tables.contains(name) && exists(c, name) && !st.replaced.contains(name)) return;
            if (exists(c, name)) {
                throw KenshoException.usage("table " + name + " exists in schema " + schema + " but was not created by Kensho");
            }
            List<String> cols = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT attname FROM pg_attribute WHERE attrelid = ?::regclass "
                    + "AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
                ps.setString(1, own("lineorder"));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String col = rs.getString(1);
                        cols.add(col.equals("lo_extendedprice") ? "lo_extendedprice::" + type + " AS lo_extendedprice" : col);
                    }
                }
            }
            createOwned(c, name, "CREATE TABLE " + own(name) + " AS SELECT " + String.join(", ", cols) + " FROM " + own("lineorder"));
            try (Statement s = c.createStatement()) {
                s.execute("VACUUM (ANALYZE) " + own(name));
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot create " + name + ": " + KenshoException.firstLine(e), e);
        }
    }

    /**
     * Drops every table Kensho created in this schema, its marker, and the schema when Kensho created it and it is now
     * empty; returns the tables that were there to drop (one a user dropped meanwhile is not among them).
     */
    public List<String> drop() {
        try (Connection c = connect()) {
            Status st = status(c);
            if (!st.present) return List.of();
            boolean ownSchema = schemaCreated(c);
            List<String> dropped = new ArrayList<>();
            for (String t : st.tables) if (exists(c, t) && !st.replaced.contains(t)) dropped.add(t);
            dropOwn(c, st);
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + own(META));
                if (ownSchema && !schema.equals("public")) {
                    try {
                        s.execute("DROP SCHEMA " + ident(schema)); // no CASCADE: fails unless empty, and then stays
                    } catch (SQLException notEmpty) {
                        // other objects live there: not Kensho's to remove
                    }
                }
            }
            return dropped;
        } catch (SQLException e) {
            throw KenshoException.target("cannot drop the SSB tables in " + schema + ": " + KenshoException.firstLine(e), e);
        }
    }

    /** False once {@link #prewarm} found that pg_prewarm cannot be had here: a caller prewarming on its own skips it too. */
    public boolean canPrewarm() {
        return noPrewarm == null;
    }

    /**
     * Loads the given tables with their indexes and TOAST into shared buffers, but only those Kensho created here
     * (listed in kensho_ssb_meta): other tables of the schema are not Kensho's to read or to evict buffers for.
     * Creates pg_prewarm (in public) when the database lacks it, and says so on err and as a note in dir. Where the
     * role may not create it (only a superuser may) or the server lacks it, nothing is prewarmed: said once, on err and
     * in dir's notes, and the run goes on ({@link #canPrewarm} says so from then on).
     *
     * @param dir the run to note the extension in, or null
     * @return what was read; no relation where pg_prewarm cannot be had
     */
    public Prewarm.Result prewarm(List<String> tables, PrintStream err, RunDirectory dir) {
        if (noPrewarm != null) return new Prewarm.Result(0, 0, false);
        try (Connection c = connect()) {
            // without the database's, role's or --matrix's timeouts, which are the queries' (see OwnStatements): with
            // --jit-above-cost 0 even the catalog question compiles, past a 60 ms statement_timeout
            List<String> mine = new java.util.ArrayList<>();
            Prewarm.Result r = dev.kensho.core.server.OwnStatements.run(c, own -> {
                mine.addAll(tables.stream().filter(status(c).tables::contains).toList());
                return Prewarm.tables(c, mine.stream().map(this::own).toList());
            });
            if (r.createdExtension()) {
                String note = "created extension pg_prewarm in schema public of database " + target.database()
                        + " to prewarm the SSB tables (DROP EXTENSION pg_prewarm removes it)";
                err.println("ssb: " + note);
                if (dir != null) dir.note(note);
            }
            err.printf(Locale.ROOT, "ssb: prewarmed %s with their indexes: %d relations (%,d blocks)%n", String.join(", ", mine),
                    r.relations(), r.blocks());
            String cold = r.partlyCold("the prewarmed SSB tables and indexes");
            if (cold != null) {
                err.println("ssb: warning: " + cold);
                if (dir != null) dir.noteOnce(cold);
            }
            return r;
        } catch (SQLException e) {
            // the run goes on unprewarmed; on a standby, the primary's pg_prewarm replicates here
            if (Prewarm.cannotBeHad(e)) {
                noPrewarm = KenshoException.firstLine(e) + ("25006".equals(e.getSQLState())
                        ? " (on a standby, CREATE EXTENSION pg_prewarm on its primary, whence it replicates)" : "");
                String note = "the SSB tables are not prewarmed (what a run reads comes from the OS cache or disk until it is in shared buffers): "
                        + noPrewarm;
                err.println("ssb: " + note);
                if (dir != null) dir.noteOnce(note);
                return new Prewarm.Result(0, 0, false);
            }
            throw KenshoException.target("pg_prewarm failed: " + KenshoException.firstLine(e), e);
        }
    }

    /** Runs each statement on its own connection, up to jobs at a time. */
    void parallel(int jobs, List<String> sqls) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, sqls.size())));
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (String sql : sqls) {
                fs.add(pool.submit(() -> {
                    try (Connection c = connect(); Statement s = c.createStatement()) {
                        s.execute(sql);
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KenshoException(KenshoException.FAILURE, "interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof KenshoException ke) throw ke;
            throw KenshoException.target(cause instanceof SQLException se ? KenshoException.firstLine(se) : String.valueOf(cause), cause);
        } finally {
            pool.shutdownNow();
        }
    }

    /** True when this call created the schema (then drop() may remove it again). */
    private boolean ensureSchema(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) return false;
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + ident(schema));
        }
        return true;
    }

    private void createMeta(Connection c, double scale, boolean createdSchema) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!exists(c, META)) {
                s.execute("CREATE TABLE " + own(META) + " (scale double precision NOT NULL, generator_version text NOT NULL, "
                        + "loaded_at timestamptz, complete boolean NOT NULL DEFAULT false, tables text[] NOT NULL DEFAULT '{}', "
                        + "schema_created boolean NOT NULL DEFAULT false, table_oids oid[] NOT NULL DEFAULT '{}')");
            }
            createdSchema |= schemaCreated(c);
            s.execute("ALTER TABLE " + own(META) + " ADD COLUMN IF NOT EXISTS schema_created boolean NOT NULL DEFAULT false");
            s.execute("ALTER TABLE " + own(META) + " ADD COLUMN IF NOT EXISTS table_oids oid[] NOT NULL DEFAULT '{}'");
            s.execute("DELETE FROM " + own(META));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + own(META)
                + " (scale, generator_version, schema_created) VALUES (?, ?, ?)")) {
            ps.setDouble(1, scale);
            ps.setString(2, GENERATOR_VERSION);
            ps.setBoolean(3, createdSchema);
            ps.executeUpdate();
        }
    }

    /** Whether Kensho created this schema (recorded by the first load into it). */
    private boolean schemaCreated(Connection c) throws SQLException {
        if (!exists(c, META)) return false;
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_attribute WHERE attrelid = ?::regclass "
                + "AND attname = 'schema_created' AND NOT attisdropped")) {
            ps.setString(1, own(META));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return false; // a marker from before the column existed
            }
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT bool_or(schema_created) FROM " + own(META))) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** CREATE and the marker update commit together, so the marker never misses a table Kensho made. */
    private void createOwned(Connection c, String table, String ddl) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute(ddl);
            // its OID beside its name: a table made under that name later is not Kensho's (see createdOids)
            s.executeUpdate("UPDATE " + own(META) + " SET tables = array_append(tables, " + literal(table) + "), "
                    + "table_oids = array_append(table_oids, to_regclass(" + literal(own(table)) + ")::oid)");
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /**
     * What a load takes on disk per scale factor: SF 1 is 887 MB of tables and keys (loaded with the keys; 80 % of it
     * without) and 641 MB of WAL written meanwhile, which the server keeps, up to about max_wal_size.
     */
    static final long DATA_BYTES_PER_SF = 900L << 20, WAL_BYTES_PER_SF = 650L << 20;

    /**
     * A load into a managed server's data directory (the embedded default and its SSB cache) that the disk has no room
     * for is refused before anything is dropped: it ran half a minute, then failed with "No space left on device" and
     * left the disk full. The tables Kensho would drop first count as room.
     */
    private void refuseWithoutRoom(Connection c, LoadOptions opts, Status st) throws SQLException {
        java.util.Optional<java.nio.file.Path> data = target.kind().managed() ? target.control().dataDirectory() : java.util.Optional.empty();
        if (data.isEmpty()) return;
        long free;
        try {
            free = java.nio.file.Files.getFileStore(data.get()).getUsableSpace();
        } catch (java.io.IOException e) {
            return;   // unknown: the server's own error says it if the disk fills
        }
        long maxWal;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_size_bytes(current_setting('max_wal_size'))")) {
            rs.next();
            maxWal = rs.getLong(1);
        }
        double data0 = DATA_BYTES_PER_SF * opts.scale() * (opts.keys() ? 1 : 0.8);
        double need = data0 + Math.min(WAL_BYTES_PER_SF * opts.scale(), maxWal + (256L << 20)) + (64L << 20);
        long have = 0;
        if (st.present) {
            for (String t : st.tables) {
                if (st.replaced.contains(t)) continue;
                try (PreparedStatement ps = c.prepareStatement("SELECT coalesce(pg_total_relation_size(to_regclass(?)), 0)")) {
                    ps.setString(1, own(t));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        have += rs.getLong(1);
                    }
                }
            }
        }
        if (need > free + have) {
            throw KenshoException.usage(String.format(Locale.ROOT, "--scale %s: the SSB tables and the WAL of their load take about %s, "
                    + "and %s has %s free%s: %s", fmt(opts.scale()), gib(need), data.get(),
                    gib(free), have > 0 ? " (and " + gib(have) + " in Kensho's tables there now)" : "", roomRemedy(data.get())));
        }
    }

    private static String gib(double bytes) {
        return bytes >= 1 << 30 ? String.format(Locale.ROOT, "%.1f GB", bytes / (1 << 30)) : Math.round(bytes / (1 << 20)) + " MB";
    }

    /** Drops the tables Kensho created; one replaced since by a user's of the same name is only struck off the list. */
    private void dropOwn(Connection c, Status st) throws SQLException {
        if (!st.present) return;
        Map<String, Long> oids = createdOids(c);
        List<String> left = new ArrayList<>(st.tables);
        try (Statement s = c.createStatement()) {
            for (String t : st.tables) {
                if (!st.replaced.contains(t)) s.execute("DROP TABLE IF EXISTS " + own(t));
                left.remove(t);
                // name and OID struck off together, as each is dropped: a crash half-way leaves the list true
                try (PreparedStatement ps = c.prepareStatement("UPDATE " + own(META) + " SET tables = ?"
                        + (oids == null ? "" : ", table_oids = ?::bigint[]::oid[]"))) {
                    ps.setArray(1, c.createArrayOf("text", left.toArray()));
                    if (oids != null) ps.setArray(2, c.createArrayOf("int8", left.stream().map(x -> oids.getOrDefault(x, 0L)).toArray()));
                    ps.executeUpdate();
                }
            }
        }
    }

    /**
     * A table of the schema, qualified: the search_path is "schema, public", so an unqualified name of a table the
     * schema lacks (one a user dropped) would reach public's table of that name, the user's.
     */
    private String own(String table) {
        return ident(schema) + "." + ident(table);
    }

    private List<String> allNames() {
        List<String> l = new ArrayList<>(TABLES);
        l.addAll(VARIANTS.keySet());
        return l;
    }

    private boolean hasPrimaryKey(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_index i JOIN pg_class r ON r.oid = i.indrelid "
                + "JOIN pg_namespace n ON n.oid = r.relnamespace WHERE n.nspname = ? AND r.relname = ? AND i.indisprimary")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    boolean exists(Connection c, String table) throws SQLException {
        return oid(c, table) != null;
    }

    /** Exact row counts (count(*)) of the five tables. */
    public Map<String, Long> rowCounts() {
        Map<String, Long> m = new LinkedHashMap<>();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String t : TABLES) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + own(t))) {
                    rs.next();
                    m.put(t, rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot count rows: " + KenshoException.firstLine(e), e);
        }
        return m;
    }

    /** The relation of a generator table in this schema, for COPY: qualified, never public's of that name. */
    public String tableOf(SsbTable t) {
        return own(t.tableName());
    }

    static List<String> statements(String text) {
        List<String> out = new ArrayList<>();
        for (String part : SsbQuery.statement(text).split(";")) {
            String s = SsbQuery.statement(part);
            if (!s.isBlank()) out.add(s);
        }
        return out;
    }

    public static String ident(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    static String literal(String s) {
        return dev.kensho.core.server.SqlIdentifier.literal(s);
    }

    /**
     * Said once per run below SF 1, where dbgen shrinks the date table with the rest (255 days at SF 0.1): a query
     * whose dates lie after its last day finds no date to join, and a hash join with an empty side ends without
     * reading lineorder, so its time (a few tenths of a millisecond) measures nothing the study measured. Null from SF 1.
     */
    public static String smallScaleWarning(double scale) {
        if (scale >= 1) return null;
        long days = new dev.kensho.ssb.gen.SsbGenerator(scale).units(dev.kensho.ssb.gen.SsbTable.DATE);
        long all = new dev.kensho.ssb.gen.SsbGenerator(1).units(dev.kensho.ssb.gen.SsbTable.DATE);
        java.time.LocalDate last = java.time.LocalDate.of(1992, 1, 1).plusDays(Math.max(0, days - 1));
        return "at SF " + fmt(scale) + " dbgen's date table holds " + days + " of its " + all + " days (1992-01-01 to " + last
                + "): a query whose dates lie later joins no date and ends without reading lineorder, so its time measures "
                + "almost nothing; SF 1 or more times every query";
    }

    static String fmt(double d) {
        // plain digits: SF 0.00001 printed as 1.0E-5, in the cache directory's name too
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
