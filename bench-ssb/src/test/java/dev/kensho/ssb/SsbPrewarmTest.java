package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.measure.Prewarm;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.junit.KenshoTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prewarm reads only what Kensho loaded, in a database of its own reached as a remote target would be. */
@KenshoTarget
class SsbPrewarmTest {

    @Test
    void prewarmsOnlyKenshosTablesAndSaysWhenItCreatedTheExtension(Target pg, @TempDir Path results) throws Exception {
        // a database without pg_prewarm, so the extension is really created (the shared server's own may have it)
        String name = "kensho_prewarm_test_" + ProcessHandle.current().pid();
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        }
        try (Target remote = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + name)
                .user(pg.user()).open();
             RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
            SsbDatabase db = new SsbDatabase(remote, "public");
            db.load(new SsbDatabase.LoadOptions(0.01, 1, true, false), null);
            try (Connection c = remote.connect(); Statement s = c.createStatement()) {
                // a user's table next to Kensho's, with an index: neither is Kensho's to prewarm
                s.execute("CREATE TABLE public.users_own AS SELECT g AS id, repeat('x', 200) AS pad FROM generate_series(1, 2000) g");
                s.execute("CREATE INDEX ON public.users_own (id)");
            }
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Prewarm.Result r = db.prewarm(SsbDatabase.TABLES, new PrintStream(err, true, StandardCharsets.UTF_8), dir);

            try (Connection c = remote.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), sum(pg_relation_size(x.r) / 8192) FROM ("
                         + "SELECT oid AS r FROM pg_class WHERE relnamespace = 'public'::regnamespace "
                         + "AND relname IN ('part', 'supplier', 'customer', 'date', 'lineorder') "
                         + "UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM pg_class "
                         + "WHERE relnamespace = 'public'::regnamespace AND relname IN ('part', 'supplier', 'customer', 'date', 'lineorder')) "
                         + "UNION ALL SELECT reltoastrelid FROM pg_class WHERE relnamespace = 'public'::regnamespace "
                         + "AND relname IN ('part', 'supplier', 'customer', 'date', 'lineorder') AND reltoastrelid <> 0) x")) {
                rs.next();
                assertEquals(rs.getInt(1), r.relations(), "the five tables, their primary keys and TOAST tables");
                assertEquals(rs.getLong(2), r.blocks(), "blocks of Kensho's relations only");
            }
            assertTrue(r.relations() >= 10, "tables and keys: " + r.relations());
            String note = "created extension pg_prewarm in schema public of database " + name;
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("ssb: " + note), err.toString(StandardCharsets.UTF_8));
            assertEquals(1, dir.info().notes().stream().filter(n -> n.startsWith(note)).count(), dir.info().notes().toString());

            // the extension is there now: nothing more to report
            ByteArrayOutputStream again = new ByteArrayOutputStream();
            db.prewarm(SsbDatabase.TABLES, new PrintStream(again, true, StandardCharsets.UTF_8), dir);
            assertTrue(!again.toString(StandardCharsets.UTF_8).contains("created extension"), again.toString(StandardCharsets.UTF_8));
            assertEquals(1, dir.info().notes().stream().filter(n -> n.startsWith(note)).count(), dir.info().notes().toString());
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            }
        }
    }
}
