package dev.kensho.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.kensho.core.server.Target;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** What a user's suite reports when a target cannot be had: skipped with the reason, never an error. */
@KenshoTarget
class KenshoTargetExtensionTest {
    /** Nothing listens on port 1. */
    static final String CLOSED = "jdbc:postgresql://127.0.0.1:1/test";

    @KenshoTarget
    static class AsksForAbsentServer {
        @Test
        void needsIt(@LocalPostgres(url = CLOSED) Target pg) {
            fail("ran without its server");
        }

        @Test
        void doesNotNeedIt() {
        }
    }

    @KenshoTarget
    static class ConstructorAsksForAbsentServer {
        ConstructorAsksForAbsentServer(@LocalPostgres(url = CLOSED) Target pg) {
        }

        @Test
        void anything() {
            fail("ran without its server");
        }
    }

    /** A suite that grows: every test with a pool of its own, each pool's connections held once. */
    @KenshoTarget
    static class ManyTestsWithPools {
        static javax.sql.DataSource classPool;
        static Target fromBeforeAll;

        @org.junit.jupiter.api.BeforeAll
        static void poolForTheClass(Target pg) {
            classPool = pg.pool(1);
            fromBeforeAll = pg;
        }

        @org.junit.jupiter.api.RepeatedTest(12)
        void poolOfFour(Target pg) throws Exception {
            javax.sql.DataSource pool = pg.pool(4);
            List<java.sql.Connection> held = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) held.add(pool.getConnection());
            for (java.sql.Connection c : held) c.close();
            // this test's four, the class's one, and a closed test's four whose backends may still be ending (their
            // exit is asynchronous): waited for a moment on a loaded machine; pools never closed would be 4 more each
            int open = Integer.MAX_VALUE;
            long deadline = System.nanoTime() + 10_000_000_000L;
            try (java.sql.Connection c = classPool.getConnection(); java.sql.Statement st = c.createStatement()) {
                while (open > 9 && System.nanoTime() < deadline) {
                    try (java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")) {
                        rs.next();
                        open = rs.getInt(1);
                    }
                    if (open > 9) Thread.sleep(100);
                }
            }
            org.junit.jupiter.api.Assertions.assertTrue(open <= 9, open + " connections open");
        }

        @Test
        void theClasssTargetAndTheTestsAreEqual(Target pg) {
            assertEquals(fromBeforeAll, pg);
            assertEquals(fromBeforeAll.hashCode(), pg.hashCode());
        }

        @Test
        void aPoolClosesInTryWithResources(Target pg) throws Exception {
            com.zaxxer.hikari.HikariDataSource closedEarly;
            try (com.zaxxer.hikari.HikariDataSource ds = pg.pool(1)) {
                closedEarly = ds;
                ds.getConnection().close();
            }
            org.junit.jupiter.api.Assertions.assertTrue(closedEarly.isClosed());
            org.junit.jupiter.api.Assertions.assertTrue(pg.pool(1).getConnection().isValid(2));
        }

