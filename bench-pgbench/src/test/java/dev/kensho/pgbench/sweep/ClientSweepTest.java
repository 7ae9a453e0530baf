package dev.kensho.pgbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.PgVersion;
import dev.kensho.pgbench.ClientSweep;
import dev.kensho.pgbench.PgbenchInit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@KenshoTarget
class ClientSweepTest {

    @Test
    void twoVersionsThreeClientCountsTwoRepeats(@PgVersion(16) Target v16, @PgVersion(17) Target v17, @TempDir Path tmp) throws Exception {
        Map<String, Target> targets = new LinkedHashMap<>();
        targets.put("embedded-16", v16);
        targets.put("embedded-17", v17);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(1, 2, 4)).threads("clients/2").repeats(2).order(TrialMatrix.Order.RANDOM)
                    .seconds(2).builtin("select-only").scale(1).progress(1).log(new PrintStream(log, true, StandardCharsets.UTF_8))
                    .warmup(4000)   // a tenth of the default 20 000 (seconds per trial, 12 trials): still far more than the slack below
                    .run(targets, dir);
            // -P 1: each trial's progress lines on the log as they come, under the trial's number
            for (int i = 1; i <= 12; i++) {
                String trial = "[" + i + "/12]   progress: ";
                assertTrue(log.toString(StandardCharsets.UTF_8).lines().anyMatch(l -> l.startsWith(trial) && l.contains(" tps, lat ")),
                        trial + " in " + log.toString(StandardCharsets.UTF_8));
            }
            List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(12, trials.size(), log.toString(StandardCharsets.UTF_8));
            for (Trial t : trials) {
                assertTrue(t.ok(), t.toString());
                assertTrue(t.metric("tps") > 0, t.toString());
                @SuppressWarnings("unchecked")
                Map<String, Object> waits = (Map<String, Object>) t.extra().get("wait_events");
                long samples = ((Number) waits.get("samples")).longValue();
                // one every 100 ms of a 2 s window; fewer only where the sampler says it got few turns on a loaded host
                assertTrue(samples >= 10 || samples > 0 && waits.containsKey(TrialSampler.THIN), waits.toString());
                // the server is observed over the measured run only: the warm-up's 4 000 commits and its time are not in it
                double commits = t.metric("db_xact_commit"), transactions = t.metric("transactions");
                assertTrue(commits >= transactions && commits <= transactions + samples + 50, commits + " commits for " + transactions
                        + " transactions and " + samples + " samples of the sampler's own");
                // the window holds the run as measured (a loaded machine stretches a 2 s run), and little more
                double window = ((Number) waits.get("seconds")).doubleValue(), run = t.metric("seconds");
                assertTrue(window >= run - 0.001 && window <= run + 0.5, "window " + window + " s for a run of " + run + " s: " + waits);
                assertTrue(((Number) waits.get("backend_samples")).longValue() > 0, waits.toString());
                // the run second by second ends with the run, not with the sampler's wait for the backends to go after it
                @SuppressWarnings("unchecked")
                List<Number> ts = ((Map<String, List<Number>>) t.extra().get("timeline")).get("t_s");
                assertEquals(run, ts.get(ts.size() - 1).doubleValue(), 0.002, ts.toString());
                if (v17.sameHost()) {
                    assertTrue(t.metric("cpu_user_pct") != null, t.metrics().toString());
                    // the host second by second (study 001's per-CPU %soft): a 2 s run's seconds (one of them late on a loaded machine)
                    @SuppressWarnings("unchecked")
                    Map<String, List<Number>> host = (Map<String, List<Number>>) t.extra().get("host_timeline");
                    assertTrue(host != null && host.get("t_s").size() >= 1 && host.get("cpu.idle").size() == host.get("t_s").size()
                            && host.containsKey("cpu0.usr"), String.valueOf(host));
                    assertEquals(Map.of("source", "this host"), t.extra().get("host"));
                    assertTrue(t.metric("mem_used_mb") > 0, t.metrics().toString());
                    // the host's process time told apart: the server's processes (its backends answered every
                    // transaction), Kensho's, the rest; together about the host's busy share. Not exactly: the processes'
                    // time is the scheduler's exact run time, the busy share the kernel's tick samples (as mpstat's), and
                    // where bursts are shorter than a tick the ticks miss some (machine AK lost 10 % of them under
                    // pgbench -S: processes 47.8 % against busy 44.1 %). Counted twice, the sum would be far above.
                    double server = t.metric("server_cpu_pct"), kensho = t.metric("kensho_cpu_pct"), other = t.metric("other_cpu_pct");
                    assertTrue(server > 0 && kensho > 0 && other >= 0 && server + kensho + other <= 1.2 * t.metric("cpu_busy_pct") + 0.3,
                            t.metrics().toString());
                }
                int clients = ((Number) t.params().get("clients")).intValue();
                assertEquals(Math.max(1, clients / 2), ((Number) t.params().get("threads")).intValue());
                assertTrue(((Number) t.extra().get("prewarm_blocks")).longValue() > 0, t.extra().toString());
                @SuppressWarnings("unchecked")
                List<String> report = (List<String>) t.extra().get("report");
                assertTrue(report.stream().anyMatch(l -> l.startsWith("(before the clock started")), report.toString());
            }
            List<String> csv = Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY));
            assertEquals(7, csv.size(), String.join("\n", csv));
            List<String> header = Arrays.asList(csv.get(0).split(","));
            int n = header.indexOf("n"), med = header.indexOf("tps_median"), lo = header.indexOf("tps_min"), hi = header.indexOf("tps_max");
            int target = header.indexOf("target"), clients = header.indexOf("clients");
            assertTrue(n >= 0 && med >= 0 && lo >= 0 && hi >= 0 && target >= 0 && clients >= 0, csv.get(0));
            // what the issue names per trial (rollbacks, temp files, memory) has its medians too, not trials.jsonl alone
            for (String m : List.of("db_xact_commit", "db_xact_rollback", "db_blks_hit", "db_blks_read", "db_temp_files", "mem_used_mb",
                    "server_cpu_pct", "other_cpu_pct")) {
                assertTrue(header.contains(m + "_median"), m + ": " + csv.get(0));
            }
            for (String row : csv.subList(1, csv.size())) {
                String[] f = row.split(",");
                assertEquals("2", f[n], row);
                double m = Double.parseDouble(f[med]);
                assertTrue(Double.parseDouble(f[lo]) <= m && m <= Double.parseDouble(f[hi]), row);
                // the median of two repeats is their mean
                assertEquals((Double.parseDouble(f[lo]) + Double.parseDouble(f[hi])) / 2, m, 1e-4 * m, row);
            }
            assertTrue(csv.stream().anyMatch(r -> r.startsWith("embedded-16,")) && csv.stream().anyMatch(r -> r.startsWith("embedded-17,")),
                    String.join("\n", csv));
        }
    }

    /**
     * A trial during which another program kept the host's cores busy says so as it ends: its numbers are not the
     * server's alone. Every trial read 100 % busy on such a host, as on one the server itself kept busy.
     */
    @Test
    void aTrialThatSharedTheMachineSaysSo(Target pg, @TempDir Path tmp) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(pg.sameHost() && Files.isReadable(Path.of("/proc/stat")), "needs the server's host's /proc here");
        List<Process> burners = new ArrayList<>();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                burners.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
            }
            new ClientSweep().clients(List.of(1)).seconds(2).builtin("select-only").scale(1).warmup(0)
                    .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            Trial t = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).get(0);
            // a loop per core beside one client and its backend: most of the host is the loops'
            assertTrue(t.metric("other_cpu_pct") >= 30 && t.metric("server_cpu_pct") > 0, t.metrics().toString());
            String said = log.toString(StandardCharsets.UTF_8);
            assertTrue(said.lines().anyMatch(l -> l.startsWith("[1/1]   warning: other processes took ")
                    && l.endsWith(" of the host's CPU during this trial (the server's " + Math.round(t.metric("server_cpu_pct")) + " %): it shared the machine")),
                    said);
        } finally {
            burners.forEach(Process::destroyForcibly);
        }
    }

    /**
     * A null log silences the sweep, as PgbenchInit.log(null) and PgbenchRun.output(null, null) silence theirs: it threw a
     * NullPointerException at its first trial, with its run directory begun.
     */
    /**
     * Clients that lost their connection showed only as failed transactions in a sweep (pgbench run says each): one
     * line per trial now, with the first reason, and the count in the trial.
     */
    @Test
    void clientsThatLoseTheirConnectionAreSaidOncePerTrial(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
            new ClientSweep().clients(List.of(2)).seconds(1).script("own", "SELECT pg_terminate_backend(pg_backend_pid());\n").scale(1)
                    .warmup(0).log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            Trial t = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).get(0);
            int lost = ((Number) t.extra().get("lost_connections")).intValue();
            assertTrue(lost > 1, t.extra().toString());
            assertTrue(String.valueOf(t.extra().get("lost_connection_first")).startsWith("client "), t.extra().toString());
            String said = log.toString(StandardCharsets.UTF_8);
            List<String> lines = said.lines().filter(l -> l.contains("warning: ") && l.contains(" lost")).toList();
            assertEquals(1, lines.size(), said);
            assertTrue(lines.get(0).contains("warning: " + lost + " connections lost, by 2 clients; the first: client "), said);
        }
    }

    /**
     * A backend killed during a trial (the OOM killer's signal 9) showed as failed transactions, or as a reason such as
     * "the database system is in recovery mode", its cause found in run.json only when the server stopped: the trial
     * now names it. Killed here with kill -9, as the OOM killer does.
     */
    @Test
    @dev.kensho.junit.ChangesServer
    void aBackendKilledDuringTheTrialIsNamedInIt(Target pg, @TempDir Path tmp) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(pg.sameHost() && pg.control().logMark() >= 0, "needs a managed server on this host");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Thread killer = new Thread(() -> {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                for (int i = 0; i < 100; i++) {
                    try (java.sql.ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(0.3)%' "
                            + "AND pid <> pg_backend_pid() LIMIT 1")) {
                        if (rs.next()) {
                            Thread.sleep(500);
                            new ProcessBuilder("kill", "-9", String.valueOf(rs.getInt(1))).inheritIO().start().waitFor();
                            return;
                        }
                    }
                    Thread.sleep(100);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
            killer.start();
            new ClientSweep().clients(List.of(1)).seconds(4).script("sleepy", "SELECT pg_sleep(0.3);\n").scale(1)
                    .warmup(0).log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            killer.join();
            Trial t = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).get(0);
            String named = t.ok() ? String.valueOf(t.extra().get("server_crash")) : String.valueOf(t.extra().get("reason"));
            assertTrue(named.contains("was terminated by signal 9"), t.toString());
            // the crash discarded the database's counts: no deltas from them (they were negative)
            if (t.ok()) {
                assertEquals("by the server's crash", t.extra().get("pg_stat_database_reset"), t.toString());
                assertTrue(t.metrics().keySet().stream().noneMatch(k -> k.startsWith("db_")), t.toString());
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("the server crashed during the trial: ")
                    || !t.ok(), log.toString(StandardCharsets.UTF_8));
        }
    }

    /**
     * A prewarm of more than shared buffers hold leaves the warm trials partly cold: said once per target, noted in
     * run.json and marked on each trial. It was recorded as prewarmed (191 417 blocks into 16 384 at scale 100).
     */
    @Test
    @dev.kensho.junit.ChangesServer
    void aPrewarmLargerThanSharedBuffersSaysSo(Target pg, @TempDir Path tmp) throws Exception {
        pg.control().apply(Map.of("shared_buffers", "1MB"));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
            new ClientSweep().clients(List.of(1)).repeats(2).seconds(1).builtin("select-only").scale(1).warmup(0)
                    .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(2, trials.size());
            for (Trial t : trials) assertEquals(true, t.extra().get("prewarm_partly_cold"), t.extra().toString());
            String said = log.toString(StandardCharsets.UTF_8);
            List<String> lines = said.lines().filter(l -> l.contains("warning: embedded: pgbench_accounts and its index (")).toList();
            assertEquals(1, lines.size(), said);
            assertTrue(lines.get(0).contains(" blocks) exceed shared_buffers (128 blocks): shared buffers hold at most "), said);
            assertTrue(Files.readString(dir.path().resolve("run.json")).contains("exceed shared_buffers (128 blocks)"));
            // and, as every run, the script it ran
            assertEquals(dev.kensho.pgbench.script.Script.builtinText("select-only"), Files.readString(dir.path().resolve("scripts/1-select-only.sql")));
        }
    }

    @Test
    void aNullLogSilencesTheSweep(Target pg, @TempDir Path tmp) throws Exception {
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
            new ClientSweep().clients(List.of(1)).seconds(1).builtin("select-only").scale(1).warmup(0).log(null).run(Map.of("embedded", pg), dir);
            List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(1, trials.size());
            assertTrue(trials.get(0).ok() && trials.get(0).metric("tps") > 0, trials.get(0).toString());
        }
    }

    /**
     * Without orderSeed() each sweep draws its own random order, as bench pgbench sweep does (every sweep from Java had
     * the order of seed 5432), and a resumed one keeps the seed its run directory recorded. A script given as text runs
     * in every trial and is recorded by name and weight.
     */
    @Test
    void eachSweepDrawsItsOrderAndAResumeKeepsTheRecordedOne(Target pg, @TempDir Path tmp) throws Exception {
        Object[] seeds = new Object[2];
        for (int i = 0; i < 2; i++) {
            try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
                new ClientSweep().clients(List.of(1)).seconds(1).script("own", "SELECT :client_id;\n").scale(1).warmup(0).log(null)
                        .run(Map.of("embedded", pg), dir);
                seeds[i] = dir.info().parameters().get("order_seed");
                assertEquals(List.of("script own@1"), dir.info().parameters().get("scripts"));
                List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
                assertTrue(trials.size() == 1 && trials.get(0).ok() && trials.get(0).metric("transactions") > 0, trials.toString());
            }
        }
        assertTrue(seeds[0] instanceof Number && seeds[1] instanceof Number, Arrays.toString(seeds));
        assertFalse(seeds[0].equals(seeds[1]), "two sweeps drew the same order seed " + seeds[0]);
        Map<String, Object> recorded = new LinkedHashMap<>();
        recorded.put("order_seed", 77L);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), recorded))) {
            new ClientSweep().clients(List.of(1)).seconds(1).builtin("select-only").warmup(0)
                    .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            assertEquals(77L, ((Number) dir.info().parameters().get("order_seed")).longValue());
        }
        // and says it where the user reads, before the first trial
        String said = log.toString(StandardCharsets.UTF_8);
        assertTrue(said.indexOf("order: random, seed 77 (run.json's order_seed)\n") >= 0
                && said.indexOf("order: random, seed 77") < said.indexOf("[1/1] "), said);
    }

    /**
     * A prewarm that fails after creating pg_prewarm (pgbench_accounts a view): the extension it left in the user's
     * database is said, and so is the failure, each on stderr, where only trials.jsonl had the error.
     */
    @Test
    void aFailedPrewarmSaysWhatItCreatedAndWhy(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (FreshDatabase fresh = FreshDatabase.make(pg, "kensho_prewarm_view"); Target db = fresh.target();
             RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
            new dev.kensho.pgbench.PgbenchInit().scale(1).log(null).run(db);
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.execute("ALTER TABLE pgbench_accounts RENAME TO accounts_behind_a_view");
                s.execute("CREATE VIEW pgbench_accounts AS SELECT * FROM accounts_behind_a_view");
            }
            new ClientSweep().clients(List.of(1)).seconds(1).script("own", "SELECT 1;\n").warmup(0)
                    .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("view", db), dir);
            String said = log.toString(StandardCharsets.UTF_8);
            assertTrue(said.contains("view: created extension pg_prewarm in database kensho_prewarm_view"), said);
            assertTrue(said.matches("(?s).*\\[1/1] +warning: pgbench_accounts not prewarmed: .*"), said);
            assertTrue(dir.info().notes().stream().anyMatch(n -> n.startsWith("view: created extension pg_prewarm")), dir.info().notes().toString());
        }
    }

    /**
     * Custom scripts need no pgbench tables, as with pgbench (it runs SELECT 1 in an empty database): the sweep had
     * refused to start without them. Without pgbench_accounts the trials run unprewarmed, said once; a builtin script,
     * whose :scale counts pgbench_branches, is still refused before any trial.
     */
    @Test
    void customScriptsSweepADatabaseWithoutPgbenchTables(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (FreshDatabase fresh = FreshDatabase.make(pg, "kensho_no_pgbench"); Target db = fresh.target()) {
            try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
                new ClientSweep().clients(List.of(1, 2)).seconds(1).script("own", "SELECT 1;\n").warmup(0)
                        .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("empty", db), dir);
                List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
                assertEquals(2, trials.size());
                for (Trial t : trials) {
                    assertTrue(t.ok() && t.metric("tps") > 0, t.toString());
                    assertEquals("no pgbench_accounts", t.extra().get("prewarm_error"), t.extra().toString());
                }
                String said = log.toString(StandardCharsets.UTF_8);
                assertEquals(1, said.lines().filter(l -> l.contains("no pgbench_accounts in database kensho_no_pgbench")).count(), said);
                // the pre-run vacuum's failures, as pgbench's, are said once; each trial keeps them
                assertEquals(1, said.lines().filter(l -> l.equals("empty: no pgbench_branches, pgbench_tellers, pgbench_history in database"
                        + " kensho_no_pgbench: each trial's pre-run vacuum fails on them and goes on, as pgbench's does (-n skips it)")).count(), said);
                assertTrue(String.valueOf(trials.get(0).extra().get("errors")).contains("relation \"pgbench_branches\" does not exist"),
                        trials.get(0).extra().toString());
                assertTrue(dir.info().notes().stream().anyMatch(n -> n.contains("the trials run without its prewarm")), dir.info().notes().toString());
                // nothing was created for the prewarm that never ran
                try (Connection c = db.connect(); Statement s = c.createStatement();
                     java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_extension WHERE extname = 'pg_prewarm'")) {
                    rs.next();
                    assertEquals(0, rs.getInt(1));
                }
            }
            // -n: no vacuum, nothing said of it
            log.reset();
            try (RunDirectory dir = RunDirectory.create(tmp.resolve("no-vacuum"), RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
                new ClientSweep().clients(List.of(1)).seconds(1).script("own", "SELECT 1;\n").warmup(0).noVacuum(true)
                        .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("empty", db), dir);
                String said = log.toString(StandardCharsets.UTF_8);
                assertTrue(said.contains("no pgbench_accounts in database") && !said.contains("pre-run vacuum"), said);
                assertEquals(null, RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).get(0).extra().get("errors"));
            }
            try (RunDirectory dir = RunDirectory.create(tmp.resolve("builtin"), RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
                KenshoException e = assertThrows(KenshoException.class, () -> new ClientSweep().clients(List.of(1)).seconds(1)
                        .builtin("select-only").warmup(0).log(null).run(Map.of("empty", db), dir));
                assertEquals("empty has no pgbench tables in database kensho_no_pgbench, which -b select-only reads: give -s SCALE to initialise them", e.getMessage());
                assertTrue(RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).isEmpty());
            }
        }
    }

    /**
     * A database with pgbench_branches and pgbench_accounts but no pgbench_tellers or pgbench_history: the pre-run
     * vacuum fails on those two every trial, and that is said once, as where all are missing (it had been said nowhere
     * but in each trial's errors).
     */
    @Test
    void thePreRunVacuumsFailuresOnSomeMissingTablesAreSaidOnce(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (FreshDatabase fresh = FreshDatabase.make(pg, "kensho_half_pgbench"); Target db = fresh.target();
             RunDirectory dir = RunDirectory.create(tmp, RunInfo.of(ClientSweep.COMMAND, List.of(), Map.of()))) {
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE pgbench_branches (bid int PRIMARY KEY, bbalance int, filler char(88))");
                s.execute("CREATE TABLE pgbench_accounts (aid int PRIMARY KEY, bid int, abalance int, filler char(84))");
            }
            new ClientSweep().clients(List.of(1, 2)).seconds(1).script("own", "SELECT 1;\n").warmup(0).prewarm(false)
                    .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("half", db), dir);
            String said = log.toString(StandardCharsets.UTF_8);
            String line = "half: no pgbench_tellers, pgbench_history in database kensho_half_pgbench: each trial's pre-run vacuum"
                    + " fails on them and goes on, as pgbench's does (-n skips it)";
            assertEquals(1, said.lines().filter(line::equals).count(), said);
            assertTrue(dir.info().notes().stream().anyMatch(line::equals), dir.info().notes().toString());
            for (Trial t : RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS))) {
                assertTrue(t.ok(), t.toString());
                assertTrue(String.valueOf(t.extra().get("errors")).contains("relation \"pgbench_tellers\" does not exist"), t.extra().toString());
            }
        }
    }

    /** Update scripts: the tables are rebuilt before every trial, and the rebuild is recorded with it. */
    @Test
    void reinitEachTrialRebuildsBeforeEveryTrial(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(2)).repeats(2).order(TrialMatrix.Order.SEQUENTIAL).seconds(1).builtin("simple-update")
                    .scale(1).reinitEachTrial(true).fillfactor(80).warmup(0)
                    .log(new PrintStream(log, true, StandardCharsets.UTF_8))
                    .run(Map.of("embedded", pg), dir);
            List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(2, trials.size());
            // each rebuild said as it starts and ends (at scale 2000 it takes minutes, and the log was silent)
            String said = log.toString(StandardCharsets.UTF_8);
            assertEquals(2, said.lines().filter(l -> l.matches("\\[[12]/2\\]   rebuilding the pgbench tables at scale 1\\.\\.\\.")).count(), said);
            assertEquals(2, said.lines().filter(l -> l.matches("\\[[12]/2\\]   done in .*")).count(), said);
            assertEquals(80, dir.info().parameters().get("fillfactor"), dir.info().parameters().toString());
            for (Trial t : trials) {
                assertTrue(t.ok() && t.metric("init_s") > 0, t.toString());
                assertTrue(String.valueOf(t.extra().get("init")).startsWith("done in "), t.extra().toString());
                assertTrue(t.metric("db_tup_updated") > 0, t.metrics().toString());
            }
        }
        // history holds the last trial only (pgbench's vacuum truncates it); the balances equal its deltas
        // only if the tables were rebuilt before that trial, otherwise the first trial's updates remain
        try (var c = pg.connect(); var s = c.createStatement();
             var rs = s.executeQuery("select (select sum(abalance) from pgbench_accounts), (select sum(delta) from pgbench_history), "
                     + "(select count(*) from pgbench_history)")) {
            rs.next();
            assertTrue(rs.getLong(3) > 0);
            assertEquals(rs.getLong(2), rs.getLong(1));
        }
        // -F 80, as the studies' update sweeps: the rebuilt tables have it
        try (var c = pg.connect(); var s = c.createStatement();
             var rs = s.executeQuery("select reloptions::text from pg_class where relname = 'pgbench_accounts'")) {
            rs.next();
            assertEquals("{fillfactor=80}", rs.getString(1));
        }
    }

    /**
     * A --resume of a finished sweep given -s initialised the tables again (dropped and rebuilt them: at the studies' -s
     * 2000, 30 GB) and then found no trial left; it now says so and leaves them alone. A target of a multi-target run whose
     * trials are all in is not initialised again either.
     */
    @Test
    void aFinishedSweepsResumeLeavesTheTablesAlone(Target pg, @TempDir Path tmp) throws Exception {
        Path run;
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            sweep().run(Map.of("embedded", pg), dir);
            run = dir.path();
        }
        long accounts = accountsOid(pg);
        Files.delete(run.resolve(RunDirectory.SUMMARY));
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.resume(run)) {
            sweep().log(new PrintStream(said, true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
        }
        assertEquals(accounts, accountsOid(pg), "pgbench_accounts was made again: " + said);
        assertEquals("pgbench sweep: every trial is already in " + run + "; nothing left to resume\n", said.toString(StandardCharsets.UTF_8));
        assertEquals(2, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size());
        List<String> csv = Files.readAllLines(run.resolve(RunDirectory.SUMMARY));
        assertEquals(3, csv.size(), "summary.csv written again: " + csv);
        assertTrue(csv.get(1).startsWith("embedded,select-only,1,") && csv.get(2).startsWith("embedded,select-only,2,"), "in the command's order: " + csv);
    }

    private static ClientSweep sweep() {
        return new ClientSweep().clients(List.of(1, 2)).threads("1").repeats(1).order(TrialMatrix.Order.RANDOM).orderSeed(7).seconds(1)
                .builtin("select-only").scale(1).warmup(0).log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    private static long accountsOid(Target pg) throws Exception {
        try (var c = pg.connect(); var s = c.createStatement(); var rs = s.executeQuery("select 'pgbench_accounts'::regclass::oid::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * -R and -L reach every trial: its schedule lag and the limit are measured, and both are parameters of run and trial;
     * so does --warmup 0.
     */
    @Test
    void rateAndLatencyLimitPassToEveryTrial(Target pg, @TempDir Path tmp) throws Exception {
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(1, 2)).repeats(1).order(TrialMatrix.Order.SEQUENTIAL).seconds(2).builtin("select-only")
                    .scale(1).rate(40).latencyLimitMs(250).warmup(0).log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                    .run(Map.of("embedded", pg), dir);
            assertEquals(40.0, ((Number) dir.info().parameters().get("rate")).doubleValue());
            assertEquals(0, ((Number) dir.info().parameters().get("warmup")).intValue());
            assertEquals(250.0, ((Number) dir.info().parameters().get("latency_limit_ms")).doubleValue());
            List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(2, trials.size());
            for (Trial t : trials) {
                assertTrue(t.ok(), t.toString());
                assertEquals(40.0, ((Number) t.params().get("rate")).doubleValue(), t.params().toString());
                assertEquals(250.0, ((Number) t.params().get("latency_limit_ms")).doubleValue(), t.params().toString());
                // throttled: about 40 a second whatever the client count, where select-only unthrottled runs thousands; the
                // scheduled ones, run or skipped (-L skips those a loaded machine starts more than 250 ms late)
                double scheduled = (t.metric("transactions") + t.metric("skipped")) / t.metric("seconds");
                assertTrue(scheduled > 15 && scheduled < 70 && t.metric("tps") < 70, t.metrics().toString());
                assertTrue(t.metrics().containsKey("lag_avg_ms"), t.metrics().toString());
                @SuppressWarnings("unchecked")
                List<String> report = (List<String>) t.extra().get("report");
                assertTrue(report.stream().anyMatch(l -> l.startsWith("number of transactions skipped: ")), report.toString());
                assertTrue(report.stream().anyMatch(l -> l.startsWith("number of transactions above the 250.0 ms latency limit: ")),
                        report.toString());
                // --warmup 0: nothing before the clock, as pgbench
                assertTrue(report.stream().noneMatch(l -> l.startsWith("(before the clock started")), report.toString());
            }
        }
    }

    /**
     * -D, --random-seed, --max-tries and -s (the scale the tables were made at: a custom script's :scale) reach every
     * trial: with one seed, each trial draws the same values.
     */
    @Test
    void definesSeedTriesAndScalePassToEveryTrial(Target pg, @TempDir Path tmp) throws Exception {
        try (var c = pg.connect(); var s = c.createStatement()) {
            s.execute("drop table if exists kensho_sweep_probe");
            s.execute("create table kensho_sweep_probe(id bigserial primary key, r bigint, v int, s int)");
        }
        Path script = Files.writeString(tmp.resolve("draw.sql"), "\\set r random(1, 1000000000)\ninsert into kensho_sweep_probe(r, v, s) values (:r, :v, :scale);\n");
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(1)).repeats(2).order(TrialMatrix.Order.SEQUENTIAL).seconds(1).file(script.toString())
                    .scale(2).warmup(0).define("v=42").randomSeed("5432").maxTries(3)
                    .log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            assertEquals(List.of("v=42"), dir.info().parameters().get("defines"));
            assertEquals(3, ((Number) dir.info().parameters().get("max_tries")).intValue());
            assertEquals("5432", dir.info().parameters().get("random_seed"));
            List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(2, trials.size());
            for (Trial t : trials) {
                assertTrue(t.ok(), t.toString());
                assertEquals("5432", String.valueOf(t.extra().get("random_seed")), t.extra().toString());
                @SuppressWarnings("unchecked")
                List<String> report = (List<String>) t.extra().get("report");
                assertTrue(report.contains("maximum number of tries: 3"), report.toString());
                assertTrue(report.contains("scaling factor: 2"), report.toString());
            }
        }
        List<Long> r = new java.util.ArrayList<>();
        try (var c = pg.connect(); var s = c.createStatement();
             var rs = s.executeQuery("select r, v, s from kensho_sweep_probe order by id")) {
            while (rs.next()) {
                r.add(rs.getLong(1));
                assertEquals(42, rs.getInt(2));
                assertEquals(2, rs.getInt(3));
            }
            s.execute("drop table kensho_sweep_probe");
        }
        // the second trial's draws start over: the first three values come again where it began
        int second = -1;
        for (int i = 1; i + 2 < r.size() && second < 0; i++) {
            if (r.get(i).equals(r.get(0)) && r.get(i + 1).equals(r.get(1)) && r.get(i + 2).equals(r.get(2))) second = i;
        }
        assertTrue(second > 0, "no second run of the same draws in " + r.size() + " rows");
    }

    /**
     * A client count the target cannot hold fails the sweep before its first trial, not half-way; and a pg_prewarm
     * the sweep had to create is said on stderr and kept as a note of the run.
     */
    @Test
    void tooManyClientsFailBeforeAnyTrialAndACreatedExtensionIsNoted(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            var e = assertThrows(KenshoException.class, () -> new ClientSweep().clients(List.of(1, 5000)).repeats(1).seconds(1)
                    .builtin("select-only").scale(1).log(err).run(Map.of("embedded", pg), dir));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("embedded: 5000 clients need 5001 connections but the server has only "), e.getMessage());
            assertTrue(e.getMessage().contains("lower clients()"), e.getMessage());   // the builder method a harness called
            assertTrue(e.getMessage().contains("target.control().apply(Map.of(\"max_connections\", "), e.getMessage());
            assertEquals(0, dir.trials().size(), "no trial ran");
            assertTrue(log.size() == 0, "nothing initialised: " + log);
        }
        try (var c = pg.connect(); var s = c.createStatement()) {
            s.execute("drop extension if exists pg_prewarm");
        }
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(1)).repeats(2).order(TrialMatrix.Order.SEQUENTIAL).seconds(1).builtin("select-only")
                    .scale(1).warmup(0).log(err).run(Map.of("embedded", pg), dir);
            String note = "embedded: created extension pg_prewarm in database " + pg.database()
                    + " to prewarm pgbench_accounts before each trial (--no-prewarm, from Java prewarm(false), skips this; DROP EXTENSION pg_prewarm removes it)";
            assertEquals(1, log.toString(StandardCharsets.UTF_8).lines().filter(note::equals).count(), log.toString(StandardCharsets.UTF_8));
            assertTrue(dir.info().notes().contains(note), dir.info().notes().toString());
        }
    }

    /**
     * The wait-event profile is of the run's clients: sessions that were in the database before the trial (a psql left
     * open, a pool, a monitoring agent) sit idle in ClientRead and, counted, made most of the profile theirs.
     */
    @Test
    void waitProfileCountsTheRunsClientsNotOtherSessions(Target pg, @TempDir Path tmp) throws Exception {
        List<java.sql.Connection> idle = new java.util.ArrayList<>();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            for (int i = 0; i < 6; i++) idle.add(pg.connect());
            new ClientSweep().clients(List.of(2)).threads("1").repeats(1).seconds(2).builtin("select-only").scale(1).warmup(0)
                    .log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            Trial t = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).get(0);
            @SuppressWarnings("unchecked")
            Map<String, Object> waits = (Map<String, Object>) t.extra().get("wait_events");
            long samples = ((Number) waits.get("samples")).longValue(), backends = ((Number) waits.get("backend_samples")).longValue();
            // two clients per sample at most (one as they connect or leave), not the six idle sessions besides
            assertTrue(samples >= 10 && backends <= 2 * samples && backends >= samples, waits.toString());
        } finally {
            for (java.sql.Connection c : idle) c.close();
        }
    }

    /**
     * pg_stat_database's commits are the run's: the sampler's own queries (ten a second) were counted with them, a fifth
     * of the commits of a 45 tps lock-bound trial; and its last two, which read no table, were never flushed before the
     * "after" read (a backend with no table's counts pending flushes none of its commits either), so a run missed two.
     * On 15+ the count is exact: one commit per select-only transaction, at most one more per client.
     */
    @Test
    @dev.kensho.junit.ChangesServer
    void databaseDeltaLeavesOutTheSamplersOwnQueries(Target pg, @TempDir Path tmp) throws Exception {
        // an autovacuum worker's visit commits in pg_stat_database even where it vacuums no table (three more commits,
        // none autovacuumed, in a clean-clone build): off for this test, as OldReleasesTest's sweep has it (put back after)
        pg.control().apply(Map.of("autovacuum", "off"));
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(1, 4)).threads("1").repeats(2).seconds(2).builtin("select-only").scale(1).warmup(0)
                    .log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(Map.of("embedded", pg), dir);
            for (Trial t : RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS))) {
                double commits = t.metric("db_xact_commit"), transactions = t.metric("transactions");
                @SuppressWarnings("unchecked")
                Map<String, Object> waits = (Map<String, Object>) t.extra().get("wait_events");
                long samples = ((Number) waits.get("samples")).longValue();
                assertTrue(samples >= 10 || samples > 0 && waits.containsKey(TrialSampler.THIN), waits.toString());
                int clients = ((Number) t.params().get("clients")).intValue();
                // an autovacuum worker's transactions count in pg_stat_database too: one that visited the database within
                // the trial (dead rows and catalog churn the module's earlier tests left) may add some. Two full builds on
                // machine AK counted 16 more commits than transactions in one trial; none did alone or in six other runs
                int autovacuumed = autovacuumedWithin(pg, t.started(), t.finished());
                assertTrue(commits >= transactions && (commits <= transactions + clients || autovacuumed > 0), commits + " commits for "
                        + transactions + " transactions, " + waits.get("samples") + " samples, " + autovacuumed + " tables autovacuumed within");
            }
        }
    }

    /** Tables of the target's database an autovacuum worker vacuumed or analyzed between from and to. */
    private static int autovacuumedWithin(Target pg, java.time.Instant from, java.time.Instant to) throws Exception {
        try (java.sql.Connection c = pg.connect(); java.sql.PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_all_tables"
                + " WHERE greatest(last_autovacuum, last_autoanalyze) BETWEEN ? AND ?")) {
            ps.setObject(1, java.time.OffsetDateTime.ofInstant(from, java.time.ZoneOffset.UTC));
            ps.setObject(2, java.time.OffsetDateTime.ofInstant(to.plusSeconds(1), java.time.ZoneOffset.UTC));
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** pg as a server on another host: the sampler reads its /proc through the server, on a second connection. */
    static Target onAnotherHost(Target pg) {
        return (Target) java.lang.reflect.Proxy.newProxyInstance(Target.class.getClassLoader(), new Class<?>[] {Target.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("sameHost")) return false;
                    try {
                        return m.invoke(pg, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static long count(java.sql.Statement s, String sql) throws java.sql.SQLException {
        try (var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * A server on another host is observed through a second connection of the sampler's (its /proc, read through the
     * server): the check before the first trial counted one, so a count that fit it failed the first trial's own check.
     */
    @Test
    void aServerOnAnotherHostIsCheckedForTheSamplersTwoConnections(Target pg, @TempDir Path tmp) throws Exception {
        Target remote = onAnotherHost(pg);
        List<java.sql.Connection> idle = new java.util.ArrayList<>();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            int free;
            try (var c = pg.connect(); var s = c.createStatement()) {
                // the backends of an earlier test's clients end a moment after their connections closed, on a loaded
                // machine seconds after: counted here as taken, they were free by the sweep's own check, which passed
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (System.nanoTime() < deadline && count(s, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                        + " AND pid <> pg_backend_pid()") > 0) {
                    Thread.sleep(50);
                }
                try (var rs = s.executeQuery("SELECT current_setting('max_connections')::int"
                        + " - (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')")) {
                    rs.next();
                    free = rs.getInt(1) + 1;   // this connection's slot is free once it closes
                }
            }
            // leave 6 connections free: 5 clients, the sampler's two
            for (int i = 0; i < free - 6; i++) idle.add(pg.connect());
            var e = assertThrows(KenshoException.class, () -> new ClientSweep().clients(List.of(5)).threads("1").repeats(1).seconds(1)
                    .builtin("select-only").scale(1).warmup(0).log(new PrintStream(log, true, StandardCharsets.UTF_8))
                    .run(Map.of("elsewhere", remote), dir));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("elsewhere: 5 clients need 7 connections but the server has only 6 free"), e.getMessage());
            assertEquals(0, dir.trials().size(), "no trial ran");
            assertEquals(0, log.size(), "nothing initialised: " + log);
        } finally {
            for (java.sql.Connection c : idle) c.close();
        }
    }

    /**
     * A server on another host is read through the sampler's second connection, which connected after its first and so
     * was taken for one of the run's clients: it sat in the wait profile (3 backends a sample for 2 clients, a third more
     * Client:ClientRead), held every trial's end for the 3 s wait for the run's backends to go, and its reads of the host's
     * files (four a second) were commits of the run. Now only the clients are profiled and the commits are exact again.
     */
    @Test
    void aServerOnAnotherHostIsProfiledWithoutTheSamplersSecondConnection(Target pg, @TempDir Path tmp) throws Exception {
        // an autovacuum worker visiting the catalogs the suite's inits churned commits a transaction a table, in the
        // database's count: 15 of them once landed in a 2 s trial (the extension puts the setting back)
        pg.control().apply(Map.of("autovacuum", "off"));
        Target remote = onAnotherHost(pg);
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(2)).threads("1").repeats(2).seconds(2).builtin("select-only").scale(1).warmup(0).noVacuum(true)
                    .log(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(Map.of("elsewhere", remote), dir);
            for (Trial t : RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS))) {
                assertEquals(Map.of("source", "the server's host, through pg_read_file()"), t.extra().get("host"));
                @SuppressWarnings("unchecked")
                Map<String, Object> waits = (Map<String, Object>) t.extra().get("wait_events");
                long samples = ((Number) waits.get("samples")).longValue(), backends = ((Number) waits.get("backend_samples")).longValue();
                assertTrue(samples >= 10 && backends <= 2 * samples, waits.toString());
                // the "after" snapshot waited for the run's backends and saw them go; taking the sampler's own second
                // connection for one of them, it gave up after 3 s each trial (timing the sweep told that apart from a
                // loaded machine's slow trials by a few seconds only)
                assertFalse(waits.containsKey(TrialSampler.BACKENDS_LEFT), waits.toString());
                double commits = t.metric("db_xact_commit"), transactions = t.metric("transactions");
                assertTrue(commits >= transactions && commits <= transactions + 2, commits + " commits for " + transactions + " transactions");
            }
        }
    }

    /**
     * A cell whose first recorded repeat failed before the trial knew its parameters (the server not back from a crash in
     * time, a refused connection) has only target and clients in that trial: summary.csv's row took its parameters from
     * it, and the cell's script, threads, mode, engine, duration and scale were empty beside the medians of its ok repeats.
     */
    @Test
    void aCellsRowHasItsParametersWhenItsFirstRepeatFailedEarly(Target pg, @TempDir Path tmp) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
        // a managed server that does not answer is restarted before the trial: this one does not come back either
        dev.kensho.core.server.ServerControl control = (dev.kensho.core.server.ServerControl) java.lang.reflect.Proxy.newProxyInstance(
                Target.class.getClassLoader(), new Class<?>[] {dev.kensho.core.server.ServerControl.class}, (proxy, m, args) -> {
                    if (m.getName().equals("restart") && down.getAndSet(false)) throw new KenshoException(KenshoException.TARGET, "still down");
                    try {
                        return m.invoke(pg.control(), args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        Target refusing = (Target) java.lang.reflect.Proxy.newProxyInstance(Target.class.getClassLoader(), new Class<?>[] {Target.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("awaitAccepting") && armed.getAndSet(false)) {
                        down.set(true);
                        throw new java.sql.SQLException("Connection to 127.0.0.1:1 refused", "08001");
                    }
                    if (m.getName().equals("control")) return control;
                    try {
                        return m.invoke(pg, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        // the first trial's line arms the refusal for its own wait for the server
        PrintStream log = new PrintStream(new java.io.OutputStream() {
            private final StringBuilder line = new StringBuilder();

            @Override
            public void write(int b) {
                if (b != '\n') {
                    line.append((char) b);
                    return;
                }
                if (line.toString().startsWith("[1/2] ") && line.toString().endsWith("repeat 1...")) armed.set(true);
                line.setLength(0);
            }
        }, true, StandardCharsets.UTF_8);
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
            new ClientSweep().clients(List.of(1)).threads("clients/2").repeats(2).order(TrialMatrix.Order.SEQUENTIAL).seconds(1)
                    .builtin("select-only").scale(1).warmup(0).noVacuum(true).log(log).run(Map.of("embedded", refusing), dir);
            List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(List.of("failed", "ok"), trials.stream().map(Trial::status).toList(), trials.toString());
            List<String> csv = Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY));
            List<String> header = Arrays.asList(csv.get(0).split(","));
            String[] row = csv.get(1).split(",", -1);
            for (String p : List.of("script", "threads", "mode", "engine", "duration_s", "scale")) {
                assertTrue(header.contains(p), csv.get(0));
                assertTrue(!row[header.indexOf(p)].isEmpty(), p + " empty: " + csv.get(1));
            }
            assertEquals("select-only", row[header.indexOf("script")], csv.get(1));
            assertEquals("1", row[header.indexOf("n")], csv.get(1));
        }
    }

    /**
     * A new, empty database beside the shared one, with a target of its own (the caller's to close, before this: a
     * later resource of the same try); closing this drops the database.
     */
    private record FreshDatabase(Target pg, String name, Target target) implements AutoCloseable {
        static FreshDatabase make(Target pg, String name) throws Exception {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
                s.execute("CREATE DATABASE " + name);
            }
            return new FreshDatabase(pg, name, new dev.kensho.core.server.TargetSpec()
                    .url("jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + name).user("postgres").open());
        }

        @Override
        public void close() throws Exception {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
            }
        }
    }

    @Test
    void threadsExpressions() {
        assertEquals(8, ThreadsExpression.parse("clients/2").threadsFor(16));
        assertEquals(1, ThreadsExpression.parse("clients/2").threadsFor(1));
        assertEquals(4, ThreadsExpression.parse("4").threadsFor(16));
        assertEquals(2, ThreadsExpression.parse("4").threadsFor(2));
        assertEquals(16, ThreadsExpression.parse("clients").threadsFor(16));
        assertEquals(15, ThreadsExpression.parse(" clients - 1 ").threadsFor(16));
        var e = assertThrows(KenshoException.class, () -> ThreadsExpression.parse("clients^2"));
        assertTrue(e.getMessage().startsWith("--threads \"clients^2\": expected"), e.getMessage());
        // pgbench refuses -j 0; it ran with one thread
        assertEquals("--threads 0: must be at least 1", assertThrows(KenshoException.class, () -> ThreadsExpression.parse("0")).getMessage());
        // a number past int was Java's NumberFormatException (exit 1), not a usage error
        assertEquals("--threads 99999999999: must be at most 2147483647",
                assertThrows(KenshoException.class, () -> ThreadsExpression.parse("99999999999")).getMessage());
        var tooLarge = assertThrows(KenshoException.class, () -> ThreadsExpression.parse("clients*99999999999"));
        assertEquals(KenshoException.USAGE, tooLarge.exitCode());
        assertEquals("--threads \"clients*99999999999\": 99999999999 must be at most 2147483647", tooLarge.getMessage());
        // a client count twice ran its cell twice over, under one name; a harness is told the builder methods it called
        assertEquals("clients() gives 1 twice", assertThrows(KenshoException.class,
                () -> new ClientSweep().clients(List.of(1, 4, 1)).validate()).getMessage());
        assertEquals("repeats() must be at least 1", assertThrows(KenshoException.class,
                () -> new ClientSweep().clients(List.of(1)).repeats(0).validate()).getMessage());
        assertEquals("fillfactor() needs scale() (the fillfactor is the init's)", assertThrows(KenshoException.class,
                () -> new ClientSweep().clients(List.of(1)).fillfactor(80).validate()).getMessage());
        assertTrue(assertThrows(KenshoException.class, () -> new ClientSweep().threads("clients^2")).getMessage()
                .startsWith("threads() \"clients^2\": expected"));
        // -s 0 is refused before any target starts (it said "initialising at scale 0..." on a started one first)
        assertEquals("-s/--scale must be in range 1..2147483647", assertThrows(KenshoException.class,
                () -> new ClientSweep().clients(List.of(1)).scale(0).validate()).getMessage());
        // so are an init template's -I steps (they failed only once a target had started and printed "initialising")
        assertTrue(assertThrows(KenshoException.class, () -> new ClientSweep().clients(List.of(1)).scale(1)
                .init(new PgbenchInit().steps("dtx")).validate()).getMessage().startsWith("unrecognized initialization step \"x\""));
    }
}
