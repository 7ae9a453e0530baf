package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.LatencyDistribution;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import dev.kensho.pgbench.RunWindow;
import dev.kensho.pgbench.script.Script;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@KenshoTarget
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgbenchRunTest {
    static final Path C_PGBENCH = Path.of("/usr/lib/postgresql/15/bin/pgbench");

    @BeforeAll
    void init(Target pg) {
        new PgbenchInit().scale(1).log(null).run(pg);
    }

    static PrintStream sink(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }

    /**
     * -s says nothing to a builtin, which reads pgbench_branches; pgbench warns whenever it is given, also when the two
     * agree. A custom script's :scale is -s, and no warning.
     */
    @Test
    void aGivenScaleIsIgnoredByBuiltinsWithAWarningAndIsACustomScriptsScale(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport b = new PgbenchRun().selectOnly().scale(1).transactions(1).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        assertEquals(1, b.scale());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("warning: scale option ignored, using count from pgbench_branches table (1)"),
                err.toString(StandardCharsets.UTF_8));
        Path script = Files.writeString(tmp.resolve("scale.sql"), "SELECT :scale;\n");
        ByteArrayOutputStream customErr = new ByteArrayOutputStream();
        RunReport c = new PgbenchRun().file(script.toString()).scale(7).transactions(1).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(customErr)).run(pg);
        assertEquals(7, c.scale());
        assertFalse(customErr.toString(StandardCharsets.UTF_8).contains("scale option ignored"), customErr.toString(StandardCharsets.UTF_8));
    }

    /**
     * The driver's CPU while the clock ran follows what its clients do: one that only computes keeps a CPU busy, one
     * that sleeps leaves it idle (both figures from the same process counter, so a constant would fail one of them).
     */
    @Test
    void driverCpuFollowsWhatTheClientsDo(Target pg, @TempDir Path tmp) throws Exception {
        Path busy = Files.writeString(tmp.resolve("busy.sql"), "\\set x hash(random(1, 1000000))\n".repeat(200));
        Path idle = Files.writeString(tmp.resolve("idle.sql"), "\\sleep 50 ms\n");
        RunReport b = new PgbenchRun().file(busy.toString()).seconds(2).noVacuum(true).output(null, null).run(pg);
        // the busy run's garbage is collected now, not by GC threads while the idle run's clock runs (CI: idle 11.9 %)
        System.gc();
        RunReport i = new PgbenchRun().file(idle.toString()).seconds(2).noVacuum(true).warmup(0).output(null, null).run(pg);
        double busyPct = b.metrics().get("driver_cpu_pct").doubleValue();
        double idlePct = i.metrics().get("driver_cpu_pct").doubleValue();
        // the share of the clock: no floor for the busy one, which a CPU-starved machine may give a fraction of a core
        assertEquals(100 * b.driverCpuSeconds() / b.benchSeconds(), busyPct, 0.05, b.metrics().toString());
        assertTrue(busyPct > 0 && busyPct <= 100.0 * Runtime.getRuntime().availableProcessors() + 5, "busy: " + busyPct);
        // the idle run's own overhead (no warm-up: its JIT compiles during the run) is a few percent of a core, up to 12 on
        // a loaded CI host; the busy one, beside other modules' tests on two cores, may get little more than a tenth of one
        // (seen: idle 4.9 vs busy 15.9, idle 11.9 vs busy 57.5). A constant figure fails the first bound.
        assertTrue(idlePct < busyPct && (idlePct < busyPct / 2 || idlePct < 10), "idle " + idlePct + " vs busy " + busyPct);
        // per transaction: a sleeping transaction costs less CPU than 200 hash() calls; both are over 0
        double busyUs = b.metrics().get("driver_cpu_us_per_tx").doubleValue();
        // kept to 0.1 us: multiplied back by the transactions, that rounding alone was over 0.01 s at 280 000 of them
        assertTrue(busyUs > 0 && Math.abs(busyUs - 1e6 * b.driverCpuSeconds() / b.processed()) <= 0.05 + 1e-9,
                busyUs + " us, " + b.driverCpuSeconds() + " s over " + b.processed());
        String said = String.format(java.util.Locale.ROOT, "(this driver's process used %.2f CPU-seconds while the clock ran: ", b.driverCpuSeconds());
        assertTrue(b.lines().stream().anyMatch(l -> l.startsWith(said)), String.join("\n", b.lines()));
        if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/self/stat"))) {
            // the JVM's page faults over the clock, said on the same line: a host that takes pages back makes them dear
            assertTrue(b.driverPageFaults() >= 0, "no page faults read from /proc/self/stat");
            assertEquals(b.driverPageFaults() / b.benchSeconds(), b.metrics().get("driver_page_faults_per_s").doubleValue(), 0.05,
                    b.metrics().toString());
            String faults = String.format(java.util.Locale.ROOT, ", %.0f page faults a second; ", b.driverPageFaults() / b.benchSeconds());
            assertTrue(b.lines().stream().anyMatch(l -> l.startsWith(said) && l.contains(faults)), String.join("\n", b.lines()));
        }
    }

    /**
     * A session the server ends in the middle of a warm-up transaction (idle_in_transaction_session_timeout while a JVM
     * pause held the client, as on a host with a 20 ms one) is replaced before the clock starts: the run had counted it
     * as its first failed transaction (pgjdbc) or its first reconnection (wire), though nothing measured was lost.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSessionEndedInTheWarmupIsNoLossOfTheRun(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("tx.sql"), "BEGIN;\nSELECT 1;\nSELECT 2;\nEND;\n");
        java.util.concurrent.atomic.AtomicInteger ended = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Exception> failed = new java.util.concurrent.atomic.AtomicReference<>();
        // within a warm-up transaction only (state not idle): a session idle after its warm-up is the run's to lose
        Thread killer = new Thread(() -> {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                while (!stop.get() && ended.get() == 0) {
                    try (ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                            + " WHERE pid <> pg_backend_pid() AND state <> 'idle' AND query LIKE '%kensho warm-up%'")) {
                        rs.next();
                        ended.addAndGet(rs.getInt(1));
                    }
                }
            } catch (Exception e) {
                failed.set(e);
            }
        });
        killer.start();
        RunReport r;
        try {
            // a long warm-up, so that the killer meets it
            r = new PgbenchRun().engine(engine).file(script.toString()).clients(2).threads(engine == Engine.WIRE ? 1 : 2).seconds(1)
                    .warmup(40_000).noVacuum(true).output(null, null).run(pg);
        } finally {
            stop.set(true);
            killer.join();
        }
        assertEquals(null, failed.get());
        assertTrue(ended.get() > 0, "no warm-up session was ended: the test proved nothing");
        assertEquals(0, r.failed(), String.join("\n", r.lines()));
        assertEquals(0, r.reconnects(), String.join("\n", r.lines()));
        assertTrue(r.processed() > 0 && !r.aborted(), String.join("\n", r.lines()));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void selectOnlyPreparedWithProgressPerStatementAndResults(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench run", List.of("pgbench", "run"), Map.of()));
        RunReport r = new PgbenchRun().warmup(0).engine(engine).selectOnly().clients(4).threads(2).seconds(3).mode(QueryMode.PREPARED).progress(1)
                .perStatement(true).output(sink(out), sink(err)).runAndRecord(pg, dir);
        String report = out.toString(StandardCharsets.UTF_8);
        String progress = err.toString(StandardCharsets.UTF_8);
        assertEquals(engine, r.engine(), "the engine asked for ran (no fallback on a server without TLS)");
        assertTrue(report.contains("(engine: " + engine.optionName() + ";"), report);
        assertTrue(r.processed() > 100, report);
        assertEquals(0, r.failed());
        assertTrue(report.contains("transaction type: <builtin: select only>\nscaling factor: 1\nquery mode: prepared\n"
                + "number of clients: 4\nnumber of threads: 2\nmaximum number of tries: 1\nduration: 3 s\n"), report);
        assertTrue(report.matches("(?s).*\ntps = \\d+\\.\\d{6} \\(without initial connection time\\)\n.*"), report);
        assertTrue(report.contains("latency percentiles: p50 "), report);
        assertTrue(report.contains("statement latencies in milliseconds and failures:"), report);
        assertTrue(report.matches("(?s).*\\s+\\d+\\.\\d{3}\\s+0  SELECT abalance FROM pgbench_accounts WHERE aid = :aid;.*"), report);
        assertTrue(progress.contains("starting vacuum...end."), progress);
        long lines = progress.lines().filter(l -> l.matches("progress: \\d+\\.\\d s, \\d+\\.\\d tps, lat \\d+\\.\\d{3} ms stddev \\d+\\.\\d{3}, 0 failed")).count();
        assertTrue(lines >= 2, progress);
        assertTrue(r.latency().p99Ms() >= r.latency().p50Ms() && r.latency().maxMs() >= r.latency().p999Ms());
        List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
        assertEquals(1, trials.size());
        assertEquals(r.tps(), trials.get(0).metric("tps"), 1e-9);
        assertEquals(4, trials.get(0).params().get("clients"));
        // no -R or -L: nothing was counted late or skipped, and no 0 says it was
        assertFalse(trials.get(0).metrics().containsKey("late") || trials.get(0).metrics().containsKey("skipped"), trials.get(0).metrics().toString());
        // the run's span: its connections and vacuum, then -T 3
        java.time.Duration span = java.time.Duration.between(trials.get(0).started(), trials.get(0).finished());
        assertTrue(span.toMillis() >= 3000 && span.toSeconds() < 60, span.toString());
        // a library caller that recorded no environment gets the target's (the CLI records its own first)
        Map<String, Object> env = RunDirectory.info(dir.path()).environment();
        assertEquals(List.of(Credentials.mask(pg.describe())), List.copyOf(env.keySet()), env.toString());
        assertTrue(env.toString().contains("server_version"), env.toString());
        // and the summary.csv every run directory has (the CLI wrote it; a library caller had none)
        List<String> summary = Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY));
        assertEquals(2, summary.size(), summary.toString());
        assertTrue(summary.get(0).contains("tps_median") && summary.get(0).contains("latency_p99_ms_median"), summary.get(0));
        assertTrue(summary.get(1).contains(",ok,"), summary.get(1));

        // the run second by second, as kept: what -P printed, and every transaction once
        Timeline tl = Timeline.of(trials.get(0));
        assertTrue(tl.size() >= 3 && tl.size() <= 4, tl.toString());
        assertEquals(1.0, tl.column(Timeline.T).get(0), 0.2, tl.toString());
        assertEquals(r.benchSeconds(), tl.column(Timeline.T).get(tl.size() - 1), 0.05, tl.toString());
        double counted = 0, t0 = 0;
        for (int i = 0; i < tl.size(); i++) {
            double t = tl.column(Timeline.T).get(i), n = tl.column("transactions").get(i);
            counted += n;
            // t_s is kept to the millisecond: each interval's length to within 1 ms
            double tps = tl.column("tps").get(i);
            assertEquals(n, tps * (t - t0), tps * 0.0011 + 1, tl.toString());
            t0 = t;
            assertTrue(tl.column("latency_p99_ms").get(i) >= tl.column("latency_p50_ms").get(i), tl.toString());
        }
        assertEquals(r.processed(), counted, tl.toString());
        List<Double> printed = progress.lines().filter(l -> l.startsWith("progress: "))
                .map(l -> Double.parseDouble(l.replaceAll("^progress: [0-9.]+ s, ([0-9.]+) tps.*", "$1"))).toList();
        // the same intervals; the last row also holds what ended between its tick and the end of the run: the
        // transactions in flight when -T ran out, one per client at most. Their tail is anything from under a
        // millisecond (t_s keeps milliseconds: 4 of them once ended in a tail that read 0.0 s) to 67 ms on a loaded
        // machine (that row's rate then 6 % below the printed second's), so its transactions are compared: the
        // printed second's (1 s at -P 1) and at most one more per client
        // no line for a second after the run's end (the connections' closing after it took seconds with 256 clients)
        assertTrue(printed.size() <= tl.size(), progress + tl);
        for (int i = 0; i < printed.size(); i++) {
            if (i < tl.size() - 1) {
                assertEquals(printed.get(i), tl.column("tps").get(i), 0.1, progress + tl);
            } else {
                double extra = tl.column("transactions").get(i) - printed.get(i);
                assertTrue(extra >= -printed.get(i) * 0.002 - 1 && extra <= 4,
                        extra + " more transactions after the last tick, by 4 clients\n" + progress + tl);
            }
        }
        Histogram h = LatencyDistribution.of(trials.get(0));
        assertEquals(r.processed(), h.getTotalCount());
        assertEquals(r.latency().p99Ms(), h.getValueAtPercentile(99) / 1000.0, 1e-9);
        assertEquals(tl.variationPercent("tps"), trials.get(0).metric("tps_cv_pct"), 0.01);
        // each second's average latency, weighted by its transactions, is the run's
        double weighted = 0;
        for (int i = 0; i < tl.size(); i++) weighted += tl.column("latency_avg_ms").get(i) * tl.column("transactions").get(i);
        assertEquals(r.latency().avgMs(), weighted / r.processed(), 0.002 + r.latency().avgMs() * 0.005, tl.toString());
        // the headline tps: every transaction over the measured seconds (where the timeline ends), as pgbench divides
        assertEquals(r.processed() / tl.column(Timeline.T).get(tl.size() - 1), r.tps(), r.tps() * 0.01, report + tl);
    }

    /**
     * pgbench 15 says the seed whenever one was asked for ("setting random seed to N" on stderr, before anything else),
     * so a 'rand' or 'time' run can be repeated with the value it drew; without --random-seed it says nothing.
     */
    @Test
    void aGivenSeedIsSaidAsPgbenchSaysIt(Target pg) {
        for (String given : new String[] {"rand", "-1", null}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            RunReport r = new PgbenchRun().warmup(0).selectOnly().transactions(1).randomSeed(given).noVacuum(true)
                    .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
            List<String> said = err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("random seed")).toList();
            if (given == null) assertEquals(List.of(), said);
            // "-1" as pgbench 15's sscanf("%lu") reads it
            else assertEquals(List.of("setting random seed to " + (given.equals("-1") ? "18446744073709551615" : Long.toUnsignedString(r.randomSeed()))), said);
            if (given != null) assertEquals(Long.toUnsignedString(r.randomSeed()), said.get(0).substring("setting random seed to ".length()));
        }
    }

    /** '-f -' reads the script from stdin and names it "-" in the report, as pgbench 15 ("transaction type: -"). */
    @Test
    void aScriptFromStdinIsNamedAsPgbenchNamesIt(Target pg) {
        java.io.InputStream stdin = System.in;
        try {
            System.setIn(new java.io.ByteArrayInputStream("SELECT 1;\n".getBytes(StandardCharsets.UTF_8)));
            RunReport r = new PgbenchRun().warmup(0).file("-").transactions(2).noVacuum(true)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
            assertEquals(2, r.processed());
            assertTrue(r.lines().contains("transaction type: -"), String.join("\n", r.lines()));
        } finally {
            System.setIn(stdin);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void sameSeedSameValuesPerClient(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_seed_probe");
            s.execute("create table kensho_seed_probe(run int, client int, v bigint)");
        }
        Path script = tmp.resolve("seed.sql");
        Files.writeString(script, "\\set v random(1, 1000000000)\ninsert into kensho_seed_probe values (:run, :client_id, :v);\n");
        for (int run = 1; run <= 2; run++) {
            new PgbenchRun().warmup(0).engine(engine).file(script.toString()).clients(3).threads(2).transactions(5).randomSeed("5432").define("run=" + run)
                    .mode(QueryMode.EXTENDED).noVacuum(true).output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        }
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select client, array_agg(v order by v) filter (where run = 1) = array_agg(v order by v) filter (where run = 2), "
                     + "count(*) from kensho_seed_probe group by client order by client")) {
            int clients = 0;
            while (rs.next()) {
                clients++;
                assertTrue(rs.getBoolean(2), "client " + rs.getInt(1) + " drew different values with the same seed");
                assertEquals(10, rs.getInt(3));
            }
            assertEquals(3, clients);
            s.execute("drop table kensho_seed_probe");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void serializationFailuresAreRetriedAndCountedDetailed(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path script = tmp.resolve("ser.sql");
        Files.writeString(script, "begin isolation level repeatable read;\nselect bbalance from pgbench_branches where bid = 1;\n"
                + "select pg_sleep(0.005);\nupdate pgbench_branches set bbalance = bbalance + 1 where bid = 1;\nend;\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().warmup(0).engine(engine).file(script.toString()).clients(4).threads(2).transactions(15).maxTries(50)
                .failuresDetailed(true).perStatement(true).noVacuum(true).output(sink(out), sink(new ByteArrayOutputStream())).run(pg);
        List<String> l = r.lines();
        assertTrue(r.retries() > 0, String.join("\n", l));
        assertEquals(60, r.processed() + r.failed());
        assertTrue(l.contains("maximum number of tries: 50"), String.join("\n", l));
        assertTrue(l.stream().anyMatch(x -> x.startsWith("number of transactions retried: ")), String.join("\n", l));
        assertTrue(l.stream().anyMatch(x -> x.startsWith("number of serialization failures: ")), String.join("\n", l));
        assertTrue(l.contains("statement latencies in milliseconds, failures and retries:"), String.join("\n", l));
    }

    /**
     * A try that fails once -T is over is no failed transaction in pgbench 15: its client just finishes
     * (CSTATE_ERROR: {@code timer_exceeded ? CSTATE_FINISHED : doRetry(...)}). Kensho counted it failed, so a run whose
     * clients wait on one another's locks at its end reported c-1 serialization failures pgbench does not. Here the
     * only try fails after the 1 s run: C pgbench 15 reports 0 processed and 0 failed, with and without retries.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aTryFailingAfterTheDurationIsNoFailedTransaction(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path late = tmp.resolve("late.sql");
        Files.writeString(late, "\\sleep 1200 ms\nDO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '40001'; END $$;\n");
        Path logs = tmp.resolve("logs");
        Files.createDirectories(logs);
        for (int maxTries : new int[] {1, 0}) {
            RunReport r = new PgbenchRun().warmup(0).engine(engine).file(late.toString()).clients(2).seconds(1).maxTries(maxTries)
                    .failuresDetailed(true).perStatement(true).log(true).logDirectory(logs).noVacuum(true)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
            assertEquals(0, r.processed() + r.failed(), String.join("\n", r.lines()));
            assertEquals(0, Files.readString(logs.resolve("pgbench_log." + ProcessHandle.current().pid())).length());
        }
    }

    /**
     * With no transaction ended (the client aborted in its first) pgbench 15 still prints the failure lines, their
     * shares 0/0 as NaN, then stops; Kensho stopped after 'processed', so a report read for "number of failed
     * transactions" had none. The lines as C pgbench 15.20 printed them for the same options.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRunWithNoTransactionEndedStillSaysItsFailuresAsPgbench(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path bad = Files.writeString(tmp.resolve("bad.sql"), "select 1/0;\n");
        RunReport r = new PgbenchRun().warmup(0).engine(engine).file(bad.toString()).transactions(3).maxTries(2).failuresDetailed(true)
                .noVacuum(true).output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        List<String> l = r.lines();
        assertEquals(List.of("number of transactions actually processed: 0/3",
                "number of failed transactions: 0 (NaN%)",
                "number of serialization failures: 0 (NaN%)",
                "number of deadlock failures: 0 (NaN%)",
                "number of transactions retried: 0 (NaN%)",
                "total number of retries: 0",
                "Run was aborted; the above results are incomplete."),
                l.subList(l.indexOf("number of transactions actually processed: 0/3"), l.size()), String.join("\n", l));
    }

    /**
     * With -R each -l line has a lag field, and pgbench 15 writes 0 there for a failed transaction (processXactStats
     * measures latency and lag of successful ones only). The scripts take 20 ms at a 5 ms schedule, so every
     * transaction after the first starts late: the successful ones' lag shows it, the failed ones' must not.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void failedTransactionsLogNoLag(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path fail = tmp.resolve("fail.sql");
        Path ok = tmp.resolve("ok.sql");
        Files.writeString(fail, "\\sleep 20 ms\nDO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '40001'; END $$;\n");
        Files.writeString(ok, "\\sleep 20 ms\nSELECT 1;\n");
        Path logs = tmp.resolve("logs");
        Files.createDirectories(logs);
        new PgbenchRun().engine(engine).file(fail + "@1").file(ok + "@1").randomSeed("5").clients(1).transactions(16).rate(200)
                .log(true).logDirectory(logs).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        List<String> lines = Files.readAllLines(logs.resolve("pgbench_log." + ProcessHandle.current().pid()));
        assertEquals(16, lines.size(), lines.toString());
        // client transaction_no time script_no time_epoch time_us schedule_lag
        List<String[]> failed = lines.stream().map(l -> l.split(" ")).filter(f -> f[2].equals("failed")).toList();
        List<String[]> succeeded = lines.stream().map(l -> l.split(" ")).filter(f -> !f[2].equals("failed")).toList();
        assertTrue(failed.size() >= 2 && succeeded.size() >= 2, lines.toString());
        assertTrue(failed.stream().allMatch(f -> f.length == 7 && f[6].equals("0")), lines.toString());
        assertTrue(succeeded.stream().filter(f -> !f[1].equals("1")).allMatch(f -> Long.parseLong(f[6]) > 1000), lines.toString());
    }

    /**
     * pgbench 15's "initial connection time" is bench_start - start_time: its threads meet at a barrier once all have
     * connected, so it is the slowest thread's connection phase (Kensho printed the threads' average).
     */
    @Test
    void initialConnectionTimeIsTheSlowestThreadsAsPgbench15() {
        long start = 1_000_000_000L;
        assertEquals(9.0, Driver.initialConnectionMs(start, new long[] {start + 3_000_000L, start + 9_000_000L, start + 6_000_000L}), 1e-9);
        assertEquals(0.0, Driver.initialConnectionMs(start, new long[] {start}), 1e-9);
    }

    /**
     * -R with -L: pgbench draws a script once per transaction it runs, and a skipped slot goes back to scheduling with
     * the script it drew (CSTATE_PREPARE_THROTTLE loops without CSTATE_CHOOSE_SCRIPT): in the -l log a client's line
     * after a "skipped" one names the same script (the C pgbench 15 logged 1 516 such pairs, none changing script;
     * Kensho drew again for every slot, and 990 of 2 032 changed).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSkippedSlotKeepsItsScriptForTheNextSlot(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path one = Files.writeString(tmp.resolve("one.sql"), "SELECT 1;\n");
        Path two = Files.writeString(tmp.resolve("two.sql"), "SELECT 2;\n");
        Path logs = Files.createDirectories(tmp.resolve("logs"));
        RunReport r = new PgbenchRun().warmup(0).engine(engine).file(one + "@1").file(two + "@1").clients(2).threads(1)
                .transactions(400).rate(20000).latencyLimitMs(0.05).log(true).logDirectory(logs).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        List<String> lines = Files.readAllLines(logs.resolve("pgbench_log." + ProcessHandle.current().pid()));
        // skipped slots count toward -t, as pgbench's
        assertEquals(800, r.processed() + r.skipped(), String.join("\n", r.lines()));
        // each script's percentiles come from its own histogram, which both clients file into
        for (RunReport.ScriptReport sr : r.scripts()) {
            assertTrue(sr.processed() > 0 && sr.latency().p50Ms() > 0 && sr.latency().p50Ms() <= sr.latency().maxMs(),
                    sr.description() + ": " + sr.latency());
        }
        Map<String, String[]> previous = new java.util.HashMap<>();
        int pairs = 0;
        for (String line : lines) {
            String[] f = line.split(" ");
            String[] before = previous.put(f[0], f);
            if (before == null || !before[2].equals("skipped")) continue;
            pairs++;
            assertEquals(before[3], f[3], "client " + f[0] + ": the slot after skipped transaction " + before[1] + " ran another script");
        }
        assertTrue(pairs >= 20, "too few skipped slots to tell (" + pairs + "): " + r.skipped() + " skipped");
    }

    /**
     * A -j thread's aggregate log ends when its own clients do, as pgbench's: with -t, thread 0's client is done at
     * once and its interval, open then, is not written, though thread 1's client sleeps past the interval's end.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aThreadsAggregateLogEndsWithItsOwnClients(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path script = tmp.resolve("late.sql");
        Files.writeString(script, "\\set s :client_id * 2500\n\\sleep :s ms\nSELECT 1;\n");
        Path logs = tmp.resolve("logs");
        Files.createDirectories(logs);
        new PgbenchRun().engine(engine).file(script.toString()).clients(2).threads(2).transactions(1).log(true).aggregateInterval(2)
                .logDirectory(logs).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        long pid = ProcessHandle.current().pid();
        // thread 0 ended within its first interval (the run's start second + 2 s): no line
        assertEquals(List.of(), Files.readAllLines(logs.resolve("pgbench_log." + pid)));
        // thread 1's client ended 2.5 s in: its first interval ended empty before
        List<String> late = Files.readAllLines(logs.resolve("pgbench_log." + pid + ".1"));
        assertTrue(!late.isEmpty() && late.get(0).matches("\\d{10} 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), late.toString());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void transactionLogAggregatedAndSampled(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        RunReport logged = new PgbenchRun().warmup(0).engine(engine).selectOnly().clients(2).threads(2).transactions(20).log(true).logDirectory(tmp).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        List<Path> files;
        try (Stream<Path> s = Files.list(tmp)) {
            files = s.sorted().toList();
        }
        assertEquals(2, files.size(), files.toString());
        long pid = ProcessHandle.current().pid();
        assertEquals("pgbench_log." + pid, files.get(0).getFileName().toString());
        assertEquals("pgbench_log." + pid + ".1", files.get(1).getFileName().toString());
        List<String> lines = Files.readAllLines(files.get(0));
        assertEquals(20, lines.size());
        assertTrue(lines.stream().allMatch(x -> x.matches("0 \\d+ \\d+ 0 \\d{10} \\d{1,6}")), lines.toString());
        assertTrue(lines.get(0).startsWith("0 1 "), lines.get(0));
        // the logged latencies (µs) are the run's: over both files their mean is the report's average, to within rounding
        double sumUs = 0;
        int count = 0;
        for (Path f : files) {
            for (String x : Files.readAllLines(f)) {
                sumUs += Long.parseLong(x.split(" ")[2]);
                count++;
            }
        }
        assertEquals(40, count);
        double avgUs = logged.latency().avgMs() * 1000;
        assertEquals(avgUs, sumUs / count, 1 + avgUs * 0.005, String.join("\n", logged.lines()));

        Path agg = tmp.resolve("agg");
        Files.createDirectories(agg);
        new PgbenchRun().warmup(0).engine(engine).selectOnly().clients(2).threads(1).seconds(2).log(true).aggregateInterval(1).logPrefix("agg")
                .logDirectory(agg).noVacuum(true).output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        List<String> al = Files.readAllLines(agg.resolve("agg." + pid));
        assertTrue(al.size() >= 2 && al.size() <= 4, al.toString());
        // pgbench 15-17: always 15 fields, lag/skipped/retries/failures 0 without -R, -L, --max-tries, --failures-detailed
        assertTrue(al.stream().allMatch(x -> x.matches("\\d{10} \\d+ \\d+ \\d+ \\d+ \\d+ 0 0 0 0 0 0 0 0 0")), al.toString());

        Path sampled = tmp.resolve("sampled");
        Files.createDirectories(sampled);
        new PgbenchRun().warmup(0).engine(engine).selectOnly().clients(1).transactions(400).log(true).samplingRate(0.1).logDirectory(sampled).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        long n = Files.readAllLines(sampled.resolve("pgbench_log." + pid)).size();
        assertTrue(n > 10 && n < 100, "sampled " + n + " of 400");
    }

    /**
     * The report's average, deviation and maxima are the logged transactions' own, exactly as pgbench's sums give
     * them, and the lines of clients sharing a log are in time order. Latencies of 2.5 ms and a lag that grows to
     * hundreds of ms lie in histogram buckets 2 to 256 µs wide: a bucket's midpoint or top would be off by more.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void theReportsAveragesAndMaximaAreTheLoggedTransactionsOwn(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        RunReport r = new PgbenchRun().warmup(0).engine(engine).script(Script.parse("sleep.sql", "SELECT pg_sleep(0.0025);\n"))
                .clients(2).threads(1).seconds(2).rate(1000).log(true).logDirectory(tmp).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        List<String> lines = Files.readAllLines(tmp.resolve("pgbench_log." + ProcessHandle.current().pid()));
        assertEquals(r.processed(), lines.size(), String.join("\n", r.lines()));
        double sum = 0, sum2 = 0, lagSum = 0;
        long max = 0, lagMax = 0, previousStamp = 0;
        for (String x : lines) {
            // client, transaction, latency, script, epoch seconds, µs, lag
            String[] f = x.split(" ");
            long us = Long.parseLong(f[2]), lag = Long.parseLong(f[6]);
            sum += us;
            sum2 += (double) us * us;
            max = Math.max(max, us);
            lagSum += lag;
            lagMax = Math.max(lagMax, lag);
            long stamp = Long.parseLong(f[4]) * 1_000_000 + Long.parseLong(f[5]);
            assertTrue(stamp >= previousStamp, "a line stamped before the one above it: " + x);
            previousStamp = stamp;
        }
        int n = lines.size();
        double mean = sum / n;
        assertTrue(mean > 2500 && lagMax > 100_000, "latencies of 2.5 ms and more, a lag past 100 ms expected: " + mean + " µs, " + lagMax + " µs");
        assertEquals(mean, r.latency().avgMs() * 1000, 1e-6);
        assertEquals(Math.sqrt(sum2 / n - mean * mean), r.latency().stddevMs() * 1000, 1e-3);
        assertEquals(max, r.latency().maxMs() * 1000, 1e-6);
        assertTrue(r.latency().p999Ms() <= r.latency().maxMs(), r.latency().toString());
        assertEquals(lagSum / n, r.lag().avgMs() * 1000, 1e-6);
        assertEquals(lagMax, r.lag().maxMs() * 1000, 1e-6);
    }

    /**
     * What extended mode cannot run (a ":var" in a string, a \\; compound, a variable the server cannot type) fails, as in
     * pgbench, only when a transaction reaches it: in a branch never taken it was refused before the run; reached, the
     * client aborts with the reason.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void whatCannotRunFailsOnlyWhereItIsReached(Engine engine, Target pg) {
        String dead = "\\set a 5\n\\if false\nSELECT ':a';\nSELECT 1 \\; SELECT 2;\nSELECT :a IS NULL;\n\\endif\nSELECT :a;\n";
        RunReport r = new PgbenchRun().warmup(0).engine(engine).mode(QueryMode.EXTENDED).script("dead.sql", dead).transactions(3).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertEquals(3, r.processed(), String.join("\n", r.lines()));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport reached = new PgbenchRun().warmup(0).engine(engine).mode(QueryMode.EXTENDED).script("taken.sql", "\\set a 1\n\\if :a\nSELECT ':a';\n\\endif\n")
                .transactions(3).noVacuum(true).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        assertTrue(reached.aborted());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("error: client 0 aborted in command 2 (SQL) of script 0; taken.sql:3:9: \":a\" inside a string"),
                err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A failed meta-command is two of pgbench's error lines, each with its prefix; a newline inside the first (a
     * \setshell's output, quoted) is not a line of pgbench's and got none: pgbench 15 prints {@code (not "abc} and
     * {@code ")} on the next line as it is.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aNewlineInsideAMetaCommandsErrorIsNotALineOfItsOwn(Engine engine, Target pg) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().warmup(0).engine(engine).script("sh.sql", "\\setshell v echo abc\n").transactions(1).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        assertTrue(r.aborted());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("error: echo: shell command must return an integer (not \"abc\n\")\n"
                + "error: client 0 aborted in command 0 (setshell) of script 0; execution of meta-command failed\n"), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A schedule shorter than a thread's wake-up (-t 50 at -R 1 000 000: 50 us) starts when the thread's first client asks,
     * as pgbench's thread starts its own after the start barrier; from the run's start, a client woken late found it all
     * behind it and -L skipped every transaction. Skip bursts are judged by one clock reading, as pgbench's.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aShortScheduleStartsWithItsThread(Engine engine, Target pg) {
        RunReport r = new PgbenchRun().warmup(0).engine(engine).selectOnly().clients(1).transactions(50).rate(1_000_000).latencyLimitMs(0.5)
                .noVacuum(true).output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertEquals(50, r.processed() + r.skipped());
        assertTrue(r.processed() >= 1, "the first slot runs: " + String.join("\n", r.lines()));
    }

    /** A second's latency is never above the run's max: read off the histogram, it was its bucket's top (2.943 in a run of max 2.932). */
    @Test
    void noSecondsLatencyIsAboveTheRunsMax(Target pg) {
        RunReport r = new PgbenchRun().warmup(0).selectOnly().clients(2).threads(1).transactions(300).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        double max = r.latency().maxMs();
        for (String column : List.of("latency_p50_ms", "latency_p99_ms", "latency_max_ms")) {
            List<Double> v = r.timeline().column(column);
            assertFalse(v.isEmpty(), column);
            assertTrue(v.stream().allMatch(x -> x <= max), column + " " + v + " above the run's max " + max);
        }
        // the second holding the slowest transaction says its latency, as the run does
        assertEquals(max, r.timeline().column("latency_max_ms").stream().mapToDouble(Double::doubleValue).max().orElse(0), 1e-9);
    }

    /**
     * -R 2 for 2 s schedules about 4 transactions for 12 clients: most have no slot, as in pgbench, and are not clients
     * "whose threads got a core only after the run's end".
     */
    @Test
    void clientsALowRateGaveNoSlotAreNotSaidToBeStarved(Target pg) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // a seed of its own: the Poisson schedule's draws are then the same every time (by chance 12 slots in 2 s came
        // about once in a thousand runs)
        RunReport r = new PgbenchRun().warmup(0).engine(Engine.PGJDBC).selectOnly().clients(12).threads(2).seconds(2).rate(2).noVacuum(true)
                .randomSeed("5432").output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(r.processed() < 12, "fewer transactions than clients: " + r.processed());
        assertFalse(said.contains("ran no transaction"), said);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void rateLimitWithLagAndLatencyLimitAndReconnectEachTransaction(Engine engine, Target pg) {
        RunReport r = new PgbenchRun().warmup(0).engine(engine).selectOnly().clients(2).threads(1).seconds(2).rate(100).latencyLimitMs(50).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        // the schedule's transactions, run or skipped: -L skips those a loaded machine starts more than 50 ms late
        long scheduled = r.processed() + r.skipped();
        assertTrue(scheduled > 120 && scheduled < 300, "~200 transactions expected at -R 100 for 2 s: " + r.processed() + " and "
                + r.skipped() + " skipped");
        List<String> l = r.lines();
        assertTrue(l.stream().anyMatch(x -> x.startsWith("rate limit schedule lag: avg ")), String.join("\n", l));
        assertTrue(l.stream().anyMatch(x -> x.startsWith("number of transactions above the 50.0 ms latency limit: ")), String.join("\n", l));

        RunReport c = new PgbenchRun().warmup(0).engine(engine).selectOnly().clients(2).transactions(5).connectPerTransaction(true).noVacuum(true)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertEquals(10, c.processed());
        assertTrue(c.lines().stream().anyMatch(x -> x.startsWith("average connection time = ")));
        assertTrue(c.lines().stream().anyMatch(x -> x.endsWith("(including reconnection times)")));
    }

    /**
     * The window opens once every client is connected and warmed up, and closes after the last has closed its
     * connection; an observer that fails as it opens stops the run without leaving clients or connections behind.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void theRunWindowSpansTheMeasuredRunOnly(Engine engine, Target pg) throws Exception {
        String others = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() "
                + "AND datname = current_database()";
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            // the backends of an earlier test's clients end a moment after their connections closed, on a loaded machine
            // seconds after: counted at the window's opening, they were taken for more clients
            awaitNone(s, others);
            List<Long> seen = new ArrayList<>();
            RunWindow counting = new RunWindow() {
                @Override
                public void opened() {
                    seen.add(count(s, others));
                }

                @Override
                public void closed() {
                    seen.add(count(s, others));
                }
            };
            RunReport r = new PgbenchRun().engine(engine).selectOnly().clients(3).threads(1).transactions(200).noVacuum(true)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg, 1, counting);
            assertEquals(600, r.processed());
            assertEquals(2, seen.size(), seen.toString());
            assertEquals(3, seen.get(0), "the three clients are connected when it opens");

            RunWindow failing = new RunWindow() {
                @Override
                public void opened() {
                    throw new IllegalStateException("observer down");
                }
            };
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> new PgbenchRun().warmup(0).engine(engine).selectOnly()
                    .clients(3).threads(1).seconds(30).noVacuum(true)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg, 1, failing));
            assertEquals("observer down", e.getMessage());
            assertEquals(0, awaitNone(s, others), "every client's connection is closed");
        }
    }

    /** Waits up to 30 s for the count to reach 0 (backends exit a moment after their clients close); returns the last count. */
    private static long awaitNone(Statement s, String sql) throws InterruptedException {
        long left = count(s, sql), deadline = System.nanoTime() + 30_000_000_000L;
        while (left != 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            left = count(s, sql);
        }
        return left;
    }

    private static long count(Statement s, String sql) {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** -M prepared names server-side statements (pg_prepared_statements sees them); simple and extended do not. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void queryModesReachTheServerAsPgbenchSendsThem(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_mode_probe");
            s.execute("create table kensho_mode_probe(mode int, prepared int)");
        }
        Path script = tmp.resolve("mode.sql");   // a @TempDir: createTempFile left one in /tmp per run
        Files.writeString(script, "select count(*) as n from pg_prepared_statements \\gset\n"
                + "insert into kensho_mode_probe values (:m, :n);\n");
        for (QueryMode m : QueryMode.values()) {
            new PgbenchRun().warmup(0).engine(engine).file(script.toString()).clients(1).transactions(3).mode(m).define("m=" + m.ordinal()).noVacuum(true)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        }
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select mode, max(prepared) from kensho_mode_probe group by mode order by mode")) {
            int[] expected = {0, 0, 2};   // simple, extended: nothing named; prepared: both statements
            for (QueryMode m : QueryMode.values()) {
                assertTrue(rs.next(), "no rows for " + m);
                assertEquals(m.ordinal(), rs.getInt(1));
                assertEquals(expected[m.ordinal()], rs.getInt(2), m.toString());
            }
            s.execute("drop table kensho_mode_probe");
        }
    }

    /** pgbench's vacuum runs each statement whatever the one before did (history is truncated): an error a line, "end." after. */
    @Test
    void vacuumGoesOnPastAMissingTable(Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("alter table pgbench_branches rename to kensho_branches_aside");
            s.execute("insert into pgbench_history values (1, 1, 1, 1, now(), '')");
        }
        try {
            Path script = Files.writeString(tmp.resolve("one.sql"), "select 1;\n");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            new PgbenchRun().file(script.toString()).transactions(1).warmup(0).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
            String e = err.toString(StandardCharsets.UTF_8);
            assertTrue(e.startsWith("starting vacuum...error: ERROR:  relation \"pgbench_branches\" does not exist "
                    + "(ignoring this error and continuing anyway)\nend.\n"), e);
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select count(*) from pgbench_history")) {
                rs.next();
                assertEquals(0, rs.getLong(1), "pgbench_history truncated");
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("alter table kensho_branches_aside rename to pgbench_branches");
            }
        }
    }

    @Test
    void nullStreamsAreSilence(Target pg) {
        // as PgbenchInit.log(null): a caller who wants neither the report nor the vacuum line says null
        RunReport r = new PgbenchRun().selectOnly().clients(2).transactions(50).warmup(0).output(null, null).run(pg);
        assertEquals(100, r.processed());
    }

    @Test
    void tooManyClientsFailBeforeTheRun(Target pg) {
        var e = assertThrows(KenshoException.class, () -> new PgbenchRun().selectOnly().clients(5000).transactions(1)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg));
        assertTrue(e.getMessage().startsWith("5000 clients need 5000 connections but the server has only "), e.getMessage());
        // a harness is told the builder method and the Java calls, not the command line's -c and --set
        assertTrue(e.getMessage().contains("lower clients() or raise max_connections (TargetSpec.set(\"max_connections\", "), e.getMessage());
        assertTrue(e.getMessage().contains("max_connections="), e.getMessage());
    }

    /**
     * The errors stream keeps the caller's encoding: a client's error went into a Shift_JIS stderr
     * (-Dsun.stderr.encoding=MS932) as UTF-8 bytes, beside Kensho's own lines in Shift_JIS.
     */
    @Test
    void errorsReachAStderrOfAnotherEncodingAsText(Target pg) {
        java.nio.charset.Charset sjis = java.nio.charset.Charset.forName("windows-31j");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().script("ja", "select * from 存在しない表;\n").clients(1).transactions(1).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), new PrintStream(err, true, sjis)).runAndRecord(pg, null);
        assertTrue(r.aborted());
        String said = err.toString(sjis);
        assertTrue(said.contains("relation \"存在しない表\" does not exist"), said);
    }

    /**
     * As the C pgbench 15: an error other than a serialization or deadlock failure aborts the client and is no failed
     * transaction (report, -r failures, -l log); a script ending inside a transaction block counts as processed, then aborts.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aScriptErrorAbortsTheClientAsPgbenchDoes(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_abort_probe");
            s.execute("create table kensho_abort_probe(i int primary key)");
        }
        Path script = Files.writeString(tmp.resolve("uq.sql"), "insert into kensho_abort_probe values (1);\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(engine).file(script.toString()).clients(1).transactions(3).noVacuum(true).warmup(0)
                .perStatement(true).failuresDetailed(true).log(true).logDirectory(tmp)
                .output(sink(out), sink(err)).runAndRecord(pg, null);
        String report = String.join("\n", r.lines());
        assertTrue(r.aborted(), report);
        assertEquals(1, r.processed(), report);
        assertEquals(0, r.failed(), report);
        assertTrue(report.contains("number of failed transactions: 0 (0.000%)\n"), report);
        assertTrue(report.matches("(?s).*\n +\\d+\\.\\d{3} +0  insert into kensho_abort_probe values \\(1\\);\n.*"), report);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("duplicate key value"), err.toString(StandardCharsets.UTF_8));
        assertTrue(r.lines().contains("Run was aborted; the above results are incomplete."));
        // printed as pgbench prints it: on stderr, after the report
        assertTrue(err.toString(StandardCharsets.UTF_8).endsWith("error: Run was aborted; the above results are incomplete.\n"), err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("transaction type: ") && !out.toString(StandardCharsets.UTF_8).contains("Run was aborted"),
                out.toString(StandardCharsets.UTF_8));
        List<String> log = Files.readAllLines(tmp.resolve("pgbench_log." + ProcessHandle.current().pid()));
        assertEquals(1, log.size(), log.toString());
        assertTrue(log.get(0).matches("0 1 \\d+ 0 \\d+ \\d+"), log.toString());

        Path open = Files.writeString(tmp.resolve("open.sql"), "begin;\nselect 1;\n");
        RunReport o = new PgbenchRun().engine(engine).file(open.toString()).clients(1).transactions(3).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertTrue(o.aborted() && o.processed() == 1 && o.failed() == 0, String.join("\n", o.lines()));
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table kensho_abort_probe");
        }
    }

    /**
     * A server's Unix-domain socket, as pgbench reaches it with -h DIR: both engines, every -M mode, and -C (a new
     * connection per transaction). The script divides by zero, aborting the client, on any connection with a server
     * address, i.e. one that went over TCP. Uses the machine's PostgreSQL 15 (skipped where it is absent).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void runsOverAUnixSocket(Engine engine, @LocalPostgres(url = "jdbc:postgresql:///test?host=/var/run/postgresql") Target local,
                             @TempDir Path tmp) throws Exception {
        Path script = tmp.resolve("unix.sql");
        Files.writeString(script, "select (inet_server_addr() is null)::int as unix \\gset\n\\set check 1 / :unix\n");
        for (QueryMode m : QueryMode.values()) {
            for (boolean connectEach : new boolean[] {false, true}) {
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                RunReport r = new PgbenchRun().warmup(0).engine(engine).file(script.toString()).clients(2).transactions(20).mode(m)
                        .connectPerTransaction(connectEach).noVacuum(true)
                        .output(sink(new ByteArrayOutputStream()), sink(err)).run(local);
                String what = m + (connectEach ? " -C" : "") + ": " + err.toString(StandardCharsets.UTF_8);
                assertEquals(engine, r.engine(), what);
                assertEquals(40, r.processed(), what);
                assertEquals(0, r.failed(), what);
                assertTrue(!r.aborted(), what);
            }
        }
    }

    /** Tables from the C pgbench -i: Kensho reads their scale and runs on them. */
    @Test
    void kenshoRunsOnCPgbenchTables(Target pg) throws Exception {
        assumeTrue(Files.isExecutable(C_PGBENCH), "no C pgbench at " + C_PGBENCH + ": interop test skipped");
        List<String> cmd = new ArrayList<>(List.of(C_PGBENCH.toString(), "-i", "-s", "2", "-q", "--partitions", "2", "-h", pg.host(),
                "-p", Integer.toString(pg.port()), "-U", pg.user(), pg.database()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        try {
            RunReport r = new PgbenchRun().warmup(0).selectOnly().clients(2).seconds(2).noVacuum(true)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
            assertEquals(2, r.scale());
            assertTrue(r.lines().contains("partition method: range") && r.lines().contains("partitions: 2"), String.join("\n", r.lines()));
            assertTrue(r.processed() > 0 && r.failed() == 0, String.join("\n", r.lines()));
            RunReport t = new PgbenchRun().warmup(0).script(Script.builtin("tpcb-like")).clients(2).transactions(20)
                    .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
            assertEquals(40, t.processed());
        } finally {
            new PgbenchInit().scale(1).log(null).run(pg);
        }
    }
}
