package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench query against the shared test server given as --url (no server of its own to start). */
@KenshoTarget
class QueryCommandTest {

    private static String[] args(Target pg, Path results, String... more) {
        List<String> a = new java.util.ArrayList<>(List.of("query", "--url", "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/"
                + pg.database(), "--user", pg.user(), "--repeat", "1", "--warmup", "0", "--results", results.toString()));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    /**
     * --resume of a finished run has nothing to run: it says so and opens no target. It ran every --setup again (an
     * INSERT added its rows a second time) and started any managed server, to skip each cell.
     */
    @Test
    void resumingAFinishedRunRunsNothingNotEvenItsSetup(Target pg, @TempDir Path tmp) throws Exception {
        String table = "kensho_query_resume";
        String[] run = args(pg, tmp, "--setup", "CREATE TABLE IF NOT EXISTS " + table + " (i int)", "--setup", "INSERT INTO " + table
                + " VALUES (1)", "-c", "SELECT count(*) FROM " + table, "--matrix", "work_mem=4MB,8MB");
        try {
            CommandRun first = CommandRun.of(run);
            assertEquals(0, first.exit(), first.err());
            Path dir;
            try (Stream<Path> dirs = Files.list(tmp)) {
                dir = dirs.findFirst().orElseThrow();
            }
            String summary = Files.readString(dir.resolve(RunDirectory.SUMMARY));
            Files.delete(dir.resolve(RunDirectory.SUMMARY));   // killed between its last trial and its summary
            List<String> again = new java.util.ArrayList<>(List.of(run));
            again.addAll(List.of("--resume", dir.toString()));
            CommandRun resumed = CommandRun.of(again.toArray(String[]::new));
            assertEquals(0, resumed.exit(), resumed.err());
            assertTrue(resumed.err().contains("query: every trial is already in " + dir + "; nothing left to resume"), resumed.err());
            assertFalse(resumed.err().contains("target: "), "no target opened: " + resumed.err());
            assertEquals(summary, Files.readString(dir.resolve(RunDirectory.SUMMARY)), "the summary written again");
            assertEquals(3, resumed.out().lines().count(), "its table, as the run printed it: " + resumed.out());
            assertEquals(2, RunDirectory.readTrials(dir.resolve(RunDirectory.TRIALS)).size());
            try (var c = pg.connect(); var s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM " + table)) {
                rs.next();
                assertEquals(1, rs.getInt(1), "--setup ran once");
            }
        } finally {
            try (var c = pg.connect(); var s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    /**
     * A random order's seed is compared on --resume, as the sweep's order_seed: a resume given another --seed ran the
     * trials left in that order and run.json named only the new seed. A sequential order records none (null), and a
     * --seed beside it is said to be ignored, on the run and on its resume.
     */
    @Test
    void aResumeKeepsTheRunsSeedAndASequentialRunHasNone(Target pg, @TempDir Path tmp) throws Exception {
        for (String order : List.of("random", "sequential")) {
            Path results = tmp.resolve(order);
            String[] run = args(pg, results, "-c", "select 1", "--matrix", "work_mem=4MB,8MB", "--order", order, "--seed", "5");
            CommandRun first = CommandRun.of(run);
            assertEquals(0, first.exit(), first.err());
            assertEquals(order.equals("sequential"), first.err().contains("warning: --seed orders the trials at random; --order"
                    + " sequential has no use for it: ignored"), first.err());
            Path dir;
            try (Stream<Path> dirs = Files.list(results)) {
                dir = dirs.findFirst().orElseThrow();
            }
            java.util.Map<String, Object> recorded = RunDirectory.read(dir).info().parameters();
            assertTrue(recorded.containsKey("seed"), recorded.toString());
            assertEquals(order.equals("sequential") ? null : 5L, recorded.get("seed") == null ? null : ((Number) recorded.get("seed")).longValue());
            List<String> other = new java.util.ArrayList<>(List.of(run));
            other.set(other.indexOf("5"), "6");
            other.addAll(List.of("--resume", dir.toString()));
            CommandRun resumed = CommandRun.of(other.toArray(String[]::new));
            if (order.equals("random")) {
                assertEquals(2, resumed.exit(), resumed.err());
                assertTrue(resumed.err().contains("that run had seed 5, this command line 6"), resumed.err());
            } else {
                assertEquals(0, resumed.exit(), resumed.err());
                assertTrue(resumed.err().contains("nothing left to resume"), resumed.err());
            }
        }
    }

    @Test
    void aFailedTrialMeansExitOneAndOneLineReasons(Target pg, @TempDir Path tmp) throws Exception {
        CommandRun r = CommandRun.of(args(pg, tmp, "-c", "selec 1", "-c", "select 1",
                "--matrix", "work_mem=4MB,64MB", "--matrix", "enable_seqscan=on"));
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("2 of 4 trials failed"), r.err());
        assertFalse((r.out() + r.err()).contains("Position:"), "pgjdbc's second line leaked: " + r.out() + r.err());

        // the table's cell column fits its longest cell: every row keeps its columns
        List<String> lines = r.out().lines().toList();
        assertEquals(5, lines.size(), r.out());
        int w = lines.get(0).indexOf("     n ");
        assertTrue(w > 60, "cells here are longer than the old 60 characters: " + lines.get(0));
        for (String row : lines.subList(1, lines.size())) {
            assertTrue(row.startsWith("target=") && row.charAt(w) == ' ', row);
            assertTrue(List.of("1", "-").contains(row.substring(w + 1, w + 6).strip()), row);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("failed: ERROR: syntax error at or near \"selec\"")), r.out());

        Path run;
        try (Stream<Path> dirs = Files.list(tmp)) {
            run = dirs.findFirst().orElseThrow();
        }
        List<Trial> trials = RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS));
        List<Trial> failed = trials.stream().filter(t -> !t.ok()).toList();
        assertEquals(4, trials.size(), "every trial is in trials.jsonl, the failed ones too: " + trials);
        assertEquals(2, failed.size(), trials.toString());
        for (Trial t : failed) {
            assertEquals("q1", t.params().get("query"), "a failed trial keeps its cell's parameters");
            assertFalse(String.valueOf(t.extra().get("reason")).contains("\n"), t.extra().toString());
        }

        CommandRun ok = CommandRun.of(args(pg, tmp, "-c", "select 1"));
        assertEquals(0, ok.exit(), ok.out() + ok.err());
        assertFalse(ok.err().contains("failed"), ok.err());
    }

