package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A 9.6 server, the oldest the studies ran, managed as the embedded ones are. */
class OldReleasesTest {
    static Target pg;

    @BeforeAll
    static void start() {
        if (OldPostgres.isLocal(OldPostgres.PG96)) pg = OldPostgres.spec(OldPostgres.PG96).open();
    }

    @BeforeEach
    void needs96() {
        OldPostgres.assumeLocal(OldPostgres.PG96);
    }

    @AfterAll
    static void stop() {
        if (pg != null) pg.close();
    }

    /** initdb's --no-sync is 10's spelling: 9.6 refused it, and no 9.6 server ever started. */
    @Test
    void initdbAndStartAndSettings() throws Exception {
        assertTrue(ManagedServerTest.show(pg, "server_version").startsWith("9.6."));
        assertTrue(pg.control().actions().stream().anyMatch(a -> a.startsWith("initdb ")), pg.control().actions().toString());
        // a reloaded and a postmaster-level setting: pg_file_settings and the restart work on 9.6 too
        assertFalse(pg.control().apply(Map.of("work_mem", "32MB")).restarted());
        assertTrue(pg.control().apply(Map.of("max_worker_processes", "5")).restarted());
        assertEquals("32MB", ManagedServerTest.show(pg, "work_mem"));
        assertEquals("5", ManagedServerTest.show(pg, "max_worker_processes"));
    }

    @Test
    void versionAsPostgresqlNamesIt() {
        ServerVersion v = ServerVersion.of(pg);
        assertEquals("9.6", v.major());
        assertEquals(OldPostgres.PG96, v.release());
        assertFalse(v.atLeast(10));
        assertEquals("JIT needs PostgreSQL 11 or later (this server is 9.6.24)", v.lacks("JIT", 11));
    }

    /** JIT came with 11: a server before it has no pg_jit_available(), and run.json's server facts were one error. */
    @Test
    @SuppressWarnings("unchecked")
    void environmentWithoutJit() {
        Map<String, Object> server = (Map<String, Object>) Environment.capture(pg).get("server");
        assertNull(server.get("error"), server.toString());
        assertEquals(90624, server.get("server_version_num"));
        assertEquals(false, server.get("jit_available"));
        assertFalse(server.containsKey("jit"), server.toString());
    }

    /** A kept 9.6 directory says "9.6" in PG_VERSION, and postgres -V "9.6.24": its major is two numbers, not "9". */
    @Test
    void keptDataDirectoryOf96IsReused() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep96");
        try {
            try (Target kept = OldPostgres.spec(OldPostgres.PG96).keepData(dir).open(); Connection c = kept.connect()) {
                c.createStatement().execute("CREATE TABLE kept(x int); INSERT INTO kept VALUES (96)");
            }
            try (Target kept = OldPostgres.spec(OldPostgres.PG96).keepData(dir).open(); Connection c = kept.connect();
                 ResultSet rs = c.createStatement().executeQuery("SELECT x FROM kept")) {
                assertTrue(rs.next());
                assertEquals(96, rs.getInt(1));
            }
            KenshoException other = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).keepData(dir).open());
            assertTrue(other.getMessage().endsWith("holds a PostgreSQL 9.6 data directory; these binaries are PostgreSQL 17"
                    + " (keep each version's data in its own directory)"), other.getMessage());
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }
}
