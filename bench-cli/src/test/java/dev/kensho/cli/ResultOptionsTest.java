package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --resume continues the same run or refuses: trials of another command or other options would mix into its summary. */
@KenshoTarget
class ResultOptionsTest {
    @TempDir Path results;

    /**
     * A run killed with -9 cannot put back what its ALTER SYSTEM changed on a remote server; its resume finds the
     * values already there, changes nothing and so restores nothing: it says so, from run.json's notes.
     */
    @Test
    void aResumeSaysWhatAKilledRunLeftChanged() {
        assertEquals(java.util.Map.of("remote 10.0.0.5:5432", java.util.List.of("max_connections = 50")), ResultOptions.notPutBack(java.util.List.of(
                "remote 10.0.0.5:5432: ALTER SYSTEM SET checkpoint_timeout = 9min",
                "remote 10.0.0.5:5432: ALTER SYSTEM SET max_connections = 50",
                "remote 10.0.0.5:5432: ran --restart-command",
                "remote 10.0.0.5:5432: ALTER SYSTEM RESET checkpoint_timeout (restored)",
                "remote 10.0.0.6:5432: ALTER SYSTEM SET work_mem = 8MB",
                "remote 10.0.0.6:5432: ALTER SYSTEM SET work_mem = 4MB (restored)",
                "embedded-17 at 127.0.0.1:20000: set work_mem = 8MB")));
    }

