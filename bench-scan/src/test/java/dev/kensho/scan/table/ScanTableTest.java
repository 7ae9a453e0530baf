package dev.kensho.scan.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.scan.Layout;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table is reused only while it is the one Kensho built, and none is built that its disk has no room for. */
class ScanTableTest {

    /**
     * The comment alone was trusted: rows deleted or updated since read as the study's table (its 51 % cell then
     * returned 500 rows where 510 were expected, "an unintended plan", in every later run).
     */
    @Test
    void aTableChangedSinceItWasBuiltIsRebuiltSayingWhy() throws Exception {
        try (Target pg = new TargetSpec().open(); Connection c = pg.connect(); Statement s = c.createStatement()) {
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            PrintStream progress = new PrintStream(said, true, StandardCharsets.UTF_8);
            assertFalse(ScanTable.prepare(c, Layout.HIGH, 1000, null, false, Optional.empty(), progress).reused());
            assertTrue(ScanTable.prepare(c, Layout.HIGH, 1000, null, false, Optional.empty(), progress).reused(), "unchanged: reused");
            assertEquals("", said.toString(StandardCharsets.UTF_8));

            s.execute("DELETE FROM scan_high WHERE col01 > lpad('500', 30, '0')");
            assertFalse(ScanTable.prepare(c, Layout.HIGH, 1000, null, false, Optional.empty(), progress).reused());
            assertEquals("scan_high was changed since Kensho built it (500 rows, not 1000): rebuilding it\n", said.toString(StandardCharsets.UTF_8));
            assertEquals(1000, count(s));

            said.reset();
            s.execute("UPDATE scan_high SET col02 = 'x' WHERE col01 < lpad('100', 30, '0')");
            assertFalse(ScanTable.prepare(c, Layout.HIGH, 1000, null, false, Optional.empty(), progress).reused());
            assertTrue(said.toString(StandardCharsets.UTF_8).startsWith("scan_high was changed since Kensho built it (")
                    && said.toString(StandardCharsets.UTF_8).contains(" pages, not the 25 it was built with"), said.toString(StandardCharsets.UTF_8));
            assertTrue(ScanTable.prepare(c, Layout.HIGH, 1000, null, false, Optional.empty(), progress).reused(), "rebuilt: reused again");

            // the same rows and pages in another order: a low table CLUSTERed was reused as low clustering's
            said.reset();
            assertFalse(ScanTable.prepare(c, Layout.LOW, 2000, null, false, Optional.empty(), progress).reused());
            assertTrue(ScanTable.prepare(c, Layout.LOW, 2000, null, false, Optional.empty(), progress).reused(), "unchanged: reused");
            s.execute("CLUSTER scan_low USING scan_low_pk");
            dev.kensho.scan.LayoutFacts rebuilt = ScanTable.prepare(c, Layout.LOW, 2000, null, false, Optional.empty(), progress);
            assertFalse(rebuilt.reused());
            assertTrue(said.toString(StandardCharsets.UTF_8).matches("scan_low was changed since Kensho built it \\(its keys have correlation "
                    + "(0\\.9\\d\\d|1\\.000) with the pages they lie in, where the low layout has about 0\\): rebuilding it\n"), said.toString(StandardCharsets.UTF_8));
            assertTrue(Math.abs(rebuilt.correlation()) < 0.5, "low again: " + rebuilt.correlation());
        }
    }

