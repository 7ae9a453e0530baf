package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A managed server restarted in the middle of a run: the run finishes, counts failures, writes results. */
@KenshoTarget
class ServerRestartDuringRunTest {

    @ParameterizedTest
    @EnumSource(Engine.class)
    void runSurvivesAServerRestart(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        assumeTrue(pg.control().canRestart(), "target cannot be restarted: " + pg.describe());
        new PgbenchInit().scale(1).log(null).run(pg);
        AtomicReference<Throwable> restartError = new AtomicReference<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Thread restarter = new Thread(() -> {
            try {
                // after the run's second 2 (its progress line), not a fixed time from here: the set-up before the run's
                // clock starts takes longer on a loaded machine, and the end checks that the first two seconds had no failure
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!err.toString(StandardCharsets.UTF_8).contains("progress: 2.0 s") && System.nanoTime() < deadline) Thread.sleep(20);
                pg.control().restart();
            } catch (Throwable t) {
                restartError.set(t);
            }
        });
        RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench run", List.of("pgbench", "run"), Map.of()));
        restarter.start();
        RunReport r = new PgbenchRun().engine(engine).builtin("tpcb-like").clients(4).threads(2).seconds(10).mode(QueryMode.PREPARED).progress(2)
                .noVacuum(true).warmup(0)   // the restart comes 2 s into the run: a warm-up of unknown length must not hide it
                .output(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .runAndRecord(pg, dir);
        restarter.join();
        assertEquals(null, restartError.get());
        String report = out.toString(StandardCharsets.UTF_8);
        System.out.println(err.toString(StandardCharsets.UTF_8) + report);
        assertEquals(engine, r.engine());
        assertTrue(r.connectionFailures() > 0, report);
        assertTrue(r.failed() >= r.connectionFailures(), report);
        assertTrue(r.reconnects() >= 1, report);
        assertFalse(r.aborted(), report + err);
        assertTrue(report.matches("(?s).*number of failed transactions: [1-9]\\d* .*"), report);
        assertTrue(report.contains("number of connection failures: "), report);
        // each loss said where pgbench would have said the client aborted
        long said = err.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.matches("warning: client \\d+ lost its connection.*: .+ \\(a failed transaction; the client reconnects\\)")).count();
        assertEquals(r.connectionFailures(), said, err.toString(StandardCharsets.UTF_8));
        // transactions after the restart: the clients came back
        assertTrue(err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("progress: 10.0 s")
                || l.startsWith("progress: 8.0 s")).anyMatch(l -> !l.contains(", 0.0 tps")), err.toString(StandardCharsets.UTF_8));
        List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
        assertEquals(1, trials.size());
        assertTrue(trials.get(0).metric("connection_failures") > 0);
        // the timeline shows when: every failure in the seconds after the restart (2 s in), none in the first two
        Timeline tl = Timeline.of(trials.get(0));
        List<Double> failed = tl.column("failed"), t = tl.column(Timeline.T);
        assertEquals((double) r.failed(), failed.stream().mapToDouble(Double::doubleValue).sum(), tl.toString());
        for (int i = 0; i < tl.size(); i++) if (t.get(i) <= 2.5) assertEquals(0.0, failed.get(i), tl.toString());
    }

    /**
     * -R with -L and a server down for two seconds: the slot a client's reconnect held up is judged by -L again when
     * the client is back, and skipped, as pgbench skips every slot later than the limit when it would start. It was
     * sent two seconds behind its schedule, a "late" transaction per client with the outage in its latency.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlotTheOutageMadeLateIsSkippedAfterTheReconnect(Engine engine, @TempDir Path tmp) throws Exception {
        try (Target pg = new dev.kensho.core.server.TargetSpec().open()) {
            new PgbenchInit().scale(1).log(null).run(pg);
            Path pid = pg.control().dataDirectory().orElseThrow().resolve("postmaster.pid");
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread outage = new Thread(() -> {
                try {
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    while (!err.toString(StandardCharsets.UTF_8).contains("progress: 1.0 s") && System.nanoTime() < deadline) Thread.sleep(20);
                    String postmaster = java.nio.file.Files.readAllLines(pid).get(0).strip();
                    new ProcessBuilder("kill", "-INT", postmaster).start().waitFor();   // a fast shutdown
                    Thread.sleep(2000);
                    pg.control().restart();
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            outage.start();
            RunReport r = new PgbenchRun().engine(engine).builtin("select-only").clients(2).threads(1).seconds(10).rate(100).latencyLimitMs(200)
                    .progress(1).noVacuum(true).warmup(0)
                    .output(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)).run(pg);
            outage.join();
            assertEquals(null, failed.get());
            String said = String.join("\n", r.lines()) + "\n" + err.toString(StandardCharsets.UTF_8);
            assertFalse(r.aborted(), said);
            assertTrue(r.reconnects() >= 1, said);
            // the outage's slots, skipped; none sent behind it
            assertTrue(r.skipped() >= 100, said);
            assertTrue(r.latency().maxMs() < 1500, r.latency().maxMs() + " ms: " + said);
        }
    }

    /**
     * A server that dies half-way and does not come back: its clients give up at the run's end and the run is aborted,
     * as pgbench's is. They ended silently, and the run reported its transactions over the whole duration, exit 0.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aServerThatDoesNotComeBackAbortsTheRun(Engine engine, @TempDir Path tmp) throws Exception {
        try (Target pg = new dev.kensho.core.server.TargetSpec().open()) {
            new PgbenchInit().scale(1).log(null).run(pg);
            Path pid = pg.control().dataDirectory().orElseThrow().resolve("postmaster.pid");
            ProcessHandle postmaster = ProcessHandle.of(Long.parseLong(java.nio.file.Files.readAllLines(pid).get(0).trim())).orElseThrow();
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            Thread killer = new Thread(() -> {
                long deadline = System.nanoTime() + 60_000_000_000L;
                try {
                    while (!err.toString(StandardCharsets.UTF_8).contains("progress: 1.0 s") && System.nanoTime() < deadline) Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
                postmaster.destroyForcibly();
            });
            killer.start();
            RunReport r = new PgbenchRun().engine(engine).builtin("select-only").clients(2).seconds(4).progress(1).noVacuum(true).warmup(0)
                    .output(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                    .run(pg);
            killer.join();
            String said = err.toString(StandardCharsets.UTF_8);
            assertTrue(r.aborted(), said + out);
            assertTrue(said.lines().anyMatch(l -> l.matches("error: client \\d could not reconnect before the run's end: .+")), said);
            assertTrue(String.valueOf(r.abortReason()).contains("could not reconnect"), String.valueOf(r.abortReason()));
        }
    }

    /**
     * -C: a login the server refuses mid-run (a role made NOLOGIN) aborts the client, as pgbench's "client 0 aborted while
     * establishing connection"; it was retried every 100 ms, the run going on at 0 tps, saying nothing, exit 0.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aLoginRefusedMidRunAbortsTheClient(Engine engine, Target pg) throws Exception {
        try (dev.kensho.core.server.PlainRole role = dev.kensho.core.server.PlainRole.create(pg, "nologin_" + engine.name().toLowerCase())) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread refuser = new Thread(() -> {
                long deadline = System.nanoTime() + 60_000_000_000L;
                try {
                    while (!err.toString(StandardCharsets.UTF_8).contains("progress: 1.0 s") && System.nanoTime() < deadline) Thread.sleep(20);
                    role.asSuperuser("ALTER ROLE " + role.name() + " NOLOGIN");
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            refuser.start();
            long start = System.nanoTime();
            RunReport r = new PgbenchRun().engine(engine).script("one.sql", "SELECT 1;").clients(1).seconds(20).progress(1)
                    .connectPerTransaction(true).noVacuum(true).warmup(0)
                    .output(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                    .run(role.target());
            refuser.join();
            assertEquals(null, failed.get());
            String said = err.toString(StandardCharsets.UTF_8);
            assertTrue(r.aborted(), said + out);
            assertTrue(said.matches("(?s).*is not permitted to log in[^\n]*\nerror: client 0 aborted while establishing connection\n.*"), said);
            assertTrue(System.nanoTime() - start < 15_000_000_000L, "ended at the refusal, not at -T's end: " + said);
        }
    }
}
