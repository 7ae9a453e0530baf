package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.ssb.gen.SsbGenerator;
import dev.kensho.ssb.gen.SsbTable;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Loads SF 0.1 into a schema of the test target and checks rows, keys, marker and the refusals. */
@KenshoTarget
class SsbLoadTest {
    private static final double SF = 0.1;

    @Test
    void loadsEveryRowWithKeysAndRefusesTwiceAndForeignTables(Target pg) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_load_test");
        db.drop();
        try {
            SsbDatabase.LoadReport r = db.load(new SsbDatabase.LoadOptions(SF, 2, true, false), System.err);
            SsbGenerator gen = new SsbGenerator(SF);
            Map<String, Long> counts = db.rowCounts();
            for (SsbTable t : SsbTable.values()) {
                assertEquals(gen.rowCount(t), counts.get(t.tableName()), t.tableName());
                assertEquals(gen.rowCount(t), r.tableRows().get(t.tableName()), t.tableName());
            }
            assertTrue(db.status().usable(SF));
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                // keys exist, values survived COPY as dbgen wrote them
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_constraint WHERE contype = 'p' "
                        + "AND connamespace = 'kensho_ssb_load_test'::regnamespace")) {
                    rs.next();
                    assertEquals(5, rs.getInt(1));
                }
                try (ResultSet rs = s.executeQuery("SELECT sum(lo_revenue::bigint), min(d_datekey) FROM lineorder, \"date\" WHERE lo_orderdate = d_datekey")) {
                    rs.next();
                    assertTrue(rs.getLong(1) > 0);
                    assertEquals(19920101, rs.getInt(2));
                }
            }
            KenshoException twice = assertThrows(KenshoException.class,
                    () -> db.load(new SsbDatabase.LoadOptions(SF, 2, false, false), null));
            assertTrue(twice.getMessage().contains("--reload"), twice.getMessage());
            // the COPY connections opened ahead of the refused load are closed, none left idle
            assertEquals(0, idleCopySessions(pg), "COPY connections of the refused load still open");
            assertEquals("off", r.serverSettings().get("synchronous_commit (COPY sessions)"));
            assertTrue(r.serverSettings().containsKey("wal_level"), r.serverSettings().toString());

            db.ensureVariant("lineorder_r");
            try (Connection c = db.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                         + "WHERE attrelid = 'lineorder_r'::regclass AND attname = 'lo_extendedprice'")) {
                rs.next();
                assertEquals("real", rs.getString(1));
            }
            assertTrue(db.status().tables().contains("lineorder_r"));
        } finally {
            db.drop();
        }
        assertFalse(db.status().present());
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = 'kensho_ssb_load_test'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "the schema Kensho created is gone with its tables");
        }
    }

    /**
     * Two loads into one schema at once dropped each other's tables mid-COPY and, through the search_path, wrote into
     * public's: a second is refused while the first holds the schema's load lock, and nothing of the schema is touched.
     */
    @Test
    void aSecondLoadIntoTheSameSchemaIsRefusedWhileOneRuns(Target pg) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_lock_test");
        db.drop();
        try (Connection other = pg.connect(); Statement s = other.createStatement()) {
            s.execute("SELECT pg_advisory_lock(hashtext('kensho ssb load'), hashtext('kensho_ssb_lock_test'))");   // the first load
            KenshoException e = assertThrows(KenshoException.class, () -> db.load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("another process is loading SSB data into schema kensho_ssb_lock_test of "), e.getMessage());
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = 'kensho_ssb_lock_test'")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "not even the schema was made");
            }
            s.execute("SELECT pg_advisory_unlock(hashtext('kensho ssb load'), hashtext('kensho_ssb_lock_test'))");
            db.load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null);   // the first is done: this one loads
            assertEquals(List.of(), db.status().missing());
        } finally {
            db.drop();
        }
    }

    /** A scale factor in plain digits, in messages and the cache directory's name: 0.00001 was 1.0E-5. */
    @Test
    void scaleFactorsArePlainDigits() {
        assertEquals("0.00001", SsbDatabase.fmt(1e-5));
        assertEquals("0.1", SsbDatabase.fmt(0.1));
        assertEquals("10", SsbDatabase.fmt(10));
        assertEquals("1", SsbDatabase.fmt(1));
    }

    @Test
    void fractionalScaleFactorsFromOneUpAreRefusedAsDbgenWouldTruncateThem() {
        for (double sf : new double[] {1.5, 2.25, 10.001}) {
            KenshoException e = assertThrows(KenshoException.class, () -> new SsbDatabase.LoadOptions(sf, 1, false, false));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("LoadOptions scale " + sf + ": ") && e.getMessage().contains("dbgen truncates"), e.getMessage());
            assertTrue(e.getMessage().contains("data of SF " + (long) sf), e.getMessage());
        }
        // a harness typed no option: the errors name the record's components
        assertEquals("LoadOptions scale 0: must be greater than 0 and at most 100000",
                assertThrows(KenshoException.class, () -> SsbDatabase.LoadOptions.of(0)).getMessage());
        assertEquals("LoadOptions jobs must be at least 1, got 0",
                assertThrows(KenshoException.class, () -> new SsbDatabase.LoadOptions(0.01, 0, true, false)).getMessage());
        // below 1 dbgen scales by the fraction, and whole numbers are taken as given
        for (double sf : new double[] {0.01, 0.5, 1, 2, 100}) new SsbDatabase.LoadOptions(sf, 1, false, false);
        for (double sf : new double[] {0, -1, 100_001, Double.NaN}) {
            KenshoException e = assertThrows(KenshoException.class, () -> SsbDatabase.checkScale(sf));
            assertEquals(KenshoException.USAGE, e.exitCode());
        }
    }

    /** Other sessions whose last statement was the COPY connections' first (the backend exits just after the client closes). */
    private static int idleCopySessions(Target pg) throws Exception {
        int n = -1;
        for (int i = 0; i < 200 && n != 0; i++) {   // 10 s: a loaded machine schedules the exiting backends late
            if (i > 0) Thread.sleep(50);
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                         + "AND datname = current_database() AND query = 'SET synchronous_commit = off'")) {
                rs.next();
                n = rs.getInt(1);
            }
        }
        return n;
    }

    /**
     * Kensho's tables in a schema, a user's of the same names in public (the rest of the search_path): once the user
     * dropped one of Kensho's, drop() and --reload went through to public and dropped the user's table.
     */
    @Test
    void aTableMissingFromKenshosSchemaNeverReachesPublicsOfTheSameName(Target pg) throws Exception {
        String name = "kensho_ssb_public_test_" + ProcessHandle.current().pid();
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        }
        try (Target remote = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + name).user(pg.user()).open()) {
            try (Connection c = remote.connect(); Statement s = c.createStatement()) {
                for (String t : List.of("part", "supplier", SsbDatabase.META)) s.execute("CREATE TABLE public." + t + " (precious int)");
                s.execute("INSERT INTO public.part VALUES (42)");
            }
            SsbDatabase db = new SsbDatabase(remote, "kensho_ssb_s2");
            SsbDatabase.LoadOptions opts = new SsbDatabase.LoadOptions(0.01, 1, false, false);
            db.load(opts, null);
            try (Connection c = remote.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE kensho_ssb_s2.part");
            }
            db.load(new SsbDatabase.LoadOptions(0.01, 1, false, true), null);   // --reload
            try (Connection c = remote.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE kensho_ssb_s2.supplier");
            }
            List<String> dropped = db.drop();
            assertTrue(!dropped.contains("supplier") && dropped.contains("lineorder"), dropped.toString());
            try (Connection c = remote.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT (SELECT precious FROM public.part), to_regclass('public.supplier') IS NOT NULL, "
                         + "to_regclass('public." + SsbDatabase.META + "') IS NOT NULL, to_regnamespace('kensho_ssb_s2') IS NULL")) {
                rs.next();
                assertEquals(42, rs.getInt(1), "the user's public.part");
                assertTrue(rs.getBoolean(2) && rs.getBoolean(3), "the user's public.supplier and public." + SsbDatabase.META);
                assertTrue(rs.getBoolean(4), "Kensho's own schema, empty, is gone");
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            }
        }
    }

    /**
     * Data Kensho loaded with the primary keys were used as they were by a --no-keys run (the JIT study's: its plans
     * then took the keys' index scans), and data a user since lost a table of by every run (pg_prewarm failed on the
     * missing table, exit 3); both are now refused in one line naming what differs, and --reload replaces them.
     */
    /** A '$' in a schema's name, legal in PostgreSQL, was read as a regular expression's group reference: a crash. */
    @Test
    void aSchemaWithADollarInItsNameLoads(Target pg) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_$1_test");
        db.drop();
        try {
            db.load(new SsbDatabase.LoadOptions(0.001, 1, true, false), null);
            assertTrue(db.status().complete());
        } finally {
            db.drop();
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS \"kensho_ssb_$1_test\"");
            }
        }
    }

    @Test
    void dataOfOtherKeysOrWithATableGoneAreRefusedNamingWhy(Target pg) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_keys_test");
        db.drop();
        PrintStream quiet = new PrintStream(java.io.OutputStream.nullOutputStream());
        SsbDatabase.LoadOptions withKeys = new SsbDatabase.LoadOptions(0.01, 1, true, false);
        SsbDatabase.LoadOptions noKeys = new SsbDatabase.LoadOptions(0.01, 1, false, false);
        try {
            db.load(withKeys, null);
            assertTrue(db.status().keys());
            assertNull(ParallelSweep.ensureLoaded(db, withKeys, null, "15", quiet), "the same data are used as they are");
            KenshoException e = assertThrows(KenshoException.class, () -> ParallelSweep.ensureLoaded(db, noKeys, null, "15", quiet));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains("it has the primary keys and --no-keys asks for none: use --reload"), e.getMessage());
            KenshoException scale = assertThrows(KenshoException.class, () -> ParallelSweep.ensureLoaded(db,
                    new SsbDatabase.LoadOptions(0.02, 1, true, false), null, "15", quiet));
            assertTrue(scale.getMessage().contains("SSB SF 0.01 generated by") && scale.getMessage().contains("this run asks for SF 0.02 (-s)"),
                    scale.getMessage());

            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.01, 1, false, true), null, "15", quiet);   // --reload
            assertFalse(db.status().keys());
            assertEquals(0, primaryKeys(pg, "kensho_ssb_keys_test"), "loaded without keys");
            KenshoException keys = assertThrows(KenshoException.class, () -> ParallelSweep.ensureLoaded(db, withKeys, null, "15", quiet));
            assertTrue(keys.getMessage().contains("without primary keys") && keys.getMessage().contains("loaded with --no-keys"),
                    keys.getMessage());

            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE kensho_ssb_keys_test.supplier");
            }
            assertEquals(List.of("supplier"), db.status().missing());
            KenshoException gone = assertThrows(KenshoException.class, () -> ParallelSweep.ensureLoaded(db, noKeys, null, "15", quiet));
            assertTrue(gone.getMessage().contains("its table supplier is gone (dropped since the load): use --reload"), gone.getMessage());
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.01, 1, false, true), null, "15", quiet);
            assertTrue(db.status().usable(noKeys), db.status().describe());
        } finally {
            db.drop();
        }
    }

    private static int primaryKeys(Target pg, String schema) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND connamespace = '" + schema + "'::regnamespace")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * A user who dropped a table Kensho loaded and made one of that name: it is not Kensho's, whatever the marker lists.
     * --reload and drop() dropped it, and a run measured it (0 rows for q2.1, exit 0).
     */
    @Test
    void aTableMadeUnderTheNameOfOneKenshoCreatedIsNeitherMeasuredNorDropped(Target pg) throws Exception {
        String schema = "kensho_ssb_replaced_test";
        SsbDatabase db = new SsbDatabase(pg, schema);
        db.drop();
        try {
            db.load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null);
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("SET search_path = " + schema);
                s.execute("DROP TABLE part");
                s.execute("CREATE TABLE part (p_partkey int, my_precious text)");
                s.execute("INSERT INTO part VALUES (1, 'user data')");
                // the same shape as Kensho's: only its identity tells it apart
                s.execute("ALTER TABLE lineorder RENAME TO my_lineorder_backup");
                s.execute("CREATE TABLE lineorder (LIKE my_lineorder_backup)");
                s.execute("INSERT INTO lineorder SELECT * FROM my_lineorder_backup LIMIT 10");
            }
            SsbDatabase.Status st = db.status();
            assertEquals(List.of("part", "lineorder"), st.replaced(), st.toString());
            assertFalse(st.usable(0.01), st.toString());
            assertTrue(st.difference(new SsbDatabase.LoadOptions(0.01, 1, false, false))
                    .contains("part, lineorder are tables Kensho did not create"), st.toString());
            KenshoException e = assertThrows(KenshoException.class, () -> db.load(new SsbDatabase.LoadOptions(0.01, 1, false, true), null));
            assertTrue(e.getMessage().contains("part, lineorder already exist") && e.getMessage().contains("not created by Kensho"), e.getMessage());
            // without --reload the same refusal: it advised "use --reload to replace it", which then met this one
            KenshoException plain = assertThrows(KenshoException.class, () -> db.load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null));
            assertEquals(e.getMessage(), plain.getMessage());
            // the refusal came before any drop: Kensho's other tables are still there and listed (a refused --reload had
            // dropped them and left a marker of a complete load without tables)
            assertEquals(List.of("part", "lineorder"), db.status().replaced());
            assertEquals(List.of("customer", "supplier", "date"), db.drop(), "Kensho's own tables; the user's are not its to drop");
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT (SELECT my_precious FROM " + schema + ".part), (SELECT count(*) FROM " + schema + ".lineorder)")) {
                rs.next();
                assertEquals("user data", rs.getString(1));
                assertEquals(10, rs.getLong(2));
            }
            // a marker from before the OIDs were kept: a table of another shape than Kensho's is not taken for its
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + schema + ".part, " + schema + ".lineorder, " + schema + ".my_lineorder_backup");
            }
            db.load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null);
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("SET search_path = " + schema);
                s.execute("ALTER TABLE kensho_ssb_meta DROP COLUMN table_oids");
                s.execute("DROP TABLE part");
                s.execute("CREATE TABLE part (p_partkey int, my_precious text)");
            }
            assertEquals(List.of("part"), db.status().replaced());
            assertEquals(List.of("customer", "supplier", "date", "lineorder"), db.drop());
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM " + schema + ".part")) {
                rs.next();
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");   // the test's own schema, whatever it holds
            }
        }
    }

    @Test
    void neverDropsATableKenshoDidNotCreate(Target pg) throws Exception {
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_foreign_test");
        db.drop();
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS kensho_ssb_foreign_test");
            s.execute("CREATE TABLE kensho_ssb_foreign_test.part (precious int)");
            s.execute("INSERT INTO kensho_ssb_foreign_test.part VALUES (42)");
        }
        try {
            KenshoException e = assertThrows(KenshoException.class,
                    () -> db.load(new SsbDatabase.LoadOptions(SF, 1, false, true), null));
            assertTrue(e.getMessage().contains("not created by Kensho"), e.getMessage());
            db.drop();
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT precious FROM kensho_ssb_foreign_test.part")) {
                rs.next();
                assertEquals(42, rs.getInt(1));
            }
            // a schema Kensho did not create outlives drop()
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE kensho_ssb_foreign_test.part");
            }
            db.load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null);
            db.drop();
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = 'kensho_ssb_foreign_test'")) {
                rs.next();
                assertEquals(1, rs.getInt(1));
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS kensho_ssb_foreign_test.part"); // the test's own table
                s.execute("DROP TABLE IF EXISTS kensho_ssb_foreign_test.kensho_ssb_meta");
                s.execute("DROP SCHEMA IF EXISTS kensho_ssb_foreign_test");
            }
        }
    }
}
