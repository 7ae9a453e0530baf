package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.run.TrialMatrix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {
    @TempDir Path root;

    /** Each wrong path says what is wrong with it (a missing --resume said "no run.json", a file --results "already exists"). */
    @Test
    void wrongPathsSayWhatIsWrong() throws Exception {
        Path file = Files.writeString(root.resolve("afile"), "x");
        assertEquals("--resume " + root.resolve("nope") + ": no such directory", org.junit.jupiter.api.Assertions.assertThrows(
                dev.kensho.core.KenshoException.class, () -> RunDirectory.resume(root.resolve("nope"))).getMessage());
        assertEquals("--resume " + file + ": not a directory", org.junit.jupiter.api.Assertions.assertThrows(
                dev.kensho.core.KenshoException.class, () -> RunDirectory.resume(file)).getMessage());
        assertEquals("--results " + file + ": is a file, not a directory", org.junit.jupiter.api.Assertions.assertThrows(
                dev.kensho.core.KenshoException.class, () -> RunDirectory.create(file, RunInfo.of("x", List.of(), Map.of()))).getMessage());
    }

    /** A run whose run.json cannot be written (a full disk) says why and leaves no empty run directory behind. */
    @Test
    void aRunThatCannotWriteItsRunJsonLeavesNoDirectory() throws Exception {
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of("p", new Unwritable()))));
        assertTrue(e.getMessage().contains("no room"), e.getMessage());
        try (var left = Files.list(root)) {
            assertEquals(List.of(), left.toList());
        }
    }

    /** A parameter that fails as it is written, as run.json's write fails on a full disk. */
    static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("no room");
        }
    }

    /**
     * Timelines are most of a study's trials.jsonl (a 32-CPU host's 200 columns of 300 seconds per trial): read back,
     * their columns are held as doubles, where Jackson's lists of Doubles took 20 bytes a value and a 216-trial sweep did
     * not fit bench report's 512 MB heap. The values, and the trial written out again, are what was written.
     */
    @Test
    void timelinesReadBackAsDoublesAndWriteOutUnchanged() throws Exception {
        Trial written = Trial.of("clients=4", 0).param("clients", 4).metric("tps", 100.0)
                .extra(Timeline.KEY, new Timeline.Builder().interval(1).put("tps", 95.5).interval(2).put("tps", 104.5).build().columns())
                .extra(Timeline.HOST, Map.of("t_s", List.of(1.0, 2.0), "cpu31.soft", List.of(0.5, 12.25), "devices", List.of("vda", "eth0")))
                .build();
        Path path;
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of(), Map.of()))) {
            rd.append(written);
            path = rd.path();
            // and so does a running sweep hold the trials it has appended
            Object held = ((Map<?, ?>) rd.trials().get(0).extra().get(Timeline.HOST)).get("cpu31.soft");
            assertTrue(held instanceof DoubleColumn, "held as " + held.getClass());
            assertEquals(written, rd.trials().get(0));
        }
        String line = Files.readAllLines(path.resolve(RunDirectory.TRIALS)).get(0);
        Trial read = RunDirectory.readTrials(path.resolve(RunDirectory.TRIALS)).get(0);
        assertEquals(List.of(0.5, 12.25), Timeline.of(read, Timeline.HOST).column("cpu31.soft"));
        assertEquals(List.of(95.5, 104.5), Timeline.of(read).column("tps"));
        Object column = ((Map<?, ?>) read.extra().get(Timeline.HOST)).get("cpu31.soft");
        assertTrue(column instanceof DoubleColumn, "a list of boxed Doubles: " + column.getClass());
        assertEquals(List.of("vda", "eth0"), ((Map<?, ?>) read.extra().get(Timeline.HOST)).get("devices"), "a list of other values as it was");
        assertEquals(line, Json.MAPPER.writeValueAsString(read));
    }

    @Test
    void resumeSkipsFinishedTrialsAndDropsAPartialLine() throws Exception {
        List<Integer> clients = List.of(1, 4, 16);
        TrialMatrix<Integer> m = new TrialMatrix<>(clients, c -> "clients=" + c, 3, TrialMatrix.Order.RANDOM, 42);
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of("x"), Map.of("seed", 42)))) {
            dirPath = dir.path();
            List<String> ran = new ArrayList<>();
            try {
                m.run(dir, p -> {
                    if (ran.size() == 4) throw new InterruptedException("simulated Ctrl-C");
                    ran.add(p.key() + "#" + p.repeat());
                    return Trial.of(p.key(), p.repeat()).param("clients", p.cell()).metric("tps", 100.0 * p.cell() + p.repeat()).build();
                }, new TrialMatrix.Listener<>() { });
            } catch (InterruptedException expected) {
                // stopped half-way
            }
            assertEquals(4, dir.trials().size());
        }
        // A kill during a write leaves half a line.
        Files.writeString(dirPath.resolve(RunDirectory.TRIALS), "{\"cell\":\"clients=1\",\"rep", StandardOpenOption.APPEND);

        List<String> second = new ArrayList<>();
        try (RunDirectory dir = RunDirectory.resume(dirPath)) {
            assertEquals(4, dir.trials().size());
            m.run(dir, p -> {
                second.add(p.key() + "#" + p.repeat());
                return Trial.of(p.key(), p.repeat()).param("clients", p.cell()).metric("tps", 100.0 * p.cell() + p.repeat()).build();
            }, new TrialMatrix.Listener<>() { });
            assertEquals(5, second.size());
            assertEquals(9, dir.trials().size());
            CellSummary.write(dir, List.of("tps"));
        }
        List<Trial> all = RunDirectory.readTrials(dirPath.resolve(RunDirectory.TRIALS));
        assertEquals(9, all.size());
        String csv = Files.readString(dirPath.resolve(RunDirectory.SUMMARY));
        assertTrue(csv.startsWith("clients,n,status,tps_median,tps_min,tps_max,reason\n"), csv);
        assertTrue(csv.contains("16,3,ok,1601,1600,1602,"), csv);
        assertFalse(csv.contains("clients=1#"));
    }

    /**
     * Every trial that ran says when it began, its body's work included, so that with finished it cuts a server log to
     * the trial; a skipped one never ran and has no start; a line written before trials had one reads as having none.
     */
    @Test
    void aTrialSaysWhenItBegan() throws Exception {
        TrialMatrix<Integer> m = new TrialMatrix<>(List.of(1, 2, 3), c -> "clients=" + c, 1, TrialMatrix.Order.SEQUENTIAL, 0);
        java.time.Instant before = java.time.Instant.now();
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
            dirPath = dir.path();
            m.run(dir, p -> {
                Thread.sleep(30);   // the body's work, before the trial is built
                Trial.Builder b = Trial.of(p.key(), p.repeat()).param("clients", p.cell());
                return switch (p.cell()) {
                    case 1 -> b.metric("tps", 1.0).build();
                    case 2 -> b.failed("refused").build();
                    default -> b.skipped("not on this server").build();
                };
            }, new TrialMatrix.Listener<>() { });
        }
        List<Trial> all = RunDirectory.readTrials(dirPath.resolve(RunDirectory.TRIALS));
        for (Trial t : all.subList(0, 2)) {
            assertTrue(t.started() != null && !t.started().isBefore(before), t.cell() + " " + t.started());
            assertTrue(java.time.Duration.between(t.started(), t.finished()).toMillis() >= 30, t.started() + " .. " + t.finished());
        }
        assertEquals("skipped", all.get(2).status());
        assertEquals(null, all.get(2).started());
        String line = Files.readAllLines(dirPath.resolve(RunDirectory.TRIALS)).get(0);
        assertTrue(line.matches(".*\"started\":\"\\d{4}-\\d\\d-\\d\\dT[^\"]+Z\",\"finished\":.*"), line);
        // written by an earlier Kensho: no start
        Trial old = Json.MAPPER.readValue("{\"cell\":\"c\",\"repeat\":0,\"status\":\"ok\",\"finished\":\"2026-01-01T00:00:00Z\"}", Trial.class);
        assertEquals(null, old.started());
    }

    /** A file that cannot be written (a full disk) is one line with the reason, and leaves no .tmp beside it. */
    @Test
    void aFailedWriteSaysWhyAndLeavesNoTemporaryFile() throws Exception {
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            Path summary = dir.path().resolve(RunDirectory.SUMMARY);
            Files.createDirectories(summary.resolve("in-the-way"));
            dir.summarizeAfterEachTrial(d -> CellSummary.write(d, List.of("ms")));
            dev.kensho.core.KenshoException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                    () -> dir.append(Trial.of("q=1", 0).metric("ms", 5.0).build()));
            assertEquals("cannot write " + summary + ": Is a directory", e.getMessage());
            assertEquals(dev.kensho.core.KenshoException.FAILURE, e.exitCode());
            assertFalse(Files.exists(dir.path().resolve(RunDirectory.SUMMARY + ".tmp")));
            assertEquals(1, RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).size(), "the trial itself was kept");
        }
    }

    /** Two writers of one run would both run its missing trials: a --resume of a run still being written is refused. */
    @Test
    void aRunIsWrittenByOneProcessAtATime() throws Exception {
        Path path;
        try (RunDirectory first = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            path = first.path();
            first.append(Trial.of("q=1", 0).metric("ms", 5.0).build());
            dev.kensho.core.KenshoException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                    () -> RunDirectory.resume(path));
            assertEquals("--resume " + path + ": another Kensho process is writing to this run (the run itself, or another --resume of it); "
                    + "wait for it to end", e.getMessage());
            assertEquals(dev.kensho.core.KenshoException.USAGE, e.exitCode());
            first.append(Trial.of("q=1", 1).metric("ms", 6.0).build());   // the refused resume took nothing from the writer
        }
        try (RunDirectory again = RunDirectory.resume(path)) {
            assertEquals(2, again.trials().size());
            again.append(Trial.of("q=1", 2).metric("ms", 7.0).build());
        }
        assertEquals(3, RunDirectory.readTrials(path.resolve(RunDirectory.TRIALS)).size());
    }

    /** A run stopped before its command's last summary write still has the summary of every trial it finished. */
    @Test
    void summaryFollowsEveryAppendedTrial() throws Exception {
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dir.summarizeAfterEachTrial(d -> CellSummary.write(d, List.of("ms")));
            dir.append(Trial.of("q=1", 0).param("q", 1).metric("ms", 5.0).build());
            assertEquals("q,n,status,ms_median,ms_min,ms_max,reason\n1,1,ok,5,5,5,\n", Files.readString(dir.path().resolve(RunDirectory.SUMMARY)));
            dir.append(Trial.of("q=1", 1).param("q", 1).metric("ms", 7.0).build());
            dir.append(Trial.of("q=2", 0).param("q", 2).metric("ms", 9.0).build());
            assertEquals("q,n,status,ms_median,ms_min,ms_max,reason\n1,2,ok,6,5,7,\n2,1,ok,9,9,9,\n",
                    Files.readString(dir.path().resolve(RunDirectory.SUMMARY)));
        }
    }

    /** Stopped between trials (the file ends in a newline): resuming keeps every line, the next trial goes after them. */
    @Test
    void resumeAfterACleanStopKeepsTheLastTrial() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dirPath = dir.path();
            dir.append(Trial.of("a", 0).metric("ms", 1.0).build());
            dir.append(Trial.of("a", 1).metric("ms", 2.0).build());
        }
        try (RunDirectory dir = RunDirectory.resume(dirPath)) {
            dir.append(Trial.of("a", 2).metric("ms", 3.0).build());
        }
        List<Trial> all = RunDirectory.readTrials(dirPath.resolve(RunDirectory.TRIALS));
        assertEquals(List.of(0, 1, 2), all.stream().map(Trial::repeat).toList());
    }

    /** Killed while writing the first trial: the file is one partial line, which resuming removes entirely. */
    @Test
    void resumeWhenTheOnlyLineIsPartial() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dirPath = dir.path();
        }
        Files.writeString(dirPath.resolve(RunDirectory.TRIALS), "{\"cell\":\"a\",\"rep");
        try (RunDirectory dir = RunDirectory.resume(dirPath)) {
            assertEquals(0, dir.trials().size());
            dir.append(Trial.of("a", 0).metric("ms", 1.0).build());
        }
        assertEquals(1, RunDirectory.readTrials(dirPath.resolve(RunDirectory.TRIALS)).size());
        assertTrue(Files.readString(dirPath.resolve(RunDirectory.TRIALS)).startsWith("{\"cell\":\"a\",\"repeat\":0"));
    }

    /**
     * A full disk can cut a trial's write just before its newline: the line is whole JSON, yet resuming cuts it from the
     * file as partial. It was still read as finished (the resume skipped it, its summary counted it), so the run ended with
     * that repeat in neither trials.jsonl nor a later report; now it is not taken, and the resume runs it again.
     */
    @Test
    void aLastTrialThatLostOnlyItsNewlineIsRunAgain() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dirPath = dir.path();
            dir.append(Trial.of("a", 0).metric("ms", 1.0).build());
        }
        String cut = Json.MAPPER.writeValueAsString(Trial.of("a", 1).metric("ms", 2.0).build());
        Files.writeString(dirPath.resolve(RunDirectory.TRIALS), cut, StandardOpenOption.APPEND);
        try (RunDirectory dir = RunDirectory.resume(dirPath)) {
            assertFalse(dir.isFinished("a", 1), "the cut line is not a finished trial");
            assertEquals(RunDirectory.readTrials(dirPath.resolve(RunDirectory.TRIALS)), dir.trials(), "what the resume holds is what the file holds");
            dir.append(Trial.of("a", 1).metric("ms", 3.0).build());
        }
        assertEquals(List.of(0, 1), RunDirectory.readTrials(dirPath.resolve(RunDirectory.TRIALS)).stream().map(Trial::repeat).toList());
    }

    /**
     * The lock is the operating system's, per process, and closing any descriptor of the file lets it go: a resume that
     * read trials.jsonl through a stream of its own after taking it was no lock at all, and two resumes ran at once.
     */
    @Test
    void aResumedRunIsLockedAgainstAnotherProcess() throws Exception {
        Path path;
        try (RunDirectory first = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            path = first.path();
            first.append(Trial.of("q=1", 0).metric("ms", 5.0).build());
        }
        Path trials = path.resolve(RunDirectory.TRIALS);
        try (RunDirectory again = RunDirectory.resume(path)) {
            assertEquals(1, again.trials().size());
            assertEquals("held", lockFromAnotherProcess(trials));
        }
        assertEquals("free", lockFromAnotherProcess(trials), "the probe tells a free file too");
    }

    /** Tries the lock from another JVM: "held" or "free". */
    private String lockFromAnotherProcess(Path file) throws Exception {
        Path probe = root.resolve("LockProbe.java");
        Files.writeString(probe, "public class LockProbe { public static void main(String[] a) throws Exception {"
                + " try (var ch = java.nio.channels.FileChannel.open(java.nio.file.Path.of(a[0]), java.nio.file.StandardOpenOption.WRITE)) {"
                + " System.out.print(ch.tryLock() == null ? \"held\" : \"free\"); } } }");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), probe.toString(), file.toString())
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the probe ended");
        return said;
    }

    /** A run whose trials.jsonl cannot be opened to append (a read-only file system) says that, where it said "cannot read it". */
    @Test
    void aRunThatCannotBeAppendedToSaysSo() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dirPath = dir.path();
        }
        Files.delete(dirPath.resolve(RunDirectory.TRIALS));
        Files.createDirectory(dirPath.resolve(RunDirectory.TRIALS));
        dev.kensho.core.KenshoException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> RunDirectory.resume(dirPath));
        assertEquals("--resume " + dirPath + ": cannot write to it (Is a directory)", e.getMessage());
    }

    /**
     * A harness records its own arguments as the command line: a password in them (a URL's, an option's) must not
     * reach run.json, which the CLI's masking never saw.
     */
    @Test
    void aCommandLineGivenFromJavaIsStoredMasked() throws Exception {
        List<String> given = List.of("harness", "--url", "jdbc:postgresql://bob:Hx7secret@db:5432/test?sslpassword=Kq2secret",
                "--password", "Zz9secret", "--password=Yy8secret");
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench run", given, Map.of()))) {
            String json = Files.readString(dir.path().resolve(RunDirectory.RUN));
            for (String secret : List.of("Hx7secret", "Kq2secret", "Zz9secret", "Yy8secret")) assertFalse(json.contains(secret), json);
            assertEquals(List.of("harness", "--url", "jdbc:postgresql://bob:****@db:5432/test?sslpassword=****", "--password", "****",
                    "--password=****"), RunDirectory.info(dir.path()).commandLine());
        }
    }

    /** Runs started in the same second get -2, -3 (by the stamp and command), and run.json keeps what was added. */
    @Test
    void sameSecondRunsAndRunJsonRoundTrip() throws Exception {
        RunInfo info = new RunInfo("pgbench run", List.of("pgbench", "run"), java.time.Instant.parse("2026-11-22T12:00:00Z"),
                new java.util.LinkedHashMap<>(Map.of("seed", 7)), new java.util.LinkedHashMap<>(), new ArrayList<>());
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            try (RunDirectory dir = RunDirectory.create(root, info)) {
                names.add(dir.path().getFileName().toString());
                if (i == 2) {
                    // each is on disk at once: a run killed right after still has it in run.json
                    dir.note("restarted for shared_buffers");
                    assertEquals(List.of("restarted for shared_buffers"), RunDirectory.info(dir.path()).notes());
                    dir.environment("server", Map.of("server_version", "17.2"));
                    assertEquals(Map.of("server_version", "17.2"), RunDirectory.info(dir.path()).environment().get("server"));
                    dir.parameter("clients", List.of(1, 4));
                }
            }
        }
        assertEquals(List.of("20261122T120000Z-pgbench-run", "20261122T120000Z-pgbench-run-2", "20261122T120000Z-pgbench-run-3"), names);
        RunResults back = RunDirectory.read(root.resolve(names.get(2)));
        assertEquals(List.of("restarted for shared_buffers"), back.info().notes());
        assertEquals(Map.of("server_version", "17.2"), back.info().environment().get("server"));
        assertEquals(List.of(1, 4), back.info().parameters().get("clients"));
        assertEquals(7, back.info().parameters().get("seed"));
        assertEquals(List.of(), back.trials());
    }

    @Test
    void aDamagedLineBeforeTheLastIsSkippedWithAWarning() throws Exception {
        Path file = root.resolve("trials.jsonl");
        String ok = "{\"cell\":\"c\",\"repeat\":0,\"status\":\"ok\"}\n";
        Files.writeString(file, ok + "garbage\n" + ok.replace("\"repeat\":0", "\"repeat\":1") + "{\"cell\":\"c\",\"rep");
        java.io.PrintStream was = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        List<Trial> trials;
        try {
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            trials = RunDirectory.readTrials(file);
        } finally {
            System.setErr(was);
        }
        assertEquals(2, trials.size());
        String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(said.startsWith("warning: " + file + ":2: not a trial, skipped ("), said);
        assertEquals(1, said.lines().count(), "the partial last line is skipped quietly: " + said);
        // a last line that is whole JSON with a field of the wrong type is no crash's remnant: said too, in the file's words
        Files.writeString(file, ok + "{\"cell\":\"c\",\"repeat\":\"x\",\"status\":\"ok\"}\n");
        java.io.ByteArrayOutputStream err2 = new java.io.ByteArrayOutputStream();
        try {
            System.setErr(new java.io.PrintStream(err2, true, java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(1, RunDirectory.readTrials(file).size());
        } finally {
            System.setErr(was);
        }
        assertEquals("warning: " + file + ":2: not a trial, skipped (repeat is not a number)\n", err2.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * A line that is whole JSON but no trial ("null", {}, a record without its status: a file cut down with jq, another
     * tool's line) is skipped with a warning, even as the last line: read as a trial it ended bench report and compare
     * in a NullPointerException. A trial without params or metrics reads as having none.
     */
    @Test
    void wholeJsonThatIsNoTrialIsSkippedWithAWarning() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of(), Map.of()))) {
            dir.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 100.0).build());
            dirPath = dir.path();
        }
        Path file = dirPath.resolve(RunDirectory.TRIALS);
        Files.writeString(file, "null\n{}\n{\"cell\":\"clients=1\",\"repeat\":1}\n{\"cell\":\"clients=1\",\"repeat\":2,\"status\":\"ok\"}\n{}\n",
                StandardOpenOption.APPEND);
        java.io.PrintStream was = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        RunResults read;
        try {
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            read = RunDirectory.read(dirPath);
        } finally {
            System.setErr(was);
        }
        assertEquals(List.of(0, 2), read.trials().stream().map(Trial::repeat).toList());
        Trial bare = read.trials().get(1);
        assertEquals(Map.of(), bare.params());
        assertEquals(Map.of(), bare.extra());
        assertEquals(null, bare.metric("tps"));
        assertEquals(List.of("warning: " + file + ":2: not a trial, skipped (null)",
                "warning: " + file + ":3: not a trial, skipped (no cell)",
                "warning: " + file + ":4: not a trial, skipped (no status)",
                "warning: " + file + ":6: not a trial, skipped (no cell)"),
                err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList());
    }

    /**
     * A run.json of "null" ended bench report and compare in a NullPointerException, and one of {} a --resume (its
     * parameters read as null): the first is no results directory, the second a run with no parameters, notes or
     * environment recorded.
     */
    @Test
    void aRunJsonOfNullIsRefusedAndOneWithoutFieldsReadsAsEmpty() throws Exception {
        Path nullRun = Files.createDirectories(root.resolve("null"));
        Files.writeString(nullRun.resolve(RunDirectory.RUN), "null");
        assertEquals(nullRun + ": not a readable results directory (run.json is null)", org.junit.jupiter.api.Assertions.assertThrows(
                dev.kensho.core.KenshoException.class, () -> RunDirectory.read(nullRun)).getMessage());
        assertEquals("--resume " + nullRun + ": cannot read it (run.json is null)", org.junit.jupiter.api.Assertions.assertThrows(
                dev.kensho.core.KenshoException.class, () -> RunDirectory.resume(nullRun)).getMessage());
        // a damaged one: the file, line and column, and the parser's words without its quoting of the source
        Path torn = Files.createDirectories(root.resolve("torn"));
        Files.writeString(torn.resolve(RunDirectory.RUN), "{\"command\": \"pgbench sweep\",\n  \"parameters\": {\"a\n");
        String said = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> RunDirectory.read(torn)).getMessage();
        assertTrue(said.startsWith(torn + ": not a readable results directory (run.json:2:") && !said.contains("Source:"), said);
        String resumed = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> RunDirectory.resume(torn)).getMessage();
        assertTrue(resumed.startsWith("--resume " + torn + ": cannot read it (run.json:2:") && !resumed.contains("Source:"), resumed);
        // a field of the wrong type, in the file's words rather than Java's (LinkedHashMap<java.lang.String,...>)
        Path typed = Files.createDirectories(root.resolve("typed"));
        Files.writeString(typed.resolve(RunDirectory.RUN), "{\"command\":\"pgbench run\",\"parameters\":5}");
        assertEquals(typed + ": not a readable results directory (run.json:1:39: parameters is not an object)", org.junit.jupiter.api.Assertions.assertThrows(
                dev.kensho.core.KenshoException.class, () -> RunDirectory.read(typed)).getMessage());
        Files.writeString(typed.resolve(RunDirectory.RUN), "[]");
        assertEquals(typed + ": not a readable results directory (run.json:1:1: the whole file is not an object)", org.junit.jupiter.api.Assertions.assertThrows(
                dev.kensho.core.KenshoException.class, () -> RunDirectory.read(typed)).getMessage());
        // a trials.jsonl that is no text ("Input length = 1" named neither the file nor what was wrong)
        Files.writeString(typed.resolve(RunDirectory.RUN), "{\"command\":\"pgbench run\"}");
        Files.write(typed.resolve(RunDirectory.TRIALS), new byte[] {(byte) 0xff, (byte) 0xfe, 0x01, '\n'});
        assertEquals(typed + ": not a readable results directory (trials.jsonl is not UTF-8 text (a results file is JSON))",
                org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> RunDirectory.read(typed)).getMessage());
        Path bare = Files.createDirectories(root.resolve("bare"));
        Files.writeString(bare.resolve(RunDirectory.RUN), "{}");
        Files.writeString(bare.resolve(RunDirectory.TRIALS), "{\"cell\":\"clients=1\",\"repeat\":0,\"status\":\"ok\"}\n");
        try (RunDirectory dir = RunDirectory.resume(bare)) {
            assertEquals(Map.of(), dir.info().parameters());
            assertEquals(Map.of(), dir.info().environment());
            dir.note("resumed");
            assertEquals(List.of("resumed"), RunDirectory.info(bare).notes());
        }
    }

    /**
     * A resume runs a failed repeat again: once it is ok, summary.csv said "2 of 4 repeats failed" of a cell whose 2
     * repeats were both ok, and the report listed the failures as standing. The rerun stands; trials.jsonl keeps all.
     */
    @Test
    void aFailedRepeatThatAResumeRanAgainNoLongerCountsAsFailed() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of(), Map.of("repeat", 2)))) {
            dirPath = dir.path();
            dir.append(Trial.of("clients=2", 0).param("clients", 2).failed("ERROR:  division by zero").build());
            dir.append(Trial.of("clients=2", 1).param("clients", 2).failed("ERROR:  division by zero").build());
        }
        try (RunDirectory dir = RunDirectory.resume(dirPath)) {
            dir.summarizeAfterEachTrial(d -> CellSummary.write(d, List.of("tps")));
            dir.append(Trial.of("clients=2", 1).param("clients", 2).metric("tps", 500.0).build());
            dir.append(Trial.of("clients=2", 0).param("clients", 2).metric("tps", 700.0).build());
        }
        assertEquals(List.of("clients,n,status,tps_median,tps_min,tps_max,reason", "2,2,ok,600,500,700,"),
                Files.readAllLines(dirPath.resolve(RunDirectory.SUMMARY)));
        assertEquals(4, RunDirectory.readTrials(dirPath.resolve(RunDirectory.TRIALS)).size(), "trials.jsonl keeps the failures");
        assertEquals(List.of("ok", "ok"), RunDirectory.read(dirPath).trials().stream().map(Trial::status).toList());
        // a repeat whose rerun failed again counts once, as failed
        List<Trial> twice = List.of(Trial.of("c", 0).failed("a").build(), Trial.of("c", 1).metric("tps", 1.0).build(),
                Trial.of("c", 0).failed("b").build());
        CellSummary c = CellSummary.of(twice).get(0);
        assertEquals("1 of 2 repeats failed: b", c.reason());
    }

    /** A median over fewer repeats than asked for says so; cells without parameters are told apart by their key. */
    @Test
    void summaryNamesFailedRepeatsAndKeysCellsWithoutParameters() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dirPath = dir.path();
            dir.append(Trial.of("a", 0).metric("ms", 2.0).build());
            dir.append(Trial.of("a", 1).failed("server closed the connection").build());
            dir.append(Trial.of("b", 0).metric("ms", 5.0).build());
            CellSummary.write(dir, List.of("ms"));
        }
        List<String> csv = Files.readAllLines(dirPath.resolve(RunDirectory.SUMMARY));
        assertEquals("cell,n,status,ms_median,ms_min,ms_max,reason", csv.get(0));
        assertEquals("a,1,ok,2,2,2,1 of 2 repeats failed: server closed the connection", csv.get(1));
        assertEquals("b,1,ok,5,5,5,", csv.get(2));
    }

    /** A cell whose body failed before it named its parameters (a settings change refused) keeps them in summary.csv. */
    @Test
    void aCellThatFailedBeforeItsTrialNamedItsParametersStillHasThem() throws Exception {
        TrialMatrix<String> m = new TrialMatrix<>(List.of("4MB", "200GB"), v -> "target=embedded-18;shared_buffers=" + v, 1,
                TrialMatrix.Order.SEQUENTIAL, 0);
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dirPath = dir.path();
            m.run(dir, p -> {
                if (p.cell().equals("200GB")) {
                    throw new dev.kensho.core.KenshoException(dev.kensho.core.KenshoException.TARGET, "starting PostgreSQL failed", null);
                }
                return Trial.of(p.key(), p.repeat()).param("target", "embedded-18").param("shared_buffers", p.cell()).metric("ms", 1.0).build();
            }, new TrialMatrix.Listener<>() { });
            CellSummary.write(dir, List.of("ms"));
        }
        List<String> csv = Files.readAllLines(dirPath.resolve(RunDirectory.SUMMARY));
        assertEquals("target,shared_buffers,n,status,ms_median,ms_min,ms_max,reason", csv.get(0));
        assertEquals("embedded-18,200GB,0,failed,,,,starting PostgreSQL failed", csv.get(2));
    }

    @Test
    void randomOrderIsReproducibleFromTheSeed() {
        var a = new TrialMatrix<>(List.of(1, 2, 3, 4), String::valueOf, 3, TrialMatrix.Order.RANDOM, 7).plan();
        var b = new TrialMatrix<>(List.of(1, 2, 3, 4), String::valueOf, 3, TrialMatrix.Order.RANDOM, 7).plan();
        assertEquals(a, b);
        var seq = new TrialMatrix<>(List.of(1, 2), String::valueOf, 2, TrialMatrix.Order.SEQUENTIAL, 7).plan();
        assertEquals(List.of("1#0", "2#0", "1#1", "2#1"), seq.stream().map(p -> p.key() + "#" + p.repeat()).toList());
        // rounds: every cell once per round, in an order of its own; repeat r is round r
        List<Integer> cells = java.util.stream.IntStream.rangeClosed(1, 16).boxed().toList();
        var rounds = new TrialMatrix<>(cells, String::valueOf, 3, TrialMatrix.Order.ROUNDS, 7).plan();
        assertEquals(48, rounds.size());
        java.util.Set<List<String>> orders = new java.util.HashSet<>();
        for (int r = 0; r < 3; r++) {
            var round = rounds.subList(16 * r, 16 * (r + 1));
            final int rr = r;
            assertTrue(round.stream().allMatch(p -> p.repeat() == rr), round.toString());
            assertEquals(16, round.stream().map(p -> p.cell()).distinct().count(), round.toString());
            orders.add(round.stream().map(p -> p.key()).toList());
        }
        assertEquals(3, orders.size(), "each round shuffled anew: " + orders);
        assertTrue(!orders.contains(cells.stream().map(String::valueOf).toList()), "not the given order");
        assertEquals(rounds, new TrialMatrix<>(cells, String::valueOf, 3, TrialMatrix.Order.ROUNDS, 7).plan(), "a function of the seed");
    }

    @Test
    void medianOfEvenAndOdd() {
        assertEquals(2.0, Stats.median(new double[] {3, 1, 2}));
        assertEquals(2.5, Stats.median(new double[] {4, 1, 2, 3}));
        // the two middle values' mean as written, not 0.052000000000000005 and 0.15000000000000002 (Commons Math's)
        assertEquals("0.052", String.valueOf(Stats.median(new double[] {0.054, 0.05})));
        assertEquals("0.15", String.valueOf(Stats.median(new double[] {0.3, 0.2, 0.1, 0.01})));
        assertEquals(10898.14529844458, Stats.median(new double[] {10089.630244175252, 11706.660352713909}));
        assertEquals(Double.NaN, Stats.median(new double[0]));
    }
    /**
     * What a run directory stores is masked whatever put it there: a standby's primary_conninfo among the server's
     * settings, a --set value and its note, a trial's error quoting ALTER ROLE ... PASSWORD, a failed cell's reason in
     * summary.csv. Each was written as given.
     */
    @Test
    void aPasswordInAnythingStoredIsMasked() throws Exception {
        Path dir;
        try (RunDirectory d = RunDirectory.create(root, RunInfo.of("pgbench run", List.of("pgbench", "run"), Map.of()))) {
            d.environment("remote", Map.of("non_default_settings", Map.of("primary_conninfo", "host=h user=rep password=Zz9pass (configuration file)")));
            d.parameter("settings", Map.of("primary_conninfo", "host=h password=S3cretPW"));
            d.note("remote 127.0.0.1:5432: ALTER SYSTEM SET primary_conninfo = host=h user=rep password=S3cretPW");
            d.append(Trial.of("clients=1", 0).metric("tps", 1.0).extra("errors", "LINE 1: ALTER ROLE u PASSWORD 'Hunter2pw' BOGUS;").build());
            d.writeSummary(List.of("cell", "reason"), List.of(List.of("clients=1", "run aborted: dblink('host=h password=Hunter2pw')")));
            dir = d.path();
        }
        for (String f : List.of(RunDirectory.RUN, RunDirectory.TRIALS, RunDirectory.SUMMARY)) {
            String text = Files.readString(dir.resolve(f));
            for (String secret : List.of("Zz9pass", "S3cretPW", "Hunter2pw")) assertFalse(text.contains(secret), f + ": " + text);
            assertTrue(text.contains("****"), f + ": " + text);
        }
        assertTrue(Files.readString(dir.resolve(RunDirectory.RUN)).contains("host=h user=rep password=**** (configuration file)"));
    }
}