    /**
     * A tablespace's name is in the table's comment: pasted between quotes, a name with a quote in it ran SQL after it
     * (COPY ... TO PROGRAM as the server's user). Read back as it is now, with standard_conforming_strings off too.
     */
    @Test
    void aTablespaceNameWithQuotesIsNoSql() throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory(Path.of("/var/tmp"), "kx-ts-quote");
        String name = "kx_o'brien\\' ; SELECT 1/0; --";
        try (Target pg = new TargetSpec().open(); Connection c = pg.connect(); Statement s = c.createStatement()) {
            java.nio.file.Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            java.nio.file.Files.setOwner(dir, java.nio.file.Files.getOwner(pg.control().dataDirectory().orElseThrow()));
            s.execute("CREATE TABLESPACE " + dev.kensho.core.server.SqlIdentifier.quoted(name) + " LOCATION '" + dir + "'");
            s.execute("SET standard_conforming_strings = off");
            assertFalse(ScanTable.prepare(c, Layout.HIGH, 1000, name, false, Optional.empty(), null).reused());
            try (ResultSet rs = s.executeQuery("SELECT obj_description('scan_high'::regclass, 'pg_class')")) {
                rs.next();
                assertTrue(rs.getString(1).contains(" tablespace=" + name + " pages="), rs.getString(1));
            }
            assertTrue(ScanTable.prepare(c, Layout.HIGH, 1000, name, false, Optional.empty(), null).reused(), "found again by its comment");
            s.execute("DROP TABLE scan_high");
            s.execute("DROP TABLESPACE " + dev.kensho.core.server.SqlIdentifier.quoted(name));
        } finally {
            try (var w = java.nio.file.Files.walk(dir)) {
                w.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** --rows of petabytes went on loading until killed: refused before anything is dropped or built, naming the sizes. */
    @Test
    void aTableItsDiskHasNoRoomForIsNotBuilt(@TempDir Path storage) throws Exception {
        try (Target pg = new TargetSpec().open(); Connection c = pg.connect(); Statement s = c.createStatement()) {
            ScanTable.prepare(c, Layout.LOW, 1000, null, false, Optional.of(storage), null);
            long rows = 10_000_000_000_000L;
            KenshoException e = assertThrows(KenshoException.class,
                    () -> ScanTable.prepare(c, Layout.LOW, rows, null, false, Optional.of(storage), null));
            assertEquals(KenshoException.USAGE, e.exitCode());
            // GB as the preparing line gives them (1024³ bytes): 2.6e15 bytes
            assertTrue(e.getMessage().startsWith("--rows 10000000000000: scan_low would take about 2421438.7 GB, and " + storage + " has "),
                    e.getMessage());
            // both layouts checked together before either is touched: checked per table, the first was rebuilt and the second refused
            KenshoException both = assertThrows(KenshoException.class,
                    () -> ScanTable.checkRoom(c, java.util.List.of(Layout.HIGH, Layout.LOW), rows, Optional.of(storage)));
            assertTrue(both.getMessage().startsWith("--rows 10000000000000: scan_high and scan_low would take about 4842877.4 GB, and "),
                    both.getMessage());
            assertTrue(both.getMessage().endsWith(" in Kensho's tables there now)"), both.getMessage());
            ScanTable.checkRoom(c, java.util.List.of(Layout.HIGH, Layout.LOW), 1000, Optional.of(storage));   // room enough
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM scan_low")) {
                rs.next();
                assertEquals(1000, rs.getLong(1), "the table there was left as it was");
            }
            assertEquals(Long.MAX_VALUE, ScanTable.estimatedBytes(Long.MAX_VALUE), "saturated, not negative");
        }
    }

    /** A user's index under the primary key's name failed the build's ALTER TABLE after the load, exit 3: refused before, as a table is. */
    @Test
    void aRelationUnderThePrimaryKeysNameIsRefusedBeforeTheBuild() throws Exception {
        try (Target pg = new TargetSpec().open(); Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE mine (x int); CREATE INDEX scan_low_pk ON mine (x)");
            KenshoException e = assertThrows(KenshoException.class, () -> ScanTable.checkNoForeignTable(c, java.util.List.of(Layout.HIGH, Layout.LOW)));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("relation scan_low_pk exists and was not created by Kensho; run bench scan in another database or schema", e.getMessage());
            s.execute("DROP TABLE mine");
            ScanTable.prepare(c, Layout.LOW, 1000, null, false, Optional.empty(), null);
            ScanTable.checkNoForeignTable(c, java.util.List.of(Layout.HIGH, Layout.LOW));   // Kensho's own key: no refusal
        }
    }

    private static long count(Statement s) throws Exception {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM scan_high")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
