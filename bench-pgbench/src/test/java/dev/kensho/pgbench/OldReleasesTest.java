package dev.kensho.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.OldPostgres;
import dev.kensho.core.server.Target;
import dev.kensho.pgbench.RunReport;
import dev.kensho.pgbench.run.ClientLimits;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pgbench init, run and sweep on PostgreSQL 9.6, as pgbench 15 runs against it; --partitions where 10 cannot. */
class OldReleasesTest {
    static Target pg96;

    @BeforeAll
    static void start() {
        if (!OldPostgres.isLocal(OldPostgres.PG96)) return;
        pg96 = OldPostgres.spec(OldPostgres.PG96).open();
        new PgbenchInit().scale(1).log(null).run(pg96);
    }

    @BeforeEach
    void needs96() {
        OldPostgres.assumeLocal(OldPostgres.PG96);
    }

    @AfterAll
    static void stop() {
        if (pg96 != null) pg96.close();
    }

    static final PrintStream SINK = new PrintStream(java.io.OutputStream.nullOutputStream());

    /**
     * 9.6's pg_stat_activity has no backend_type (the free-connection check and the sampler asked for it) and there is
     * no pg_partitioned_table (the run's partition report asked it): every run and sweep failed before its first client.
     */
    @Test
    void runAndSweep(@TempDir Path tmp) throws Exception {
        RunReport r = new PgbenchRun().builtin("select-only").seconds(1).warmup(0).output(SINK, SINK).run(pg96);
        assertTrue(r.processed() > 0, r.toString());
        assertNull(r.partitionMethod(), "no partitions before 10, as pgbench assumes");
        // an autovacuum worker's transactions, one a table, count too (see the commit counts below)
        pg96.control().apply(Map.of("autovacuum", "off"));
        for (Engine engine : Engine.values()) {
            try (RunDirectory dir = RunDirectory.create(tmp.resolve(engine.name()), RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
                String log = sweep(engine, dir);
                assertSweep(RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)), log);
                // its Idle and CPU shares hold what 10 calls Client and IO waits: said once, in the run's notes
                assertEquals(1, dir.info().notes().stream().filter(n -> n.startsWith("9.6: PostgreSQL 9.6.24 reports no Client, IO or IPC"
                        + " wait events")).count(), dir.info().notes().toString());
            }
        }
    }

    /**
     * A sweep of one and two clients for a second each, with its log (warnings) returned for the assertions' messages.
     * A warm-up of 2 000 transactions a client, not 20 000: one that leaked into the run would still be caught by the
     * commit count, and the warm-up no longer takes longer than the trials on a slow host.
     */
    private static String sweep(Engine engine, RunDirectory dir) throws Exception {
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8)) {
            new ClientSweep().clients(List.of(1, 2)).repeats(1).order(TrialMatrix.Order.SEQUENTIAL).seconds(1).warmup(2000)
                    .builtin("select-only").engine(engine).log(out).run(Map.of("9.6", pg96), dir);
        }
        return log.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Before 15 the sampler sleeps past half a second so that its backend sends its counts: under a database's
     * statement_timeout shorter than that, the sleep was cancelled and every trial lost its database delta; so are the
     * clients between the warm-up and the run, whose warm-up transactions then counted in the trial's commits. Its
     * reads of the statistics wait for the collector to write them: on a loaded host that took longer than the 200 ms,
     * they were cancelled, and a trial lost its delta; here the collector is paused for longer, again and again.
     */
    @Test
    void aShortStatementTimeoutLeavesTheSamplerItsSleep(@TempDir Path tmp) throws Exception {
        pg96.control().apply(Map.of("autovacuum", "off"));
        try (Connection c = pg96.connect(); Statement s = c.createStatement()) {
            s.execute("ALTER DATABASE " + c.getCatalog() + " SET statement_timeout = '200ms'");
        }
        try (CollectorPauses pauses = new CollectorPauses(pg96)) {
            for (Engine engine : Engine.values()) {
                try (RunDirectory dir = RunDirectory.create(tmp.resolve(engine.name()), RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
                    String log = sweep(engine, dir);
                    assertSweep(RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)), log);
                }
            }
            assertTrue(pauses.count() > 4, pauses.count() + " pauses of the collector");
        } finally {
            try (Connection c = pg96.connect(); Statement s = c.createStatement()) {
                s.execute("ALTER DATABASE " + c.getCatalog() + " RESET statement_timeout");
            }
        }
    }

    private static void assertSweep(List<Trial> trials, String log) {
        assertEquals(2, trials.size(), log);
        // the sampler's failures are warnings, and the trial goes on without what it lost (others, that other processes
        // shared the host or that the profile is thin, are the suite's load)
        assertTrue(log.lines().noneMatch(l -> l.contains("warning: the sampler's connection failed") || l.contains("warning: pg_stat_database")), log);
        for (Trial t : trials) {
            assertTrue(t.ok(), t.toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> waits = (Map<String, Object>) t.extra().get("wait_events");
            long samples = ((Number) waits.get("samples")).longValue(), backends = ((Number) waits.get("backend_samples")).longValue();
            int clients = ((Number) t.params().get("clients")).intValue();
            // the run's clients, seen in (nearly) every sample; not the sampler, nor a worker of the server's
            assertTrue(backends > 0 && backends <= clients * samples, waits.toString());
            // the warm-up's last counts, which a backend before 15 holds for up to half a second, are not in the
            // run's (they were thousands), nor are the exiting clients' left out, and the sampler's own are taken out
            // (exactly, as seen; autovacuum is off: its workers' transactions count too)
            assertTrue(t.metrics().containsKey("db_xact_commit"), "no database delta: " + t.extra() + "\n" + log);
            double commits = t.metric("db_xact_commit"), transactions = t.metric("transactions");
            assertTrue(commits >= transactions && commits <= transactions + 5,
                    commits + " commits for " + transactions + " transactions and " + samples + " samples: " + t.metrics());
        }
    }

    /** The connections in use, counted as 9.6 lists them: clients have a client_port, its own workers do not. */
    @Test
    void freeConnectionsCountClientsOnly() throws Exception {
        try (Connection c = pg96.connect(); Connection other = pg96.connect(); Statement s = c.createStatement()) {
            // the backends of an earlier test's clients end a moment after their connections closed (on a loaded machine,
            // seconds after)
            for (int i = 0; i < 600 && count(s, "select count(*) from pg_stat_activity where pid <> pg_backend_pid()") > 1; i++) {
                Thread.sleep(50);
            }
            KenshoException e = assertThrows(KenshoException.class, () -> ClientLimits.checkConnections(c, 500, 0, false, "-c"));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("500 clients need 500 connections but the server has only 99 free (max_connections=100, "
                    + "3 reserved for superusers but usable by this superuser, 1 in use by others)"), e.getMessage());
        }
    }

    static long count(Statement s, String sql) throws java.sql.SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** pgbench 15 sends the DDL and stops at the server's error, after its old tables were dropped: refused before, saying why. */
    @Test
    void partitionsBefore10AreRefusedBeforeAnythingIsDropped() throws Exception {
        KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchInit().scale(1).partitions(2).log(null).run(pg96));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertEquals("--partitions (a partitioned pgbench_accounts) needs PostgreSQL 10 or later (this server is 9.6.24)", e.getMessage());
        try (Connection c = pg96.connect(); Statement s = c.createStatement()) {
            assertEquals(100_000, count(s, "select count(*) from pgbench_accounts"));
        }
    }

    /** 10 partitions by range, without a primary key on the partitioned table (11), hash (11) or a foreign key to it (12). */
    @Test
    void partitionsOn10() {
        try (Target pg10 = OldPostgres.spec(OldPostgres.PG10).open()) {
            for (var refused : Map.of(
                    "--partition-method hash needs PostgreSQL 11 or later (this server is 10.23)",
                    new PgbenchInit().partitions(2).partitionMethod(PartitionMethod.HASH).steps("dtg"),
                    "--partitions with the primary keys step (p) needs PostgreSQL 11 or later (this server is 10.23)",
                    new PgbenchInit().partitions(2),
                    "--partitions with the foreign keys step (f: pgbench_history references pgbench_accounts) needs PostgreSQL 12 or later "
                            + "(this server is 10.23)",
                    new PgbenchInit().partitions(2).steps("dtg").foreignKeys(true)).entrySet()) {
                KenshoException e = assertThrows(KenshoException.class, () -> refused.getValue().log(null).run(pg10));
                assertEquals(KenshoException.USAGE, e.exitCode());
                assertEquals(refused.getKey(), e.getMessage());
            }
            new PgbenchInit().scale(1).partitions(2).steps("dtgv").log(null).run(pg10);
            RunReport r = new PgbenchRun().builtin("select-only").seconds(1).warmup(0).output(SINK, SINK).run(pg10);
            assertEquals("range", r.partitionMethod());
            assertEquals(2, r.partitions());
        }
    }

    /**
     * Pauses a pre-15 server's statistics collector (SIGSTOP) for 600 ms in every 700 until closed: a collector slow to
     * write its file, as on a loaded host, whose readers wait for it.
     */
    static final class CollectorPauses implements AutoCloseable {
        private final long pid;
        private final Thread thread;
        private volatile boolean stop;
        private final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();

        CollectorPauses(Target target) throws Exception {
            ProcessHandle postmaster;
            // the backend's parent read while it is there: it exits a moment after its connection closes
            try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                long backend = rs.getLong(1);
                postmaster = ProcessHandle.of(backend).flatMap(ProcessHandle::parent)
                        .orElseThrow(() -> new AssertionError("no parent of the backend " + backend));
            }
            pid = postmaster.children().filter(p -> cmdline(p.pid()).contains("stats collector")).findFirst()
                    .orElseThrow(() -> new AssertionError("no stats collector under the postmaster " + postmaster.pid())).pid();
            thread = new Thread(this::loop, "collector-pauses");
            thread.setDaemon(true);
            thread.start();
        }

        private static String cmdline(long pid) {
            try {
                return java.nio.file.Files.readString(Path.of("/proc/" + pid + "/cmdline"));
            } catch (java.io.IOException e) {
                return "";
            }
        }

        private void loop() {
            try {
                while (!stop) {
                    signal("STOP");
                    count.incrementAndGet();
                    Thread.sleep(600);
                    signal("CONT");
                    Thread.sleep(100);
                }
            } catch (Exception e) {
                // close() resumes it
            }
        }

        private void signal(String name) throws Exception {
            int rc = new ProcessBuilder("kill", "-" + name, String.valueOf(pid)).inheritIO().start().waitFor();
            if (rc != 0) throw new IllegalStateException("kill -" + name + " " + pid + ": exit " + rc);
        }

        int count() {
            return count.get();
        }

        @Override
        public void close() throws Exception {
            stop = true;
            thread.join(5000);
            signal("CONT");
        }
    }
}