    /**
     * --matrix jit=on,off on a server without LLVM (zonky's embedded binaries) measured the same plan twice, silently:
     * said once, on stderr and in run.json's notes.
     */
    @Test
    void aJitMatrixOnAServerWithoutLlvmSaysItChangesNothing(Target pg, @TempDir Path tmp) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(dev.kensho.core.env.Environment.jitAvailable(pg), "this embedded build has LLVM");
        CommandRun r = CommandRun.of(args(pg, tmp, "-c", "select 1", "--matrix", "jit=on,off"));
        assertEquals(0, r.exit(), r.out() + r.err());
        String line = "--matrix jit=on,off: jit changes nothing on ";
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("warning: " + line)).count(), r.err());
        Path run;
        try (Stream<Path> d = Files.list(tmp)) {
            run = d.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertTrue(RunDirectory.read(run).info().notes().stream().anyMatch(n -> n.startsWith(line)), run.toString());
    }

    /** The machine's PostgreSQL 15 (Debian's, built with LLVM) is not warned about. */
    /**
     * --matrix names a setting in any case, as the server takes it (ENABLE_INDEXSCAN was an unrecognized configuration
     * parameter), and a DateStyle whose output pgjdbc refuses (German) runs with its day/month order, said in run.json's
     * notes (its pre-check had closed the connection: exit 3).
     */
    @Test
    void matrixNamesInAnyCaseAndADateStylePgjdbcRefuses(Target pg, @TempDir Path tmp) throws Exception {
        CommandRun r = CommandRun.of(args(pg, tmp, "-c", "select 1 where current_setting('DateStyle') = 'ISO, DMY' and "
                + "current_setting('enable_indexscan') = 'off'", "--matrix", "ENABLE_INDEXSCAN=off", "--matrix", "datestyle=German,MDY"));
        assertEquals(0, r.exit(), r.out() + r.err());
        Path run;
        try (var dirs = Files.list(tmp)) {
            run = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        var trials = RunDirectory.read(run).trials();
        assertEquals(2, trials.size());
        for (Trial t : trials) {
            assertTrue(t.ok(), t.toString());
            assertEquals(t.params().get("datestyle").equals("German") ? 1.0 : 0.0, t.metric("rows"), t.toString());
        }
        assertTrue(RunDirectory.read(run).info().notes().stream().anyMatch(n -> n.contains("DateStyle German: pgjdbc's sessions run with its "
                + "day/month order and ISO output")), RunDirectory.read(run).info().notes().toString());
    }

    @Test
    void aServerWithLlvmHasJit(@dev.kensho.junit.LocalPostgres Target local, @TempDir Path tmp) throws Exception {
        assertTrue(dev.kensho.core.env.Environment.jitAvailable(local), "Debian's PostgreSQL 15 is built with LLVM");
        // a session with jit off still has it: pg_jit_available() said false there, and run.json recorded no LLVM while
        // --matrix jit=on,off warned that jit changed nothing
        CommandRun r = CommandRun.of(args(local, tmp, "-c", "select 1", "--set", "jit=off", "--matrix", "jit=on,off"));
        assertEquals(0, r.exit(), r.out() + r.err());
        assertFalse(r.err().contains("jit changes nothing"), r.err());
        Path run;
        try (var dirs = java.nio.file.Files.list(tmp)) {
            run = dirs.filter(java.nio.file.Files::isDirectory).findFirst().orElseThrow();
        }
        assertTrue(java.nio.file.Files.readString(run.resolve("run.json")).matches("(?s).*\"jit_available\" ?: ?true.*"),
                java.nio.file.Files.readString(run.resolve("run.json")));
    }

    /**
     * A --password-file that is a pipe (--password-file <(pass show db)) gives one read: every --url target takes the
     * password of that one read. The second target read the pipe again and waited (a named pipe) or found it empty.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aPipedPasswordFileServesEveryTarget(@dev.kensho.junit.LocalPostgres Target local, @TempDir Path tmp) throws Exception {
        Path fifo = tmp.resolve("pw");
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "no mkfifo here");
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(fifo, "piped-secret-2\n");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.setDaemon(true);
        writer.start();
        String at = "jdbc:postgresql://" + local.host() + ":" + local.port() + "/";
        Path results = tmp.resolve("results");
        CommandRun r = CommandRun.of("query", "-c", "select 1", "--repeat", "1", "--url", at + "postgres", "--url", at + "test",
                "-U", local.user(), "--password-file", fifo.toString(), "--results", results.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        Path run;
        try (Stream<Path> dirs = Files.list(results)) {
            run = dirs.findFirst().orElseThrow();
        }
        assertEquals(2, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).stream().filter(Trial::ok).count());
    }

    @Test
    void aSetupStatementTheServerRejectsIsAOneLineUsageError(Target pg, @TempDir Path tmp) {
        CommandRun r = CommandRun.of(args(pg, tmp, "-c", "select 1", "--setup", "creat table x (i int)"));
        assertEquals(2, r.exit(), r.out() + r.err());
        List<String> err = r.err().lines().filter(l -> l.startsWith("bench:")).toList();
        assertEquals(1, err.size(), r.err());
        assertTrue(err.get(0).contains("--setup creat table x (i int): ERROR: syntax error"), r.err());
        // a password in a statement that failed: masked on the console, as run.json keeps it
        CommandRun pw = CommandRun.of(args(pg, tmp, "-c", "select 1", "--setup", "ALTER ROLE kx_no_such_role PASSWORD $$Dollar11Secret$$"));
        assertEquals(2, pw.exit(), pw.out() + pw.err());
        assertFalse((pw.out() + pw.err()).contains("Dollar11Secret"), pw.err());
        assertTrue(pw.err().contains("--setup ALTER ROLE kx_no_such_role PASSWORD '****': ERROR:"), pw.err());
    }

    /** A statement that crashes the server (its backend killed): the error line says the server crashed, and why. */
    @Test
    void aServerCrashIsNamedInTheErrorLine(@TempDir Path tmp) {
        CommandRun r = CommandRun.of("query", "-c", "select 1", "--setup", "COPY (SELECT 1) TO PROGRAM 'kill -9 $PPID'",
                "--repeat", "1", "--warmup", "0", "--results", tmp.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        List<String> err = r.err().lines().filter(l -> l.startsWith("bench:")).toList();
        assertEquals(1, err.size(), r.err());
        assertTrue(err.get(0).matches("bench: --setup COPY .*: .* \\(embedded at 127\\.0\\.0\\.1:\\d+ crashed \\(server log: client backend"
                + " \\(PID \\d+\\) was terminated by signal 9: Killed\\)\\) \\(nothing was measured: .*-query removed\\)"), err.get(0));
    }

    /**
     * A query that crashes the server fails its own trial only: the next cell waits while the server recovers (it
     * failed at once with "the database system is in recovery mode"), and says how long, in its trial and run.json.
     * The crash holds the postmaster stopped for a second: a fast machine's server had otherwise recovered before the
     * next cell looked, and there was no wait to see.
     */
    @Test
    void theCellAfterACrashWaitsForTheServerToRecover(@TempDir Path tmp) throws Exception {
        String crash = "COPY (SELECT 1) TO PROGRAM 'pm=$(cut -d\" \" -f4 /proc/$PPID/stat); kill -STOP $pm; kill -9 $PPID; sleep 1; kill -CONT $pm'";
        CommandRun r = CommandRun.of("query", "-c", crash, "-c", "select 1", "--order", "sequential",
                "--repeat", "1", "--warmup", "0", "--results", tmp.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        Path run;
        try (Stream<Path> dirs = Files.list(tmp)) {
            run = dirs.findFirst().orElseThrow();
        }
        List<Trial> trials = RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS));
        assertEquals(List.of("q1", "q2"), trials.stream().map(t -> t.params().get("query")).toList());
        assertFalse(trials.get(0).ok(), "the crashing query failed: " + trials.get(0));
        assertTrue(trials.get(1).ok(), "the query after it ran once the server was back: " + trials.get(1));
        assertTrue(((Number) trials.get(1).extra().get("waited_for_server_s")).doubleValue() > 0, trials.get(1).extra().toString());
        assertTrue(Files.readString(run.resolve("run.json")).contains("s for the server to accept connections (it was restarting or recovering)"));
    }

    @Test
    void optionAndMatrixMistakesAreOneLineUsageErrors(Target pg, @TempDir Path tmp) throws Exception {
        String[][] cases = {
            {"--fetch-size must not be negative", "--fetch-size", "-1"},
            {"--matrix nosuch_guc: unrecognized configuration parameter", "--matrix", "nosuch_guc=1,2"},
            {"--matrix work_mem=bogus: invalid value for parameter \"work_mem\": \"bogus\"", "--matrix", "work_mem=4MB,bogus"},
            {"--matrix work_mem=: invalid value for parameter \"work_mem\": \"\"", "--matrix", "work_mem="},
        };
        for (String[] c : cases) {
            CommandRun r = CommandRun.of(args(pg, tmp, "-c", "select 1", c[1], c[2]));
            assertOneLineUsageError(r, c[0]);
        }
        CommandRun warmup = CommandRun.of("query", "--url", "jdbc:postgresql://127.0.0.1:1/kensho_nowhere", "-c", "select 1",
                "--warmup", "-1", "--results", tmp.toString());
        assertOneLineUsageError(warmup, "--warmup must not be negative");
        String nowhere = "jdbc:postgresql://127.0.0.1:1/kensho_nowhere";
        // a setting varied twice (the second replaced the first unsaid), a value twice, two files of one name (one cell)
        assertOneLineUsageError(CommandRun.of("query", "--url", nowhere, "-c", "select 1", "--matrix", "work_mem=4MB", "--matrix",
                "work_mem=8MB", "--results", tmp.toString()), "--matrix work_mem given twice: list its values in one (--matrix work_mem=4MB,8MB)");
        assertOneLineUsageError(CommandRun.of("query", "--url", nowhere, "-c", "select 1", "--matrix", "work_mem=4MB,4MB",
                "--results", tmp.toString()), "--matrix work_mem=4MB,4MB: a value is given twice");
        // one --keep-data for two servers: refused before the first starts (it ran the first, then stopped at the second)
        assertOneLineUsageError(CommandRun.of("query", "-c", "select 1", "--pg-version", "16,18", "--keep-data", tmp.resolve("kd").toString(),
                "--results", tmp.toString()), "--keep-data " + tmp.resolve("kd") + " holds one server's data; it cannot serve 2 targets");
        Path a = Files.createDirectories(tmp.resolve("a")).resolve("x.sql"), b = Files.createDirectories(tmp.resolve("b")).resolve("x.sql");
        Files.writeString(a, "select 1");
        Files.writeString(b, "select 2, 3");
        assertOneLineUsageError(CommandRun.of("query", "--url", nowhere, "-f", a.toString(), "-f", b.toString(), "--results", tmp.toString()),
                "-f " + b + " and -f " + a + " are both named x (a query is named after its file): rename one");
        // a file named as a -c query: both were one cell, the file's trials "already done" by the -c's
        Path q1 = Files.writeString(a.resolveSibling("q1.sql"), "select 2");
        assertOneLineUsageError(CommandRun.of("query", "--url", nowhere, "-c", "select 1", "-f", q1.toString(), "--results", tmp.toString()),
                "-f " + q1 + " is named q1, as -c select 1 is (the -c queries are q1, q2, ...; a query is named after its file): rename the file");
        Files.delete(q1);
        Files.delete(a);
        Files.delete(b);
        Files.delete(a.getParent());
        Files.delete(b.getParent());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "no run directory");
        }
    }

    /**
     * Among several versions a --matrix value one of them rejects skips that version's cells with the server's words
     * (a later version may take it); a value every version rejects is still a usage error, after the run, whose
     * trials are kept.
     */
    @Test
    void aMatrixValueSomeTargetsRejectSkipsTheirCells(@TempDir Path tmp) throws Exception {
        // io_method is new in 18: 16's cells are skipped, 18's run
        CommandRun r = CommandRun.of("query", "-c", "select 1", "--pg-version", "16,18", "--matrix", "work_mem=4MB,bogus",
                "--matrix", "io_method=sync", "--repeat", "1", "--warmup", "0", "--results", tmp.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("warning: --matrix work_mem=bogus: invalid value for parameter \"work_mem\": \"bogus\" "
                + "(embedded-16's cells with it are skipped)"), r.err());
        assertTrue(r.err().lines().anyMatch(l -> l.equals("bench: --matrix work_mem=bogus: rejected by every target")), r.err());
        Path run;
        try (Stream<Path> dirs = Files.list(tmp)) {
            run = dirs.findFirst().orElseThrow();
        }
        List<Trial> trials = RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS));
        assertTrue(r.err().contains("warning: --matrix io_method=sync: unrecognized configuration parameter (embedded-16's"), r.err());
        assertEquals(4, trials.size(), "every cell of both versions recorded");
        for (Trial t : trials) {
            boolean bogus = "bogus".equals(t.params().get("work_mem"));
            boolean v16 = "embedded-16".equals(t.params().get("target"));
            assertEquals(bogus || v16 ? "skipped" : "ok", t.status(), t.toString());
            if (bogus) assertTrue(String.valueOf(t.extra().get("reason")).contains("invalid value for parameter \"work_mem\": \"bogus\""), t.toString());
            else if (v16) assertEquals("io_method=sync: unrecognized configuration parameter", t.extra().get("reason"));
        }
    }

    private static void assertOneLineUsageError(CommandRun r, String start) {
        assertEquals(2, r.exit(), r.out() + r.err());
        List<String> errors = r.err().lines().filter(l -> l.startsWith("bench:")).toList();
        assertEquals(1, errors.size(), r.err());
        assertTrue(errors.get(0).startsWith("bench: " + start), r.err());
        assertFalse(r.err().contains("cannot connect"), r.err());
    }

    /** run.json keeps the statements that ran, but not a password one holds (ALTER ROLE ... PASSWORD '...', a dblink conninfo). */
    @Test
    void aPasswordInAQueryIsNotKept(Target pg, @TempDir Path tmp) throws Exception {
        CommandRun r = CommandRun.of(args(pg, tmp, "-c", "select 1 /* ALTER ROLE x PASSWORD 'S3cretPw' */"));
        assertEquals(0, r.exit(), r.out() + r.err());
        Path run;
        try (Stream<Path> dirs = Files.list(tmp)) {
            run = dirs.findFirst().orElseThrow();
        }
        String info = Files.readString(run.resolve("run.json"));
        assertTrue(info.contains("select 1 /* ALTER ROLE x PASSWORD '****' */"), info);
        try (Stream<Path> files = Files.walk(run)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) assertFalse(Files.readString(f).contains("S3cretPw"), f.toString());
        }
        assertFalse((r.out() + r.err()).contains("S3cretPw"), r.out() + r.err());
    }

    /** The printed table lists the cells as summary.csv does (targets, then the values as given), not as they ran. */
    @Test
    void thePrintedTableKeepsThePlannedOrderOfCellsThatRanShuffled(Target pg, @TempDir Path tmp) throws Exception {
        CommandRun r = CommandRun.of(args(pg, tmp, "-c", "select 1", "-c", "select 2", "-c", "select 3",
                "--matrix", "work_mem=4MB,64MB", "--order", "random", "--seed", "7"));
        assertEquals(0, r.exit(), r.out() + r.err());
        List<String> printed = r.out().lines().skip(1).map(l -> l.substring(l.indexOf(";query=") + 1))
                .map(l -> l.substring(0, l.indexOf(' '))).toList();
        List<String> ran = r.err().lines().filter(l -> l.matches("\\[\\d+/6] .*"))
                .map(l -> l.replaceAll("^\\[\\d+/6] (q\\d) \\{work_mem=(\\w+)}.*", "query=$1;work_mem=$2")).toList();
        List<String> planned = List.of("query=q1;work_mem=4MB", "query=q2;work_mem=4MB", "query=q3;work_mem=4MB",
                "query=q1;work_mem=64MB", "query=q2;work_mem=64MB", "query=q3;work_mem=64MB");
        assertEquals(planned.size(), ran.size(), r.err());
        assertTrue(r.err().lines().filter(l -> l.matches("\\[\\d+/6] .*")).allMatch(l -> l.matches(".* #1 \\d+\\.\\d{3} ms")),
                "the time before its unit: " + r.err());
        assertFalse(ran.equals(planned), "seed 7 must shuffle the trials for this test to say anything: " + ran);
        assertEquals(planned, printed, r.out());
        Path run;
        try (Stream<Path> dirs = Files.list(tmp)) {
            run = dirs.findFirst().orElseThrow();
        }
        List<String> csv = Files.readAllLines(run.resolve("summary.csv")).stream().skip(1)
                .map(l -> l.split(",")).map(f -> "query=" + f[1] + ";work_mem=" + f[2]).toList();
        assertEquals(planned, csv);
    }

    /**
     * A file of several statements ran them all in each timed run while the cell counted the first one's rows: it is
     * refused, at the second statement's line and column, before anything runs. A statement the server rejects is
     * placed at its file's line and column (pgjdbc's position, counted from Kensho's "COPY (", was dropped).
     */
    @Test
    void aFileIsOneStatementAndItsErrorsArePlacedInIt(Target pg, @TempDir Path tmp) throws Exception {
        Path files = Files.createDirectories(tmp.resolve("sql"));
        Path results = tmp.resolve("results");
        Path two = Files.writeString(files.resolve("two.sql"), "select count(*) from pg_class;\n-- then\n  select 2;\n");
        CommandRun r = CommandRun.of(args(pg, results, "-f", two.toString()));
        assertOneLineUsageError(r, "-f " + two + ":3:3: a second statement; bench query times one statement per -c or -f");
        assertOneLineUsageError(CommandRun.of(args(pg, results, "-c", "select 1; select 2")), "-c 'select 1; select 2': a second statement at line 1, column 11");
        assertFalse(Files.exists(results), "no run directory");
        // nothing to run: a -c as a file of comments, not a cell timing a round trip
        assertOneLineUsageError(CommandRun.of(args(pg, results, "-c", "; -- nothing")), "-c '; -- nothing': holds no statement");
        Path none = Files.writeString(files.resolve("none.sql"), "-- to do\n/* later */;\n");
        assertOneLineUsageError(CommandRun.of(args(pg, results, "-f", none.toString())), "-f " + none + ": holds no statement");
        assertFalse(Files.exists(results), "no run directory");

        // a Shift_JIS file: its line and byte, as for pgbench's scripts (Java said "cannot read (Input length = 1)")
        Path sjis = Files.write(files.resolve("sjis.sql"), "-- 検証\nselect '日本';\n".getBytes(java.nio.charset.Charset.forName("Shift_JIS")));
        assertOneLineUsageError(CommandRun.of(args(pg, results, "-f", sjis.toString())), "-f " + sjis + ":1:4: not valid UTF-8 (byte 0x8c)");
        assertFalse(Files.exists(results), "no run directory");
        // a BOM (a Windows editor's) is skipped, as psql skips it: the server read it as part of "select"
        Path bom = Files.write(files.resolve("bom.sql"), ("\uFEFFselect 1;\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        CommandRun withBom = CommandRun.of(args(pg, results.resolve("bom"), "-f", bom.toString()));
        assertEquals(0, withBom.exit(), withBom.out() + withBom.err());

        Path bad = Files.writeString(files.resolve("bad.sql"), "-- header\n\nselect 1\n  frm t;\n");
        CommandRun b = CommandRun.of(args(pg, results, "-f", bad.toString(), "-c", "select ';' -- one statement ;"));
        assertEquals(1, b.exit(), b.out() + b.err());
        assertTrue(b.out().contains("failed: ERROR: syntax error at or near \"t\" (line 4, column 7)"), b.out());
    }

    /**
     * A statement that writes ran on every warm-up and repeat without a word (5 rows from 2 warm-ups and 3 repeats), its
     * --explain's EXPLAIN ANALYZE wrote once more, and --explain made a SHOW's ok trial a failure ("syntax error at or
     * near show", EXPLAIN's). The write is now said and noted with how often it runs, the EXPLAIN ANALYZE is rolled
     * back, and a statement EXPLAIN does not take keeps its ok trial without a plan.
     */
    @Test
    void aWritingStatementIsSaidToRunOnEveryWarmUpAndRepeat(Target pg, @TempDir Path tmp) throws Exception {
        try (var c = pg.connect(); var s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS kensho_query_writes");
            s.execute("CREATE TABLE kensho_query_writes (x int)");
        }
        try {
            String url = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database();
            CommandRun r = CommandRun.of("query", "--url", url, "--user", pg.user(), "-c", "insert into kensho_query_writes values (1)",
                    "-c", "show work_mem", "--repeat", "3", "--warmup", "2", "--explain", "--results", tmp.toString());
            assertEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.err().contains("warning: q1 (INSERT) writes: it runs 5 times on remote "), r.err());
            assertFalse(r.err().contains("q2 ("), "SHOW writes nothing: " + r.err());
            try (var c = pg.connect(); var s = c.createStatement(); var rs = s.executeQuery("select count(*) from kensho_query_writes")) {
                rs.next();
                assertEquals(5, rs.getInt(1), "2 warm-ups and 3 repeats; the EXPLAIN ANALYZE rolled back");
            }
            Path run;
            try (Stream<Path> dirs = Files.list(tmp)) {
                run = dirs.findFirst().orElseThrow();
            }
            assertTrue(RunDirectory.info(run).notes().stream().anyMatch(n -> n.startsWith("q1 (INSERT) writes: it runs 5 times")),
                    RunDirectory.info(run).notes().toString());
            List<Trial> trials = RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS));
            assertTrue(trials.stream().allMatch(Trial::ok), trials.toString());
            for (Trial t : trials) {
                boolean insert = "q1".equals(t.params().get("query"));
                assertEquals(insert ? "INSERT" : null, t.extra().get("writes"), t.toString());
                if (t.repeat() == 0 && insert) assertEquals(true, t.extra().get("plan_rolled_back"), t.toString());
                if (t.repeat() == 0 && !insert) assertEquals("EXPLAIN does not take SHOW", t.extra().get("plan_skipped"), t.toString());
            }
        } finally {
            try (var c = pg.connect(); var s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS kensho_query_writes");
            }
        }
    }
}
