package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** SIGKILL half-way keeps every finished trial; --resume finishes the rest. */
class KillAndResumeIT {
    @TempDir Path work;

    @Test
    void killedRunKeepsTrialsAndResumeCompletesIt() throws Exception {
        String[] args = {"query", "-c", "SELECT pg_sleep(0.25)", "-c", "SELECT 1", "--repeat", "10", "--warmup", "0", "--seed", "11"};
        Process p = BenchJar.start(work, args);
        Path results = work.resolve("results");
        Path trials = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (trials == null && Files.isDirectory(results)) {
                try (var d = Files.list(results)) {
                    trials = d.findFirst().map(x -> x.resolve(RunDirectory.TRIALS)).orElse(null);
                }
            }
            if (trials != null && Files.exists(trials) && Files.readAllLines(trials).size() >= 6) break;
            if (!p.isAlive()) break;
            Thread.sleep(50);
        }
        assertTrue(trials != null && Files.exists(trials), "no trials appeared: " + Files.readString(work.resolve("stderr.txt")));
        p.destroyForcibly(); // SIGKILL: no shutdown hooks, no flush at exit
        p.waitFor(30, TimeUnit.SECONDS);
        List<Trial> kept = RunDirectory.readTrials(trials);
        assertTrue(kept.size() >= 6 && kept.size() < 20, "kept " + kept.size() + "; stderr: " + Files.readString(work.resolve("stderr.txt")));

        Path runDir = trials.getParent();
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
}
