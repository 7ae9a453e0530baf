package dev.kensho.cli.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.cli.CommandRun;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.PgbenchInit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench pgbench's pgbench options as users type them: --show-script, tablespaces, run and sweep options, script typos. */
@KenshoTarget
class PgbenchCommandTest {
    static final Path C_PGBENCH = Path.of("/usr/lib/postgresql/15/bin/pgbench");

    private static CommandRun bench(String... args) {
        return CommandRun.of(args);
    }

    private static List<String> at(Target pg, Path results, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--url", "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(), "-U", pg.user(),
                "--results", results.toString()));
        return a;
    }

    private static void assertOneLineError(CommandRun r, int exit, String start) {
        assertEquals(exit, r.exit(), r.err());
        List<String> lines = r.err().lines().filter(l -> l.startsWith("bench:")).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("bench: " + start), r.err());
        assertTrue(r.err().lines().noneMatch(l -> l.startsWith("\tat ")), "no stack trace: " + r.err());
    }

    /** The same text as the C pgbench 15 prints for its three builtins (it writes them on stderr). */
    @Test
    void showScriptPrintsPgbenchsText() throws Exception {
        for (String name : List.of("tpcb-like", "simple-update", "select")) {
            CommandRun r = bench("pgbench", "run", "--show-script", name);
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().startsWith("-- "), r.out());
            if (Files.isExecutable(C_PGBENCH)) {
                Process p = new ProcessBuilder(C_PGBENCH.toString(), "--show-script=" + name).redirectErrorStream(true).start();
                String c = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(10, TimeUnit.SECONDS));
                assertEquals(c, r.out());
            }
        }
        // pgbench 15's --show-script=select as it printed it: checked where no C pgbench is installed too
        assertEquals("-- select-only: <builtin: select only>\n\\set aid random(1, 100000 * :scale)\n"
                + "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n\n", bench("pgbench", "run", "--show-script", "select").out());
        CommandRun read = bench("pgbench", "run", "--show-script", "pgecons-read");
        assertEquals(0, read.exit(), read.err());
        assertTrue(read.out().startsWith("-- pgecons-read: <builtin: pgecons-read>\n\\set naccounts 100000 * :scale\n"), read.out());
        assertTrue(read.out().contains("\\set aid random(1, :aid_max)\n"), read.out());

        CommandRun list = bench("pgbench", "run", "--show-script", "list");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().startsWith("Available builtin scripts:\n           tpcb-like: <builtin: TPC-B (sort of)>\n"), list.out());
        assertTrue(list.out().contains("\n  pgecons-read-noagg: <builtin: pgecons-read-noagg>\n"), list.out());
        assertTrue(list.out().contains("\n      pgecons-update: <builtin: pgecons-update>\n"), list.out());
        assertEquals(list.out(), bench("pgbench", "run", "-b", "list").out());
        // the sweep's -b takes the same names: its list too (it said "no builtin script found for name \"list\"")
        CommandRun sweepList = bench("pgbench", "sweep", "-b", "list", "--clients", "1");
        assertEquals(0, sweepList.exit(), sweepList.err());
        assertEquals(list.out(), sweepList.out());

        assertOneLineError(bench("pgbench", "run", "--show-script", "nosuch"), 2, "no builtin script found for name \"nosuch\"; available: tpcb-like");
        assertOneLineError(bench("pgbench", "run", "--show-script", "pgecons-"), 2, "ambiguous builtin name: 3 builtin scripts found");
    }

    /**
     * Option mistakes are pgbench's one-line errors, exit 2, before any server is reached (the URL leads nowhere: reaching
     * for it would be exit 3) and before a run directory exists.
     */
    @Test
    void optionMistakesAreUsageErrorsBeforeAnyServer(@TempDir Path tmp) throws Exception {
        String nowhere = "jdbc:postgresql://127.0.0.1:1/kensho_nowhere";
        Path latin1 = tmp.resolve("scripts").resolve("n.sql");
        Files.createDirectories(latin1.getParent());
        Files.write(latin1, "\\set aid 1\nSELECT 1;\nSELECT 'caf\u00e9';\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        // pgbench runs only what comes before a NUL; refused here, and the error line carries no raw NUL to the terminal
        Path nul = tmp.resolve("scripts").resolve("nul.sql");
        Files.write(nul, "\\set x debug(1)\u0000 + 2\nSELECT 1;\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        String[][] runCases = {
            {latin1 + ":3:12: not valid UTF-8 (byte 0xe9)", "-f", latin1.toString()},
            {nul + ":1:16: NUL byte (0x00): remove it", "-f", nul.toString()},
            {"-t/--transactions must be in range 1..2147483647", "-t", "0"},
            {"-t/--transactions must be in range 1..2147483647", "-t", " 0 "},   // blanks around a number: pgbench's strtol takes them
            {"-t/--transactions must be in range 1..2147483647", "-t", "-5", "-T", "2"},
            {"-T/--time must be in range 1..2147483647", "-T", "0"},
            {"-T/--time must be in range 1..2147483647", "-T", "2", "-T", "0"},   // a repeated option: the last wins, as in pgbench
            {"-s/--scale must be in range 1..2147483647", "-s", "0"},
            {"-s/--scale must be in range 1..2147483647", "--init", "-s", "0"},   // --init's scale (builtins read theirs)
            {"invalid rate limit: \"0.0\"", "-R", "0.0"},
            {"invalid rate limit: \"-5\"", "-R", "-5"},
            {"invalid latency limit: \"0\"", "-L", "0"},
            {"-P/--progress must be in range 1..2147483647", "-P", "0"},
            {"--progress-timestamp is allowed only under --progress", "--progress-timestamp"},
            {"unrecognized random seed option \"foo\": expecting an unsigned integer, \"time\" or \"rand\"", "--random-seed", "foo"},
            {"invalid variable definition: \"foo\"", "-D", "foo"},
            {"could not open file \"/nonexistent.sql\": No such file or directory", "-f", "/nonexistent.sql"},
        };
        for (String[] c : runCases) {
            List<String> a = new ArrayList<>(List.of("pgbench", "run", "-S", "--url", nowhere, "--results", tmp.toString()));
            a.addAll(List.of(c).subList(1, c.length));
            CommandRun r = bench(a.toArray(String[]::new));
            assertOneLineError(r, 2, c[0]);
            assertTrue(r.err().lines().anyMatch(l -> l.equals("bench: " + c[0])), r.err());
        }
        String[][] sweepCases = {
            {"invalid rate limit: \"0\"", "-S", "-R", "0"},
            {"invalid latency limit: \"-5\"", "-S", "-s", "1", "-L", "-5"},
            {"invalid --warmup: \"-1\"", "-S", "--warmup", "-1"},
            {"invalid variable definition: \"foo\"", "-S", "-D", "foo"},
            {"invalid number of maximum tries: \"-1\"", "-S", "--max-tries", "-1"},
            {"could not open file \"/nonexistent.sql\": No such file or directory", "-f", "/nonexistent.sql"},
            {"--pg-version selects an embedded server; it cannot be combined with --url", "-S", "--pg-version", "16,17"},
            {"-F needs -s SCALE (the fillfactor is the init's)", "-S", "-F", "80"},
            {"--repeat must be at least 1", "-S", "--repeat", "0"},   // the library's repeats() read back as the option
            {"--threads \"clients^2\": expected a number, clients, or clients/N, clients*N, clients-N, clients+N", "-S", "--threads", "clients^2"},
            {"-F/--fillfactor must be in range 10..100", "-S", "-s", "1", "-F", "5"},
        };
        for (String[] c : sweepCases) {
            List<String> a = new ArrayList<>(List.of("pgbench", "sweep", "--clients", "1", "--url", nowhere, "--results", tmp.toString()));
            a.addAll(List.of(c).subList(1, c.length));
            CommandRun r = bench(a.toArray(String[]::new));
            assertOneLineError(r, 2, c[0]);
            assertTrue(!r.err().contains("results:") && !r.err().contains("starting target"), r.err());
        }
        assertOneLineError(bench("pgbench", "init", "--partition-method", "none", "--partitions", "2", "--url", nowhere, "--results",
                tmp.toString()), 2, "invalid partition method, expecting \"range\" or \"hash\", got: \"none\"");
        assertOneLineError(bench("pgbench", "init", "--partition-method", "hash", "--url", nowhere, "--results", tmp.toString()), 2,
                "--partition-method requires greater than zero --partitions");
        assertOneLineError(bench("pgbench", "init", "-F", "90", "-F", "5", "--url", nowhere, "--results", tmp.toString()), 2,
                "-F/--fillfactor must be in range 10..100");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(tmp.resolve("scripts")), left.toList(), "no run directory");
        }
    }

    /** A run that cannot start on this server (no tables, too many clients, no -l file) is a one-line error that leaves no run directory. */
    @Test
    void aRunThatCannotStartLeavesNoRunDirectory(Target pg, @TempDir Path tmp) throws Exception {
        new PgbenchInit().scale(1).log(null).run(pg);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("alter table pgbench_branches rename to kensho_branches_aside");
        }
        try {
            CommandRun r = bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "1", "--warmup", "0").toArray(String[]::new));
            assertOneLineError(r, 3, "could not count number of branches: relation \"pgbench_branches\" does not exist "
                    + "(perhaps you need to do initialization (\"bench pgbench init\"; from Java, new PgbenchInit().run(target)) in database \""
                    + pg.database() + "\")");
            // the "results: DIR" line named a directory that is gone: the error says so
            String announced = r.err().lines().filter(l -> l.startsWith("results: ")).findFirst().orElseThrow().substring(9);
            assertTrue(r.err().contains(" (nothing was measured: " + announced + " removed)"), r.err());
            // a server Kensho starts is empty every time: 'bench pgbench init' first would not help
            CommandRun embedded = bench("pgbench", "run", "-S", "-t", "1", "--warmup", "0", "--results", tmp.toString());
            assertOneLineError(embedded, 3, "could not count number of branches: relation \"pgbench_branches\" does not exist "
                    + "(a server Kensho starts holds no pgbench tables: add --init [-s SCALE], or give --keep-data DIR to both"
                    + " 'bench pgbench init' and this run; from Java, run new PgbenchInit().run(target) on this Target first)");
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("alter table kensho_branches_aside rename to pgbench_branches");
            }
        }
        CommandRun many = bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "1", "-c", "5000").toArray(String[]::new));
        assertOneLineError(many, 2, "5000 clients need ");
        assertTrue(many.err().contains("lower -c or raise max_connections (--set max_connections="), many.err());   // the run's own check
        // a sweep's refusal gives the command line's remedy too (it was the library's Java call)
        CommandRun sweep = bench(at(pg, tmp, "pgbench", "sweep", "-S", "--clients", "1,5000", "-T", "1", "--repeat", "1").toArray(String[]::new));
        assertOneLineError(sweep, 2, "remote " + pg.host() + ":" + pg.port() + "/" + pg.database() + ": 5000 clients need ");
        assertTrue(sweep.err().contains("lower --clients or raise max_connections (--set max_connections=") && !sweep.err().contains("control()"),
                sweep.err());
        // a -l file that cannot be made: pgbench's words (it was "UncheckedIOException: ...: PATH", exit 1, a run directory left)
        Path prefix = tmp.resolve("missing").resolve("log");
        assertOneLineError(bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "1", "--warmup", "0", "-l", "--log-prefix", prefix.toString())
                .toArray(String[]::new)), 2, "could not open logfile \"" + prefix + "." + ProcessHandle.current().pid() + "\": No such file or directory");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "no run directory");
        }
    }

    /**
     * A -l log the disk refuses (here /dev/full, through a link where the log goes) ends there, said once per file: the
     * run goes on, reports and keeps its trial, and exits 1. Its clients died of it, printing stack traces, and the run
     * was lost.
     */
    @Test
    void aLogTheDiskRefusesEndsThereAndTheRunIsKept(Target pg, @TempDir Path tmp) throws Exception {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.isWritable(full), "no writable /dev/full here");
        new PgbenchInit().scale(1).log(null).run(pg);
        long pid = ProcessHandle.current().pid();
        Path prefix = tmp.resolve("full");
        for (String thread : List.of("", ".1")) Files.createSymbolicLink(tmp.resolve("full." + pid + thread), full);
        Path results = tmp.resolve("results");
        CommandRun r = bench(at(pg, results, "pgbench", "run", "-S", "-T", "2", "-c", "2", "-j", "2", "--warmup", "0", "-l",
                "--log-prefix", prefix.toString()).toArray(String[]::new));
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().contains("number of transactions actually processed: "), r.out());
        assertTrue(r.err().lines().noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Exception")), "no stack trace: " + r.err());
        for (String thread : List.of("", ".1")) {
            String said = "error: could not write logfile \"" + prefix + "." + pid + thread + "\": No space left on device; the log ends there,"
                    + " the run goes on";
            assertEquals(1, r.err().lines().filter(said::equals).count(), r.err());
        }
        assertTrue(r.err().contains("error: -l: could not write logfile \"" + prefix + "." + pid) && r.err().contains("the run's results are kept"),
                r.err());
        try (Stream<Path> runs = Files.list(results)) {
            Path run = runs.findFirst().orElseThrow();
            assertEquals(1, Files.readAllLines(run.resolve("trials.jsonl")).size(), "the trial is kept");
        }
    }

    /**
     * run --init with more clients than the server takes stops before the load, not after it: at the studies' scales
     * the load is half an hour.
     */
    @Test
    void runInitChecksTheClientsBeforeTheLoad(@TempDir Path tmp) throws Exception {
        CommandRun r = bench("pgbench", "run", "--init", "-S", "-c", "5000", "-T", "1", "--warmup", "0", "--results", tmp.toString());
        assertOneLineError(r, 2, "5000 clients need 5000 connections but the server has only ");
        // the command line's remedy, not a Java call
        assertTrue(r.err().contains("lower -c or raise max_connections (--set max_connections=") && !r.err().contains("control()"), r.err());
        assertTrue(!r.err().contains("done in") && !r.err().contains("creating tables"), "no load before the refusal: " + r.err());
    }

    /**
     * A server that will not start (a --set it rejects, a --pg-bin that is no PostgreSQL) ends run and sweep in one
     * line, exit 2, and leaves no run directory behind.
     */
    @Test
    void aServerThatWillNotStartLeavesNoRunDirectory(@TempDir Path tmp) throws Exception {
        Path notPostgres = Files.createDirectories(tmp.resolve("not-postgres"));
        Path results = tmp.resolve("results");
        for (String command : List.of("run", "sweep")) {
            List<String> base = new ArrayList<>(List.of("pgbench", command, "-S", "-T", "1", "--warmup", "0", "--results", results.toString()));
            // -s: a sweep without it on a new server is refused before any starts
            if (command.equals("sweep")) base.addAll(List.of("--clients", "1", "-s", "1"));
            List<String> banana = new ArrayList<>(base);
            banana.addAll(List.of("--set", "shared_buffers=banana"));
            assertOneLineError(bench(banana.toArray(String[]::new)), 2, "--set shared_buffers=banana: invalid value for parameter \"shared_buffers\"");
            List<String> pgBin = new ArrayList<>(base);
            pgBin.addAll(List.of("--pg-bin", notPostgres.toString()));
            assertOneLineError(bench(pgBin.toArray(String[]::new)), 2, "--pg-bin " + notPostgres + " is not a PostgreSQL bin directory");
        }
        // nor the --results directory made for them
        assertFalse(Files.exists(results), "no run directory");
    }

    /**
     * A run that fails before its first trial for another reason than its options or its target (here pgbench's
     * --exit-on-abort) keeps its directory, as Ctrl-C does, and its run.json says why it holds nothing: it said nothing,
     * and report and compare called it stopped.
     */
    @Test
    void aRunThatFailsBeforeItsFirstTrialSaysWhyInRunJson(Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("aborts.sql"), "select 1/0;\n");
        Path results = tmp.resolve("results");
        CommandRun r = bench(at(pg, results, "pgbench", "run", "-n", "-t", "3", "--warmup", "0", "--exit-on-abort", "-f", script.toString())
                .toArray(String[]::new));
        String why = "Run was aborted due to an error in client 0 (--exit-on-abort): all clients stopped, no report";
        assertOneLineError(r, 1, why);
        Path run;
        try (Stream<Path> dirs = Files.list(results)) {
            run = dirs.findFirst().orElseThrow();
        }
        assertEquals(List.of(), dev.kensho.core.result.RunDirectory.readTrials(run.resolve("trials.jsonl")));
        assertEquals(List.of("failed before its first trial: " + why), dev.kensho.core.result.RunDirectory.info(run).notes());
        // a resume that fails the same way says so too (it left only "resumed at ...")
        List<String> again = at(pg, results, "pgbench", "run", "-n", "-t", "3", "--warmup", "0", "--exit-on-abort", "-f", script.toString());
        again.addAll(List.of("--resume", run.toString()));
        assertOneLineError(bench(again.toArray(String[]::new)), 1, why);
        List<String> notes = dev.kensho.core.result.RunDirectory.info(run).notes();
        assertEquals(3, notes.size(), notes.toString());
        assertTrue(notes.get(1).startsWith("resumed at ") && notes.get(2).equals("failed before its first trial: " + why), notes.toString());
        CommandRun report = bench("report", run.toString(), "-o", tmp.resolve("report.html").toString());
        assertEquals(0, report.exit(), report.err());
        assertTrue(report.err().contains("No trial finished: the run failed before its first measurement (" + why + ")."), report.err());
        assertTrue(Files.readString(tmp.resolve("report.html")).contains("the run failed before its first measurement"));
        assertOneLineError(bench("compare", run.toString(), run.toString(), "-o", tmp.resolve("compare").toString()), 2,
                "compare: " + run + " has no finished trial (the run failed before its first: " + why + ")");
    }

    /** A run is one trial: --resume of a run that finished runs nothing (it measured the run again, summary.csv n=2). */
    @Test
    void resumingAFinishedRunRunsNothing(Target pg, @TempDir Path tmp) throws Exception {
        Path run = finishedRun(pg, tmp);
        Files.delete(run.resolve("summary.csv"));   // killed between its trial and its summary
        CommandRun again = bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "5", "-n", "--warmup", "0", "--resume", run.toString())
                .toArray(String[]::new));
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.err().contains("pgbench run: its trial is already in " + run + "; nothing left to resume"), again.err());
        assertEquals("", again.out(), "no second report");
        assertTrue(Files.readString(run.resolve("summary.csv")).contains(",1,ok,"), "the summary of its one trial");
        assertEquals(1, dev.kensho.core.result.RunDirectory.readTrials(run.resolve("trials.jsonl")).size());
    }

    /**
     * A run's directory keeps the scripts it ran (scripts/N-NAME.sql, as read, passwords masked): run.json named a -f
     * file only by the path it was given, and the directory could not reproduce the run once the file changed.
     */
    @Test
    void aRunKeepsItsScripts(Target pg, @TempDir Path tmp) throws Exception {
        new PgbenchInit().scale(1).log(null).run(pg);
        String text = "-- mine\n\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts\n  WHERE aid = :aid;\n"
                + "\\if false\nALTER ROLE nobody PASSWORD 'kx-secret-1';\n\\endif\n";
        Path script = Files.writeString(tmp.resolve("a,b \"c\" é.sql"), text);
        Path results = tmp.resolve("results");
        CommandRun r = bench(at(pg, results, "pgbench", "run", "-n", "-t", "5", "--warmup", "0", "-f", script + "@3", "-b", "select-only")
                .toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        // pgbench's first line, the client and the server measured ("pgbench (16.1, server 15.4)")
        String server;
        try (var c = pg.connect(); var st = c.createStatement(); var rs = st.executeQuery("SHOW server_version")) {
            rs.next();
            server = rs.getString(1);
        }
        assertEquals("pgbench (Kensho " + dev.kensho.core.KenshoVersion.version() + ", server " + server + ")", r.out().lines().findFirst().orElse(""), r.out());
        Path run;
        try (Stream<Path> dirs = Files.list(results)) {
            run = dirs.findFirst().orElseThrow();
        }
        assertEquals(text.replace("kx-secret-1", "****"), Files.readString(run.resolve("scripts/1-a_b__c__é.sql")));
        assertEquals(dev.kensho.pgbench.script.Script.builtinText("select-only"), Files.readString(run.resolve("scripts/2-select-only.sql")));
    }

    /** The run directory of a short select-only run that finished. */
    private static Path finishedRun(Target pg, Path tmp) throws Exception {
        new PgbenchInit().scale(1).log(null).run(pg);
        CommandRun first = bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "5", "-n", "--warmup", "0").toArray(String[]::new));
        assertEquals(0, first.exit(), first.err());
        try (Stream<Path> dirs = Files.list(tmp)) {
            return dirs.findFirst().orElseThrow();
        }
    }

    /**
     * A run resumed on another server is another run: pgbench run did not record its target (nor --set), so a resume
     * elsewhere was taken, and it opened that target (starting a server) before any check of the run.
     */
    @Test
    void aRunIsNotResumedOnAnotherTarget(Target pg, @TempDir Path tmp) throws Exception {
        Path run = finishedRun(pg, tmp);
        CommandRun elsewhere = bench("pgbench", "run", "-S", "-t", "5", "-n", "--warmup", "0", "--url",
                "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/kensho_no_such_database", "-U", pg.user(), "--resume", run.toString());
        assertOneLineError(elsewhere, 2, "--resume " + run + ": that run had target \"remote ");
        CommandRun otherSet = bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "5", "-n", "--warmup", "0", "--set", "work_mem=8MB",
                "--resume", run.toString()).toArray(String[]::new));
        assertOneLineError(otherSet, 2, "--resume " + run + ": that run had settings {}");
        // -R, -L and --warmup are the run's when not given too: a resume that adds them was taken, and ran rate-limited
        CommandRun withRate = bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "5", "-n", "--warmup", "0", "-R", "100",
                "--resume", run.toString()).toArray(String[]::new));
        assertOneLineError(withRate, 2, "--resume " + run + ": that run had rate null, this command line 100.0");
        CommandRun otherWarmup = bench(at(pg, tmp, "pgbench", "run", "-S", "-t", "5", "-n", "--resume", run.toString()).toArray(String[]::new));
        assertOneLineError(otherWarmup, 2, "--resume " + run + ": that run had warmup 0, this command line 20000");
    }

    /**
     * A run in which every transaction failed (a serialization failure every time, not retried) is no measurement: its
     * trial is failed with the reason and the command exits 1, where it exited 0 with a trial of 0 tps.
     */
    @Test
    void aRunWhoseEveryTransactionFailedExitsOne(Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("fails.sql"),
                "DO $$ BEGIN RAISE EXCEPTION 'always' USING ERRCODE = '40001'; END $$;\n");
        Path results = tmp.resolve("results");
        CommandRun r = bench(at(pg, results, "pgbench", "run", "-n", "-t", "3", "--warmup", "0", "-f", script.toString()).toArray(String[]::new));
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().contains("number of failed transactions: 3 (100.000%)"), r.out());
        assertTrue(r.err().endsWith("error: no transaction succeeded: all 3 failed (nothing was measured)\n"), r.err());
        Path run;
        try (Stream<Path> dirs = Files.list(results)) {
            run = dirs.findFirst().orElseThrow();
        }
        var trials = dev.kensho.core.result.RunDirectory.readTrials(run.resolve("trials.jsonl"));
        assertEquals(1, trials.size());
        assertEquals("failed", trials.get(0).status());
        assertEquals("no transaction succeeded: all 3 failed", trials.get(0).extra().get("reason"));
    }

    /** An init is one trial too: --resume of one that finished leaves the tables as they are (it dropped and rebuilt them). */
    @Test
    void resumingAFinishedInitRunsNothing(Target pg, @TempDir Path tmp) throws Exception {
        CommandRun first = bench(at(pg, tmp, "pgbench", "init", "-s", "1", "-q").toArray(String[]::new));
        assertEquals(0, first.exit(), first.err());
        Path run;
        try (Stream<Path> dirs = Files.list(tmp)) {
            run = dirs.findFirst().orElseThrow();
        }
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("update pgbench_branches set bbalance = 42 where bid = 1");
        }
        // another fillfactor is another init: refused, not "nothing left to resume" over tables made otherwise
        CommandRun otherFill = bench(at(pg, tmp, "pgbench", "init", "-s", "1", "-q", "-F", "90", "--resume", run.toString()).toArray(String[]::new));
        assertEquals(2, otherFill.exit(), otherFill.err());
        assertTrue(otherFill.err().contains("that run had fillfactor 100, this command line 90"), otherFill.err());
        Files.delete(run.resolve("summary.csv"));   // killed between its trial and its summary
        CommandRun again = bench(at(pg, tmp, "pgbench", "init", "-s", "1", "-q", "--resume", run.toString()).toArray(String[]::new));
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.err().contains("pgbench init: its trial is already in " + run + "; nothing left to resume"), again.err());
        assertFalse(again.err().contains("done in"), again.err());
        assertTrue(Files.readString(run.resolve("summary.csv")).contains(",1,ok,"), "the summary of its one trial");
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("select bbalance from pgbench_branches where bid = 1")) {
            assertTrue(rs.next());
            assertEquals(42, rs.getInt(1), "the tables were not made again");
        }
        assertEquals(1, dev.kensho.core.result.RunDirectory.readTrials(run.resolve("trials.jsonl")).size());
    }

    /** The studies' two typo'd quotes run, saying how they were read; the same mistakes elsewhere stay errors. */
    @Test
    void studyTyposRunAsQuotedAndOtherTyposAreOneLineErrors(Target pg, @TempDir Path tmp) throws Exception {
        new PgbenchInit().scale(1).log(null).run(pg);
        String read = "\\set naccounts 100000 * :scale\n\\set row_count 10000\n\\set aid_max :naccounts - :row_count\n";
        String query = "SELECT count(abalance) FROM pgbench_accounts WHERE aid BETWEEN :aid and :aid + :row_count;\n";
        Path glued = Files.writeString(tmp.resolve("000-ch5-read.sql"), read + "\\set aid_random(1, :aid_max)\n\n" + query);
        Path comma = Files.writeString(tmp.resolve("001-read.sql"), read + "\\set aid random(1 :aid_max)\n" + query);
        for (Path quoted : List.of(glued, comma)) {
            CommandRun r = bench(at(pg, tmp, "pgbench", "run", "-n", "-t", "5", "--warmup", "0", "-f", quoted.toString())
                    .toArray(String[]::new));
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("number of transactions actually processed: 5/5"), r.out());
            assertTrue(r.out().contains("number of failed transactions: 0 "), r.out());
            assertTrue(r.err().contains("warning: " + quoted + ":4: running \"\\set aid") && r.err().contains(
                    "as \"\\set aid random(1, :aid_max)\" (the typo is in PGECons study 00"), r.err());
        }

        Path other = Files.writeString(tmp.resolve("other.sql"), "\\set tid_random(1, 10)\nselect :tid;\n");
        CommandRun r = bench("pgbench", "run", "-f", other.toString(), "--results", tmp.toString());
        assertOneLineError(r, 2, other + ":1:22: syntax error in command \"set\"");
        assertTrue(r.err().contains("(did you mean \"\\set tid random(1, 10)\"?)"), r.err());
        Path missing = Files.writeString(tmp.resolve("missing.sql"), "\\set aid random(1 :naccounts)\nselect :aid;\n");
        CommandRun c = bench("pgbench", "run", "-f", missing.toString(), "--results", tmp.toString());
        assertOneLineError(c, 2, missing + ":1:19: syntax error in command \"set\": expected ',' or ')' after argument 1 of random()");
    }

    /** Both options reach the server: a missing tablespace fails at create tables, a missing index tablespace at primary keys. */
    @Test
    void initTablespaceOptionsReachTheServer(Target pg, @TempDir Path tmp) {
        try {
            CommandRun t = bench(at(pg, tmp, "pgbench", "init", "--tablespace", "kensho_no_such_ts").toArray(String[]::new));
            assertOneLineError(t, 1, "pgbench init failed: ERROR: tablespace \"kensho_no_such_ts\" does not exist; query was: create table "
                    + "pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)) tablespace \"kensho_no_such_ts\"");
            assertTrue(t.err().contains("creating tables...") && !t.err().contains("generating data"), t.err());
            CommandRun i = bench(at(pg, tmp, "pgbench", "init", "--index-tablespace", "kensho_no_such_idx").toArray(String[]::new));
            assertOneLineError(i, 1, "pgbench init failed: ERROR: tablespace \"kensho_no_such_idx\" does not exist; query was: "
                    + "alter table pgbench_branches add primary key (bid) using index tablespace \"kensho_no_such_idx\"");
            assertTrue(i.err().contains("creating primary keys..."), i.err());
        } finally {
            new PgbenchInit().scale(1).log(null).run(pg);
        }
    }

    @Test
    void runProgressTimestampVerboseErrorsAndExitOnAbort(Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_cli_probe");
            s.execute("create table kensho_cli_probe(id int primary key, v int)");
            s.execute("insert into kensho_cli_probe values (1, 0)");
        }
        Path ser = Files.writeString(tmp.resolve("ser.sql"), "begin isolation level repeatable read;\n"
                + "select v from kensho_cli_probe where id = 1;\nselect pg_sleep(0.005);\n"
                + "update kensho_cli_probe set v = v + 1 where id = 1;\nend;\n");
        CommandRun r = bench(at(pg, tmp, "pgbench", "run", "-n", "-f", ser.toString(), "-c", "3", "-T", "2", "-P", "1", "--progress-timestamp",
                "--max-tries", "3", "--verbose-errors", "--warmup", "0").toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().lines().anyMatch(l -> l.matches("progress: \\d{10}\\.\\d{3} s, .*")), r.err());
        assertTrue(r.err().lines().anyMatch(l -> l.matches("client \\d repeats the transaction after the error \\(try [12]/3\\)")), r.err());

        Path abort = Files.writeString(tmp.resolve("abort.sql"), "\\if :client_id = 0\n\\sleep 200 ms\nselect 1/0;\n"
                + "\\else\nselect pg_sleep(0.05);\n\\endif\n");
        long t0 = System.nanoTime();
        CommandRun a = bench(at(pg, tmp, "pgbench", "run", "-n", "-f", abort.toString(), "-c", "2", "-j", "2", "-T", "30", "--exit-on-abort",
                "--warmup", "0").toArray(String[]::new));
        assertOneLineError(a, 1, "Run was aborted due to an error in client 0 (--exit-on-abort)");
        assertTrue((System.nanoTime() - t0) / 1e9 < 15, "did not stop at once");
        // as pgbench 17's: its version line, printed before the run, and no report
        List<String> printed = a.out().lines().toList();
        assertTrue(printed.size() == 1 && printed.get(0).startsWith("pgbench (Kensho "), "no report: " + a.out());
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table kensho_cli_probe");
        }
    }

    @Test
    void runContinueOnError(Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_cli_unique");
            s.execute("create table kensho_cli_unique(i int unique)");
        }
        Path insert = Files.writeString(tmp.resolve("insert.sql"), "INSERT INTO kensho_cli_unique VALUES(0);\n");
        CommandRun r = bench(at(pg, tmp, "pgbench", "run", "-n", "-f", insert.toString(), "-t", "5", "--continue-on-error",
                "--failures-detailed", "--warmup", "0").toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.equals("number of other failures: 4 (80.000%)")), r.out());
        CommandRun without = bench(at(pg, tmp, "pgbench", "run", "-n", "-f", insert.toString(), "-t", "5", "--warmup", "0").toArray(String[]::new));
        assertEquals(1, without.exit(), "the client aborts: " + without.out());
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table kensho_cli_unique");
        }
    }

    @Test
    void sweepRecordsRateLatencyLimitWarmupAndWaitSampling(Target pg, @TempDir Path tmp) throws Exception {
        CommandRun r = bench(at(pg, tmp, "pgbench", "sweep", "-S", "--clients", "1", "--repeat", "1", "-T", "1", "-R", "30", "-L", "100",
                "-s", "1", "--warmup", "0", "--wait-sample-ms", "0").toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        Path runJson;
        try (Stream<Path> dirs = Files.list(tmp)) {
            runJson = dirs.filter(d -> d.getFileName().toString().endsWith("pgbench-sweep")).findFirst().orElseThrow().resolve("run.json");
        }
        String json = Files.readString(runJson);
        assertTrue(json.matches("(?s).*\"rate\" : 30\\.0,.*\"latency_limit_ms\" : 100\\.0.*"), json);
        assertTrue(json.contains("\"warmup\" : 0"), json);
        assertTrue(json.contains("\"wait_sample_ms\" : 0"), json);
        assertTrue(Files.readString(runJson.resolveSibling("trials.jsonl")).contains("\"off\":\"wait events not sampled (--wait-sample-ms 0)\""));
        assertTrue(r.err().contains("tps "), r.err());
        assertOneLineError(bench("pgbench", "sweep", "--clients", "1", "--wait-sample-ms", "-5"), 2,
                "--wait-sample-ms must be 0 (no sampling) or more, got -5");
        // a resume keeps the run's interval unless told another, which is another run: sampled and unsampled trials mixed
        String[] resume = at(pg, tmp, "pgbench", "sweep", "-S", "--clients", "1", "--repeat", "1", "-T", "1", "-R", "30", "-L", "100",
                "-s", "1", "--warmup", "0", "--resume", runJson.getParent().toString()).toArray(String[]::new);
        CommandRun same = bench(resume);
        assertEquals(0, same.exit(), same.err());
        assertTrue(same.err().contains("every trial is already in"), same.err());
        assertOneLineError(bench(concat(resume, "--wait-sample-ms", "50")), 2, "--resume " + runJson.getParent() + ": that run had wait_sample_ms 0,"
                + " this command line 50");
    }

    @Test
    void sweepWhoseTrialsFailExitsOne(Target pg, @TempDir Path tmp) throws Exception {
        Path script = tmp.resolve("bad.sql");
        Files.writeString(script, "SELECT * FROM kensho_no_such_table;\n");
        CommandRun r = bench(at(pg, tmp.resolve("results"), "pgbench", "sweep", "-f", script.toString(), "--clients", "1",
                "--repeat", "2", "-T", "1", "-n").toArray(String[]::new));
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("2 of 2 trials failed; the reasons are in summary.csv"), r.err());
    }
    /**
     * A sweep resumed with other --set values, or with its -f file edited, is another sweep: its trials would share cells
     * with the first's (trials at shared_buffers 64MB and 128MB in one median; a SELECT's and an UPDATE's). Both went
     * unnoticed; the settings and what the scripts say are now compared. A resume is noted in run.json.
     */
    @Test
    void aSweepResumedWithOtherSettingsOrAnEditedScriptIsRefused(Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("s.sql"), "-- the study's read\nSELECT 1;\n");
        String[] sweep = {"pgbench", "sweep", "-f", script.toString(), "--clients", "1", "--repeat", "1", "-T", "1", "-n", "--warmup", "0",
                // -s: the script reads no table, so the test needs none of the class's other tests made
                "-s", "1"};
        CommandRun first = bench(at(pg, tmp.resolve("results"), concat(sweep, "--set", "work_mem=8MB")).toArray(String[]::new));
        assertEquals(0, first.exit(), first.err());
        Path run;
        try (Stream<Path> dirs = Files.list(tmp.resolve("results"))) {
            run = dirs.findFirst().orElseThrow();
        }
        CommandRun noSet = bench(at(pg, tmp.resolve("results"), concat(sweep, "--resume", run.toString())).toArray(String[]::new));
        assertOneLineError(noSet, 2, "--resume " + run + ": that run had settings {\"work_mem\":\"8MB\"}, this command line {}");
        Files.writeString(script, "SELECT 2;\n");
        CommandRun edited = bench(at(pg, tmp.resolve("results"), concat(sweep, "--set", "work_mem=8MB", "--resume", run.toString()))
                .toArray(String[]::new));
        assertOneLineError(edited, 2, "--resume " + run + ": that run had script_digests [");
        // the same script but for its comment and blank lines is the same script
        Files.writeString(script, "SELECT 1;\n\n");
        // the run as an earlier Kensho wrote it, without wait_sample_ms (it sampled every 100 ms): resumed as it was
        com.fasterxml.jackson.databind.node.ObjectNode json = (com.fasterxml.jackson.databind.node.ObjectNode)
                dev.kensho.core.result.Json.MAPPER.readTree(run.resolve("run.json").toFile());
        assertEquals(100, ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("parameters")).remove("wait_sample_ms").asInt());
        dev.kensho.core.result.Json.MAPPER.writeValue(run.resolve("run.json").toFile(), json);
        CommandRun same = bench(at(pg, tmp.resolve("results"), concat(sweep, "--set", "work_mem=8MB", "--resume", run.toString()))
                .toArray(String[]::new));
        assertEquals(0, same.exit(), same.err());
        assertTrue(same.err().contains("every trial is already in"), same.err());
        assertTrue(dev.kensho.core.result.RunDirectory.info(run).notes().stream().anyMatch(n -> n.matches("resumed at \\S+ with 1 trials already recorded")),
                dev.kensho.core.result.RunDirectory.info(run).notes().toString());
    }

    private static String[] concat(String[] a, String... b) {
        return Stream.concat(java.util.Arrays.stream(a), java.util.Arrays.stream(b)).toArray(String[]::new);
    }
}
