package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class InitdbTemplateTest {

    /**
     * The first server of a build runs initdb and keeps its data directory as the template; later ones are copies of
     * it, each a cluster of its own; a damaged template is made again by the next initdb.
     */
    @Test
    void laterServersOfABuildAreCopiesOfItsFirstInitdb() throws Exception {
        // a bin directory of this test's own (links to the embedded 17's tools): its template is no other test's
        Path bin = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "bin");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path real = EmbeddedBinaries.binDirectory(17);
        for (String tool : List.of("initdb", "pg_ctl", "postgres")) Files.createSymbolicLink(bin.resolve(tool), real.resolve(tool));
        InitdbTemplate template = InitdbTemplate.of(bin);
        try {
            assertFalse(Files.exists(template.dir()));
            try (Target first = new TargetSpec().pgBin(bin).open()) {
                assertTrue(first.control().actions().stream().anyMatch(a -> a.startsWith("initdb ") && !a.contains("a copy of")),
                        first.control().actions().toString());
                assertTrue(Files.isRegularFile(template.dir().resolve("data/PG_VERSION")), "kept as the template");
                assertFalse(Files.exists(template.dir().resolve("data/kensho.conf")), "the first server's settings are its own");
                try (Target second = new TargetSpec().pgBin(bin).open()) {
                    assertTrue(second.control().actions().contains("initdb " + second.control().dataDirectory().orElseThrow()
                            + " (a copy of " + template.dir() + ", initdb's data directory for this build, made once)"),
                            second.control().actions().toString());
                    sql(first, "CREATE TABLE only_in_the_first(x int)");
                    assertEquals("t", sql(second, "SELECT to_regclass('only_in_the_first') IS NULL"));
                    // what a copy shares with its template (and so Tablespace does not name a directory by it)
                    assertEquals(sql(first, "SELECT system_identifier FROM pg_control_system()"),
                            sql(second, "SELECT system_identifier FROM pg_control_system()"));
                }
            }
            Files.delete(template.dir().resolve("data/PG_VERSION"));
            try (Target third = new TargetSpec().pgBin(bin).open()) {
                assertTrue(third.control().actions().stream().anyMatch(a -> a.startsWith("initdb ") && !a.contains("a copy of")),
                        third.control().actions().toString());
                assertEquals("1", sql(third, "SELECT 1"));
            }
            assertTrue(Files.isRegularFile(template.dir().resolve("data/PG_VERSION")), "a damaged template is made again");
        } finally {
            InstanceDirectory.deleteTree(template.dir());
            InstanceDirectory.deleteTree(bin);
        }
    }

    private static String sql(Target t, String query) throws SQLException {
        try (Connection c = t.connect(); Statement s = c.createStatement()) {
            if (!s.execute(query)) return null;
            try (ResultSet rs = s.getResultSet()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
