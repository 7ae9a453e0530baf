package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.PgVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

@KenshoTarget
class ManagedServerTest {

    static String show(Target t, String name) throws SQLException {
        try (Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void pgVersion16StartsSixteen(@PgVersion(16) Target pg) throws SQLException {
        assertTrue(show(pg, "server_version").startsWith("16."), show(pg, "server_version"));
        assertEquals(TargetKind.EMBEDDED, pg.kind());
    }

    @Test
    void pgVersion17StartsSeventeen(@PgVersion(17) Target pg) throws SQLException {
        assertTrue(show(pg, "server_version").startsWith("17."), show(pg, "server_version"));
    }

    @Test
    void defaultIsNewestCarried(@PgVersion(18) Target pg) throws SQLException {
        assertEquals(18, KenshoVersion.newestEmbeddedMajor());
        assertTrue(show(pg, "server_version").startsWith("18."));
        assertTrue(pg.sameHost());
        assertTrue(Files.exists(pg.control().dataDirectory().orElseThrow().resolve("kensho.conf")));
    }

    static String show(DataSource pool, String name) throws SQLException {
        try (Connection c = pool.getConnection(); ResultSet rs = c.createStatement().executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void postmasterSettingRestartsAndUserSettingReloads() throws SQLException {
        Target closed;
        try (Target pg = new TargetSpec().pgVersion(17).open()) {
            closed = pg;
            DataSource pool = pg.pool(2);
            SettingsOutcome user = pg.control().apply(Map.of("work_mem", "64MB"));
            assertFalse(user.restarted());
            assertEquals("64MB", show(pg, "work_mem"));
            // a backend-level setting reaches only sessions begun after the reload: the pool's idle one is replaced
            assertEquals("off", show(pool, "log_disconnections"));
            assertFalse(pg.control().apply(Map.of("log_disconnections", "on")).restarted());
            assertEquals("on", show(pool, "log_disconnections"));

            String before = show(pg, "max_worker_processes");
            SettingsOutcome pm = pg.control().apply(Map.of("max_worker_processes", "13"));
            assertTrue(pm.restarted(), pm.actions().toString());
            assertEquals("13", show(pg, "max_worker_processes"));
            assertTrue(!before.equals("13"));
            // A pool made before the restart goes on, with the new settings.
            assertEquals("13", show(pool, "max_worker_processes"));
            assertEquals("64MB", show(pool, "work_mem"));

            // Same value again: nothing to do, no restart.
            assertFalse(pg.control().apply(Map.of("max_worker_processes", "13")).restarted());

            // the server's TimeZone and DateStyle order are its sessions' (pgjdbc's login gave them the JVM's zone),
            // a setting's name taken in any case, as the server takes it
            assertEquals(Map.of("TimeZone", "America/St_Johns", "DateStyle", "ISO, DMY"),
                    pg.control().apply(Map.of("timezone", "America/St_Johns", "DATESTYLE", "ISO, DMY")).applied());
            assertEquals("America/St_Johns", show(pg, "TimeZone"));
            assertEquals("America/St_Johns", show(pool, "TimeZone"));
            assertEquals("ISO, DMY", show(pg, "DateStyle"));

            SettingsOutcome unknown = pg.control().apply(Map.of("no_such_setting", "1"));
            assertEquals(Map.of("no_such_setting", "unknown setting"), unknown.refused());

            // A value the server rejects: one-line error, and the server still runs with the old values.
            KenshoException bad = assertThrows(KenshoException.class, () -> pg.control().apply(Map.of("shared_buffers", "lots")));
            assertTrue(bad.getMessage().contains("shared_buffers"), bad.getMessage());
            assertEquals("13", show(pg, "max_worker_processes"));
            // the failed restart and the start after it are in what Kensho did (run.json's notes)
            String failed = pg.control().actions().get(pg.control().actions().size() - 1);
            assertTrue(failed.startsWith("could not set shared_buffers (default) → lots (restart): shared_buffers=lots: ")
                    && failed.endsWith("; started PostgreSQL again with the settings before"), failed);

            // The same for a reloaded setting, in the server's words; the bad value must not stay in
            // kensho.conf, where it would stop every later restart.
            KenshoException badReload = assertThrows(KenshoException.class, () -> pg.control().apply(Map.of("work_mem", "banana")));
            // named as asked of apply(), not as a command-line --set: a --matrix cell or a Java caller asked it
            assertEquals("work_mem=banana: invalid value for parameter \"work_mem\": \"banana\"", badReload.getMessage());
            assertTrue(bad.getMessage().startsWith("shared_buffers=lots: "), bad.getMessage());
            assertEquals("64MB", pg.control().applied().get("work_mem"));
            pg.control().restart();
            assertEquals("64MB", show(pg, "work_mem"));
            assertEquals("64MB", show(pool, "work_mem"));

            // close() ends the pools first, then stops the server, whose stop asks whether the server still takes
            // connections (it refuses them while it resets after a crash). Asked through the closed target, a healthy
            // server seemed to refuse, and every stop waited 3 s for a crash line that never came.
            ((JdbcTarget) pg).closePools();
            assertThrows(IllegalStateException.class, pg::connect);
            assertTrue(((JdbcTarget) pg).acceptsConnections(), "a healthy server, its pools closed, takes connections");
        }
        // A closed target says so instead of "connection refused" from a port the user never chose.
        IllegalStateException gone = assertThrows(IllegalStateException.class, closed::connect);
        assertTrue(gone.getMessage().startsWith("target closed"), gone.getMessage());
    }

    /**
     * A value the server already has, written otherwise (a bare number is in the setting's unit: 16384 blocks of
     * shared_buffers are 128MB), was compared as a string and restarted the server for nothing.
     */
    /**
     * A server run as an ordinary user is that user: with trust, any other user of the machine logged in as its superuser
     * and ran programs as them (COPY ... TO PROGRAM). It asks every login for a password of its own, which Kensho's
     * connections, the wire engine's login and a kept directory's next run have. As root, where the server is the user
     * kensho, only when asked (-Dkensho.serverPassword=true), which is how this test runs either way.
     */
    @Test
    void aServerOfAnOrdinaryUserAsksEveryLoginForItsPassword(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        String was = System.getProperty("kensho.serverPassword");
        System.setProperty("kensho.serverPassword", "true");
        java.nio.file.Path keep = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep-pw");
        try {
            for (int run = 0; run < 2; run++) {
                try (Target pg = new TargetSpec().pgVersion(17).keepData(keep).open()) {
                    assertTrue(show(pg, "server_version").startsWith("17."), "Kensho's own connections log in");
                    java.sql.SQLException refused = assertThrows(java.sql.SQLException.class, () -> java.sql.DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + pg.port() + "/postgres", "postgres", "not-the-password"));
                    assertEquals("28P01", refused.getSQLState(), refused.getMessage());
                    java.nio.file.Path file = pg.serverPasswordFile().orElseThrow();
                    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
                    assertEquals(Files.readString(file).strip(), pg.wireLogin().password());
                    // the password is no run's to print
                    assertEquals("****", dev.kensho.core.Credentials.mask(pg.wireLogin().password()));
                }
            }
        } finally {
            if (was == null) System.clearProperty("kensho.serverPassword"); else System.setProperty("kensho.serverPassword", was);
            InstanceDirectory.deleteTree(keep);
        }
    }

    @Test
    void aValueTheServerHasWrittenOtherwiseChangesNothing() throws SQLException {
        try (Target pg = new TargetSpec().set("shared_buffers", "128MB").open()) {
            String started = startTime(pg);
            SettingsOutcome same = pg.control().apply(Map.of("shared_buffers", "16384"));
            assertFalse(same.restarted(), same.actions().toString());
            assertEquals(java.util.List.of(), same.actions());
            assertEquals(started, startTime(pg));
            assertEquals("128MB", show(pg, "shared_buffers"));
            // another value still restarts, written as given
            assertTrue(pg.control().apply(Map.of("shared_buffers", "16400")).restarted());
            assertEquals("16400", pg.control().applied().get("shared_buffers"));
            assertEquals("131200kB", show(pg, "shared_buffers"));
        }
    }

    private static String startTime(Target pg) throws SQLException {
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT pg_postmaster_start_time()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Parallel tests sharing one server: restarts and settings changes from several threads take turns. */
    @Test
    void restartsAndSettingsFromSeveralThreadsTakeTurns() throws Exception {
        try (Target pg = new TargetSpec().open()) {
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(3);
            try {
                java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(3);
                java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    done.add(threads.submit(() -> {
                        together.await();
                        for (int i = 0; i < 2; i++) pg.control().restart();
                        return null;
                    }));
                }
                done.add(threads.submit(() -> {
                    together.await();
                    for (int i = 0; i < 10; i++) pg.control().apply(Map.of("work_mem", i % 2 == 0 ? "8MB" : "16MB"));
                    return null;
                }));
                for (var f : done) f.get(5, java.util.concurrent.TimeUnit.MINUTES);
            } finally {
                threads.shutdownNow();
            }
            assertEquals("16MB", show(pg, "work_mem"));
            assertEquals(4, pg.control().actions().stream().filter("restarted"::equals).count(), pg.control().actions().toString());
        }
    }

    /** A bad --set is the user's mistake (exit 2) in the server's words, not pg_ctl's "Examine the log output". */
    @Test
    void aValueTheServerRefusesAtStartIsAUsageError() {
        KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).set("work_mem", "bogus").open());
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertEquals("--set work_mem=bogus: invalid value for parameter \"work_mem\": \"bogus\"", e.getMessage());
        // refused by a check before the server's logging starts: no level in the log, and pg_ctl said only "Examine the log output."
        KenshoException few = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).set("max_connections", "1").open());
        assertEquals(KenshoException.USAGE, few.exitCode());
        assertEquals("--set max_connections=1: \"superuser_reserved_connections\" (3) plus \"reserved_connections\" (0) must be less than "
                + "\"max_connections\" (1)", few.getMessage());
        // a boolean's bad value has words of its own: it was exit 3, "configuration file ... contains errors"
        KenshoException maybe = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).set("fsync", "maybe").open());
        assertEquals(KenshoException.USAGE, maybe.exitCode());
        assertEquals("--set fsync=maybe: parameter \"fsync\" requires a Boolean value", maybe.getMessage());
    }

    /**
     * A valid value the machine cannot give (4 TB of shared memory) stops the start: the line names the settings the
     * server was started with and the server log's reason, without pg_ctl's "Examine the log output."
     */
    @Test
    void aStartTheMachineCannotGiveNamesTheSettings() throws Exception {
        // with overcommit_memory=1 the kernel would map the 4 TB and the server start
        assumeTrue(!"1".equals(Files.readString(java.nio.file.Path.of("/proc/sys/vm/overcommit_memory")).strip()),
                "the kernel maps any size (vm.overcommit_memory=1)");
        KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).set("shared_buffers", "4TB").open());
        assertEquals(KenshoException.TARGET, e.exitCode());
        assertTrue(e.getMessage().startsWith("starting PostgreSQL failed (server log: could not map anonymous shared memory"), e.getMessage());
        assertTrue(e.getMessage().endsWith("; it was started with shared_buffers=4TB"), e.getMessage());
        assertFalse(e.getMessage().contains("Examine the log output"), e.getMessage());
    }

    /**
     * Programs on a file system mounted noexec: "--pg-bin ... has no executable initdb" was said of files with their x
     * bits, and of the embedded binaries in a KENSHO_HOME there, naming an option the user never gave.
     */
    @Test
    void programsOnANoexecMountAreSaidToBeThere(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path mount = Files.createDirectories(tmp.resolve("noexec"));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m,noexec", "tmpfs", mount.toString()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes()).strip();
        org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "cannot mount a noexec tmpfs here (" + said + ")");
        try {
            java.nio.file.Path bin = Files.createDirectories(mount.resolve("pg/bin"));
            for (String tool : java.util.List.of("initdb", "pg_ctl", "postgres")) {
                Files.setPosixFilePermissions(Files.writeString(bin.resolve(tool), "#!/bin/sh\n"),
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            assertEquals(mount.toString(), ManagedServer.noexecMount(bin));
            assertNull(ManagedServer.noexecMount(tmp), "the directory the mount is in is not on it");
            KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().pgBin(bin).open());
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("--pg-bin " + bin + " is on a file system mounted noexec (" + mount + "): its programs cannot run", e.getMessage());
            e = assertThrows(KenshoException.class, () -> ManagedServer.start(TargetKind.EMBEDDED, bin, null, java.util.Map.of()));
            assertEquals("KENSHO_HOME " + KenshoHome.dir() + " is on a file system mounted noexec (" + mount + "): the PostgreSQL programs"
                    + " Kensho keeps there cannot run; set KENSHO_HOME to a directory on another file system", e.getMessage());
        } finally {
            new ProcessBuilder("umount", mount.toString()).inheritIO().start().waitFor();
        }
    }

    /** --pg-bin that is no directory, or not PostgreSQL's: one line saying which (a missing one read 'has no executable initdb'). */
    @Test
    void aPgBinThatIsNotPostgresSaysWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        KenshoException missing = assertThrows(KenshoException.class, () -> new TargetSpec().pgBin(tmp.resolve("nowhere")).open());
        assertEquals(KenshoException.USAGE, missing.exitCode());
        assertEquals("--pg-bin " + tmp.resolve("nowhere") + ": no such directory (give the bin directory of an installed PostgreSQL, "
                + "e.g. /usr/lib/postgresql/15/bin)", missing.getMessage());
        java.nio.file.Path file = Files.writeString(tmp.resolve("file"), "");
        assertTrue(assertThrows(KenshoException.class, () -> new TargetSpec().pgBin(file).open()).getMessage()
                .startsWith("--pg-bin " + file + ": not a directory"));
        assertEquals("--pg-bin " + tmp + " is not a PostgreSQL bin directory: it has no executable initdb",
                assertThrows(KenshoException.class, () -> new TargetSpec().pgBin(tmp).open()).getMessage());
        // the installation's directory, whose bin/ was meant (/usr/lib/postgresql/15): that one is named
        java.nio.file.Path install = Files.createDirectories(tmp.resolve("15/bin")).getParent();
        java.nio.file.Path initdb = Files.writeString(install.resolve("bin/initdb"), "#!/bin/sh\n");
        initdb.toFile().setExecutable(true);
        assertEquals("--pg-bin " + install + " is not a PostgreSQL bin directory: it has no executable initdb (" + install.resolve("bin")
                + " has: --pg-bin " + install.resolve("bin") + ")",
                assertThrows(KenshoException.class, () -> new TargetSpec().pgBin(install).open()).getMessage());
        // tools of those names that are not PostgreSQL's: their initdb made nothing ("cannot edit postgresql.conf" before)
        // (where the server's user can run them: as root Kensho runs initdb as another user)
        java.nio.file.Path fake = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "fake-bin");
        try {
            Files.setPosixFilePermissions(fake, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            for (String tool : java.util.List.of("initdb", "pg_ctl", "postgres")) {
                Files.setPosixFilePermissions(Files.writeString(fake.resolve(tool), "#!/bin/sh\necho hello\n"),
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            KenshoException notPg = assertThrows(KenshoException.class, () -> new TargetSpec().pgBin(fake).open());
            assertTrue(notPg.getMessage().startsWith("--pg-bin " + fake + ": its initdb made no data directory in ")
                    && notPg.getMessage().endsWith(" (is it PostgreSQL's initdb?)"), notPg.getMessage());
        } finally {
            try (var files = Files.walk(fake)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * A throw-away server takes its tablespaces' files with it (scan's --tablespace-dir left gigabytes after a Ctrl-C):
     * in a location Kensho made, which goes once empty; a user's own location is left as it is.
     */
    @Test
    void aThrowAwayServerRemovesWhatItsTablespacesHold() throws Exception {
        Path parent = Files.createTempDirectory(Path.of("/var/tmp"), "kensho-test-ts");
        try {
            Path own = Files.createTempDirectory(parent, KenshoHome.OWN_TABLESPACE_PREFIX);
            Path users = Files.createTempDirectory(parent, "theirs-");
            Files.writeString(users.resolve("notes.txt"), "not the server's");
            try (Target pg = new TargetSpec().open(); Connection c = pg.connect(); Statement s = c.createStatement()) {
                var owner = Files.getOwner(pg.control().dataDirectory().orElseThrow());
                for (Path d : List.of(parent, own, users)) Files.setOwner(d, owner);
                s.execute("CREATE TABLESPACE kx_own LOCATION '" + own + "'");
                s.execute("CREATE TABLESPACE kx_theirs LOCATION '" + users + "'");
                s.execute("CREATE TABLE kx_a TABLESPACE kx_own AS SELECT g FROM generate_series(1, 1000) g");
                s.execute("CREATE TABLE kx_b TABLESPACE kx_theirs AS SELECT g FROM generate_series(1, 1000) g");
                try (var files = Files.list(own)) {
                    assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("PG_")), "the table's files are there");
                }
            }
            assertFalse(Files.exists(own), "Kensho's location goes with the server");
            // a user's location is theirs: root does not follow a link the server's user may have rewritten
            try (var files = Files.list(users)) {
                assertEquals(2, files.filter(f -> f.getFileName().toString().equals("notes.txt") || f.getFileName().toString().startsWith("PG_")).count());
            }
        } finally {
            InstanceDirectory.deleteTree(parent);
        }
    }

    @Test
    void keepDataReusesTheDatabase() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
        try {
            try (Target pg = new TargetSpec().pgVersion(17).keepData(dir).open(); Connection c = pg.connect()) {
                c.createStatement().execute("CREATE TABLE kept(x int); INSERT INTO kept VALUES (42)");
            }
            try (Target pg = new TargetSpec().pgVersion(17).keepData(dir).open(); Connection c = pg.connect();
                 ResultSet rs = c.createStatement().executeQuery("SELECT x FROM kept")) {
                assertTrue(rs.next());
                assertEquals(42, rs.getInt(1));
            }
            KenshoException other = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(16).keepData(dir).open());
            assertEquals(KenshoException.USAGE, other.exitCode());
            assertTrue(other.getMessage().endsWith("holds a PostgreSQL 17 data directory; these binaries are PostgreSQL 16"
                    + " (keep each version's data in its own directory)"), other.getMessage());
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }

    /**
     * A kept directory's server.log holds its earlier starts (pg_ctl -l appends): a start that failed quoted the last
     * "invalid value" line of the whole log, an earlier run's --set, where its own failure was another.
     */
    @Test
    void aFailedStartQuotesItsOwnLogLinesNotAnEarlierRunsOfAKeptDirectory() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
        try {
            KenshoException bogus = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).keepData(dir).set("work_mem", "bogus").open());
            assertEquals("--set work_mem=bogus: invalid value for parameter \"work_mem\": \"bogus\"", bogus.getMessage());
            // a valid value the server cannot start with (max_wal_senders is 10)
            KenshoException minimal = assertThrows(KenshoException.class,
                    () -> new TargetSpec().pgVersion(17).keepData(dir).set("wal_level", "minimal").open());
            assertEquals(KenshoException.TARGET, minimal.exitCode());
            assertEquals("starting PostgreSQL failed (server log: WAL streaming (\"max_wal_senders\" > 0) requires \"wal_level\" to be \"replica\" or \"logical\");"
                    + " it was started with wal_level=minimal", minimal.getMessage());
            // a bad line in its postgresql.conf: the server names the line, then says only that the file "contains errors"
            Path conf = dir.resolve("data").resolve("postgresql.conf");
            Files.writeString(conf, "work_mem = = 4MB\n", java.nio.file.StandardOpenOption.APPEND);
            KenshoException garbage = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).keepData(dir).open());
            assertTrue(garbage.getMessage().matches("starting PostgreSQL failed \\(server log: syntax error in file \".*postgresql.conf\" line \\d+, near token \"=\"\\)"),
                    garbage.getMessage());
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }

    /**
     * The port is chosen before initdb, seconds before the server binds it; on a busy machine (another fork's
     * servers) something else may hold it by then. The start takes another port instead of failing.
     */
    @Test
    void aPortTakenBeforeTheServerBindsIsReplaced() throws Exception {
        for (int attempt = 0; attempt < 5; attempt++) {
            var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
            var taker = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                // takes the port as soon as kensho.conf names it, before pg_ctl's server binds it
                var taken = taker.submit(() -> {
                    var conf = dir.resolve("data/kensho.conf");
                    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
                    while (!Files.exists(conf) && System.nanoTime() < deadline) Thread.sleep(1);
                    var m = java.util.regex.Pattern.compile("(?m)^port = (\\d+)$").matcher(Files.readString(conf));
                    assertTrue(m.find());
                    return new java.net.ServerSocket(Integer.parseInt(m.group(1)), 1, java.net.InetAddress.getByName("127.0.0.1"));
                });
                try (Target pg = new TargetSpec().keepData(dir).open()) {
                    java.net.ServerSocket holder;
                    try {
                        holder = taken.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        if (e.getCause() instanceof java.net.BindException) continue;   // the server was first: again
                        throw e;
                    }
                    try (holder) {
                        assertTrue(holder.getLocalPort() != pg.port(), "server on the taken port " + pg.port());
                        try (Connection c = pg.connect()) {
                            assertTrue(c.isValid(2));
                        }
                    }
                    return;
                }
            } finally {
                taker.shutdownNow();
                InstanceDirectory.deleteTree(dir);
            }
        }
        org.junit.jupiter.api.Assertions.fail("the server bound its port before the test could take it, five times");
    }

    /**
     * A restart leaves the port free for a moment: a port of the ephemeral range could become a client connection's
     * source port then, and the server could not come back. Managed servers listen below that range.
     */
    @Test
    void theServerListensBelowTheEphemeralPortRange() throws Exception {
        assumeTrue(Files.exists(java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range")), "not Linux: no ip_local_port_range");
        int low = FreePort.ephemeralLow();
        assumeTrue(low > 2048, "ip_local_port_range starts at " + low + ": no room below it");
        try (Target pg = new TargetSpec().open()) {
            assertTrue(pg.port() < low && pg.port() >= 1024, pg.port() + " is not below the ephemeral range starting at " + low);
            pg.control().restart();
            try (Connection c = pg.connect()) {
                assertTrue(c.isValid(2));
            }
        }
    }

    /** Two runs given one kept directory (two CI forks): the second is refused, the first goes on. */
    @Test
    void aKeptDirectoryInUseIsRefused() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
        try {
            try (Target first = new TargetSpec().keepData(dir).open()) {
                KenshoException second = assertThrows(KenshoException.class, () -> new TargetSpec().keepData(dir).open());
                assertEquals(KenshoException.USAGE, second.exitCode());
                assertEquals("--keep-data " + dir + " is in use by another running server of Kensho's (process "
                        + ProcessHandle.current().pid() + "); give each concurrent run a directory of its own", second.getMessage());
                try (Connection c = first.connect()) {
                    assertTrue(c.isValid(2));
                }
                // the refusal let go of nothing: another process still cannot take the first one's lock
                // (POSIX locks belong to the process; closing a second channel on the file would have dropped it)
                if (Files.isExecutable(java.nio.file.Path.of("/usr/bin/python3"))) {   // the tool at hand with fcntl locks
                    Process other = new ProcessBuilder("/usr/bin/python3", "-c", "import fcntl,sys\n"
                            + "f=open(sys.argv[1],'a')\ntry:\n fcntl.lockf(f,fcntl.LOCK_EX|fcntl.LOCK_NB)\n print('taken')\n"
                            + "except OSError:\n print('held')", dir.resolve("in-use.lock").toString()).redirectErrorStream(true).start();
                    String said = new String(other.getInputStream().readAllBytes()).strip();
                    other.waitFor();
                    assertEquals("held", said);
                }
            }
            // once the first has closed, the directory is free again
            try (Target again = new TargetSpec().keepData(dir).open(); Connection c = again.connect()) {
                assertTrue(c.isValid(2));
            }
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }

    /**
     * --keep-data . in a repository, or a home directory: everything in it was given to the server's user (chown -R as
     * root) before it was refused. Refused now with nothing changed; a link to a directory is that directory.
     */
    @Test
    void aKeptDirectoryOfAnotherUserIsNotTakenByRoot() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(ServerUser.isRoot(), "as root only is a --keep-data directory given to the server's user");
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep-theirs");
        try {
            ServerUser.run(java.util.List.of("chown", "nobody", dir.toString()), "chown");
            KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().keepData(dir).open());
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("--keep-data " + dir + " belongs to nobody: as root, Kensho gives"), e.getMessage());
            assertEquals("nobody", Files.getOwner(dir).getName(), "left as found");
            try (var left = Files.list(dir)) {
                assertEquals(0, left.count(), "nothing made in it");
            }
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }

    @Test
    void aKeptDirectoryWithOtherFilesIsRefusedUntouched() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
        try {
            Files.writeString(dir.resolve("precious.txt"), "someone's");
            var owner = Files.getOwner(dir.resolve("precious.txt"));
            KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().keepData(dir).open());
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("--keep-data " + dir + " holds files Kensho did not make (precious.txt): give an empty directory, or one an "
                    + "earlier --keep-data made (nothing in it was changed)", e.getMessage());
            assertEquals(owner, Files.getOwner(dir.resolve("precious.txt")));
            assertEquals(owner, Files.getOwner(dir));
            // a folder of the user's named data: given away by the first run, removed by the next as an initdb's debris
            Files.delete(dir.resolve("precious.txt"));
            Files.createDirectories(dir.resolve("data/sub"));
            Files.writeString(dir.resolve("data/notes.txt"), "someone's");
            for (int i = 0; i < 2; i++) {
                KenshoException data = assertThrows(KenshoException.class, () -> new TargetSpec().keepData(dir).open());
                assertTrue(data.getMessage().endsWith("is not a data directory Kensho finished making (no include of kensho.conf in its"
                        + " postgresql.conf); remove it, or give another directory (nothing in it was changed)"), data.getMessage());
            }
            assertEquals(owner, Files.getOwner(dir.resolve("data/notes.txt")));
            assertFalse(Files.exists(dir.resolve(ManagedServer.INITDB_STARTED)));
            InstanceDirectory.deleteTree(dir.resolve("data"));
            Path dangling = dir.resolveSibling(dir.getFileName() + "-gone");
            Files.createSymbolicLink(dangling, dir.resolveSibling(dir.getFileName() + "-nowhere"));
            try {
                assertEquals("--keep-data " + dangling + " is a link to " + dir.resolveSibling(dir.getFileName() + "-nowhere")
                        + ", which does not exist", assertThrows(KenshoException.class, () -> new TargetSpec().keepData(dangling).open()).getMessage());
            } finally {
                Files.deleteIfExists(dangling);
            }
            // through a link: the server's files go to the directory it names
            Path link = Files.createSymbolicLink(dir.resolveSibling(dir.getFileName() + "-link"), dir);
            try {
                try (Target pg = new TargetSpec().keepData(link).open(); Connection c = pg.connect();
                     ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                    assertTrue(rs.next());
                }
                assertTrue(Files.exists(dir.resolve("data/PG_VERSION")));
            } finally {
                Files.deleteIfExists(link);
            }
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }

    @Test
    void anInterruptedInitdbIsRedoneAndAForeignDirectoryRefused() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
        try {
            // what a Ctrl-C during initdb leaves: PG_VERSION and a postgresql.conf without Kensho's include
            Files.createDirectories(dir.resolve("data"));
            Files.writeString(dir.resolve("data/PG_VERSION"), "17\n");
            Files.writeString(dir.resolve("data/postgresql.conf"), "# initdb was here\n");
            Files.writeString(dir.resolve(ManagedServer.INITDB_STARTED), "initdb under way\n");
            try (Target pg = new TargetSpec().pgVersion(17).keepData(dir).open(); Connection c = pg.connect();
                 ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                assertTrue(rs.next());
                assertTrue(pg.control().actions().stream().anyMatch(a -> a.startsWith("removed the data directory an interrupted initdb left")),
                        pg.control().actions().toString());
            }
            assertFalse(Files.exists(dir.resolve(ManagedServer.INITDB_STARTED)), "a finished initdb leaves no marker");
            // the same leftovers without Kensho's marker are not Kensho's to remove
            InstanceDirectory.deleteTree(dir.resolve("data"));
            Files.createDirectories(dir.resolve("data"));
            Files.writeString(dir.resolve("data/PG_VERSION"), "17\n");
            Files.writeString(dir.resolve("data/postgresql.conf"), "# someone's\n");
            KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).keepData(dir).open());
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().endsWith("is not a data directory Kensho finished making (no include of kensho.conf in its"
                    + " postgresql.conf); remove it, or give another directory (nothing in it was changed)"), e.getMessage());
            assertTrue(Files.exists(dir.resolve("data/PG_VERSION")), "left as it was");
            // not given to the server's user first (chown -R ran before the check)
            assertEquals(Files.getOwner(dir.getParent()), Files.getOwner(dir.resolve("data/PG_VERSION")));
            // and if something runs there, it is not Kensho's to stop (pg_ctl stop would signal the pid in the file)
            Process other = new ProcessBuilder("sleep", "60").start();
            try {
                Files.writeString(dir.resolve("data/postmaster.pid"), other.pid() + "\n" + dir.resolve("data") + "\n");
                assertThrows(KenshoException.class, () -> new TargetSpec().pgVersion(17).keepData(dir).open());
                // a signalled process is seen ended only once the JVM has reaped it, late on a loaded machine: waitFor
                // returns as soon as it has, where a fixed sleep and one isAlive() could miss it and pass
                assertFalse(other.waitFor(5, java.util.concurrent.TimeUnit.SECONDS), "Kensho signalled a process it did not start");
            } finally {
                other.destroyForcibly();
            }
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }

    /**
     * A kept directory whose pid file outlived its server (a machine that rebooted): the pid it names may belong to
     * any process of the server's user by now, even another run's server. pg_ctl stop would signal it; Kensho
     * removes the stale file and starts.
     */
    @Test
    void aStalePidFileInAKeptDirectoryIsRemovedNotSignalled() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
        java.util.List<String> sleep = new java.util.ArrayList<>(ServerUser.commandPrefix());
        sleep.addAll(java.util.List.of("sleep", "60"));
        Process other = null;
        try {
            try (Target pg = new TargetSpec().keepData(dir).open()) {
                assertTrue(pg.port() > 0);
            }
            other = new ProcessBuilder(sleep).start();   // as the server's user: pg_ctl could signal it
            long otherPid = other.descendants().findFirst().map(ProcessHandle::pid).orElse(other.pid());
            Files.writeString(dir.resolve("data/postmaster.pid"), otherPid + "\n" + dir.resolve("data") + "\n");
            try (Target pg = new TargetSpec().keepData(dir).open(); Connection c = pg.connect()) {
                assertTrue(c.isValid(2));
                assertTrue(ProcessHandle.of(otherPid).map(ProcessHandle::isAlive).orElse(false), "Kensho signalled process " + otherPid);
                assertTrue(pg.control().actions().contains("removed a stale postmaster.pid (process " + otherPid + " is no server of "
                        + dir.resolve("data") + ")"), pg.control().actions().toString());
            }
        } finally {
            if (other != null) {
                other.descendants().forEach(ProcessHandle::destroyForcibly);
                other.destroyForcibly();
            }
            InstanceDirectory.deleteTree(dir);
        }
    }

    /**
     * A server process killed (kill -9 of a backend): the postmaster resets and recovers, and PostgreSQL 18 never
     * finishes a fast shutdown asked for during that recovery. Closing must still stop it, remove its directory and
     * say what happened, not wait two minutes and leave a server running whose directory it deleted.
     */
    @Test
    void aCrashedServerIsStoppedAndSaidSo() throws Exception {
        Target pg = new TargetSpec().open();
        java.nio.file.Path data = pg.control().dataDirectory().orElseThrow();
        java.nio.file.Path instance = data.getParent();
        long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        try {
            try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                assertTrue(ProcessHandle.of(rs.getLong(1)).orElseThrow().destroyForcibly());
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (!Files.readString(instance.resolve("server.log")).contains("was terminated by signal 9")) {
                assertTrue(System.nanoTime() < deadline, "the postmaster never noticed its backend's end");
                Thread.sleep(20);
            }
            long closing = System.nanoTime();
            pg.close();
            long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - closing);
            // pg_ctl saw the pid file go: the process itself ends a moment later
            ProcessHandle.of(postmaster).ifPresent(h -> h.onExit().completeOnTimeout(h, 10, java.util.concurrent.TimeUnit.SECONDS).join());
            assertFalse(ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false), "postgres " + postmaster + " left running; "
                    + pg.control().actions());
            assertFalse(Files.exists(instance), instance + " left behind");
            assertTrue(seconds < 60, "closing took " + seconds + " s");
            assertTrue(pg.control().actions().stream().anyMatch(a -> a.startsWith("the server crashed (server log: client backend (PID ")
                    && a.endsWith(") was terminated by signal 9: Killed); stopped with -m immediate")), pg.control().actions().toString());
        } finally {
            ProcessHandle.of(postmaster).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * A server whose processes were stopped (SIGSTOP) is continued and stopped by close(), as by Ctrl-C's hook: both waited
     * for ever, on a login without a timeout and then on pg_ctl stop, whose signal a stopped postmaster does not take.
     */
    @Test
    void aStoppedServerIsContinuedAndStopped() throws Exception {
        Target pg = new TargetSpec().open();
        java.nio.file.Path data = pg.control().dataDirectory().orElseThrow();
        java.nio.file.Path instance = data.getParent();
        ProcessHandle postmaster = ProcessHandle.of(Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim())).orElseThrow();
        java.util.List<String> stop = new java.util.ArrayList<>(java.util.List.of("kill", "-STOP"));
        java.util.stream.Stream.concat(java.util.stream.Stream.of(postmaster), postmaster.descendants()).forEach(h -> stop.add(String.valueOf(h.pid())));
        try {
            // a process listed a moment ago may have ended since (an autovacuum worker): kill then says so and exits 1
            new ProcessBuilder(stop).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
            // kill returns once the signal is sent, not taken: a busy machine showed the postmaster still running ("R")
            java.nio.file.Path statFile = java.nio.file.Path.of("/proc", String.valueOf(postmaster.pid()), "stat");
            String stat = Files.readString(statFile);
            for (long until = System.nanoTime() + 5_000_000_000L; !stat.substring(stat.lastIndexOf(')') + 2).startsWith("T")
                    && System.nanoTime() < until; stat = Files.readString(statFile)) {
                Thread.sleep(20);
            }
            assertTrue(stat.substring(stat.lastIndexOf(')') + 2).startsWith("T"), "the postmaster is stopped: " + stat);
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), pg::close);
            postmaster.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(pg.control().actions().stream().anyMatch(a -> a.matches("continued \\d+ stopped server process(es)? \\(SIGCONT\\) to shut the server down")),
                    pg.control().actions().toString());
            assertFalse(Files.exists(instance), "stopped, its instance removed");
        } finally {
            java.util.List<String> cont = new java.util.ArrayList<>(stop);
            cont.set(1, "-CONT");
            new ProcessBuilder(cont).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
            if (Files.exists(instance)) InstanceDirectory.deleteTree(instance);
        }
    }

    /**
     * A managed server whose postmaster was killed (not one of its backends) restarts nothing: waiting for it to accept
     * connections fails at once, where it waited the whole 60 s before each later trial.
     */
    @Test
    void awaitingAServerWhosePostmasterIsGoneFailsAtOnce() throws Exception {
        Target pg = new TargetSpec().open();
        java.nio.file.Path data = pg.control().dataDirectory().orElseThrow();
        java.nio.file.Path instance = data.getParent();
        long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        try {
            assertEquals(0, pg.awaitAccepting(java.time.Duration.ofSeconds(60)), "a running server is accepted at once");
            ProcessHandle h = ProcessHandle.of(postmaster).orElseThrow();
            assertTrue(h.destroyForcibly());
            h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            long start = System.nanoTime();
            Exception e = assertThrows(Exception.class, () -> pg.awaitAccepting(java.time.Duration.ofSeconds(60)));
            assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
            long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(seconds < 10, "waited " + seconds + " s for a server that cannot come back");
        } finally {
            try {
                pg.close();
            } catch (RuntimeException e) {
                // pg_ctl stop has no postmaster to signal
            }
            InstanceDirectory.deleteTree(instance);
        }
    }

    /**
     * restart() of a server whose postmaster was killed starts it again: pg_ctl stop failed on it ("No such process"),
     * and the server stayed down for the rest of the harness's tests.
     */
    @Test
    void aRestartStartsAServerWhosePostmasterWasKilled() throws Exception {
        try (Target pg = new TargetSpec().open()) {
            java.nio.file.Path data = pg.control().dataDirectory().orElseThrow();
            ProcessHandle h = ProcessHandle.of(Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim())).orElseThrow();
            assertTrue(h.destroyForcibly());
            h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            pg.control().restart();
            assertFalse(show(pg, "server_version").isEmpty(), "answers");
            assertTrue(pg.control().actions().stream().anyMatch(a -> a.startsWith("the postmaster had ended (")), pg.control().actions().toString());
        }
    }

    /**
     * Before a trial, a managed server whose postmaster was killed is restarted, and the run's notes say so: every later
     * trial of a sweep failed with "Connection refused".
     */
    @Test
    void aTrialAfterAKilledPostmasterFindsTheServerRestarted(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        try (Target pg = new TargetSpec().open();
             dev.kensho.core.result.RunDirectory dir = dev.kensho.core.result.RunDirectory.create(tmp,
                     dev.kensho.core.result.RunInfo.of("query", java.util.List.of(), Map.of()))) {
            java.nio.file.Path data = pg.control().dataDirectory().orElseThrow();
            ProcessHandle h = ProcessHandle.of(Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim())).orElseThrow();
            assertTrue(h.destroyForcibly());
            h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            var trial = dev.kensho.core.result.Trial.of("cell=1", 0);
            String note = dev.kensho.core.run.TrialMatrix.awaitServer(pg, "embedded", "cell=1 #0", trial, dir);
            assertTrue(note != null && note.startsWith("embedded: the server did not accept connections (") && note.endsWith("); restarted it before cell=1 #0"), note);
            assertTrue(dir.info().notes().contains(note), dir.info().notes().toString());
            assertFalse(show(pg, "server_version").isEmpty(), "answers");
        }
    }

    /**
     * postgresql.auto.conf (an ALTER SYSTEM's, kept with --keep-data) is read after kensho.conf: a --set of the same name
     * ran with the file's value while the run recorded Kensho's. Refused, at start and in apply, naming the file.
     */
    @Test
    void aSettingPostgresqlAutoConfWouldOverrideIsRefused() throws Exception {
        var dir = Files.createTempDirectory(Files.createDirectories(KenshoHome.dir()), "keep");
        try {
            try (Target pg = new TargetSpec().keepData(dir).open(); Connection c = pg.connect()) {
                c.createStatement().execute("ALTER SYSTEM SET work_mem = '77MB'");
                KenshoException e = assertThrows(KenshoException.class, () -> pg.control().apply(Map.of("work_mem", "5MB")));
                assertEquals(KenshoException.USAGE, e.exitCode());
                assertEquals("work_mem=5MB would not take: " + dir.toRealPath().resolve("data").resolve("postgresql.auto.conf")
                        + " sets it to '77MB', and PostgreSQL reads that file after Kensho's settings (remove the line, or ALTER SYSTEM RESET work_mem)",
                        e.getMessage());
                assertEquals(Map.of(), pg.control().applied().entrySet().stream().filter(x -> x.getKey().equals("work_mem"))
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)), "not recorded as applied");
            }
            KenshoException atStart = assertThrows(KenshoException.class, () -> new TargetSpec().keepData(dir).set("work_mem", "5MB").open());
            assertEquals(KenshoException.USAGE, atStart.exitCode());
            assertTrue(atStart.getMessage().contains("work_mem=5MB would not take: "), atStart.getMessage());
        } finally {
            InstanceDirectory.deleteTree(dir);
        }
    }

    /**
     * Where a managed server listens is Kensho's: another listen_addresses opened it to the network, another port lost it.
     * A line break ended the quoted value in kensho.conf, and a backslash started an escape (a\b became a backspace).
     */
    @Test
    void settingsThatWouldBreakKenshoConfAreRefusedAndBackslashesKept() throws Exception {
        for (var bad : java.util.List.of(Map.entry("listen_addresses", "*"), Map.entry("port", "25999"), Map.entry("unix_socket_directories", "/tmp"),
                Map.entry("cluster_name", "a\nb"), Map.entry("Data_Directory", "/tmp/elsewhere"), Map.entry("config_file", "/tmp/other.conf"))) {
            KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().set(bad.getKey(), bad.getValue()).open());
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("--set " + bad.getKey() + ": "), e.getMessage());
        }
        try (Target pg = new TargetSpec().set("cluster_name", "a\\b").open()) {
            assertEquals("a\\b", show(pg, "cluster_name"));
            KenshoException e = assertThrows(KenshoException.class, () -> pg.control().apply(Map.of("listen_addresses", "0.0.0.0")));
            assertEquals("listen_addresses=0.0.0.0: Kensho sets it on the servers it runs (127.0.0.1, a free port, no Unix socket)", e.getMessage());
            // another pg_hba.conf silently dropped the password a server of an ordinary user asks for
            KenshoException hba = assertThrows(KenshoException.class, () -> pg.control().apply(Map.of("HBA_FILE", "/tmp/trust_hba.conf")));
            assertTrue(hba.getMessage().startsWith("HBA_FILE=/tmp/trust_hba.conf: Kensho writes who may log in to the servers it runs"),
                    hba.getMessage());
            // another cluster's directory: the server started on it and outlived the start Kensho gave up on, unowned
            KenshoException data = assertThrows(KenshoException.class, () -> pg.control().apply(Map.of("data_directory", "/tmp/kept/data")));
            assertEquals("data_directory=/tmp/kept/data: Kensho owns the data directory and configuration of the servers it runs"
                    + " (--keep-data DIR keeps one of them)", data.getMessage());
        }
    }

    /**
     * A restart after a start that failed (a bad line in postgresql.conf here; its port taken meanwhile in a tester's
     * run) says so: the notes said "the postmaster had ended (killed or stopped from outside)", which nothing had done.
     */
    @Test
    void aRestartAfterAFailedStartSaysTheStartFailed() throws Exception {
        try (Target pg = new TargetSpec().open()) {
            Path conf = pg.control().dataDirectory().orElseThrow().resolve("postgresql.conf");
            String good = Files.readString(conf);
            Files.writeString(conf, good + "work_mem = = 4MB\n");
            KenshoException down = assertThrows(KenshoException.class, () -> pg.control().restart());
            assertTrue(down.getMessage().startsWith("starting PostgreSQL failed (server log: syntax error in file"), down.getMessage());
            Files.writeString(conf, good);
            pg.control().restart();
            List<String> did = pg.control().actions();
            assertTrue(did.get(did.size() - 2).matches("PostgreSQL was down, its last start having failed \\(starting PostgreSQL failed "
                    + "\\(server log: syntax error in file \".*\" line \\d+, near token \"=\"\\)\\): started it again"), did.toString());
            assertEquals("restarted", did.get(did.size() - 1));
            assertEquals("4MB", show(pg, "work_mem"));
        }
    }

    /** initdb on a full disk ends with its cleanup note; the error named that note, not the full disk. */
    @Test
    void aFailedToolIsReportedByTheLineThatSaysWhy() {
        String initdb = "running bootstrap script ... ok\n"
                + "performing post-bootstrap initialization ... 2026-11-26 18:36:01.464 UTC [22663] FATAL:  could not write to file"
                + " \"base/4/3456_vm\": No space left on device\n"
                + "2026-11-26 18:36:01.464 UTC [22663] STATEMENT:  CREATE DATABASE template0 IS_TEMPLATE = true\n\t\n"
                + "child process exited with exit code 1\n"
                + "initdb: removing data directory \"/data\"\n";
        assertEquals("could not write to file \"base/4/3456_vm\": No space left on device", ServerLog.failureReason(initdb));
        assertEquals("pg_ctl: could not start server", ServerLog.failureReason("waiting for server to start.... stopped waiting\n"
                + "pg_ctl: could not start server\n"));
    }
}