        @Test
        void closingTheTargetItWasGivenLeavesTheServerToOthers(Target pg) throws Exception {
            try (Target mine = pg) {
                mine.pool(2).getConnection().close();
            }
            try (java.sql.Connection c = pg.connect()) {
                org.junit.jupiter.api.Assertions.assertTrue(c.isValid(2));
            }
        }
    }

    @Test
    void theTestsPoolsCloseWithTheTest() {
        EngineExecutionResults r = run(ManyTestsWithPools.class);
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals(15, r.testEvents().succeeded().count());
    }

    @KenshoTarget
    static class AsksForAMissingRole {
        @Test
        void needsIt(@LocalPostgres(user = "kensho_no_such_role") Target pg) {
            fail("ran without its server");
        }
    }

    /** A server answers but refuses the test's login: a misconfigured suite fails instead of passing by skipping. */
    @Test
    void aServerThatRefusesTheTestFailsItRatherThanSkipping(@LocalPostgres Target present) {
        EngineExecutionResults r = run(AsksForAMissingRole.class);
        assertEquals(0, r.testEvents().skipped().count(), r.testEvents().skipped().list().toString());
        List<Event> failed = r.testEvents().failed().list();
        assertEquals(1, failed.size(), r.allEvents().list().toString());
        String message = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("");
        assertTrue(message.startsWith("the PostgreSQL at jdbc:postgresql://127.0.0.1:5432/test refuses the test: "), message);
        assertTrue(message.contains("role \"kensho_no_such_role\" does not exist"), message);
    }

    @KenshoTarget
    static class RestartsARemoteServer {
        @Test
        void restarts(@LocalPostgres Target pg) {
            pg.control().restart();
        }
    }

    @KenshoTarget
    static class RestartsARemoteServerBeforeEach {
        @org.junit.jupiter.api.BeforeEach
        void restart(@LocalPostgres Target pg) {
            pg.control().restart();
        }

        @Test
        void runs() {
        }
    }

    /** A test's own call Kensho refuses names what the suite sets (the annotation's restartCommand), not --restart-command. */
    @Test
    void aRefusalInTheTestNamesWhatTheSuiteSets(@LocalPostgres Target present) {
        EngineExecutionResults r = run(RestartsARemoteServer.class);
        List<Event> failed = r.testEvents().failed().list();
        assertEquals(1, failed.size(), r.allEvents().list().toString());
        String message = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("");
        assertTrue(message.contains("@LocalPostgres restartCommand") && !message.contains("--restart-command"), message);
        // in a lifecycle method too
        List<Event> before = run(RestartsARemoteServerBeforeEach.class).testEvents().failed().list();
        assertEquals(1, before.size());
        String said = before.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("");
        assertTrue(said.contains("@LocalPostgres restartCommand") && !said.contains("--restart-command"), said);
    }

    @KenshoTarget
    static class AsksWithAPasswordFileThatIsNotThere {
        @Test
        void needsIt(@LocalPostgres(passwordFile = "/nonexistent/kensho-pw") Target pg) {
            fail("ran without its password");
        }
    }

    /**
     * A harness whose server wants a password, or may be restarted, says so on the annotation, as the command line's
     * --password-file and --restart-command; its errors name the annotation's elements.
     */
    @Test
    void theAnnotationTakesAPasswordFileAndARestartCommand(@LocalPostgres(restartCommand = "true") Target restartable,
                                                          @LocalPostgres Target plain) {
        assertTrue(restartable.control().canRestart(), "restartCommand given");
        assertFalse(plain.control().canRestart(), "no restartCommand: a remote target is never restarted");
        EngineExecutionResults r = run(AsksWithAPasswordFileThatIsNotThere.class);
        List<Event> failed = r.testEvents().failed().list();
        assertEquals(1, failed.size(), r.allEvents().list().toString());
        String message = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("");
        assertTrue(message.contains("@LocalPostgres passwordFile /nonexistent/kensho-pw: cannot read"), message);
        // the server refused nothing: the file is missing
        assertTrue(message.startsWith("cannot open the PostgreSQL at jdbc:postgresql://127.0.0.1:5432/test for the test: "), message);
    }

    @KenshoTarget
    static class AsksForVersionsAmiss {
        @Test
        void both(@PgVersion(value = 17, release = "16.6") Target pg) {
            fail("ran with two versions");
        }

        @Test
        void neither(@PgVersion Target pg) {
            fail("ran with no version");
        }

        @Test
        void unknown(@PgVersion(release = "banana") Target pg) {
            fail("ran with no such release");
        }
    }

    /** A version asked for amiss fails its test with a message that says how to ask: nothing is started. */
    @Test
    void aVersionAskedForAmissFailsTheTestSayingHow() {
        EngineExecutionResults r = run(AsksForVersionsAmiss.class);
        List<String> messages = r.testEvents().failed().list().stream()
                .map(ev -> ev.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                        .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse(""))
                .sorted().toList();
        assertEquals(3, messages.size(), r.allEvents().list().toString());
        assertEquals("@PgVersion needs a major (@PgVersion(17)) or a release (@PgVersion(release = \"9.6\"))", messages.get(0));
        assertEquals("@PgVersion(17, release = \"16.6\"): give one of the two", messages.get(1));
        // in the annotation's words: the test never said --pg-version
        assertTrue(messages.get(2).startsWith("cannot start the test target: @PgVersion banana: "), messages.get(2));
    }

    /** What the nested run printed on stderr: the extension's skip lines go there, not into the build's log. */
    private static String printed = "";

    private static EngineExecutionResults run(Class<?> c) {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream was = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            return EngineTestKit.engine("junit-jupiter").selectors(selectClass(c)).execute();
        } finally {
            System.setErr(was);
            printed = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static String skipReason(Events events) {
        List<Event> skipped = events.skipped().list();
        assertEquals(1, skipped.size(), skipped.toString());
        Optional<String> reason = skipped.get(0).getPayload(String.class);
        return reason.orElse("");
    }

    @Test
    void aTestAskingForAnAbsentServerIsSkippedWithTheReason() {
        EngineExecutionResults r = run(AsksForAbsentServer.class);
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals(1, r.testEvents().succeeded().count());
        String reason = skipReason(r.testEvents());
        assertTrue(reason.startsWith("no PostgreSQL at " + CLOSED), reason);
        assertTrue(reason.contains("Connection refused"), reason);
        // said where a suite's log shows it: surefire's console counts skips but gives no reason
        assertEquals(List.of("SKIPPED: " + reason), printed.lines().filter(l -> l.startsWith("SKIPPED")).toList(), printed);
    }

    @KenshoTarget
    static class AsksForAnEmbeddedServer {
        @Test
        void needsIt(@PgVersion(18) Target pg) {
            fail("ran without its server");
        }
    }

    /** A Mac's or Windows' suite skips the embedded server's tests, as one without Docker skips the containers'. */
    @Test
    void offLinuxATestAskingForAnEmbeddedServerIsSkippedWithTheReason() {
        String os = System.getProperty("os.name");
        System.setProperty("os.name", "Windows 11");
        EngineExecutionResults r;
        try {
            r = run(AsksForAnEmbeddedServer.class);
        } finally {
            System.setProperty("os.name", os);
        }
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals("embedded PostgreSQL target skipped: Kensho manages a PostgreSQL server (embedded, or --pg-bin) on Linux only,"
                + " not on Windows 11; give --url of a server you run, or --testcontainers where a Docker engine runs", skipReason(r.testEvents()));
    }

    @Test
    void aConstructorAskingForAnAbsentServerSkipsTheClass() {
        EngineExecutionResults r = run(ConstructorAsksForAbsentServer.class);
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals(0, r.testEvents().started().count());
        assertTrue(skipReason(r.containerEvents()).startsWith("no PostgreSQL at " + CLOSED));
    }

    /** KENSHO_TEST_TESTCONTAINERS=1 or =true is a switch (the default image), anything else an image. */
    @Test
    void aContainerSwitchIsNotTakenForAnImage() {
        for (String on : new String[] {"", " ", "1", "true", "TRUE", "yes", "on"}) {
            assertEquals(null, KenshoTargetExtension.containerImage(on), on);
        }
        assertEquals("postgres:16", KenshoTargetExtension.containerImage("postgres:16"));
        assertEquals("registry.acme.com/pg:17", KenshoTargetExtension.containerImage(" registry.acme.com/pg:17 "));
        // a CI matrix's way of saying no is no: it had meant a container, and every test skipped without Docker
        for (String off : new String[] {null, "", " ", "0", "false", "FALSE", "no", "off"}) {
            assertFalse(KenshoTargetExtension.containersOn(off), String.valueOf(off));
        }
        for (String on : new String[] {"1", "true", "yes", "on", "postgres:16"}) {
            assertTrue(KenshoTargetExtension.containersOn(on), on);
        }
    }

    /**
     * A suite pointed at a remote server by the environment gets what the command line's options give: a restart
     * command (without it no test can restart the server) and a password file.
     */
    @Test
    void theRemoteServerOfTheEnvironmentTakesARestartCommandAndAPasswordFile(@LocalPostgres Target local,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.util.Map<String, String> env = new java.util.HashMap<>(java.util.Map.of("KENSHO_TEST_URL", local.jdbcUrl(),
                "KENSHO_TEST_USER", local.user()));
        try (Target t = KenshoTargetExtension.remote(env).open()) {
            assertTrue(!t.control().canRestart(), "no restart without a command");
        }
        env.put("KENSHO_TEST_RESTART_COMMAND", "true");
        try (Target t = KenshoTargetExtension.remote(env).open()) {
            assertTrue(t.control().canRestart());
        }
        java.nio.file.Path empty = java.nio.file.Files.writeString(tmp.resolve("pw"), "");
        env.put("KENSHO_TEST_PASSWORD_FILE", empty.toString());
        // the file is read: an empty one is refused (TargetSpec), which it would not be if the variable were ignored
        dev.kensho.core.KenshoException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> KenshoTargetExtension.openRemote(env));
        // named as the suite gave it: it set no --password-file
        assertEquals("KENSHO_TEST_PASSWORD_FILE " + empty + " is empty", e.getMessage());
        env.remove("KENSHO_TEST_PASSWORD_FILE");
        env.put("KENSHO_TEST_URL", "jdbc:mysql://" + local.host() + ":" + local.port() + "/test");
        e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> KenshoTargetExtension.openRemote(env));
        assertTrue(e.getMessage().startsWith("KENSHO_TEST_URL must start with jdbc:postgresql://"), e.getMessage());
    }

    @Test
    void theDefaultAndTheNewestVersionAreOneServer(Target byDefault, @PgVersion(18) Target newest) {
        assertSame(byDefault, newest);
    }
}
