package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A remote server is never reconfigured without permission; --restart-command is that permission. */
class RemoteSettingsIT {
    @TempDir Path work;

    private static List<Trial> trialsOf(Path results) throws Exception {
        try (var d = Files.list(results)) {
            return RunDirectory.readTrials(d.findFirst().orElseThrow().resolve(RunDirectory.TRIALS));
        }
    }

    @Test
    void postmasterSettingOnRemoteIsSkippedWithReason() throws Exception {
        try (Target pg = new TargetSpec().pgVersion(17).open()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            BenchJar.Result r = BenchJar.run(work, "query", "--url", url, "--user", "postgres", "-c", "SELECT 1",
                    "--matrix", "max_worker_processes=9,10", "--matrix", "work_mem=8MB", "--repeat", "1");
            assertEquals(1, r.exitCode(), "every cell skipped: nothing was measured; " + r.all());
            assertTrue(r.err().contains("every one of its 2 cells was skipped: nothing was measured"), r.err());
            List<Trial> trials = trialsOf(work.resolve("results"));
            assertEquals(2, trials.size());
            for (Trial t : trials) {
                assertEquals("skipped", t.status());
                assertTrue(String.valueOf(t.extra().get("reason")).contains("max_worker_processes: needs a postmaster-level change"),
                        t.extra().toString());
            }
            assertTrue(Files.readString(Files.list(work.resolve("results")).findFirst().orElseThrow().resolve("summary.csv")).contains("skipped"));
            try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW max_worker_processes")) {
                rs.next();
                assertEquals("8", rs.getString(1), "the remote server was not reconfigured");
            }
        }
    }

    @Test
    void restartCommandPermitsAlterSystemAndRestart() throws Exception {
        try (Target pg = new TargetSpec().pgVersion(17).open()) {
            String restart = restartCommandOf(pg);
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            // the DBA's own ALTER SYSTEM entry, which the run changes and must put back
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("ALTER SYSTEM SET bgwriter_delay = '300ms'");
                // a list: written back as one quoted string, it would be one library name and the restart would fail
                s.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_prewarm', 'auto_explain'");
                s.execute("SELECT pg_reload_conf()");
            }
            BenchJar.Result r = BenchJar.run(work, "query", "--url", url, "--user", "postgres",
                    // fails (division by zero) unless both settings are in force during the run
                    "-c", "SELECT 1 / (current_setting('max_worker_processes') = '11' AND current_setting('bgwriter_delay') = '250ms')::int",
                    "--set", "bgwriter_delay=250ms", "--set", "shared_preload_libraries=pg_prewarm", "--matrix", "max_worker_processes=11", "--repeat", "1", "--restart-command", restart);
            assertEquals(0, r.exitCode(), r.all());
            List<Trial> trials = trialsOf(work.resolve("results"));
            assertEquals("ok", trials.get(0).status(), trials.get(0).extra().toString());
            // What Kensho did to the server is in run.json.
            String runJson;
            try (var d = Files.list(work.resolve("results"))) {
                runJson = Files.readString(d.findFirst().orElseThrow().resolve(RunDirectory.RUN));
            }
            assertTrue(runJson.contains("ALTER SYSTEM SET max_worker_processes = 11") && runJson.contains("ran --restart-command"), runJson);
            // the server is left as it was found: Kensho's entry gone, the DBA's back, one more restart
            assertTrue(runJson.contains("ALTER SYSTEM RESET max_worker_processes (restored)")
                    && runJson.contains("ALTER SYSTEM SET bgwriter_delay = 300ms (restored)"), runJson);
            try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery(
                    "SELECT current_setting('max_worker_processes'), current_setting('bgwriter_delay'),"
                            + " (SELECT string_agg(name || '=' || setting, ';' ORDER BY name) FROM pg_file_settings"
                            + "  WHERE sourcefile LIKE '%postgresql.auto.conf'), current_setting('shared_preload_libraries')")) {
                rs.next();
                assertEquals("8", rs.getString(1));
                assertEquals("300ms", rs.getString(2));
                assertEquals("bgwriter_delay=300ms;shared_preload_libraries=pg_prewarm, auto_explain", rs.getString(3));
                assertEquals("pg_prewarm, auto_explain", rs.getString(4), "the server restarted with both libraries");
            }
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("ALTER SYSTEM RESET bgwriter_delay");
                s.execute("ALTER SYSTEM RESET shared_preload_libraries");
                s.execute("SELECT pg_reload_conf()");
            }
        }
    }

    @Test
    void ctrlCDuringARestartCommandRunLeavesTheServerAsFound() throws Exception {
        try (Target pg = new TargetSpec().pgVersion(17).open()) {
            String restart = restartCommandOf(pg);
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            // each cell alternates max_worker_processes: a restart before each, and the interrupt lands in one of them or a trial
            // a KENSHO_HOME of its own: the restart command's log is this run's, not a parallel test's
            Path home = work.resolve("home");
            Path restartLog = home.resolve("logs").resolve("restart-command.log");
            Process p = BenchJar.start(work, java.util.Map.of("KENSHO_HOME", home.toString()), "query", "--url", url, "--user", "postgres", "-c", "SELECT pg_sleep(0.2)",
                    "--matrix", "max_worker_processes=11,12", "--repeat", "20", "--order", "sequential", "--restart-command", restart);
            BenchJar.waitForTrials(p, work, 3);
            p.destroy();   // SIGTERM, as Ctrl-C
            assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the run ended");
            // what the run and its restart commands said, for a failure below
            String said = Files.readString(work.resolve("stderr.txt")) + "\nlast --restart-command's output:\n"
                    + (Files.exists(restartLog) ? Files.readString(restartLog) : "(none)");
            try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery(
                    "SELECT current_setting('max_worker_processes'), (SELECT count(*) FROM pg_file_settings"
                            + " WHERE sourcefile LIKE '%postgresql.auto.conf')")) {
                rs.next();
                assertEquals("8", rs.getString(1), said);
                assertEquals(0, rs.getLong(2), "auto.conf as it was");
            } catch (Exception e) {
                throw new AssertionError("the server is not back: " + said, e);
            }
        }
    }

    @Test
    void ctrlCCancelsTheQueryRunningOnARemoteServer() throws Exception {
        try (Target pg = new TargetSpec().pgVersion(17).open()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
            Process p = BenchJar.start(work, "query", "--url", url, "--user", "postgres", "-c", "SELECT pg_sleep(60)", "--repeat", "1",
                    "--warmup", "0");
            // the timed run streams its result as COPY (query) TO STDOUT: that is the statement the server shows
            String running = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY (SELECT pg_sleep(60)%' AND state = 'active'";
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (count(pg, running) == 0) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline, "the query never started: " + Files.readString(work.resolve("stderr.txt")));
                Thread.sleep(100);
            }
            p.destroy();   // SIGTERM, as Ctrl-C
            assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
            // the server would notice the closed connection only after the sleep: Kensho's cancel request ends it now (allow
            // a loaded machine 20 s, well short of the 60 s sleep)
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (count(pg, running) > 0 && System.nanoTime() < until) Thread.sleep(100);
            assertEquals(0, count(pg, running), "the interrupted run's query still runs on the server");
        }
    }

    /**
     * A --restart-command for an embedded server, as a user would write one for theirs (as root, through the
     * server's user). No -l: the restarted server keeps the command's output open, which must not make Kensho wait.
     */
    private static String restartCommandOf(Target pg) throws Exception {
        Path data = pg.control().dataDirectory().orElseThrow();
        Path pgCtl = pg.control().binDirectory().orElseThrow().resolve("pg_ctl");
        boolean root = new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).trim().equals("0");
        Assumptions.assumeTrue(!root || Files.exists(Path.of("/usr/sbin/runuser")), "root without runuser cannot restart the server");
        return (root ? "runuser -u kensho -- " : "") + pgCtl + " -D " + data + " -w -m fast restart";
    }

    private static long count(Target pg, String sql) throws Exception {
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
