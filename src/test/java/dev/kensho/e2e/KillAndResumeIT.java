package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SIGKILL or Ctrl-C half-way keeps every finished trial, and only those; --resume finishes the rest. */
class KillAndResumeIT {
    @TempDir Path work;

    @Test
    void killedRunKeepsTrialsAndResumeCompletesIt() throws Exception {
        String[] args = {"query", "-c", "SELECT pg_sleep(0.25)", "-c", "SELECT 1", "--repeat", "10", "--warmup", "0", "--seed", "11"};
        Process p = BenchJar.start(work, args);
        Path trials = BenchJar.waitForTrials(p, work, 6);
        Path instance = instanceOf(p.pid());
        long postmaster = Long.parseLong(Files.readAllLines(instance.resolve("data/postmaster.pid")).get(0).trim());
        assertTrue(ProcessHandle.of(postmaster).isPresent(), "the run's server is up");
        p.destroyForcibly(); // SIGKILL: no shutdown hooks, no flush at exit
        p.waitFor(30, TimeUnit.SECONDS);
        // Its watchdog stops the server and removes the instance, with no later Kensho start needed.
        long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false) || Files.exists(instance))
                && System.nanoTime() < gone) {
            Thread.sleep(100);
        }
        assertTrue(!ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false),
                "postgres " + postmaster + " outlived the killed run");
        assertTrue(!Files.exists(instance), instance + " left behind");
        List<Trial> kept = RunDirectory.readTrials(trials);
        assertTrue(kept.size() >= 6 && kept.size() < 20, "kept " + kept.size() + "; stderr: " + Files.readString(work.resolve("stderr.txt")));

        Path runDir = trials.getParent();
        // the command's own summary write at the end never came: the one after the last kept trial is there, or the
        // one before it where the kill fell between that trial's append and the summary's rewrite
        List<String> rows = Files.readAllLines(runDir.resolve(RunDirectory.SUMMARY));
        int n = List.of(rows.get(0).split(",")).indexOf("n");
        int summarized = rows.stream().skip(1).mapToInt(row -> Integer.parseInt(row.split(",")[n])).sum();
        assertTrue(summarized == kept.size() || summarized == kept.size() - 1, kept.size() + " kept; " + String.join("\n", rows));
        BenchJar.Result r = BenchJar.run(work.resolve("resume"), "query", "--resume", runDir.toString(), "-c", "SELECT pg_sleep(0.25)",
                "-c", "SELECT 1", "--repeat", "10", "--warmup", "0", "--seed", "11");
        assertEquals(0, r.exitCode(), r.all());
        List<Trial> all = RunDirectory.readTrials(trials);
        assertEquals(20, all.size(), "every cell × repeat exactly once");
        Set<String> keys = all.stream().map(t -> t.cell() + "#" + t.repeat()).collect(Collectors.toSet());
        assertEquals(20, keys.size());
        assertEquals(kept, all.subList(0, kept.size()), "trials from before the kill are untouched");
        String summary = Files.readString(runDir.resolve(RunDirectory.SUMMARY));
        assertTrue(summary.contains("q1") && summary.contains("q2"), summary);
    }

    @Test
    void interruptedRunKeepsNoTrialTheInterruptCut() throws Exception {
        String[] args = {"query", "-c", "SELECT pg_sleep(0.2)", "--repeat", "40", "--warmup", "0"};
        Process p = BenchJar.start(work, args);
        Path trials = BenchJar.waitForTrials(p, work, 3);
        Path instance = instanceOf(p.pid());
        p.destroy();   // SIGTERM, as Ctrl-C: the hooks stop the server while a trial is still running
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(143, p.exitValue(), Files.readString(work.resolve("stderr.txt")));
        // the run removed its server's files as it ended (its watchdog, had it been left, would in 3 s: allow 10)
        long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Files.exists(instance) && System.nanoTime() < gone) Thread.sleep(100);
        assertTrue(!Files.exists(instance), instance + " left behind");
        String said = Files.readString(work.resolve("stderr.txt"));
        // the run's own options with --resume, which the resume below runs: --resume DIR alone is refused
        // named as it was started: the jar's own path, not "bench.jar" where none is
        assertTrue(said.matches("(?s).*bench: interrupted; finished trials are kept in (\\S+) \\(java -jar "
                + java.util.regex.Pattern.quote(BenchJar.JAR.toString()) + " query -c "
                + "'SELECT pg_sleep\\(0.2\\)' --repeat 40 --warmup 0 --resume \\1 runs any trials that are left\\)\n.*"), said);
        List<Trial> kept = RunDirectory.readTrials(trials);
        assertTrue(kept.size() >= 3 && kept.size() < 40, "kept " + kept.size());
        // run.json says so: read alone, the directory looked like a run still going
        String interrupted = "interrupted (the JVM was asked to end: Ctrl-C, SIGTERM or SIGHUP) at ";
        List<String> notes = RunDirectory.info(trials.getParent()).notes();
        assertTrue(notes.stream().anyMatch(n -> n.startsWith(interrupted) && n.endsWith(" with " + kept.size() + " trials recorded")),
                notes.toString());
        // and report, which says it too
        BenchJar.Result report = BenchJar.run(work.resolve("report"), "report", trials.getParent().toString(), "-o",
                work.resolve("report/r.html").toString());
        assertTrue(report.all().contains("(java -jar " + BenchJar.JAR + " query -c "), report.all());
        // the trial the server's stop cut short is not a failure of the workload: it is not kept, and resume runs it
        assertEquals(List.of("ok"), kept.stream().map(Trial::status).distinct().toList(), kept.toString());
        BenchJar.Result r = BenchJar.run(work.resolve("resume"), "query", "--resume", trials.getParent().toString(), "-c", "SELECT pg_sleep(0.2)",
                "--repeat", "40", "--warmup", "0");
        assertEquals(0, r.exitCode(), r.all());
        List<Trial> all = RunDirectory.readTrials(trials);
        assertEquals(40, all.size(), all.toString());
        assertEquals(List.of("ok"), all.stream().map(Trial::status).distinct().toList());
    }

    @Test
    void interruptedPgbenchRunSaysNothingAfterTheInterruptLine() throws Exception {
        Process p = BenchJar.start(work, "pgbench", "run", "--init", "-s", "1", "-c", "2", "-T", "60", "-P", "1", "--warmup", "0");
        waitForStderr(p, "progress: 1.0 s");
        p.destroy();   // SIGTERM, as Ctrl-C: the hook stops the server under the clients
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        // the server's "WARNING:  terminating connection due to immediate shutdown command" to each client came after it
        String err = Files.readString(work.resolve("stderr.txt"));
        BenchJar.assertLastLineIsTheInterrupt(err);
        // --init's -s made the tables the builtin counts: pgbench's "ignored" warning would say the opposite
        assertFalse(err.contains("scale option ignored"), err);
    }

    @Test
    void interruptedPgbenchInitSaysNothingAfterTheInterruptLine() throws Exception {
        Process p = BenchJar.start(work, "pgbench", "init", "-s", "30");
        waitForStderr(p, "tuples (10%)");
        p.destroy();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        // stderr is a file here, not a terminal: its progress lines went on until the server's stop broke the COPY
        String err = Files.readString(work.resolve("stderr.txt"));
        BenchJar.assertLastLineIsTheInterrupt(err);
        // said before the load: without --keep-data the tables do not outlive the command
        int said = err.indexOf("pgbench init: the tables go with this managed server when the command ends; --keep-data DIR keeps "
                + "them for later runs, --url loads a server of yours");
        assertTrue(said >= 0 && said < err.indexOf("tuples (10%)"), err);
    }

    private void waitForStderr(Process p, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (Files.readString(work.resolve("stderr.txt")).contains(text)) return;
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + text + "' on stderr: " + Files.readString(work.resolve("stderr.txt")));
    }

    /** The managed server's instance directory the JVM with this pid owns (KENSHO_HOME/instances/pg…/owner.pid). */
    private static Path instanceOf(long pid) throws Exception {
        Path home = dev.kensho.core.server.KenshoHome.dir();
        try (var dirs = Files.list(home.resolve("instances"))) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                Path owner = d.resolve("owner.pid");
                if (Files.exists(owner) && Files.readString(owner).trim().equals(Long.toString(pid))
                        && Files.exists(d.resolve("data/postmaster.pid"))) {
                    return d;
                }
            }
        }
        throw new AssertionError("no running instance owned by " + pid + " under " + home);
    }
}
