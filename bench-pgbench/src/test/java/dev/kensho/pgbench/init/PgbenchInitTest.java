package dev.kensho.pgbench.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.PgVersion;
import dev.kensho.pgbench.PartitionMethod;
import dev.kensho.pgbench.PgbenchInit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@KenshoTarget
class PgbenchInitTest {
    static final Path C_PGBENCH = Path.of("/usr/lib/postgresql/15/bin/pgbench");

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void createsPgbenchRowsAndTimingLineAndLeavesOtherTablesAlone(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("create table if not exists pgbench_keep_me(x int)");
            s.execute("insert into pgbench_keep_me values (42)");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PgbenchInit.Result r = new PgbenchInit().scale(2).fillfactor(90)
                .log(new PrintStream(out, true, StandardCharsets.UTF_8)).run(pg);
        String log = out.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("200000 of 200000 tuples (100%) of pgbench_accounts done"), log);
        assertTrue(r.line().matches("done in \\d+\\.\\d\\d s \\(drop tables \\d+\\.\\d\\d s, create tables \\d+\\.\\d\\d s, "
                + "client-side generate \\d+\\.\\d\\d s, vacuum \\d+\\.\\d\\d s, primary keys \\d+\\.\\d\\d s\\)\\."), r.line());
        assertTrue(log.contains(r.line()), log);
        try (Connection c = pg.connect()) {
            assertEquals(2, count(c, "select count(*) from pgbench_branches"));
            assertEquals(20, count(c, "select count(*) from pgbench_tellers"));
            assertEquals(200_000, count(c, "select count(*) from pgbench_accounts"));
            assertEquals(0, count(c, "select count(*) from pgbench_history"));
            assertEquals(0, count(c, "select count(*) from pgbench_accounts where abalance <> 0 or filler <> ''"));
            assertEquals(84, count(c, "select octet_length(filler) from pgbench_accounts where aid = 7"));
            assertEquals(2, count(c, "select count(*) from pgbench_branches where filler is null"));
        }
        // a step that fills nothing (-I v alone, no -s) records the tables' scale, not -s's default 1
        PgbenchInit.Result vacuum = new PgbenchInit().steps("v").log(null).run(pg);
        assertEquals(2, vacuum.scale());
        assertEquals("init;scale=2", vacuum.trial(0).cell());
        try (Connection c = pg.connect()) {
            assertEquals(20, count(c, "select count(*) from pgbench_tellers where filler is null"));
            assertEquals(2, count(c, "select bid from pgbench_accounts where aid = 100001"));
            assertEquals(1, count(c, "select bid from pgbench_accounts where aid = 100000"));
            assertEquals(2, count(c, "select bid from pgbench_tellers where tid = 11"));
            assertEquals(200_000, count(c, "select count(distinct aid) from pgbench_accounts where aid between 1 and 200000"));
            assertEquals(3, count(c, "select count(*) from pg_constraint where contype = 'p' and conrelid::regclass::text like 'pgbench_%'"));
            assertEquals(1, count(c, "select count(*) from pg_class where relname = 'pgbench_accounts' and reloptions::text = '{fillfactor=90}'"));
            assertEquals(42, count(c, "select x from pgbench_keep_me"));
            try (Statement s = c.createStatement()) {
                s.execute("drop table pgbench_keep_me");
            }
        }
        var trial = r.trial(0);
        assertEquals("init;scale=2", trial.cell());
        assertTrue(trial.metric("client_side_generate_s") > 0);
    }

    @Test
    void partitionsForeignKeysAndServerSideGeneration(Target pg) throws Exception {
        PgbenchInit.Result r = new PgbenchInit().scale(1).partitions(3).partitionMethod(PartitionMethod.HASH)
                .foreignKeys(true).steps("dtGvp").log(null).run(pg);
        assertEquals("dtGvpf", r.initSteps());
        assertTrue(r.line().contains("server-side generate") && r.line().contains("foreign keys"), r.line());
        try (Connection c = pg.connect()) {
            assertEquals(3, count(c, "select count(*) from pg_inherits where inhparent = 'pgbench_accounts'::regclass"));
            assertEquals(100_000, count(c, "select count(*) from pgbench_accounts"));
            assertTrue(count(c, "select count(*) from pgbench_accounts_2") > 30_000);
            assertEquals(5, count(c, "select count(*) from pg_constraint where contype = 'f' and conparentid = 0 and conname like 'pgbench_%'"));
            assertAllVisible(c);
        }
        new PgbenchInit().scale(1).partitions(4).log(null).run(pg);   // range
        try (Connection c = pg.connect()) {
            assertAllVisible(c);
            assertEquals(25_000, count(c, "select count(*) from pgbench_accounts_1"));
            assertEquals(0, count(c, "select count(*) from pg_constraint where contype = 'f' and conparentid = 0 and conname like 'pgbench_%'"));
            // as pgbench: every partition has its fillfactor set, 100 included
            assertEquals(4, count(c, "select count(*) from pg_class where relname like 'pgbench\\_accounts\\_%' and relkind = 'r'"
                    + " and reloptions::text = '{fillfactor=100}'"));
        }
        // -I g alone on the partitioned table left there: COPY without FREEZE for it, as pgbench 16/17 decide from the table
        new PgbenchInit().scale(1).steps("g").log(null).run(pg);
        try (Connection c = pg.connect()) {
            assertEquals(100_000, count(c, "select count(*) from pgbench_accounts"));
        }
    }

    /**
     * --unlogged-tables --partitions --foreign-keys: the accounts' foreign key to branches failed ("constraints on
     * permanent tables may reference only permanent tables"), the partitioned accounts being created logged and
     * branches unlogged. Before 18 pgbench creates all four unlogged, the partitioned table too (the server records
     * it and nothing follows from it); 18 refuses an unlogged partitioned table and pgbench 18 then creates the four
     * logged, only the partitions unlogged.
     */
    @Test
    void unloggedPartitionedTablesTakeTheForeignKeys(Target pg) throws Exception {
        assertUnloggedPartitionedInit(pg);
    }

    @Test
    void unloggedPartitionedTablesTakeTheForeignKeysOnSeventeen(@PgVersion(17) Target pg) throws Exception {
        assertUnloggedPartitionedInit(pg);
    }

    private static void assertUnloggedPartitionedInit(Target pg) throws Exception {
        PgbenchInit.Result r = new PgbenchInit().scale(1).partitions(2).unlogged(true).foreignKeys(true).log(null).run(pg);
        assertEquals("dtgvpf", r.initSteps());
        try (Connection c = pg.connect()) {
            boolean before18 = count(c, "select current_setting('server_version_num')::int") < 180000;
            String tables = before18 ? "u" : "p";
            for (String t : List.of("pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history")) {
                assertEquals(tables, text(c, "select relpersistence from pg_class where oid = '" + t + "'::regclass"), t);
            }
            assertEquals(2, count(c, "select count(*) from pg_class where relname like 'pgbench\\_accounts\\__' and relpersistence = 'u'"));
            assertEquals(5, count(c, "select count(*) from pg_constraint where contype = 'f' and conparentid = 0 and conname like 'pgbench_%'"));
            assertEquals(100_000, count(c, "select count(*) from pgbench_accounts"));
        }
        new PgbenchInit().scale(1).log(null).run(pg);   // logged again for the other tests
    }

    /**
     * -I g fills the tables that are there, as pgbench's text COPY does: the binary COPY wrote aid in the width the
     * init's own scale implies, so tables made at scale 20000 (bigint aid) and filled at scale 1 failed with the
     * server's "insufficient data left in message", and int tables filled at scale 20000 (whose aids still fit) too.
     */
    @Test
    void clientSideGenerationWritesAidInTheWidthOfTheTablesColumn(Target pg) throws Exception {
        new PgbenchInit().scale(Tables.SCALE_32BIT_THRESHOLD).steps("dt").log(null).run(pg);
        new PgbenchInit().scale(1).steps("gv").log(null).run(pg);
        try (Connection c = pg.connect()) {
            assertEquals("bigint", text(c, "select format_type(atttypid, atttypmod) from pg_attribute "
                    + "where attrelid = 'pgbench_accounts'::regclass and attname = 'aid'"));
            assertEquals(100_000, count(c, "select count(*) from pgbench_accounts"));
            assertEquals(100_000, count(c, "select max(aid) from pgbench_accounts"));
            assertEquals(1, count(c, "select bid from pgbench_accounts where aid = 100000"));
        }
        new PgbenchInit().scale(1).log(null).run(pg);   // int aid again for the other tests
        // int aid and more accounts than it holds: refused before the accounts' COPY (pgbench fails two billion rows in)
        var e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(21_475).steps("g").log(null).run(pg));
        assertEquals("pgbench init failed: value \"2147483648\" is out of range for type integer (pgbench_accounts.aid, made at a"
                + " scale under 20000)", e.getMessage());
        try (Connection c = pg.connect()) {
            assertEquals(1, count(c, "select count(*) from pgbench_branches"));
        }
    }

    /**
     * -I g on tables made with other column types than pgbench's (a bigint bid, a numeric balance, a varchar id):
     * pgbench's text COPY fills them, the binary COPY failed with the server's "insufficient data left in message".
     */
    @Test
    void clientSideGenerationFillsTablesOfOtherColumnTypesAsPgbenchsTextCopy(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute(Tables.DROP);
            s.execute("create table pgbench_history(tid int,bid int,aid int,delta int,mtime timestamp,filler char(22))");
            s.execute("create table pgbench_branches(bid bigint,bbalance int,filler char(88))");
            s.execute("create table pgbench_tellers(tid varchar(10),bid int,tbalance numeric,filler char(84))");
            s.execute("create table pgbench_accounts(aid int,bid smallint,abalance numeric,filler char(84))");
        }
        new PgbenchInit().scale(2).steps("g").log(null).run(pg);
        try (Connection c = pg.connect()) {
            assertEquals(2, count(c, "select count(*) from pgbench_branches where filler is null and bbalance = 0"));
            assertEquals(20, count(c, "select count(*) from pgbench_tellers where filler is null and tbalance = 0"));
            assertEquals(2, count(c, "select bid from pgbench_tellers where tid = '11'"));
            assertEquals(200_000, count(c, "select count(*) from pgbench_accounts where abalance = 0 and octet_length(filler) = 84"));
            assertEquals(2, count(c, "select bid from pgbench_accounts where aid = 100001"));
        }
        new PgbenchInit().scale(1).log(null).run(pg);   // pgbench's tables again for the other tests
    }

    /**
     * A read-only session (default_transaction_read_only; a hot standby alike): init is refused before its first step,
     * exit 3, where its drop step had failed at its first statement (exit 1, a run directory left); a sweep rebuilding
     * the tables every trial is refused before its first.
     */
    @Test
    void aReadOnlySessionIsRefusedBeforeAnyStep(Target pg, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop database if exists kensho_user_readonly");
            s.execute("create database kensho_user_readonly");
            s.execute("alter database kensho_user_readonly set default_transaction_read_only = on");
        }
        try (Target db = new dev.kensho.core.server.TargetSpec().url("jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho_user_readonly")
                .user("postgres").open()) {
            var e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).log(null).run(db));
            assertEquals(KenshoException.TARGET, e.exitCode());
            assertEquals("pgbench init: the session is read-only (default_transaction_read_only is on for database kensho_user_readonly, its"
                    + " role, or the URL's options): init where it may write (nothing was changed)", e.getMessage());
            try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of("pgbench sweep", List.of(), java.util.Map.of()))) {
                KenshoException s = assertThrows(KenshoException.class, () -> new dev.kensho.pgbench.ClientSweep().clients(List.of(1)).repeats(2)
                        .seconds(1).builtin("select-only").scale(1).reinitEachTrial(true).warmup(0).log(null).run(java.util.Map.of("db", db), dir));
                assertTrue(s.getMessage().startsWith("db: pgbench init: the session is read-only"), s.getMessage());
                assertEquals(List.of(), dir.trials());
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop database if exists kensho_user_readonly");
            }
        }
    }

    /**
     * A user's table of one of the four names without pgbench's columns (pgbench_history(note text)): pgbench -i drops it
     * (or -I g empties it); Kensho refuses before any step, naming what it lacks, and the table keeps its row. One with
     * pgbench's columns and more (a study's extension of a pgbench table) is pgbench's, and dropped as pgbench drops it.
     */
    @Test
    void aTableOfTheNamesButNotPgbenchsIsNeitherDroppedNorEmptied(Target pg, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop database if exists kensho_user_foreign");
            s.execute("create database kensho_user_foreign");
        }
        try (Target db = new dev.kensho.core.server.TargetSpec().url("jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho_user_foreign")
                .user("postgres").open(); Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("create table pgbench_history(note text)");
            s.execute("insert into pgbench_history values ('PRECIOUS')");
            for (String steps : List.of("dtgvp", "g", "G")) {
                var e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).steps(steps).log(null).run(db));
                assertEquals(KenshoException.TARGET, e.exitCode());
                assertEquals("pgbench init: pgbench_history in schema public is not pgbench's (it has no tid, bid, aid, delta, mtime, filler),"
                        + " a table Kensho did not create, which init would drop or empty: rename or drop it, or init in another schema or"
                        + " database (nothing was changed)", e.getMessage());
                assertEquals(1, count(c, "select count(*) from pgbench_history where note = 'PRECIOUS'"), steps);
            }
            // a sweep rebuilding the tables every trial is refused before its first, not failed trial by trial
            try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of("pgbench sweep", List.of(), java.util.Map.of()))) {
                KenshoException e = assertThrows(KenshoException.class, () -> new dev.kensho.pgbench.ClientSweep().clients(List.of(1)).repeats(2)
                        .seconds(1).builtin("select-only").scale(1).reinitEachTrial(true).warmup(0).log(null).run(java.util.Map.of("db", db), dir));
                assertTrue(e.getMessage().startsWith("db: pgbench init: pgbench_history in schema public is not pgbench's"), e.getMessage());
                assertEquals(List.of(), dir.trials());
            }
            s.execute("alter table pgbench_history add tid int, add bid int, add aid int, add delta int, add mtime timestamp, add filler char(22)");
            new PgbenchInit().scale(1).log(null).run(db);
            assertEquals(0, count(c, "select count(*) from pgbench_history"));
            assertEquals(100_000, count(c, "select count(*) from pgbench_accounts"));
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop database if exists kensho_user_foreign");
            }
        }
    }

    /**
     * A user's table inheriting from pgbench_accounts: the generate steps' TRUNCATE would empty it too (pgbench 15 empties
     * it); Kensho refuses before any step, naming it, and the table keeps its row.
     */
    @Test
    void aTableInheritingFromOneOfTheFourIsNotEmptied(Target pg) throws Exception {
        new PgbenchInit().scale(1).log(null).run(pg);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("create table kensho_user_child(extra int) inherits (pgbench_accounts)");
            s.execute("insert into kensho_user_child values (0, 1, 0, '', 7)");
            try {
                for (String steps : List.of("g", "G", "dtgvp")) {
                    var e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).steps(steps).log(null).run(pg));
                    assertEquals(KenshoException.TARGET, e.exitCode());
                    assertEquals("kensho_user_child inherits from pgbench_accounts: the generate step (-I " + steps + ") truncates "
                            + "pgbench_accounts and with it kensho_user_child, a table Kensho did not create; detach it (ALTER TABLE "
                            + "kensho_user_child NO INHERIT pgbench_accounts) or drop it first", e.getMessage());
                    assertEquals(1, count(c, "select count(*) from kensho_user_child where extra = 7"), steps);
                    assertEquals(100_001, count(c, "select count(*) from pgbench_accounts"), "nothing ran: " + steps);
                }
                new PgbenchInit().scale(1).steps("v").log(null).run(pg);   // a step that leaves the rows alone goes on
            } finally {
                s.execute("drop table kensho_user_child");
            }
        }
        new PgbenchInit().scale(1).log(null).run(pg);
    }

    /**
     * A new database whose search_path is "public, userdata", userdata holding a pgbench_history of the user's with
     * one row ('PRECIOUS'); opened as a remote target.
     */
    private static Target userPathsDatabase(Target pg, String name) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop database if exists " + name);
            s.execute("create database " + name);
        }
        Target db = new dev.kensho.core.server.TargetSpec().url("jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + name).user("postgres").open();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("create schema userdata");
            s.execute("create table userdata.pgbench_history(tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))");
            s.execute("insert into userdata.pgbench_history values (1, 1, 1, 5, now(), 'PRECIOUS')");
            s.execute("alter database " + name + " set search_path = public, userdata");
        } catch (Exception e) {
            db.close();
            throw e;
        }
        return db;
    }

    /**
     * Tables of the user's beside the four: a pgbench_history in another schema of the search_path (the drop step,
     * unqualified, dropped it and made the new one in public, as pgbench does), and a table inheriting from the new
     * pgbench_history (pgbench run's pre-run "truncate pgbench_history" emptied it, as pgbench's does). Both keep their rows.
     */
    @Test
    void tablesOfTheUsersBesideTheFourKeepTheirRows(Target pg, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        try (Target db = userPathsDatabase(pg, "kensho_user_paths")) {
            new PgbenchInit().scale(1).log(null).run(db);
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                assertEquals(1, count(c, "select count(*) from userdata.pgbench_history where filler = 'PRECIOUS'"));
                assertEquals(0, count(c, "select count(*) from public.pgbench_history"), "made in public");
                s.execute("create table userdata.hist_child () inherits (public.pgbench_history)");
                s.execute("insert into userdata.hist_child values (1, 1, 1, 5, now(), 'KEEPME')");
                s.execute("insert into public.pgbench_history values (1, 1, 1, 5, now(), 'RUN')");
            }
            new dev.kensho.pgbench.PgbenchRun().builtin("select-only").transactions(1).warmup(0)
                    .output(new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())).run(db);
            try (Connection c = db.connect()) {
                assertEquals(1, count(c, "select count(*) from userdata.hist_child where filler = 'KEEPME'"));
                assertEquals(0, count(c, "select count(*) from only public.pgbench_history"), "pgbench_history itself truncated");
            }
            // a sweep rebuilding the tables every trial is refused before its first, not failed in each
            try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of("pgbench sweep", List.of(), java.util.Map.of()))) {
                KenshoException e = assertThrows(KenshoException.class, () -> new dev.kensho.pgbench.ClientSweep().clients(List.of(1)).repeats(1)
                        .seconds(1).builtin("select-only").scale(1).reinitEachTrial(true).warmup(0).log(null).run(java.util.Map.of("db", db), dir));
                assertTrue(e.getMessage().startsWith("db: userdata.hist_child inherits from pgbench_history: the generate step"), e.getMessage());
                assertEquals(List.of(), dir.trials());
            }
            try (Connection c = db.connect()) {
                assertEquals(1, count(c, "select count(*) from userdata.hist_child where filler = 'KEEPME'"));
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop database if exists kensho_user_paths");
            }
        }
    }

    /**
     * pgbench's unqualified TRUNCATE, ALTER TABLE and pre-run truncate find the first pgbench_* of the search_path: with
     * no pgbench_history in public, -I g emptied userdata's, -I f gave it foreign keys, and a run's vacuum emptied it; a
     * pgbench_history of the user's own columns in public was emptied by a run too. None is Kensho's to change.
     */
    @Test
    void pgbenchTablesFurtherAlongTheSearchPathAreLeftAlone(Target pg, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        try (Target db = userPathsDatabase(pg, "kensho_user_paths2")) {
            // a child of userdata's pgbench_history is none of init's business (it works in public): a sweep rebuilding
            // every trial runs, where its check before the first trial, asked along the whole search_path, refused it
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.execute("create table userdata.uh_child () inherits (userdata.pgbench_history)");
            }
            try (var dir = dev.kensho.core.result.RunDirectory.create(tmp.resolve("reinit"), dev.kensho.core.result.RunInfo.of("pgbench sweep",
                    List.of(), java.util.Map.of()))) {
                new dev.kensho.pgbench.ClientSweep().clients(List.of(1)).repeats(1).seconds(1).builtin("select-only").scale(1)
                        .reinitEachTrial(true).warmup(0).log(null).run(java.util.Map.of("db", db), dir);
                assertEquals(1, dir.trials().size());
                assertTrue(dir.trials().get(0).ok(), dir.trials().get(0).toString());
            }
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.execute("drop table userdata.uh_child");
            }
            new PgbenchInit().scale(1).log(null).run(db);
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.execute("drop table public.pgbench_history");
            }
            KenshoException g = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).steps("g").log(null).run(db));
            assertTrue(g.getMessage().contains("\"pgbench_history\" does not exist") && g.getMessage().contains("schema public"), g.getMessage());
            KenshoException f = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).steps("f").log(null).run(db));
            assertTrue(f.getMessage().contains("schema public"), f.getMessage());
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            new dev.kensho.pgbench.PgbenchRun().builtin("select-only").transactions(1).warmup(0)
                    .output(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8)).run(db);
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("warning: userdata.pgbench_history not truncated: it is not beside"
                    + " pgbench_branches in schema public"), err.toString(StandardCharsets.UTF_8));
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                assertEquals(1, count(c, "select count(*) from userdata.pgbench_history where filler = 'PRECIOUS'"));
                assertEquals(0, count(c, "select count(*) from pg_constraint where conrelid = 'userdata.pgbench_history'::regclass"));
                s.execute("create table public.pgbench_history(tid int, bid int, aid int, delta int, mtime timestamp, filler char(22), audit text)");
                s.execute("insert into public.pgbench_history values (1, 1, 1, 5, now(), 'MINE', 'who')");
            }
            err.reset();
            new dev.kensho.pgbench.PgbenchRun().builtin("select-only").transactions(1).warmup(0)
                    .output(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8)).run(db);
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("warning: public.pgbench_history not truncated: its columns are not pgbench's"),
                    err.toString(StandardCharsets.UTF_8));
            // a sweep says it too, once, and notes it (its trials' stderr had kept it)
            ByteArrayOutputStream sweepLog = new ByteArrayOutputStream();
            try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of("pgbench sweep", List.of(), java.util.Map.of()))) {
                new dev.kensho.pgbench.ClientSweep().clients(List.of(1)).repeats(2).seconds(1).builtin("select-only").warmup(0)
                        .log(new PrintStream(sweepLog, true, StandardCharsets.UTF_8)).run(java.util.Map.of("db", db), dir);
                String said = sweepLog.toString(StandardCharsets.UTF_8);
                assertEquals(1, said.lines().filter(l -> l.startsWith("db: public.pgbench_history not truncated: its columns are not pgbench's")).count(), said);
                assertTrue(dir.info().notes().stream().anyMatch(n -> n.startsWith("db: public.pgbench_history not truncated")), dir.info().notes().toString());
            }
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                assertEquals(1, count(c, "select count(*) from public.pgbench_history where filler = 'MINE'"));
                assertEquals(1, count(c, "select count(*) from userdata.pgbench_history where filler = 'PRECIOUS'"));
                // a caller's connection keeps its session: search_path, maintenance_work_mem (init raises it for its
                // keys and vacuum) and the driver's prepare threshold
                s.execute("set maintenance_work_mem = '1MB'");
                int threshold = c.unwrap(org.postgresql.PGConnection.class).getPrepareThreshold();
                new PgbenchInit().scale(1).steps("v").log(null).run(c);
                try (ResultSet rs = s.executeQuery("select current_setting('search_path'), current_setting('maintenance_work_mem')")) {
                    rs.next();
                    assertEquals("public, userdata", rs.getString(1));
                    assertEquals("1MB", rs.getString(2));
                }
                assertEquals(threshold, c.unwrap(org.postgresql.PGConnection.class).getPrepareThreshold());
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop database if exists kensho_user_paths2");
            }
        }
    }

    /**
     * On a terminal pgbench writes each progress line over the last ('\\r') and ends the table's with a newline, so
     * -s 1000 shows one line; Kensho printed a thousand.
     */
    @Test
    void progressLinesAreWrittenOverEachOtherAsOnPgbenchsTerminal(Target pg) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PgbenchInit().scale(3).steps("dtg").overwriteProgress(true).log(new PrintStream(out, true, StandardCharsets.UTF_8)).run(pg);
        String log = out.toString(StandardCharsets.UTF_8);
        assertTrue(log.matches("(?s).*generating data \\(client-side\\)\\.\\.\\.\n"
                + "100000 of 300000 tuples \\(33%\\) of pgbench_accounts done \\(elapsed [0-9.]+ s, remaining [0-9.]+ s\\) *\r"
                + "200000 of 300000 [^\r\n]*\r300000 of 300000 tuples \\(100%\\)[^\r\n]*\r\ndone in .*"), log);
    }

    static String text(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * After the vacuum step every page of the accounts' partitions is all-visible, as after pgbench's (with
     * synchronous_commit off in the init's session none was: vacuum leaves pages of an unflushed commit alone).
     */
    private static void assertAllVisible(Connection c) throws Exception {
        long pages = count(c, "select sum(relpages) from pg_class where relname like 'pgbench\\_accounts\\_%' and relkind = 'r'");
        long visible = count(c, "select sum(relallvisible) from pg_class where relname like 'pgbench\\_accounts\\_%' and relkind = 'r'");
        assertTrue(pages > 1000, pages + " pages");
        assertEquals(pages, visible, "all-visible pages of the accounts' partitions");
    }

    /**
     * --tablespace and --index-tablespace: two tablespaces in a directory given to the server's user (on root the
     * unprivileged user the embedded server runs as), one with a name that needs pgbench's quoting.
     */
    @Test
    void tablesAndPrimaryKeysInTheirTablespaces(Target pg) throws Exception {
        assumeTrue(pg.control().dataDirectory().isPresent(), "needs a managed server to create tablespaces in a directory");
        var owner = Files.getOwner(pg.control().dataDirectory().orElseThrow());
        Path dir = Files.createTempDirectory(Path.of("/var/tmp"), "kensho-pgbench-ts");
        Path tables = Files.createDirectory(dir.resolve("tables")), indexes = Files.createDirectory(dir.resolve("indexes"));
        for (Path p : List.of(dir, tables, indexes)) Files.setOwner(p, owner);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("create tablespace \"Kensho \"\"TS\"\"\" location '" + tables + "'");
            s.execute("create tablespace kensho_pgbench_idx location '" + indexes + "'");
        }
        try {
            new PgbenchInit().scale(1).tablespace("Kensho \"TS\"").indexTablespace("kensho_pgbench_idx").log(null).run(pg);
            try (Connection c = pg.connect()) {
                assertEquals(4, count(c, "select count(*) from pg_tables where tablename in "
                        + "('pgbench_accounts', 'pgbench_branches', 'pgbench_history', 'pgbench_tellers') and tablespace = 'Kensho \"TS\"'"));
                assertEquals(3, count(c, "select count(*) from pg_indexes where indexname in "
                        + "('pgbench_accounts_pkey', 'pgbench_branches_pkey', 'pgbench_tellers_pkey') and tablespace = 'kensho_pgbench_idx'"));
                assertEquals(4, count(c, "select count(*) from pg_class c join pg_tablespace t on t.oid = c.reltablespace "
                        + "where t.spcname = 'Kensho \"TS\"' and c.relname like 'pgbench\\_%' and c.relkind = 'r'"));
                assertEquals(100_000, count(c, "select count(*) from pgbench_accounts"));
            }
            // partitions inherit the partitioned table's tablespace, index partitions the index's
            new PgbenchInit().scale(1).partitions(2).tablespace("Kensho \"TS\"").indexTablespace("kensho_pgbench_idx").log(null).run(pg);
            try (Connection c = pg.connect()) {
                assertEquals(2, count(c, "select count(*) from pg_tables where tablename like 'pgbench\\_accounts\\__' "
                        + "and tablespace = 'Kensho \"TS\"'"));
                assertEquals(2, count(c, "select count(*) from pg_indexes where tablename like 'pgbench\\_accounts\\__' "
                        + "and tablespace = 'kensho_pgbench_idx'"));
            }
            var e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).tablespace("kensho_no_such_ts").log(null).run(pg));
            assertEquals("pgbench init failed: ERROR: tablespace \"kensho_no_such_ts\" does not exist; query was: create table "
                    + "pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)) tablespace \"kensho_no_such_ts\"", e.getMessage());
        } finally {
            new PgbenchInit().scale(1).log(null).run(pg);   // back in the default tablespace, so both can be dropped
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop tablespace \"Kensho \"\"TS\"\"\"");
                s.execute("drop tablespace kensho_pgbench_idx");
            }
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * A second initialisation of the same database while one runs (two test classes loading the shared server under
     * JUnit's parallel execution) stops at once and says why, and the first completes: the two used to drop and create
     * the tables under each other and fail on "duplicate key value violates unique constraint pg_type_typname_nsp_index".
     */
    @Test
    void aSecondInitWhileOneRunsStopsAndSaysWhy(Target pg) throws Exception {
        List<Object> second = new ArrayList<>();
        PrintStream startsAnother = new PrintStream(java.io.OutputStream.nullOutputStream()) {
            @Override
            public void println(String line) {
                if (!line.startsWith("generating data") || !second.isEmpty()) return;
                try {
                    second.add(new PgbenchInit().scale(1).log(null).run(pg).line());
                } catch (KenshoException e) {
                    second.add(e);
                }
            }
        };
        new PgbenchInit().scale(2).log(startsAnother).run(pg);
        assertEquals(1, second.size());
        assertTrue(second.get(0) instanceof KenshoException, "the second init ran beside the first: " + second.get(0));
        assertEquals("another pgbench init is loading the pgbench tables of database \"" + pg.database() + "\" now; run one at a time"
                + " (from JUnit's parallel execution: mark the tests that load tables into the shared server @ChangesServer)",
                ((KenshoException) second.get(0)).getMessage());
        assertEquals(KenshoException.USAGE, ((KenshoException) second.get(0)).exitCode(), "nothing measured: exit 2, as the other locks");
        try (Connection c = pg.connect()) {
            assertEquals(200_000, count(c, "select count(*) from pgbench_accounts"));
        }
        // the lock went with the first: the next init runs
        new PgbenchInit().scale(1).log(null).run(pg);
    }

    @Test
    void rejectsBadOptionsWithOneLine() {
        var e = assertThrows(KenshoException.class, () -> new PgbenchInit().steps("dtx").effectiveSteps());
        assertTrue(e.getMessage().startsWith("unrecognized initialization step \"x\""), e.getMessage());
        assertThrows(KenshoException.class, () -> new PgbenchInit().steps("").effectiveSteps());
        // validate() checks them too: it is what a sweep calls before its targets start
        assertEquals(e.getMessage(), assertThrows(KenshoException.class, () -> new PgbenchInit().steps("dtx").validate()).getMessage());
        assertEquals("dgG", new PgbenchInit().steps("d g G").effectiveSteps());
        assertEquals("dtgp", new PgbenchInit().noVacuum(true).effectiveSteps());
        assertEquals("dtgvpf", new PgbenchInit().foreignKeys(true).effectiveSteps());
        var none = assertThrows(KenshoException.class, () -> PartitionMethod.parse("none"));
        assertEquals("invalid partition method, expecting \"range\" or \"hash\", got: \"none\"", none.getMessage());
        assertEquals(none.getMessage(), assertThrows(KenshoException.class,
                () -> new PgbenchInit().partitions(2).partitionMethod(PartitionMethod.NONE).validate()).getMessage());
        assertEquals(PartitionMethod.HASH, PartitionMethod.parse("Hash"));
        // pgbench 15's words (option_parse_int)
        assertEquals("-F/--fillfactor must be in range 10..100", assertThrows(KenshoException.class,
                () -> new PgbenchInit().fillfactor(5).validate()).getMessage());
        assertEquals("-s/--scale must be in range 1..2147483647", assertThrows(KenshoException.class,
                () -> new PgbenchInit().scale(0).validate()).getMessage());
        assertEquals("--partitions must be in range 0..2147483647", assertThrows(KenshoException.class,
                () -> new PgbenchInit().partitions(-1).validate()).getMessage());
        // pgbench's PQescapeIdentifier: always quoted, embedded quotes doubled
        assertEquals("create table pgbench_branches(bid int not null,bbalance int,filler char(88)) with (fillfactor=100) tablespace \"a \"\"b\"\"\"",
                Tables.create(1, 100, false, 0, PartitionMethod.NONE, "a \"b\"").get(3));
        assertEquals("alter table pgbench_accounts add primary key (aid) using index tablespace \"ts\"", Tables.primaryKeys("ts").get(2));
    }

    /** Kensho's tables are what the C pgbench expects: it reads the scale and runs select-only on them. */
    @Test
    void cPgbenchRunsOnKenshoTables(Target pg) throws Exception {
        assumeTrue(Files.isExecutable(C_PGBENCH), "no C pgbench at " + C_PGBENCH + ": interop test skipped");
        new PgbenchInit().scale(2).log(null).run(pg);
        List<String> cmd = new ArrayList<>(List.of(C_PGBENCH.toString(), "-n", "-S", "-T", "2", "-h", pg.host(),
                "-p", Integer.toString(pg.port()), "-U", pg.user(), pg.database()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("scaling factor: 2"), out);
        assertTrue(out.matches("(?s).*number of failed transactions: 0 .*"), out);
    }
}
