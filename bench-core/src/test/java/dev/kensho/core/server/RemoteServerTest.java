package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remote path against the machine's own PostgreSQL 15 (skipped where absent). */
@KenshoTarget
class RemoteServerTest {

    @Test
    void sessionSettingsOnlyAndPostmasterRefused(@LocalPostgres Target pg) throws Exception {
        assertEquals(TargetKind.REMOTE, pg.kind());
        assertFalse(pg.control().canRestart());
        SettingsOutcome o = pg.control().apply(Map.of("jit_above_cost", "10", "max_worker_processes", "64"));
        assertTrue(o.refused().containsKey("max_worker_processes"), o.toString());
        assertTrue(o.refusalReason().contains("postmaster"), o.refusalReason());
        assertEquals("unknown setting", pg.control().apply(Map.of("no_such_setting", "1")).refused().get("no_such_setting"));
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW jit_above_cost")) {
            rs.next();
            assertEquals("10", rs.getString(1));
        }
        // The server itself was not reconfigured: another session without Kensho's options sees the default.
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "");
             ResultSet rs = c.createStatement().executeQuery("SHOW jit_above_cost")) {
            rs.next();
            assertEquals("100000", rs.getString(1));
        }
        assertThrows(KenshoException.class, () -> pg.control().restart());
    }

    /**
     * RemoteServer's class registers its exit hook when it is first used: TargetSpec.url() did that before the URL's
     * reading moved to ConnectionUrl, now the target's open does. A JVM that ends in between (Ctrl-C) must still make
     * the target, and say it is ending (apply() and restart() then refuse); the hook's registration threw, and the class
     * was unusable (ExceptionInInitializerError). The child JVM takes JvmShutdown's own hook out, which said it otherwise.
     */
    @Test
    void aRemoteTargetFirstMadeWhileTheJvmEnds() throws Exception {
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(jvm, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                LoadsRemoteServerAtExit.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), out);
        assertTrue(out.contains("made 127.0.0.1, ending true"), out);
        // no hook of RemoteServer's puts back what ALTER SYSTEM would change now, nor follows a restart of it
        assertTrue(out.contains("apply: interrupted: no more settings changes"), out);
        assertTrue(out.contains("restart: interrupted: no restart"), out);
    }

    /** ConnectionUrl holds the password read: printed (a debugger, a log of the record), it says there is one, not which. */
    @Test
    void aReadUrlPrintsNoPassword() {
        ConnectionUrl c = ConnectionUrl.read("jdbc:postgresql://bench:Zz_url_pw1@db.example:5433/x?sslpassword=Zz_ssl_pw2", null, null, Map.of());
        assertEquals("Zz_url_pw1", c.password());
        assertEquals("ConnectionUrl[bench@db.example:5433/x, password ***]", c.toString());
    }

    /**
     * The passwords a URL (userinfo or password=) and PGPASSWORD give are masked by value from the spec on, before the
     * target opens: a run's command line, recorded first, may quote one bare (-D note=..., a --restart-command).
     */
    @Test
    void aSpecsPasswordsAreMaskedBeforeItOpens() {
        new TargetSpec().url("jdbc:postgresql://u:Yy_spec%21pw@127.0.0.1/db?password=Xx_param_pw");
        ConnectionUrl.rememberPasswords("jdbc:postgresql://127.0.0.1/db", Map.of("PGPASSWORD", "Ww_env_pw1"));
        assertEquals("-D a=**** b=**** c=****", dev.kensho.core.Credentials.mask("-D a=Yy_spec!pw b=Xx_param_pw c=Ww_env_pw1"));
    }

    /** A dotted name the server does not know is a custom setting any session may set (myapp.tenant), not an unknown one. */
    @Test
    void aCustomSettingIsASessionOne(@LocalPostgres Target pg) throws Exception {
        assertEquals(Map.of("kensho_test.tenant", "7"), pg.control().apply(Map.of("kensho_test.tenant", "7")).applied());
        assertEquals("7", query(pg, "SELECT current_setting('kensho_test.tenant')"));
        assertEquals("unknown setting", pg.control().apply(Map.of("kensho_test_tenant", "7")).refused().get("kensho_test_tenant"));
    }

    /**
     * A backend-level setting goes with each new connection as the user-level ones do (the startup packet is where a
     * backend takes it); an internal one is refused as fixed, not as wanting a --restart-command that cannot change it.
     */
    @Test
    void backendSettingsPerConnectionAndInternalOnesFixed(@LocalPostgres Target pg) throws Exception {
        SettingsOutcome o = pg.control().apply(Map.of("log_disconnections", "on", "ignore_system_indexes", "on"));
        assertTrue(o.ok(), o.toString());
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT current_setting('log_disconnections') || ',' || current_setting('ignore_system_indexes')")) {
            rs.next();
            assertEquals("on,on", rs.getString(1));
        }
        SettingsOutcome fixed = pg.control().apply(Map.of("block_size", "16384"));
        assertEquals(Map.of("block_size", "fixed when the server was built or initialised (context internal)"), fixed.refused());
    }

    /** A postmaster-level value the server already runs with needs no permission, however it is written. */
    @Test
    void aValueTheServerAlreadyHasIsApplied(@LocalPostgres Target pg) throws Exception {
        String current;
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT setting::bigint * 8 FROM pg_settings WHERE name = 'shared_buffers'")) {
            rs.next();
            current = rs.getLong(1) + "kB";
        }
        SettingsOutcome same = pg.control().apply(Map.of("shared_buffers", current, "max_connections", "" + showInt(pg, "max_connections")));
        assertTrue(same.ok(), same.toString());
        assertTrue(same.actions().isEmpty(), same.toString());
        assertFalse(pg.control().apply(Map.of("shared_buffers", (showInt(pg, "shared_buffers") + 1) + "")).ok());
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url(pg.jdbcUrl()).user(pg.user()).set("max_connections", "" + (showInt(pg, "max_connections") + 1)).open());
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("--set max_connections: needs a postmaster-level change"), e.getMessage());
    }

    /**
     * A database's or role's settings go on record as the server applies them: TimeZone and DateStyle too, which pgjdbc's
     * login hides behind its own (the pgbench clients run with the database's, as libpq's). A role's statement_timeout of
     * 1 ms is the workload's: the record's own questions run without it (pg_jit_available() loading llvmjit outlasted a
     * 3 ms one, and the record said false of a JIT build, with no role and no settings).
     */
    @Test
    void theDatabasesAndRolesSettingsAreRecordedAndTheirTimeoutIsNotTheRecords(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "settings")) {
            role.asSuperuser("ALTER DATABASE " + role.name() + " SET TimeZone = 'Pacific/Chatham'");
            role.asSuperuser("ALTER ROLE " + role.name() + " IN DATABASE " + role.name() + " SET DateStyle = 'SQL, DMY'");
            role.asSuperuser("ALTER ROLE " + role.name() + " SET statement_timeout = '5s'");
            Map<String, Object> env = dev.kensho.core.env.Environment.server(role.target());
            assertFalse(env.containsKey("error") || env.containsKey("settings_error"), env.toString());
            Map<?, ?> nonDefault = (Map<?, ?>) env.get("non_default_settings");
            assertEquals("Pacific/Chatham (database)", nonDefault.get("TimeZone"), nonDefault.toString());
            assertEquals("SQL, DMY (database user)", nonDefault.get("DateStyle"), nonDefault.toString());
            assertEquals("5s (user)", nonDefault.get("statement_timeout"), nonDefault.toString());
            // the database's encoding and collation, which pg_settings lists as defaults; a primary, not a standby
            assertEquals(false, env.get("in_recovery"), env.toString());
            Map<?, ?> database = (Map<?, ?>) env.get("database");
            assertEquals(role.name(), database.get("name"), env.toString());
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pg_encoding_to_char(encoding), datcollate FROM pg_database WHERE datname = '" + role.name() + "'")) {
                rs.next();
                assertEquals(rs.getString(1), database.get("encoding"), env.toString());
                assertEquals(rs.getString(2), database.get("collate"), env.toString());
            }
            role.asSuperuser("ALTER ROLE " + role.name() + " SET statement_timeout = '1ms'");
            role.asSuperuser("ALTER ROLE " + role.name() + " SET lock_timeout = '1ms'");
            Map<String, Object> bounded = dev.kensho.core.env.Environment.server(role.target());
            assertFalse(bounded.containsKey("error"), bounded.toString());
            // read within its timeout or, where it cancels even that, without it: the setting that explains the run's
            // failures is on record either way
            assertTrue(!bounded.containsKey("settings_error") || String.valueOf(bounded.get("settings_error"))
                    .startsWith("read without the session's timeouts (ERROR: canceling statement due to statement timeout): "), bounded.toString());
            assertEquals("1ms (user)", ((Map<?, ?>) bounded.get("non_default_settings")).get("statement_timeout"), bounded.toString());
            assertEquals("Pacific/Chatham (database)", ((Map<?, ?>) bounded.get("non_default_settings")).get("TimeZone"), bounded.toString());
            assertEquals(role.name(), ((Map<?, ?>) bounded.get("role")).get("name"), bounded.toString());
            // the server's clock against this machine's, read within the record's own statements: one clock here, so within
            // the round trip (an offset in seconds or microseconds read as ms would be far off)
            for (Map<String, Object> e : java.util.List.of(env, bounded)) {
                assertTrue(Math.abs(((Number) e.get("clock_offset_ms")).longValue()) < 1000, e.toString());
            }
            // the machine's PostgreSQL has JIT (Debian's is built with LLVM), and its first load takes more than 1 ms
            assertEquals(dev.kensho.core.env.Environment.server(pg).get("jit_available"), bounded.get("jit_available"), bounded.toString());
        }
    }

    /**
     * What a run records about its target says what the role may: a plain role's pg_settings leaves out the settings only
     * a superuser or pg_read_all_settings reads, and their absence must not read as their being at the default.
     */
    @Test
    void theEnvironmentNamesTheRoleAndWhatItCannotSee(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "env")) {
            Map<String, Object> plain = dev.kensho.core.env.Environment.server(role.target());
            assertEquals(Map.of("name", role.name(), "superuser", false, "privileges_of", java.util.List.of()), plain.get("role"), plain.toString());
            assertTrue(String.valueOf(plain.get("settings_hidden")).startsWith("settings only a superuser or pg_read_all_settings may read"),
                    plain.toString());
            role.asSuperuser("GRANT pg_monitor TO " + role.name());
            Map<String, Object> monitor = dev.kensho.core.env.Environment.server(role.target());
            assertEquals(java.util.List.of("pg_monitor", "pg_read_all_settings", "pg_read_all_stats"),
                    ((Map<?, ?>) monitor.get("role")).get("privileges_of"), monitor.toString());
            assertFalse(monitor.containsKey("settings_hidden"), monitor.toString());
            Map<String, Object> superuser = dev.kensho.core.env.Environment.server(pg);
            assertEquals(true, ((Map<?, ?>) superuser.get("role")).get("superuser"), superuser.toString());
            // a superuser has the privileges of every one: an empty list read as "none"
            assertTrue(((java.util.List<?>) ((Map<?, ?>) superuser.get("role")).get("privileges_of"))
                    .containsAll(java.util.List.of("pg_monitor", "pg_read_all_settings", "pg_read_all_stats", "pg_read_server_files")),
                    superuser.toString());
            assertFalse(superuser.containsKey("settings_hidden"), superuser.toString());
            // what pgjdbc sets for its own session is not the server's configuration
            Map<?, ?> nonDefault = (Map<?, ?>) superuser.get("non_default_settings");
            assertFalse(nonDefault.values().stream().anyMatch(v -> String.valueOf(v).endsWith("(client)")), nonDefault.toString());
            Map<?, ?> driver = (Map<?, ?>) superuser.get("driver_session_settings");
            assertEquals("UTF8", driver.get("client_encoding"), superuser.toString());
            assertTrue(driver.containsKey("DateStyle") && driver.containsKey("TimeZone"), driver.toString());
        }
    }

    /**
     * --restart-command permits ALTER SYSTEM, which only a superuser may run: a plain role's postmaster-level --set is
     * refused before anything is tried, saying so, where the run stopped on "permission denied for view pg_file_settings".
     */
    @Test
    void restartCommandDoesNotMakeAPlainRoleReconfigure(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "alter");
             Target t = new TargetSpec().url(role.target().jdbcUrl()).user(role.name()).restartCommand("exit 1").open()) {
            SettingsOutcome o = t.control().apply(Map.of("shared_buffers", (showInt(pg, "shared_buffers") + 1) + ""));
            assertFalse(o.ok(), o.toString());
            assertEquals("needs a postmaster-level change, which --restart-command makes with ALTER SYSTEM: only a superuser may, and "
                    + role.name() + " is not one", o.refused().get("shared_buffers"));
            assertTrue(o.actions().isEmpty(), o.toString());
            KenshoException e = assertThrows(KenshoException.class, () -> new TargetSpec().url(role.target().jdbcUrl()).user(role.name())
                    .restartCommand("exit 1").set("shared_buffers", (showInt(pg, "shared_buffers") + 1) + "").open());
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("--set shared_buffers: needs a postmaster-level change, which --restart-command makes"), e.getMessage());
        }
    }

    /** A harness logs its Target: it printed as dev.kensho.core.server.RemoteServer@1b2c3d, its control() likewise. */
    @Test
    void aTargetPrintsAsItsDescriptionWithoutThePassword(@LocalPostgres Target pg) {
        String url = pg.jdbcUrl() + (pg.jdbcUrl().contains("?") ? "&" : "?") + "password=hunter2";
        try (Target t = new TargetSpec().url(url).user(pg.user()).open()) {
            assertEquals(t.describe(), t.toString());
            assertEquals(t.describe(), t.control().toString());
            assertTrue(t.toString().startsWith("remote PostgreSQL "), t.toString());
            assertFalse(t.toString().contains("hunter2"), t.toString());
        }
    }

    @Test
    void aRoleThatDoesNotExistIsSaidSoNotAsAFailedPassword(@LocalPostgres Target pg) {
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url(pg.jdbcUrl()).user("kensho_no_such_role").open());
        assertEquals(KenshoException.TARGET, e.exitCode());
        assertTrue(e.getMessage().startsWith("role \"kensho_no_such_role\" does not exist at "), e.getMessage());
    }

    /** libpq sends application_name in the startup packet; a SET after login would cost every -C transaction a round trip. */
    @Test
    void aNewConnectionHasRunNoStatementBeforeItsFirstQuery(@LocalPostgres Target pg) throws Exception {
        try (Connection idle = pg.connect(); Connection look = pg.connect();
             java.sql.PreparedStatement ps = look.prepareStatement("SELECT query, application_name FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, idle.unwrap(org.postgresql.PGConnection.class).getBackendPID());
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("", rs.getString(1), "the last statement of a connection nothing has used yet");
                assertEquals("kensho", rs.getString(2));
            }
        }
    }

    /**
     * A --set application_name on a remote server (its -c option beside the startup packet's own "kensho") was recorded
     * as applied while every connection showed "kensho"; the URL's options naming one stand alone too.
     */
    @Test
    void aSetApplicationNameReachesTheConnections(@LocalPostgres Target pg) throws Exception {
        String url = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database();
        try (Target t = new TargetSpec().url(url).user(pg.user()).set("application_name", "a\\pp x").open();
             Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW application_name")) {
            rs.next();
            assertEquals("a\\pp x", rs.getString(1));
            assertEquals("a\\pp x", t.wireLogin().startupParameters().get("application_name"), "the wire engine's too");
        }
        try (Target t = new TargetSpec().url(url + "?options=-c%20application_name%3Dviaopt").user(pg.user()).open();
             Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW application_name")) {
            rs.next();
            assertEquals("viaopt", rs.getString(1));
        }
    }

    @Test
    void listSettingsAreWrittenBackElementByElement() {
        // one quoted string would be one library named "pg_stat_statements, auto_explain": the server would not start
        assertEquals("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements', 'auto_explain'",
                RemoteServer.alterSystemSet("shared_preload_libraries", "pg_stat_statements, auto_explain"));
        assertEquals("ALTER SYSTEM SET search_path = '$user', 'a,b'", RemoteServer.alterSystemSet("search_path", "\"$user\", \"a,b\""));
        assertEquals("ALTER SYSTEM SET shared_preload_libraries = ''", RemoteServer.alterSystemSet("shared_preload_libraries", ""));
        assertEquals("ALTER SYSTEM SET work_mem = '64MB'", RemoteServer.alterSystemSet("work_mem", "64MB"));
        assertEquals("ALTER SYSTEM SET log_line_prefix = 'it''s %m'", RemoteServer.alterSystemSet("log_line_prefix", "it's %m"));
    }

    private static long showInt(Target pg, String name) throws Exception {
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT setting FROM pg_settings WHERE name = '" + name + "'")) {
            rs.next();
            return Long.parseLong(rs.getString(1));
        }
    }

    @Test
    void settingValuesAreComparedAsPostgresReadsThem() {
        assertTrue(SettingValue.same("integer", "16384", "8kB", "128MB"));
        assertTrue(SettingValue.same("integer", "16384", "8kB", "131072kB"));
        assertTrue(SettingValue.same("integer", "16384", "8kB", "16384"));
        assertFalse(SettingValue.same("integer", "16384", "8kB", "129MB"));
        assertTrue(SettingValue.same("integer", "60", "s", "1min"));
        assertTrue(SettingValue.same("integer", "100", null, " 100 "));
        assertTrue(SettingValue.same("real", "0.1", null, "0.10"));
        assertTrue(SettingValue.same("bool", "on", null, "true"));
        assertTrue(SettingValue.same("bool", "off", null, "of"));
        assertFalse(SettingValue.same("bool", "on", null, "o"));
        assertTrue(SettingValue.same("enum", "replica", null, "REPLICA"));
        assertFalse(SettingValue.same("integer", "16384", "8kB", "lots"));
    }

    /** Pools of two targets have names of their own: Hikari's log lines and threads say which target they are about. */
    @Test
    void poolsOfTwoTargetsAreToldApart(@LocalPostgres Target pg) throws Exception {
        try (Target other = new TargetSpec().url(pg.jdbcUrl()).user(pg.user()).open()) {
            var first = (com.zaxxer.hikari.HikariDataSource) pg.pool(1);
            var second = (com.zaxxer.hikari.HikariDataSource) other.pool(1);
            assertNotEquals(first.getPoolName(), second.getPoolName());
            assertTrue(first.getPoolName().startsWith("kensho-" + pg.database() + "-"), first.getPoolName());
        }
    }

    /** A value the server rejects is refused in one line and leaves the earlier accepted value in force. */
    @Test
    void rejectedSessionValueKeepsTheEarlierOne(@LocalPostgres Target pg) throws Exception {
        javax.sql.DataSource pool = pg.pool(1);
        try (Connection c = pool.getConnection()) {
            // a pooled connection made before the change
        }
        pg.control().apply(Map.of("work_mem", "8MB"));
        // Session settings travel in the startup packet: the pool's connections are replaced to carry them.
        try (Connection c = pool.getConnection(); ResultSet rs = c.createStatement().executeQuery("SHOW work_mem")) {
            rs.next();
            assertEquals("8MB", rs.getString(1));
        }
        KenshoException e = assertThrows(KenshoException.class, () -> pg.control().apply(Map.of("work_mem", "lots")));
        // the server's words: it answered, so no "cannot connect"; led by the setting, as a managed server's refusal
        assertEquals("work_mem=lots: invalid value for parameter \"work_mem\": \"lots\"", e.getMessage());
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW work_mem")) {
            rs.next();
            assertEquals("8MB", rs.getString(1));
        }
        assertEquals("8MB", pg.control().applied().get("work_mem"));
    }

    /**
     * The environment is a snapshot: its kensho_settings had been the live map, so run.json (rewritten after every trial)
     * showed the cell in progress. A --set reaches a remote server in the startup packet, as pgjdbc's own settings: it
     * is Kensho's, not "what pgjdbc set for its session".
     */
    @Test
    void theEnvironmentIsReadOnceAndTellsKenshosSettingsFromPgjdbcs(@LocalPostgres Target pg) throws Exception {
        pg.control().apply(Map.of("work_mem", "8MB"));
        Map<String, Object> env = dev.kensho.core.env.Environment.capture(pg);
        pg.control().apply(Map.of("work_mem", "16MB"));
        assertEquals("8MB", ((Map<?, ?>) env.get("kensho_settings")).get("work_mem"), env.toString());
        Map<?, ?> driver = (Map<?, ?>) ((Map<?, ?>) env.get("server")).get("driver_session_settings");
        assertFalse(driver.containsKey("work_mem"), driver.toString());
        assertEquals("UTF8", driver.get("client_encoding"), driver.toString());
    }

    /** The server is on this host when its address is this host's, however the URL spells it (the host's own name read as another's). */
    @Test
    void thisHostIsKnownByItsAddressesNotItsSpelling() throws Exception {
        for (String h : new String[] {"localhost", "127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "/var/run/postgresql",
                java.net.InetAddress.getLocalHost().getHostName()}) {
            assertTrue(RemoteServer.local(h), h);
        }
        assertFalse(RemoteServer.local("192.0.2.1"), "TEST-NET-1, no host's");
    }

    /** A client speaking the protocol itself gets pgjdbc's meaning of the URL's TLS settings, never a weaker one. */
    @Test
    void wireLoginKeepsTheUrlsTlsDemands() {
        assertEquals("prefer", RemoteServer.fromUrl("jdbc:postgresql://db.example:5433/x", "u", null, null).wireLogin().sslMode());
        assertEquals("verify-full", RemoteServer.fromUrl("jdbc:postgresql://db.example/x?ssl=true", "u", null, null).wireLogin().sslMode());
        assertEquals("require", RemoteServer.fromUrl("jdbc:postgresql://db.example/x?ssl=true&sslmode=require", "u", null, null)
                .wireLogin().sslMode());
        WireLogin cert = RemoteServer.fromUrl("jdbc:postgresql://db.example/x?sslmode=require&sslcert=/c.crt&sslkey=/c.key", "u", "pw", null)
                .wireLogin();
        assertEquals("the URL sets sslcert, which only pgjdbc uses", cert.pgjdbcOnly());
        assertFalse(cert.toString().contains("pw"), cert.toString());
        assertEquals(null, RemoteServer.fromUrl("jdbc:postgresql://db.example/x?sslmode=require", "u", null, null).wireLogin().pgjdbcOnly());
    }

    @Test
    void anEmptyOrMissingPasswordFileIsRefusedBeforeConnecting(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path empty = java.nio.file.Files.writeString(tmp.resolve("pw"), " \n");
        // port 1: nothing listens there, so only the file's check can give these messages
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url("jdbc:postgresql://127.0.0.1:1/test").user("postgres").passwordFile(empty).open());
        assertEquals("--password-file " + empty + " is empty", e.getMessage());
        e = assertThrows(KenshoException.class, () -> new TargetSpec().url("jdbc:postgresql://127.0.0.1:1/test").user("postgres")
                .passwordFile(tmp.resolve("nope")).open());
        assertEquals("--password-file " + tmp.resolve("nope") + ": cannot read (no such file or directory)", e.getMessage());
    }

    /**
     * A pipe (--password-file <(pass show db)) holds the password for one read: the file is read once, when given.
     * A second read, at open(), found it "empty".
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)   // a second open of the pipe waits for a writer for ever
    void aPasswordFileThatIsAPipeIsReadOnce(@LocalPostgres Target pg, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path fifo = tmp.resolve("pw");
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "no mkfifo here");
        Thread writer = new Thread(() -> {
            try {
                java.nio.file.Files.writeString(fifo, "pipe-secret-1\n");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        TargetSpec spec = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database()).user(pg.user())
                .passwordFile(fifo);
        writer.join(10_000);
        try (Target t = spec.open(); Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
            assertTrue(rs.next());
        }
        assertEquals("****", dev.kensho.core.Credentials.mask("pipe-secret-1"));
    }

    @Test
    void missingDatabaseIsOneLine(@LocalPostgres Target pg) {
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url("jdbc:postgresql://127.0.0.1:5432/no_such_db_kensho").user("postgres").open());
        assertEquals(KenshoException.TARGET, e.exitCode());
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void unreachableHostIsOneLine() {
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url("jdbc:postgresql://127.0.0.1:1/x?connectTimeout=2").user("u").open());
        assertEquals(KenshoException.TARGET, e.exitCode());
        assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:1/x"), e.getMessage());
    }

    /**
     * What the URL leaves out comes from libpq's environment, as psql and pgbench take it: PGOPTIONS gave pgbench
     * repeatable read and Kensho, silently, read committed. The URL's own parts, and --user, win.
     */
    @Test
    void libpqsEnvironmentFillsWhatTheUrlLeavesOut(@LocalPostgres Target pg) throws Exception {
        Map<String, String> env = Map.of("PGHOST", pg.host(), "PGPORT", Integer.toString(pg.port()), "PGDATABASE", "test",
                "PGUSER", "postgres", "PGOPTIONS", "-c work_mem=7MB -c default_transaction_isolation=repeatable\\ read",
                "PGAPPNAME", "from env", "PGSSLMODE", "disable");
        RemoteServer r = RemoteServer.fromUrl("jdbc:postgresql:///", null, null, null, env).verify();
        try (Connection c = r.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT current_user, current_database(), "
                + "current_setting('work_mem'), current_setting('transaction_isolation'), current_setting('application_name'), "
                + "(SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid())")) {
            rs.next();
            assertEquals("postgres|test|7MB|repeatable read|from env|false", rs.getString(1) + "|" + rs.getString(2) + "|"
                    + rs.getString(3) + "|" + rs.getString(4) + "|" + rs.getString(5) + "|" + rs.getBoolean(6));
        } finally {
            r.close();
        }
        assertEquals(java.util.List.of("took PGHOST, PGPORT, PGUSER, PGDATABASE, PGOPTIONS, PGAPPNAME, PGSSLMODE from the environment, "
                + "as libpq does for what the URL leaves out"), r.actions());
        // the URL a run records holds what the environment gave: it reproduces the run without that environment
        RemoteServer again = RemoteServer.fromUrl(r.jdbcUrl(), r.user(), null, null, Map.of());
        assertEquals(r.properties().getProperty("options"), again.properties().getProperty("options"));
        assertEquals(r.host() + ":" + r.port() + "/" + r.database(), again.host() + ":" + again.port() + "/" + again.database());
        assertEquals(java.util.List.of(), again.actions());

        RemoteServer own = RemoteServer.fromUrl("jdbc:postgresql://db.example:5433/x?options=-c%20work_mem%3D1MB&sslmode=require", "u",
                null, null, env);
        assertEquals("db.example:5433/x as u", own.host() + ":" + own.port() + "/" + own.database() + " as " + own.user());
        assertEquals("-c work_mem=1MB", own.properties().getProperty("options"));
        assertEquals("require", own.wireLogin().sslMode());
        assertEquals(java.util.List.of("took PGAPPNAME from the environment, as libpq does for what the URL leaves out"), own.actions());
        // a target's label (its name in results, and what a resume matches) names the server the environment chose
        assertEquals(pg.host() + ":" + pg.port() + "/test", TargetSpec.remoteLabel("jdbc:postgresql:///", env));
        assertEquals("db.example:5433/x", TargetSpec.remoteLabel("jdbc:postgresql://db.example:5433/x", env));
        assertEquals("/x?host=/tmp&port=6543", TargetSpec.remoteLabel("jdbc:postgresql:///x?host=/tmp", Map.of("PGPORT", "6543")));
        assertEquals("db:5432/x", TargetSpec.remoteLabel("jdbc:postgresql:///x", Map.of("PGHOST", "db")));
        assertEquals("bob", RemoteServer.fromUrl("jdbc:postgresql://bob@h/x", null, null, null, env).user());
        // an empty variable is an unset one, as in libpq
        assertEquals("localhost:5432", hostPort(RemoteServer.fromUrl("jdbc:postgresql:///x", "u", null, null, Map.of("PGHOST", "", "PGPORT", ""))));

        assertEquals("PGPORT=54x2 is no port (1 to 65535); the --url without a port takes it", assertThrows(KenshoException.class,
                () -> RemoteServer.fromUrl("jdbc:postgresql://h/x", "u", null, null, Map.of("PGPORT", "54x2"))).getMessage());
        assertEquals("PGHOST=a,b names several hosts; Kensho connects to one: give it in --url", assertThrows(KenshoException.class,
                () -> RemoteServer.fromUrl("jdbc:postgresql:///x", "u", null, null, Map.of("PGHOST", "a,b"))).getMessage());
    }

    /**
     * libpq's connection service file: PGSERVICE=name (or ?service=name) reaches the server psql and pgbench reach. It
     * was ignored, and the run went to localhost, where `pgbench init` would have rebuilt another server's tables. The
     * service fills what the URL leaves out, before the environment (PGHOST here names a host that does not exist).
     */
    @Test
    void aServiceNamesTheServerBeforeTheEnvironment(@LocalPostgres Target pg, @TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("services.conf"), "# ours\n[other]\nhost=nowhere.invalid\n\n[kx]\nhost=" + pg.host()
                + "\nport= " + pg.port() + "\ndbname=test\nuser=postgres\napplication_name=from service\nconnect_timeout=5\n");
        Map<String, String> env = Map.of("PGSERVICEFILE", file.toString(), "PGSERVICE", "kx", "PGHOST", "nowhere.invalid", "PGPORT", "1");
        RemoteServer r = RemoteServer.fromUrl("jdbc:postgresql:///", null, null, null, env).verify();
        try (Connection c = r.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT current_user || '|' || current_database() || '|' || current_setting('application_name')")) {
            rs.next();
            assertEquals("postgres|test|from service", rs.getString(1));
        } finally {
            r.close();
        }
        assertTrue(r.jdbcUrl().contains("loginTimeout=5&connectTimeout=5"), r.jdbcUrl());
        assertEquals(java.util.List.of("took service kx from the connection service file, as libpq does for what the URL leaves out",
                "took PGSERVICE from the environment, as libpq does for what the URL leaves out"), r.actions());
        // a run's label (results, resume) names the service, not PGHOST's host
        assertEquals("?service=kx", TargetSpec.remoteLabel("jdbc:postgresql:///", env));
        assertEquals("?service=kx&dbname=d", TargetSpec.remoteLabel("postgresql:///d?service=kx", Map.of()));
        // the URL's own parts win; ?service= names one too
        RemoteServer own = RemoteServer.fromUrl("postgresql://db.example:5433/x?service=kx", "u", null, null, Map.of("PGSERVICEFILE", file.toString()));
        assertEquals("db.example:5433/x as u", own.host() + ":" + own.port() + "/" + own.database() + " as " + own.user());
        assertEquals("definition of service \"none\" not found (looked in " + file + " and " + tmp.resolve("etc/pg_service.conf")
                + "; PGSERVICEFILE and PGSYSCONFDIR name others)", assertThrows(KenshoException.class, () -> RemoteServer.fromUrl(
                "jdbc:postgresql:///", "u", null, null, Map.of("PGSERVICEFILE", file.toString(), "PGSYSCONFDIR", tmp.resolve("etc").toString(),
                        "PGSERVICE", "none"))).getMessage());
        Path spaced = Files.writeString(tmp.resolve("spaced.conf"), "[kx]\n  host=h\nport = 5\n");
        assertEquals("syntax error in service file \"" + spaced + "\", line 3", assertThrows(KenshoException.class, () -> RemoteServer.fromUrl(
                "jdbc:postgresql:///", "u", null, null, Map.of("PGSERVICEFILE", spaced.toString(), "PGSERVICE", "kx"))).getMessage());
        Path odd = Files.writeString(tmp.resolve("odd.conf"), "[kx]\nhost=h\ntarget_session_attrs=any\n");
        assertEquals("service \"kx\" sets target_session_attrs, which Kensho does not take from a service file: give its pgjdbc equivalent"
                + " in --url", assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql:///", "u", null, null,
                Map.of("PGSERVICEFILE", odd.toString(), "PGSERVICE", "kx"))).getMessage());
    }

    /**
     * libpq's connect_timeout (PGCONNECT_TIMEOUT, a URI's parameter) bounds the login: a server that accepts and never
     * answers held a run for ever. libpq's parameter names are pgjdbc's; one pgjdbc does not know is refused, not ignored.
     */
    @Test
    void connectTimeoutEndsALoginNobodyAnswers() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                java.util.List<java.net.Socket> held = new java.util.ArrayList<>();
                try {
                    while (true) held.add(silent.accept());
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String url = "postgresql://127.0.0.1:" + silent.getLocalPort() + "/x";
            for (RemoteServer r : java.util.List.of(RemoteServer.fromUrl(url, "u", null, null, Map.of("PGCONNECT_TIMEOUT", "2")),
                    RemoteServer.fromUrl(url + "?connect_timeout=1", "u", null, null, Map.of()))) {
                assertTrue(r.jdbcUrl().contains("loginTimeout=2&connectTimeout=2"), r.jdbcUrl());
                assertEquals(2, r.wireLogin().timeoutSeconds(), "the wire engine's logins too");
                long start = System.nanoTime();
                KenshoException e = assertThrows(KenshoException.class, r::verify);
                assertTrue(e.getMessage().contains("timed out"), e.getMessage());
                assertTrue(System.nanoTime() - start < 30_000_000_000L, "the login gave up");
                r.close();
            }
        }
        assertEquals("invalid integer value \"soon\" for connection option \"connect_timeout\"", assertThrows(KenshoException.class,
                () -> RemoteServer.fromUrl("postgresql://h/x?connect_timeout=soon", "u", null, null, Map.of())).getMessage());
        assertEquals("jdbc:postgresql://h:5432/x?ApplicationName=app",
                RemoteServer.fromUrl("postgresql://h/x?application_name=app", "u", null, null, Map.of()).jdbcUrl());
        assertEquals("--url has a parameter sslmdoe that pgjdbc does not know and Kensho does not translate (pgjdbc would ignore it): "
                + "jdbc:postgresql://h/x?sslmdoe=require", assertThrows(KenshoException.class,
                () -> RemoteServer.fromUrl("jdbc:postgresql://h/x?sslmdoe=require", "u", null, null, Map.of())).getMessage());
        // a value pgjdbc would not take: a usage error, not a connection's (exit 3 blamed the server); a boolean's typo
        // had been read as false
        for (String[] c : new String[][] {
                {"sslmode=bogus", "sslmode=bogus, which is none of disable, allow, prefer, require, verify-ca, verify-full"},
                {"connectTimeout=x", "connectTimeout=x, which is no number"},
                {"tcpKeepAlive=yes", "tcpKeepAlive=yes, which is neither true nor false"},
                {"ssl=ture", "ssl=ture, which is neither true nor false"}}) {
            KenshoException e = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://h/x?" + c[0], "u", null, null, Map.of()));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("--url has " + c[1] + ": jdbc:postgresql://h/x?" + c[0], e.getMessage());
        }
        // and what pgjdbc takes beyond its lists: a float loginTimeout, protocol 3.0 or 3.2, a list of auth methods
        for (String fine : java.util.List.of("sslmode=Require", "connectTimeout=5", "tcpKeepAlive=TRUE", "prepareThreshold=-1", "options=-c%20work_mem%3D64MB",
                "loginTimeout=2.5", "protocolVersion=3.2", "requireAuth=scram-sha-256,none", "requireAuth=!md5,!password")) {
            RemoteServer.fromUrl("jdbc:postgresql://h/x?" + fine, "u", null, null, Map.of());
        }
        assertEquals("PGSSLMODE=bogus, which is none of disable, allow, prefer, require, verify-ca, verify-full (the --url without sslmode takes it)",
                assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://h/x", "u", null, null, Map.of("PGSSLMODE", "bogus"))).getMessage());
        RemoteServer.fromUrl("jdbc:postgresql://h/x?ssl", "u", null, null, Map.of());
        KenshoException bracket = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://[::1/x", "u", null, null, Map.of()));
        assertEquals("--url has an IPv6 address without its closing ']' (or a ']' without its '['): jdbc:postgresql://[::1/x", bracket.getMessage());
        assertEquals("[::1]", RemoteServer.fromUrl("jdbc:postgresql://[::1]:5433/x", "u", null, null, Map.of()).host());
        assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://h1,[::1/x", "u", null, null, Map.of()));
    }

    /**
     * pgjdbc's startup packet sends the JVM's TimeZone and DateStyle ISO as parameters the server applies after the
     * options: a URL's -c TimeZone, a --set TimeZone and libpq's PGTZ were each recorded and silently lost, a query
     * then run in the JVM's zone. Each reaches the session now (DateStyle's field order; its output stays ISO).
     */
    @Test
    void timeZoneAndDateStyleReachPgjdbcSessions(@LocalPostgres Target pg) throws Exception {
        String url = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/test";
        RemoteServer env = RemoteServer.fromUrl(url + "?options=-c%20TimeZone%3DEurope/Paris", "postgres", null, null,
                Map.of("PGTZ", "America/St_Johns", "PGDATESTYLE", "ISO, DMY", "PGGEQO", "default")).verify();
        try {
            // libpq's variables come after the URL's options, as libpq sends them
            assertEquals("America/St_Johns|ISO, DMY|2026-02-01", session(env));
            assertEquals(java.util.List.of("took PGDATESTYLE, PGTZ from the environment, as libpq does for what the URL leaves out"), env.actions());
        } finally {
            env.close();
        }
        RemoteServer set = RemoteServer.fromUrl(url + "?options=-c%20TimeZone%3DEurope/Paris", "postgres", null, null, Map.of()).verify();
        try {
            assertEquals("Europe/Paris|ISO, MDY|2026-01-02", session(set));
            // named in any case, as PostgreSQL takes them (Work_Mem was refused as an unknown setting)
            assertEquals(Map.of("TimeZone", "Asia/Tokyo", "DateStyle", "SQL, DMY", "work_mem", "7MB"),
                    set.control().apply(Map.of("timezone", "Asia/Tokyo", "DATESTYLE", "SQL, DMY", "Work_Mem", "7MB")).applied());
            assertEquals("Asia/Tokyo|ISO, DMY|2026-02-01", session(set));
        } finally {
            set.close();
        }
        assertEquals(java.util.List.of("SET TimeZone TO 'a b'", "SET DateStyle TO 'ISO, YMD'"),
                JdbcTarget.afterLogin("-cTimeZone=x --datestyle=ymd -c timezone=a\\ b"));
        assertEquals(java.util.List.of(), JdbcTarget.afterLogin("-c work_mem=1MB"));
    }

    /**
     * Two runs with --restart-command on one server undid each other's settings: one "restored" the other's value, which
     * then stayed in postgresql.auto.conf. The second stops before it changes anything, whichever database it measures.
     */
    @Test
    void oneRunAtATimeChangesAServersSettings() throws Exception {
        try (Target own = new TargetSpec().pgVersion(17).open()) {
            String url = "jdbc:postgresql://127.0.0.1:" + own.port() + "/kensho";
            try (Connection other = own.connect("postgres"); Statement s = other.createStatement()) {
                s.execute("SELECT pg_advisory_lock(" + 0x4b656e73686f5231L + ")");   // another run's claim
                RemoteServer second = RemoteServer.fromUrl(url, "postgres", null, "true").verify();
                try {
                    KenshoException refused = assertThrows(KenshoException.class, () -> second.apply(Map.of("bgwriter_delay", "250ms")));
                    assertEquals(KenshoException.USAGE, refused.exitCode());
                    assertTrue(refused.getMessage().startsWith("another Kensho run is changing the settings of the server at 127.0.0.1:"
                            + own.port() + " (server process "), refused.getMessage());
                    assertEquals("200ms", ManagedServerTest.show(own, "bgwriter_delay"), "nothing changed");
                    // a session setting changes nothing of the server's: no claim needed
                    assertTrue(second.apply(Map.of("work_mem", "5MB")).ok());
                } finally {
                    second.close();
                }
                s.execute("SELECT pg_advisory_unlock_all()");
            }
            RemoteServer first = RemoteServer.fromUrl(url, "postgres", null, "true").verify();
            try {
                assertTrue(first.apply(Map.of("bgwriter_delay", "250ms")).ok());
                assertEquals("250ms", ManagedServerTest.show(own, "bgwriter_delay"));
                RemoteServer third = RemoteServer.fromUrl(url, "postgres", null, "true").verify();
                try {
                    assertThrows(KenshoException.class, () -> third.apply(Map.of("bgwriter_delay", "300ms")));
                } finally {
                    third.close();
                }
            } finally {
                first.close();
            }
            assertEquals("200ms", ManagedServerTest.show(own, "bgwriter_delay"), "put back when the first ended");
        }
    }

    private static String session(Target t) throws Exception {
        try (Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT current_setting('TimeZone'), current_setting('DateStyle'), '01/02/2026'::date::text")) {
            rs.next();
            return rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3);
        }
    }

    private static String hostPort(RemoteServer r) {
        return r.host() + ":" + r.port();
    }

    /** libpq's user:password@host form, which pgjdbc would take whole for a host name and print. */
    @Test
    void userinfoInTheUrlIsTheLogin() {
        RemoteServer r = RemoteServer.fromUrl("jdbc:postgresql://bench:p%40ss@db.example:5433/x", null, null, null);
        assertEquals("db.example", r.host());
        assertEquals(5433, r.port());
        assertEquals("bench", r.user());
        assertEquals("p@ss", r.properties().getProperty("password"));
        assertEquals("x", RemoteServer.fromUrl("postgresql://bench@db.example/x", null, null, null).database());
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url("jdbc:postgresql://postgres:hunter2@127.0.0.1:1/x?connectTimeout=2").open());
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:1/x"), e.getMessage());
        assertEquals("cannot connect to postgres:****@db.example", dev.kensho.core.Credentials.mask("cannot connect to postgres:hunter2@db.example"));
        KenshoException port = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://h:99999/x", "u", null, null));
        assertEquals(KenshoException.USAGE, port.exitCode());
        // --user beside a URL that names another: refused, where it replaced the URL's without a word (psql takes the URL's)
        KenshoException two = assertThrows(KenshoException.class,
                () -> RemoteServer.fromUrl("jdbc:postgresql://bench:p%40ss@db.example:5433/x", "postgres", null, null));
        assertEquals(KenshoException.USAGE, two.exitCode());
        assertEquals("--url jdbc:postgresql://bench:****@db.example:5433/x names user bench, and --user postgres: give the user once "
                + "(in the URL, or in --user for URLs that name none)", two.getMessage());
        assertEquals("bench", RemoteServer.fromUrl("jdbc:postgresql://db.example/x?user=bench", "bench", null, null).user(), "the same twice");
        assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://db.example/x?user=bench", "other", null, null));
    }

    /** Results name a server the same way however its password was given. */
    @Test
    void labelsAreHostPortAndDatabase() {
        assertEquals("remote db:5433/x", new TargetSpec().url("jdbc:postgresql://db:5433/x?password=pw&sslmode=require").label());
        assertEquals("remote db:5433/x", new TargetSpec().url("jdbc:postgresql://u:pw@db:5433/x").label());
        assertEquals("remote db:5432/x", new TargetSpec().url("postgresql://db/x").label(), "the default port written out");
        assertEquals("remote /test?host=/var/run/postgresql", new TargetSpec().url("jdbc:postgresql:///test?host=/var/run/postgresql").label());
    }

    @Test
    void urlPasswordIsMasked() {
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url("jdbc:postgresql://127.0.0.1:1/x?password=hunter2&connectTimeout=2").open());
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    }

    /**
     * Passwords with a space, an '@', a '/' or a '?' in the URL: read as pgjdbc and libpq read them where they can be,
     * and never in an error or a label where they cannot (the '/' or '?' ends the authority: the password is the port).
     */
    @Test
    void aPasswordInTheUrlIsNeverInAnErrorOrALabelWhateverItHolds() {
        assertEquals("se cret123", RemoteServer.fromUrl("jdbc:postgresql://127.0.0.1:5432/db?password=se cret123", "u", null, null)
                .properties().getProperty("password"));
        RemoteServer space = RemoteServer.fromUrl("jdbc:postgresql://root:s3cr et123@127.0.0.1:5432/db", null, null, null);
        assertEquals("s3cr et123", space.properties().getProperty("password"));
        assertEquals("root", space.user());
        RemoteServer at = RemoteServer.fromUrl("jdbc:postgresql://root:abc@secret123@127.0.0.1:5432/db", null, null, null);
        assertEquals("abc@secret123", at.properties().getProperty("password"));
        assertEquals("127.0.0.1", at.host());
        // a port read from the password's start (2024/...) would be no error of its own: the '@' after the host is
        for (String pw : java.util.List.of("abc/secret123", "abc?secret123", "2024/Summer!", "2024?Summer!")) {
            String url = "jdbc:postgresql://root:" + pw + "@127.0.0.1:5432/db";
            KenshoException e = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl(url, null, null, null));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("--url has an '@' after its host: a '/' or '?' in a user name or password is written %2F or %3F, "
                    + "an '@' in a database name %40: jdbc:postgresql://root:****@127.0.0.1:5432/db", e.getMessage());
            KenshoException opened = assertThrows(KenshoException.class, () -> new TargetSpec().url(url).open());
            assertEquals(e.getMessage(), opened.getMessage());
            assertEquals("remote 127.0.0.1:5432/db", new TargetSpec().url(url).label());
        }
        KenshoException port = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://root:s3cr et@h:99999/db", null, null, null));
        assertEquals("--url has a bad port (1 to 65535): jdbc:postgresql://root:****@h:99999/db", port.getMessage());
        // an '@' in a parameter's value, or a database name's written %40, is no password's
        assertEquals("bob@srv", RemoteServer.fromUrl("jdbc:postgresql://h:5433/x?user=bob@srv", null, null, null).user());
        assertEquals("my%40db", RemoteServer.fromUrl("jdbc:postgresql://h:5433/my%40db", "u", null, null).database());
        KenshoException percent = assertThrows(KenshoException.class,
                () -> RemoteServer.fromUrl("jdbc:postgresql://root:s3cr%zz et@127.0.0.1/db", null, null, null));
        assertEquals("--url has a bad user name or password (a % not followed by two hex digits): jdbc:postgresql://root:****@127.0.0.1/db",
                percent.getMessage());
        KenshoException prefix = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgres://root:s3cr et@h/db?password=x y", null, null, null));
        assertEquals("--url must start with jdbc:postgresql:// (or libpq's postgresql://) (got jdbc:postgres://root:****@h/db?password=****)",
                prefix.getMessage());
        for (String url : java.util.List.of("jdbc:postgresql://root:s3cr et123@127.0.0.1:5432/db", "jdbc:postgresql://root:abc@secret123@127.0.0.1:5432/db",
                "jdbc:postgresql://127.0.0.1:5432/db?password=se cret123&sslmode=disable")) {
            assertEquals("remote 127.0.0.1:5432/db", new TargetSpec().url(url).label());
        }
    }

    /**
     * A password holding an '@' and then a '/' or '?' (We1rd@pw/x?y#z): the '/' ended the authority, so the parse read
     * host pw and database x, and "cannot connect to pw:5432/x: unknown host pw" showed both. The stray '@' is refused
     * whatever the authority holds, also when the password's rest looks like a parameter (?a=b@host:port/db), and
     * neither the error nor the label shows any part of the password.
     */
    @Test
    void aPasswordThatHoldsAnAtAndASlashIsNeverReadAsTheHost() {
        for (String pw : java.util.List.of("We1rd@pw/x?y#z", "We1rd@pw/x?a=b", "We1rd@pw?x", "a@b/c@d", "We1rd@pw/x")) {
            String url = "jdbc:postgresql://postgres:" + pw + "@127.0.0.1:5432/test";
            KenshoException e = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl(url, null, null, null), url);
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("--url has an '@' after its host: a '/' or '?' in a user name or password is written %2F or %3F, "
                    + "an '@' in a database name %40: jdbc:postgresql://postgres:****@127.0.0.1:5432/test", e.getMessage());
            KenshoException opened = assertThrows(KenshoException.class, () -> new TargetSpec().url(url).open());
            assertEquals(e.getMessage(), opened.getMessage());
            assertEquals("remote 127.0.0.1:5432/test", new TargetSpec().url(url).label());
            for (String part : pw.split("[@/?#=]")) assertFalse(e.getMessage().contains(part + "@") || e.getMessage().contains("//" + part), e.getMessage());
            assertFalse(e.getMessage().contains("pw") || e.getMessage().contains("We1rd"), e.getMessage());
        }
        // encoded, the same password is read whole, and the host and database are the URL's
        RemoteServer encoded = RemoteServer.fromUrl("jdbc:postgresql://postgres:We1rd%40pw%2Fx%3Fy%23z@127.0.0.1:5432/test", null, null, null);
        assertEquals("We1rd@pw/x?y#z", encoded.properties().getProperty("password"));
        assertEquals("127.0.0.1", encoded.host());
        assertEquals("test", encoded.database());
        assertFalse(encoded.describe().contains("pw") || encoded.jdbcUrl().contains("We1rd"), encoded.describe());
        // a certificate under a home directory with an '@' is a parameter's, not the end of a password
        RemoteServer cert = RemoteServer.fromUrl("jdbc:postgresql://u:pw@h:5432/x?sslrootcert=/home/bob@corp.com/.postgresql/root.crt", null, null, null);
        assertEquals("h", cert.host());
        assertEquals("jdbc:postgresql://h:5432/x?sslrootcert=/home/bob@corp.com/.postgresql/root.crt", cert.jdbcUrl());
        // a database called password, a host called pw and a user name with an '@' in a parameter are no secrets
        RemoteServer plain = RemoteServer.fromUrl("jdbc:postgresql://pw:5432/password?user=bob@srv", null, null, null);
        assertEquals("pw", plain.host());
        assertEquals("password", plain.database());
        assertEquals("bob@srv", plain.user());
        assertEquals("jdbc:postgresql://pw:5432/password", plain.jdbcUrl());
        assertEquals("remote pw:5432/password", new TargetSpec().url("jdbc:postgresql://u:s3cret@pw:5432/password").label());
    }

    /**
     * The rest of a URL's parse quotes no part of a password either: one without its '@host' read as a port, a bad
     * '%' in a password parameter (the JDK's message quoted the two characters after it), and a user name with a space,
     * after which the password could not be told from the host.
     */
    @Test
    void aUrlThatCannotBeReadQuotesNoPartOfItsPassword() {
        KenshoException port = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://root:s3cret/test", null, null, null));
        assertEquals("--url has a bad port (1 to 65535): jdbc:postgresql://root:****/test", port.getMessage());
        KenshoException number = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://db:99999/test", null, null, null));
        assertEquals("--url has a bad port (1 to 65535): jdbc:postgresql://db:99999/test", number.getMessage(), "a number is no secret");
        KenshoException query = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://root:abc?x=1@127.0.0.1/test", null, null, null));
        assertEquals("--url has an '@' after its host: a '/' or '?' in a user name or password is written %2F or %3F, "
                + "an '@' in a database name %40: jdbc:postgresql://root:****@127.0.0.1/test", query.getMessage());
        for (String url : java.util.List.of("jdbc:postgresql://127.0.0.1:5432/test?password=ab%zzcd", "jdbc:postgresql://127.0.0.1:5432/test?sslmode=disable&password=ab%zzcd")) {
            KenshoException percent = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl(url, "u", null, null));
            assertEquals(KenshoException.USAGE, percent.exitCode());
            assertTrue(percent.getMessage().startsWith("--url has a bad value for password (a % not followed by two hex digits): jdbc:postgresql://127.0.0.1:5432/test?"),
                    percent.getMessage());
            assertFalse(percent.getMessage().contains("zz") || percent.getMessage().contains("cd"), percent.getMessage());
        }
        KenshoException space = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://us#er:s3cret@127.0.0.1/test", null, null, null));
        assertFalse(space.getMessage().contains("s3cret"), space.getMessage());
        assertTrue(space.getMessage().startsWith("--url has a user name Kensho cannot mask the password after"), space.getMessage());
        // libpq decodes a userinfo's %XX only: a '+' stays a '+'
        assertEquals("pa+ss", RemoteServer.fromUrl("jdbc:postgresql://root:pa+ss@127.0.0.1/test", null, null, null).properties().getProperty("password"));
        assertEquals("pa ss+", RemoteServer.fromUrl("jdbc:postgresql://root:pa%20ss%2B@127.0.0.1/test", null, null, null).properties().getProperty("password"));
    }

    /**
     * A run's --restart-command that stops the server and fails to start it leaves it down: the restore at the end brings
     * it back with the command, puts the settings back, and restarts it with them (it came back with the run's).
     * An embedded server stands in for the remote one, restarted through its pg_ctl as its DBA would.
     */
    @Test
    void aServerLeftDownByAFailedRestartComesBackAsFound() throws Exception {
        try (Target pg = new TargetSpec().open()) {
            String restart = pgCtl(pg, "-w -m fast restart");
            try (Target remote = new TargetSpec().url("jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho").user("postgres")
                    .restartCommand(restart).open()) {
                assertEquals(Map.of("max_worker_processes", "11"), remote.control().apply(Map.of("max_worker_processes", "11")).applied());
                // as a restart command that failed after its stop leaves it
                ServerUser.run(java.util.List.of("sh", "-c", pgCtl(pg, "-w -m fast stop")), "stop the server");
            }
            try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery(
                    "SELECT current_setting('max_worker_processes'), (SELECT count(*) FROM pg_file_settings"
                            + " WHERE sourcefile LIKE '%postgresql.auto.conf')")) {
                rs.next();
                assertEquals("8", rs.getString(1), "started again with what it had");
                assertEquals(0, rs.getLong(2), "postgresql.auto.conf as found");
            }
        }
    }

    /**
     * A --restart-command that restarts nothing (a wrong service name, a no-op) exits 0: the change fails, where it
     * measured under the old value said to be the new one, and the restore puts the file back with a reload, no
     * restart. Every change to the server is said on stderr as it happens. An embedded server stands in for the remote.
     */
    @Test
    void aRestartCommandThatRestartsNothingFailsTheChange() throws Exception {
        java.time.Duration grace = RemoteServer.restartGrace;
        java.io.PrintStream was = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try (Target pg = new TargetSpec().open()) {
            String started = query(pg, "SELECT pg_postmaster_start_time()::text");
            RemoteServer.restartGrace = java.time.Duration.ofSeconds(1);
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            try (Target remote = new TargetSpec().url("jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho").user("postgres")
                    .restartCommand("true").open()) {
                KenshoException e = assertThrows(KenshoException.class, () -> remote.control().apply(Map.of("max_worker_processes", "11")));
                assertEquals(KenshoException.TARGET, e.exitCode());
                assertTrue(e.getMessage().startsWith("--restart-command ran, but the server at 127.0.0.1:" + pg.port()
                        + " was not restarted (its pg_postmaster_start_time is still "), e.getMessage());
            } finally {
                System.setErr(was);
                RemoteServer.restartGrace = grace;
            }
            assertEquals("8", query(pg, "SELECT current_setting('max_worker_processes')"));
            assertEquals("0", query(pg, "SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'"), "file as found");
            assertEquals(started, query(pg, "SELECT pg_postmaster_start_time()::text"), "no restart to put it back");
            String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
            String at = "bench: 127.0.0.1:" + pg.port() + ": ";
            for (String line : java.util.List.of("ALTER SYSTEM SET max_worker_processes = 11", "ran --restart-command",
                    "ALTER SYSTEM RESET max_worker_processes (restored)", "reloaded the configuration (pg_reload_conf)")) {
                assertTrue(said.contains(at + line + "\n"), line + " in: " + said);
            }
        }
    }

    /**
     * A restart the run asks for after a Ctrl-C (a cold cell's, begun just before) is refused: it restarted someone's
     * server once more, or raced the exit hook's restore. The restore's own restart still runs, and the server is as
     * found. Counted by the restart command itself; a child JVM, since the JVM's ending cannot be undone in this one.
     */
    @Test
    void aRestartAfterTheJvmBeganToEndIsRefusedButTheRestoresRuns(@TempDir Path tmp) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            Path count = tmp.resolve("restarts");
            String restart = "echo restart >> " + count + " && " + pgCtl(pg, "-w -m fast restart");
            String out = restartChild(RestartsRemoteServerAsItEnds.class, pg, restart);
            assertTrue(out.contains("applied {max_worker_processes=11}"), out);
            assertTrue(out.contains("restart: interrupted: no restart"), out);
            assertTrue(out.contains("bench: putting back the settings Kensho changed on 127.0.0.1:" + pg.port() + "...\n"), out);
            assertTrue(out.contains("bench: restarting 127.0.0.1:" + pg.port() + " with --restart-command, for the postmaster-level settings (interrupt again to stop it)...\n"), out);
            assertEquals(java.util.List.of("restart", "restart"), Files.readAllLines(count), "the change's restart and the restore's: " + out);
            assertEquals("8", query(pg, "SELECT current_setting('max_worker_processes')"), out);
            assertEquals("0", query(pg, "SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'"), "file as found");
        }
    }

    /**
     * A Ctrl-C between apply()'s ALTER SYSTEM and its restart: the restart is refused, so the server never took the
     * run's value, and the exit hook puts the file back with a reload, not a restart, and says so (it announced a
     * --restart-command it then did not run). Counted by the restart command itself, in a child JVM as above.
     */
    @Test
    void aCtrlCBeforeApplysRestartRestoresWithAReload(@TempDir Path tmp) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            String started = query(pg, "SELECT pg_postmaster_start_time()::text");
            Path count = tmp.resolve("restarts");
            String restart = "echo restart >> " + count + " && " + pgCtl(pg, "-w -m fast restart");
            String out = restartChild(ChangesRemoteServerAsItEnds.class, pg, restart);
            assertTrue(out.contains("apply: interrupted: no restart"), out);
            String at = "127.0.0.1:" + pg.port();
            assertTrue(out.contains("bench: putting back the settings Kensho changed on " + at + "...\n"), out);
            assertTrue(out.contains("bench: " + at + ": reloaded the configuration (pg_reload_conf)"), out);
            assertFalse(out.contains("bench: restarting"), out);
            assertFalse(Files.exists(count), "no restart: " + out);
            assertEquals(started, query(pg, "SELECT pg_postmaster_start_time()::text"), out);
            assertEquals("8", query(pg, "SELECT current_setting('max_worker_processes')"), out);
            assertEquals("0", query(pg, "SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'"), "file as found");
        }
    }

    /**
     * A restart that leaves the server down because of the run's value (wal_level=minimal beside max_wal_senders): the
     * restore cannot start it either, and says what to put back in postgresql.auto.conf, in its one line, not that the
     * file is as Kensho found it.
     */
    @Test
    void aServerThatCannotStartWithTheRunsValueIsToldHowToPutItBack() throws Exception {
        try (Target pg = new TargetSpec().open()) {
            java.nio.file.Path data = pg.control().dataDirectory().orElseThrow();
            String restart = pgCtl(pg, "-w -t 20 -m fast restart");
            java.io.PrintStream was = System.err;
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            try (Target remote = new TargetSpec().url("jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho").user("postgres")
                    .restartCommand(restart).open()) {
                KenshoException e = assertThrows(KenshoException.class, () -> remote.control().apply(Map.of("wal_level", "minimal")));
                assertTrue(e.getMessage().startsWith("cannot run --restart-command: exit code "), e.getMessage());
            } finally {
                System.setErr(was);
            }
            String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(said.contains("warning: the server at 127.0.0.1:" + pg.port() + " does not answer, and its postgresql.auto.conf still holds"
                    + " what Kensho's ALTER SYSTEM set: wal_level (it had no entry: remove its line); put that back, then start the server"), said);
            assertFalse(said.contains("as Kensho found it"), said);
            assertTrue(java.nio.file.Files.readString(data.resolve("postgresql.auto.conf")).contains("wal_level = 'minimal'"), "as said");
        }
    }

    /**
     * A --restart-command that hangs in the exit hook's restore: a second interrupt stops it and the JVM ends at
     * once, where it waited 300 s (the JVM's own handler takes no second signal while its hooks run). The file is
     * put back; the server, not restarted, still runs with the run's value, and the warning says so.
     */
    @Test
    void aSecondInterruptStopsARestartCommandThatHangsInTheRestore(@TempDir Path tmp) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            Path count = tmp.resolve("restarts"), sleeper = tmp.resolve("sleeper"), output = tmp.resolve("output");
            String restart = hangingFrom(2, count, sleeper, pg);   // the change's restart runs; the restore's, the second, hangs
            Process child = hangingChild(pg, restart, output);
            try {
                awaitOutput(child, output, "applied {max_worker_processes=11}");
                // SIGTERM both times: a JVM started in the background (as under a CI job) ignores SIGINT from the start
                signal(child, "TERM");   // the first: the hook puts the file back, then restarts with the command
                awaitOutput(child, output, "(interrupt again to stop it)...");
                long sleeping = awaitPid(sleeper, output);
                signal(child, "TERM");   // the second
                assertTrue(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the JVM ended after the second interrupt, not"
                        + " 300 s later: " + Files.readString(output));
                assertFalse(ProcessHandle.of(sleeping).map(ProcessHandle::isAlive).orElse(false), "the command's process is stopped");
            } finally {
                child.destroyForcibly();
            }
            String said = Files.readString(output);
            assertTrue(said.contains("bench: interrupted again: stopping --restart-command\n"), said);
            assertTrue(said.contains("warning: settings restored, but --restart-command failed: cannot run --restart-command: stopped by a second"
                    + " interrupt; the server runs with the run's postmaster-level settings until it restarts (its postgresql.auto.conf is as"
                    + " Kensho found it)"), said);
            assertEquals(java.util.List.of("restart", "restart"), Files.readAllLines(count), said);
            assertEquals("0", query(pg, "SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'"), "file as found");
            assertEquals("11", query(pg, "SELECT current_setting('max_worker_processes')"), "not restarted, as said");
        }
    }

    /**
     * A --restart-command of the run's own that hangs when the JVM begins to end: the exit hook waits for it and says
     * so, where it waited without a word; a second interrupt stops it, and the server, never restarted, gets its
     * file back with a reload.
     */
    @Test
    void aSecondInterruptStopsTheRunsOwnRestartCommandThatTheRestoreWaitsFor(@TempDir Path tmp) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            String started = query(pg, "SELECT pg_postmaster_start_time()::text");
            Path sleeper = tmp.resolve("sleeper"), output = tmp.resolve("output");
            Process child = hangingChild(pg, "echo $$ > " + sleeper + "; exec sleep 600", output);
            try {
                long sleeping = awaitPid(sleeper, output);
                signal(child, "TERM");
                awaitOutput(child, output, "bench: waiting for the run's --restart-command on 127.0.0.1:" + pg.port()
                        + " to end (interrupt again to stop it)...\n");
                signal(child, "TERM");
                assertTrue(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the JVM ended after the second interrupt: "
                        + Files.readString(output));
                assertFalse(ProcessHandle.of(sleeping).map(ProcessHandle::isAlive).orElse(false), "the command's process is stopped");
            } finally {
                child.destroyForcibly();
            }
            String said = Files.readString(output);
            assertTrue(said.contains("bench: 127.0.0.1:" + pg.port() + ": reloaded the configuration (pg_reload_conf)"), said);
            assertFalse(said.contains("bench: restarting"), said);
            assertEquals(started, query(pg, "SELECT pg_postmaster_start_time()::text"), said);
            assertEquals("8", query(pg, "SELECT current_setting('max_worker_processes')"), said);
            assertEquals("0", query(pg, "SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'"), "file as found");
        }
    }

    /**
     * As above, the run's restart hanging, but after an earlier one of the run's gave the server its value: the restore
     * puts the file back and, refused its restart by the second interrupt, announces none; the warning says the server
     * runs with the run's value.
     */
    @Test
    void aRestoreAfterASecondInterruptAnnouncesNoRestartItWillNotRun(@TempDir Path tmp) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            Path count = tmp.resolve("restarts"), sleeper = tmp.resolve("sleeper"), output = tmp.resolve("output");
            String restart = hangingFrom(2, count, sleeper, pg);
            Process child = hangingChild(pg, restart, output, "11", "12");
            try {
                awaitPid(sleeper, output);
                signal(child, "TERM");
                awaitOutput(child, output, "to end (interrupt again to stop it)...\n");
                signal(child, "TERM");
                assertTrue(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the JVM ended after the second interrupt: "
                        + Files.readString(output));
            } finally {
                child.destroyForcibly();
            }
            String said = Files.readString(output);
            assertTrue(said.contains("bench: 127.0.0.1:" + pg.port() + ": ALTER SYSTEM RESET max_worker_processes (restored)\n"), said);
            assertFalse(said.contains("bench: restarting"), said);
            assertTrue(said.contains("warning: settings restored, but --restart-command failed: not run after a second interrupt; the server"
                    + " runs with the run's postmaster-level settings until it restarts"), said);
            assertEquals("11", query(pg, "SELECT current_setting('max_worker_processes')"), said);
            assertEquals("0", query(pg, "SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'"), "file as found");
        }
    }

    /** A --restart-command that restarts pg (each run counted in count) until its n-th run, which writes its pid to sleeper and hangs. */
    private static String hangingFrom(int n, Path count, Path sleeper, Target pg) {
        return "echo restart >> " + count + "; if [ $(wc -l < " + count + ") -ge " + n + " ]; then echo $$ > " + sleeper
                + "; exec sleep 600; fi; " + pgCtl(pg, "-w -m fast restart");
    }

    /**
     * HangsInARestoresRestart against pg with --restart-command restart, setting max_worker_processes to each value
     * (11 when none), its output into a file: Process.destroy() would close a pipe, and the child's last lines with it.
     */
    private static Process hangingChild(Target pg, String restart, Path output, String... values) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dkensho.home=" + KenshoHome.dir(), "-cp", System.getProperty("java.class.path"), HangsInARestoresRestart.class.getName(),
                "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho", restart));
        cmd.addAll(java.util.List.of(values));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private static void signal(Process p, String name) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, String.valueOf(p.pid())).start().waitFor());
    }

    private static void awaitOutput(Process child, Path output, String wanted) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (!Files.readString(output).contains(wanted)) {
            assertTrue(child.isAlive() && System.nanoTime() < deadline, "no \"" + wanted + "\" in: " + Files.readString(output));
            Thread.sleep(50);
        }
    }

    /** The pid the hanging command wrote, once it has. */
    private static long awaitPid(Path file, Path output) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file) || !Files.readString(file).endsWith("\n")) {
            assertTrue(System.nanoTime() < deadline, "the restore's restart command never ran: " + Files.readString(output));
            Thread.sleep(50);
        }
        return Long.parseLong(Files.readString(file).trim());
    }

    /** pg_ctl on an embedded server standing in for a remote one, as its DBA would run it (as the server's user). */
    /** What a child JVM running {@code main} against pg, with --restart-command {@code restart}, printed, stderr with stdout. */
    private static String restartChild(Class<?> main, Target pg, String restart) throws Exception {
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(jvm, "-Dkensho.home=" + KenshoHome.dir(), "-cp", System.getProperty("java.class.path"),
                main.getName(), "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho", restart)
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), out);
        return out;
    }

    private static String pgCtl(Target pg, String action) {
        String as = ServerUser.isRoot() ? "runuser -u kensho -- " : "";
        org.junit.jupiter.api.Assumptions.assumeTrue(!ServerUser.isRoot() || java.nio.file.Files.exists(java.nio.file.Path.of("/usr/sbin/runuser")),
                "root without runuser cannot restart the server");
        return as + pg.control().binDirectory().orElseThrow().resolve("pg_ctl") + " -D " + pg.control().dataDirectory().orElseThrow() + " " + action;
    }

    private static String query(Target t, String sql) throws Exception {
        try (Connection c = t.connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * A remote server that is down (its port refuses) is no server restarting: waiting for it fails at once, where a
     * crashed one in recovery is waited for. Reached through a relay to the local server, closed to take it down.
     */
    @Test
    void awaitingARemoteServerThatIsDownFailsAtOnce(@LocalPostgres Target pg) throws Exception {
        java.util.List<java.net.Socket> open = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.net.ServerSocket relay = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    java.net.Socket in = relay.accept(), out = new java.net.Socket("127.0.0.1", 5432);
                    open.add(in);
                    open.add(out);
                    for (java.net.Socket[] pair : new java.net.Socket[][] {{in, out}, {out, in}}) {
                        Thread pump = new Thread(() -> {
                            try {
                                pair[0].getInputStream().transferTo(pair[1].getOutputStream());
                            } catch (java.io.IOException e) {
                                // the relay closed
                            }
                        });
                        pump.setDaemon(true);
                        pump.start();
                    }
                }
            } catch (java.io.IOException e) {
                // the relay closed
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        try (Target t = new TargetSpec().url("jdbc:postgresql://127.0.0.1:" + relay.getLocalPort() + "/test").user("postgres").open()) {
            assertEquals(0, t.awaitAccepting(java.time.Duration.ofSeconds(60)), "an accepting server is not waited for");
            relay.close();
            // the acceptor may still be relaying a connection it took as the relay closed: it ends first, then its sockets
            acceptor.join(5000);
            synchronized (open) {
                for (java.net.Socket s : open) s.close();
            }
            // the freed port is held by a socket bound there that does not listen, so that it refuses as a down server's
            // does: a server socket started elsewhere in the suite (an embedded server's) could take it otherwise, and in
            // two full verifies something answered there. Where the port was taken before the hold, there is nothing to test.
            java.net.Socket hold = new java.net.Socket();
            hold.setReuseAddress(true);   // binds beside the relay's closed connections in TIME_WAIT, not beside a listener
            try {
                hold.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), relay.getLocalPort()));
            } catch (java.net.BindException taken) {
                hold.close();
                org.junit.jupiter.api.Assumptions.abort("port " + relay.getLocalPort() + " was taken by another socket as soon as the relay freed it");
            }
            try (hold) {
                long start = System.nanoTime();
                Exception e = assertThrows(Exception.class, () -> t.awaitAccepting(java.time.Duration.ofSeconds(60)));
                long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
                assertTrue(seconds < 5, "waited " + seconds + " s for a server that is down");
            }
        } finally {
            relay.close();
        }
    }
}