    /**
     * A run the target could take no cell of measured nothing: exit 1, saying so. It exited 0, as if it had measured
     * (an ssb pool on a remote server of another max_worker_processes). One skipped cell beside a measured one is no failure.
     */
    @Test
    void aRunWhoseEveryCellWasSkippedExitsOne() {
        try (RunDirectory rd = RunDirectory.create(results, dev.kensho.core.result.RunInfo.of("ssb", java.util.List.of("bench"), null))) {
            for (int r = 0; r < 2; r++) rd.append(dev.kensho.core.result.Trial.of("workers=2", r).skipped("needs max_worker_processes=2").build());
            rd.append(dev.kensho.core.result.Trial.of("workers=4", 0).skipped("needs max_worker_processes=4").build());
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            assertEquals(1, ResultOptions.exitStatus(rd, new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)));
            assertEquals("every one of its 2 cells was skipped: nothing was measured; the reasons are in summary.csv",
                    err.toString(java.nio.charset.StandardCharsets.UTF_8).strip());
            rd.append(dev.kensho.core.result.Trial.of("workers=0", 0).metric("seconds", 1.5).build());
            assertEquals(0, ResultOptions.exitStatus(rd, System.err), "a measured cell beside skipped ones");
        }
    }

    /**
     * scan records its options as one object: one an earlier Kensho left out (options.caches) is refused as unrecorded, not
     * as a difference whose suggested resume command met the same refusal; a map of values (--set) with another key is
     * another run.
     */
    @Test
    void anOptionMissingFromAnOlderRunsRecordIsSaidSo() {
        try (RunDirectory dir = RunDirectory.create(results, dev.kensho.core.result.RunInfo.of("scan", java.util.List.of("scan"),
                java.util.Map.of("options", java.util.Map.of("rows", 1000), "settings", java.util.Map.of())))) {
            var older = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> ResultOptions.checkSameRun(dir,
                    "scan", java.util.Map.of("options", java.util.Map.of("rows", 1000, "caches", java.util.List.of("WARM")), "settings", java.util.Map.of())));
            assertTrue(older.getMessage().endsWith(": that run was written by an earlier Kensho, which did not record options.caches: its trials "
                    + "may have been measured otherwise than this command's; start a new run"), older.getMessage());
            var other = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> ResultOptions.checkSameRun(dir,
                    "scan", java.util.Map.of("options", java.util.Map.of("rows", 1000), "settings", java.util.Map.of("work_mem", "8MB"))));
            assertTrue(other.getMessage().contains("that run had settings {}, this command line {\"work_mem\":\"8MB\"}"), other.getMessage());
        }
    }

    /** 1GB then 1024MB is one setting as the server reads it: the resume was refused as "another run". */
    @Test
    void aSizeOrTimeSpelledOtherwiseIsTheSameRun() {
        java.util.Map<String, Object> p = new java.util.LinkedHashMap<>();
        p.put("settings", java.util.Map.of("shared_buffers", "1GB", "statement_timeout", "30s"));
        p.put("options", java.util.Map.of("sharedBuffers", java.util.List.of("small", "1GB")));
        p.put("matrix", java.util.Map.of("work_mem", java.util.List.of("1GB", "64MB")));
        try (RunDirectory dir = RunDirectory.create(results, dev.kensho.core.result.RunInfo.of("scan", java.util.List.of("scan"), p))) {
            ResultOptions.checkSameRun(dir, "scan", java.util.Map.of("settings", java.util.Map.of("shared_buffers", "1024MB",
                    "statement_timeout", "30000ms"), "options", java.util.Map.of("sharedBuffers", java.util.List.of("small", "1048576kB"))));
            // a --matrix value keys its cells by its text: 1024MB would be a third cell beside the run's 1GB
            var matrix = assertThrows(dev.kensho.core.KenshoException.class, () -> ResultOptions.checkSameRun(dir, "scan",
                    java.util.Map.of("matrix", java.util.Map.of("work_mem", java.util.List.of("1024MB", "64MB")))));
            assertTrue(matrix.getMessage().contains("that run had matrix.work_mem [\"1GB\",\"64MB\"]"), matrix.getMessage());
            var other = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> ResultOptions.checkSameRun(dir,
                    "scan", java.util.Map.of("settings", java.util.Map.of("shared_buffers", "1GB", "statement_timeout", "30min"))));
            assertTrue(other.getMessage().contains("that run had settings.statement_timeout \"30s\", this command line \"30min\""),
                    other.getMessage());
            // a bare number's unit is the setting's: not taken for bytes
            assertThrows(dev.kensho.core.KenshoException.class, () -> ResultOptions.checkSameRun(dir, "scan",
                    java.util.Map.of("settings", java.util.Map.of("shared_buffers", "131072", "statement_timeout", "30s"))));
        }
    }

    /** ssb jit's resume of a finished run says so before its server: nothing loaded, set or run again. */
    @Test
    void resumingAFinishedJitRunRunsNothing(@LocalPostgres Target pg) throws Exception {
        String schema = "kensho_resume_jit";
        String[] target = {"--url", pg.jdbcUrl(), "-U", pg.user(), "--results", results.toString()};
        String[] jit = concat(new String[] {"ssb", "jit", "-s", "0.01", "--schema", schema, "--verification", "3", "--query", "q1.1",
                "--repeat", "1", "--jit-above-cost", "0"}, target);
        try {
            CommandRun first = CommandRun.of(jit);
            org.junit.jupiter.api.Assumptions.assumeFalse(first.err().contains("has no JIT"), "this PostgreSQL 15 has no JIT: " + first.err());
            assertEquals(0, first.exit(), first.err());
            Path run = newest();
            int trials = RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size();
            CommandRun again = CommandRun.of(concat(jit, new String[] {"--resume", run.toString()}));
            assertEquals(0, again.exit(), again.err());
            assertTrue(again.err().contains("ssb jit: every trial is already in " + run + "; nothing left to resume"), again.err());
            assertTrue(again.out().contains("q1.1"), "its table, as the run printed it: " + again.out());
            assertEquals(trials, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size());
        } finally {
            CommandRun.of(concat(new String[] {"ssb", "drop", "--schema", schema}, java.util.Arrays.copyOf(target, 4)));
        }
    }

    @Test
    void resumeRefusesAnotherCommandOrOtherOptions(@LocalPostgres Target pg) throws Exception {
        String[] target = {"--url", pg.jdbcUrl(), "-U", pg.user(), "--results", results.toString()};
        CommandRun first = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,8MB", "--repeat", "1"}, target));
        assertEquals(0, first.exit(), first.err());
        Path run;
        try (var d = Files.list(results)) {
            run = d.findFirst().orElseThrow();
        }

        CommandRun other = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,16MB", "--repeat", "1",
                "--resume", run.toString()}, target));
        assertEquals(2, other.exit(), other.err());
        assertTrue(other.err().contains("that run had matrix.work_mem [\"4MB\",\"8MB\"], this command line [\"4MB\",\"16MB\"]"), other.err());

        // the warm-up decides whether a cell is measured warm: another one is another run
        CommandRun cold = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,8MB", "--repeat", "1",
                "--warmup", "0", "--resume", run.toString()}, target));
        assertEquals(2, cold.exit(), cold.err());
        assertTrue(cold.err().contains("that run had warmup 1, this command line 0"), cold.err());

        CommandRun ssb = CommandRun.of("ssb", "-s", "0.01", "--resume", run.toString());
        assertEquals(2, ssb.exit(), ssb.err());
        assertTrue(ssb.err().contains("a 'query' run, not 'ssb'"), ssb.err());

        CommandRun same = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,8MB", "--repeat", "1",
                "--resume", run.toString()}, target));
        assertEquals(0, same.exit(), same.err());
        assertEquals(2, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size(), "nothing left to run, nothing added");

        // a run an earlier Kensho wrote, without its warm-up recorded: resumed, its trials and new ones at another warm-up
        // were mixed in one cell, and run.json took today's value for the whole run
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var info = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(run.resolve("run.json").toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) info.get("parameters")).remove("warmup");
        json.writeValue(run.resolve("run.json").toFile(), info);
        CommandRun older = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,8MB", "--repeat", "1",
                "--resume", run.toString()}, target));
        assertEquals(2, older.exit(), older.err());
        assertTrue(older.err().contains("that run was written by an earlier Kensho, which did not record warmup: its trials may have been"
                + " measured otherwise than this command's; start a new run"), older.err());
    }

    @Test
    void aSweepResumesOnlyWithItsOwnScriptModeAndClients(Target pg, @TempDir Path sweeps) throws Exception {
        String[] target = {"--url", pg.jdbcUrl(), "-U", pg.user(), "--results", sweeps.toString()};
        String[] sweep = {"pgbench", "sweep", "-S", "-s", "1", "--clients", "1", "--repeat", "1", "-T", "1"};
        CommandRun first = CommandRun.of(concat(concat(sweep, target), new String[] {"--warmup", "0"}));
        assertEquals(0, first.exit(), first.err());
        Path run;
        try (var d = Files.list(sweeps)) {
            run = d.findFirst().orElseThrow();
        }
        String[] resume = {"--resume", run.toString()};
        String[][] others = {
            {"pgbench", "sweep", "-b", "tpcb-like", "-s", "1", "--clients", "1", "--repeat", "1", "-T", "1"},
            {"pgbench", "sweep", "-S", "-M", "prepared", "-s", "1", "--clients", "1", "--repeat", "1", "-T", "1"},
            {"pgbench", "sweep", "-S", "-s", "1", "--clients", "1,2", "--repeat", "1", "-T", "1"},
            {"pgbench", "sweep", "-S", "-s", "1", "--clients", "1", "--repeat", "1", "-T", "1", "--warmup", "100"},
        };
        String[] said = {"that run had scripts [\"-bselect-only\"]", "that run had mode \"simple\"", "that run had clients [1]",
            "that run had warmup 0"};
        for (int i = 0; i < others.length; i++) {
            CommandRun r = CommandRun.of(concat(concat(others[i], target), resume));
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().contains(said[i]), r.err());
        }
        // the order's seed is time-based unless given; a resume without --seed takes the recorded one, another is refused
        // (and without --warmup the recorded warm-up: the resume below gives none)
        long seed = ((Number) RunDirectory.read(run).info().parameters().get("order_seed")).longValue();
        CommandRun otherSeed = CommandRun.of(concat(concat(concat(sweep, target), resume), new String[] {"--seed", Long.toString(seed + 1)}));
        assertEquals(2, otherSeed.exit(), otherSeed.err());
        assertTrue(otherSeed.err().contains("that run had order_seed " + seed), otherSeed.err());
        assertEquals(1, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size(), "nothing was added");
        CommandRun same = CommandRun.of(concat(concat(sweep, target), resume));
        assertEquals(0, same.exit(), same.err());
    }


    /**
     * A sequential order draws no seed, so run.json records none (it had recorded a drawn one, and a resume given
     * --seed was then refused for a seed that decided nothing); --seed beside it is said to be ignored.
     */
    @Test
    void aSequentialSweepRecordsNoOrderSeed(Target pg, @TempDir Path sweeps) throws Exception {
        String[] sweep = {"pgbench", "sweep", "-S", "-s", "1", "--clients", "1,2", "--repeat", "1", "-T", "1", "--warmup", "0",
                "--order", "sequential", "--url", pg.jdbcUrl(), "-U", pg.user(), "--results", sweeps.toString()};
        CommandRun first = CommandRun.of(concat(sweep, new String[] {"--seed", "5"}));
        assertEquals(0, first.exit(), first.err());
        assertTrue(first.err().contains("warning: --seed orders the trials at random; --order sequential has no use for it: ignored"),
                first.err());
        assertFalse(first.err().contains("order: "), first.err());
        Path run;
        try (var d = Files.list(sweeps)) {
            run = d.findFirst().orElseThrow();
        }
        Map<String, Object> recorded = RunDirectory.read(run).info().parameters();
        assertTrue(recorded.containsKey("order_seed") && recorded.get("order_seed") == null, recorded.toString());
        CommandRun resumed = CommandRun.of(concat(sweep, new String[] {"--seed", "6", "--resume", run.toString()}));
        assertEquals(0, resumed.exit(), resumed.err());
        assertTrue(resumed.err().contains("nothing left to resume"), resumed.err());
    }

    /** ssb, ssb index-build and micro record --schema and --set, so a resume with others is refused, not a new load or new cells. */
    @Test
    void resumeRefusesAnotherSchemaOrOtherSettings(Target pg) throws Exception {
        String[] target = {"--url", "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(), "-U", pg.user(),
                "--results", results.toString()};
        String schema = "kensho_resume_a";
        try {
            CommandRun ssb = CommandRun.of(concat(new String[] {"ssb", "-s", "0.01", "--schema", schema, "--workers", "0", "--repeat", "1",
                    "--query", "q1.1"}, target));
            assertEquals(0, ssb.exit(), ssb.err());
            Path run = newest();
            CommandRun otherSchema = CommandRun.of(concat(new String[] {"ssb", "-s", "0.01", "--schema", "kensho_resume_b", "--workers", "0",
                    "--repeat", "1", "--query", "q1.1", "--resume", run.toString()}, target));
            assertEquals(2, otherSchema.exit(), otherSchema.err());
            assertTrue(otherSchema.err().contains("that run had schema \"" + schema + "\", this command line \"kensho_resume_b\""), otherSchema.err());
            CommandRun otherSet = CommandRun.of(concat(new String[] {"ssb", "-s", "0.01", "--schema", schema, "--workers", "0",
                    "--repeat", "1", "--query", "q1.1", "--set", "work_mem=8MB", "--resume", run.toString()}, target));
            assertEquals(2, otherSet.exit(), otherSet.err());
            assertTrue(otherSet.err().contains("that run had settings {}, this command line {\"work_mem\":\"8MB\"}"), otherSet.err());

            CommandRun ib = CommandRun.of(concat(new String[] {"ssb", "index-build", "-s", "0.01", "--schema", schema,
                    "--maintenance-workers", "0", "--columns", "1", "--maintenance-work-mem", "64MB"}, target));
            assertEquals(0, ib.exit(), ib.err());
            // the same options: a finished run, whose server is not set once per worker count to skip each cell
            Path ibRun = newest();
            int trials = RunDirectory.readTrials(ibRun.resolve(RunDirectory.TRIALS)).size();
            CommandRun ibAgain = CommandRun.of(concat(new String[] {"ssb", "index-build", "-s", "0.01", "--schema", schema,
                    "--maintenance-workers", "0", "--columns", "1", "--maintenance-work-mem", "64MB", "--resume", ibRun.toString()}, target));
            assertEquals(0, ibAgain.exit(), ibAgain.err());
            assertTrue(ibAgain.err().contains("ssb index-build: every trial is already in " + ibRun + "; nothing left to resume"), ibAgain.err());
            assertTrue(ibAgain.out().contains("lo_orderkey"), "its table, as the run printed it: " + ibAgain.out());
            assertEquals(trials, RunDirectory.readTrials(ibRun.resolve(RunDirectory.TRIALS)).size());
            CommandRun ibOther = CommandRun.of(concat(new String[] {"ssb", "index-build", "-s", "0.01", "--schema", "kensho_resume_b",
                    "--maintenance-workers", "0", "--columns", "1", "--maintenance-work-mem", "64MB", "--resume", ibRun.toString()}, target));
            assertEquals(2, ibOther.exit(), ibOther.err());
            assertTrue(ibOther.err().contains("that run had schema"), ibOther.err());
        } finally {
            CommandRun.of(concat(new String[] {"ssb", "drop", "--schema", schema}, java.util.Arrays.copyOf(target, 4)));
        }
        String[] micro = {"micro", "--benchmarks", "trailing-columns", "--wide-rows", "500", "--warmup-iterations", "0", "--iterations", "1",
                "--iteration-time", "50ms", "--forks", "0"};
        CommandRun first = CommandRun.of(concat(micro, target));
        assertEquals(0, first.exit(), first.err());
        Path microRun = newest();
        CommandRun otherSet = CommandRun.of(concat(concat(micro, target), new String[] {"--set", "jit=off", "--resume", microRun.toString()}));
        assertEquals(2, otherSet.exit(), otherSet.err());
        assertTrue(otherSet.err().contains("that run had settings {}"), otherSet.err());
        // an object of options names the member that differs (scan's options were printed whole, twice, in 630 characters)
        String[] fewer = micro.clone();
        fewer[java.util.Arrays.asList(micro).indexOf("--iterations") + 1] = "2";
        CommandRun otherJmh = CommandRun.of(concat(concat(fewer, target), new String[] {"--resume", microRun.toString()}));
        assertEquals(2, otherJmh.exit(), otherJmh.err());
        assertTrue(otherJmh.err().contains("that run had jmh.iterations 1, this command line 2 (given or by default); resume with the run's own options: "), otherJmh.err());
        // the refusal gives the command that resumes: the run's own options, which a --resume alone had no way to learn
        assertTrue(otherJmh.err().strip().endsWith("--iterations 1 --iteration-time 50ms --forks 0 " + String.join(" ", target)
                + " --resume " + microRun), otherJmh.err());
    }

    /**
     * A load is one trial: --resume of an ssb load that finished loads nothing (it was refused as a load twice, exit 2,
     * or with --reload replaced the data and added a second trial), nor does a resumed ssb --reload that loaded already;
     * ssb load records --schema, so a resume with another is refused.
     */
    @Test
    void resumingAFinishedSsbLoadLoadsNothingAgain(Target pg) throws Exception {
        String[] target = {"--url", "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(), "-U", pg.user(),
                "--results", results.toString()};
        String schema = "kensho_resume_load";
        try {
            String[] load = {"ssb", "load", "-s", "0.01", "--schema", schema};
            CommandRun first = CommandRun.of(concat(load, target));
            assertEquals(0, first.exit(), first.err());
            Path run = newest();
            String[] resume = {"--resume", run.toString()};
            CommandRun otherSchema = CommandRun.of(concat(concat(new String[] {"ssb", "load", "-s", "0.01", "--schema", "kensho_resume_b"},
                    target), resume));
            assertEquals(2, otherSchema.exit(), otherSchema.err());
            assertTrue(otherSchema.err().contains("that run had schema \"" + schema + "\""), otherSchema.err());
            Files.delete(run.resolve(RunDirectory.SUMMARY));   // killed between its trial and its summary
            for (String[] again : new String[][] {resume, {"--resume", run.toString(), "--reload"}}) {
                CommandRun r = CommandRun.of(concat(concat(load, target), again));
                assertEquals(0, r.exit(), r.err());
                assertTrue(r.err().contains("ssb load: its trial is already in " + run + "; nothing left to resume"), r.err());
                assertTrue(!r.out().contains("loaded SSB"), r.out());
            }
            assertEquals(1, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size(), "one load");
            // the server's major as its version, the target beside it, as ssb's cells record them
            var loaded = RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).get(0);
            assertEquals(dev.kensho.core.server.ServerVersion.of(pg).major(), loaded.params().get("version"), loaded.params().toString());
            assertEquals("remote " + pg.host() + ":" + pg.port() + "/" + pg.database(), loaded.params().get("target"), loaded.params().toString());
            assertTrue(Files.readString(run.resolve(RunDirectory.SUMMARY)).contains(",1,ok,"), "the summary of its one load");

            String[] ssb = {"ssb", "-s", "0.01", "--schema", schema, "--workers", "0", "--repeat", "1", "--query", "q1.1", "--reload"};
            CommandRun sweep = CommandRun.of(concat(ssb, target));
            assertEquals(0, sweep.exit(), sweep.err());
            Path sweepRun = newest();
            CommandRun resumed = CommandRun.of(concat(concat(ssb, target), new String[] {"--resume", sweepRun.toString()}));
            assertEquals(0, resumed.exit(), resumed.err());
            // its one query's trial is in: the resume starts no server and loads nothing
            assertTrue(resumed.err().contains("ssb: every trial is already in " + sweepRun + "; nothing left to resume"), resumed.err());
            assertEquals(1, RunDirectory.readTrials(sweepRun.resolve(RunDirectory.TRIALS)).stream()
                    .filter(t -> t.cell().startsWith("load;")).count(), "the resumed run did not load again");
        } finally {
            CommandRun.of(concat(new String[] {"ssb", "drop", "--schema", schema}, java.util.Arrays.copyOf(target, 4)));
        }
    }

    /**
     * ssb load --variants records its load's trial before it builds the JIT study's lineorder_n/_r/_d: a run killed
     * while it built them was "nothing left to resume", and the JIT study later found them missing. A resume builds
     * the missing ones.
     */
    @Test
    void resumingALoadKilledWhileItBuiltTheVariantsBuildsThem(Target pg) throws Exception {
        String[] target = {"--url", "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(), "-U", pg.user(),
                "--results", results.toString()};
        String schema = "kensho_resume_variants";
        try {
            String[] load = {"ssb", "load", "-s", "0.01", "--schema", schema, "--variants"};
            CommandRun first = CommandRun.of(concat(load, target));
            assertEquals(0, first.exit(), first.err());
            Path run = newest();
            // as if killed after lineorder_r: lineorder_d was never made (its creation and its listing are one transaction)
            try (java.sql.Connection c = pg.connect(); java.sql.Statement st = c.createStatement()) {
                st.execute("DROP TABLE " + schema + ".lineorder_d");
                st.execute("UPDATE " + schema + ".kensho_ssb_meta SET tables = array_remove(tables, 'lineorder_d')");
            }
            CommandRun resumed = CommandRun.of(concat(concat(load, target), new String[] {"--resume", run.toString()}));
            assertEquals(0, resumed.exit(), resumed.err());
            assertTrue(resumed.err().contains("variants lineorder_n/_r/_d: "), resumed.err());
            try (java.sql.Connection c = pg.connect(); java.sql.Statement st = c.createStatement();
                 java.sql.ResultSet rs = st.executeQuery("SELECT count(*) = (SELECT count(*) FROM " + schema + ".lineorder) FROM " + schema + ".lineorder_d")) {
                assertTrue(rs.next() && rs.getBoolean(1), "lineorder_d built whole");
            }
            assertEquals(1, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size(), "one load, not loaded again");
        } finally {
            CommandRun.of(concat(new String[] {"ssb", "drop", "--schema", schema}, java.util.Arrays.copyOf(target, 4)));
        }
    }

    /** The run directory the last command made: the one not seen before (names within a second differ only by a suffix). */
    private Path newest() throws java.io.IOException {
        try (var d = Files.list(results)) {
            Path made = d.filter(p -> !seen.contains(p)).findFirst().orElseThrow();
            seen.add(made);
            return made;
        }
    }

    private final java.util.Set<Path> seen = new java.util.HashSet<>();

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A resume by another build of Kensho says so in run.json: its trials were measured by two builds. */
    @Test
    void aResumeByAnotherBuildNamesBoth() {
        String now = dev.kensho.core.KenshoVersion.commit();
        java.util.function.Function<java.util.Map<String, Object>, String> said = env -> ResultOptions.otherBuild(
                new dev.kensho.core.result.RunInfo("pgbench run", java.util.List.of(), java.time.Instant.now(), null, env, null));
        assertEquals("", said.apply(java.util.Map.of()), "no target recorded yet");
        assertEquals("", said.apply(java.util.Map.of("embedded 18", java.util.Map.of("client", java.util.Map.of("kensho_commit", now)),
                "layouts", java.util.Map.of("x", 1))), "a map that is no target's (scan's layouts) is not read as one");
        assertEquals(", by another build of Kensho (commit 0123abc before, " + now + " now)",
                said.apply(java.util.Map.of("embedded 18", java.util.Map.of("client", java.util.Map.of("kensho_commit", "0123abc")))));
        // an older build recorded none
        assertEquals(", by another build of Kensho (commit not recorded before, " + now + " now)",
                said.apply(java.util.Map.of("embedded 18", java.util.Map.of("client", java.util.Map.of("kensho_version", "0.1.0-SNAPSHOT")))));
    }
}
