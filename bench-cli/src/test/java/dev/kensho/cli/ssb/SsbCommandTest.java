package dev.kensho.cli.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.cli.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench ssb as users type it: bad input is one line with exit 2; gen writes the five files. */
class SsbCommandTest {

    private static CommandRun bench(String... args) {
        return CommandRun.of(args);
    }

    @Test
    void unknownWorkerPoolIsAOneLineUsageError(@TempDir Path results) {
        CommandRun r = bench("ssb", "--worker-pool", "gather*3", "--results", results.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().strip().startsWith("bench: --worker-pool gather*3"), r.err());
        assertEquals(1, r.err().strip().lines().filter(l -> l.startsWith("bench:")).count(), r.err());
        assertTrue(r.err().lines().noneMatch(l -> l.startsWith("\tat ")), "no stack trace: " + r.err());
    }

    /** Checked before a server starts or data load: a typo must not cost a load of SF 100 first. */
    @Test
    void anUnknownQueryOrAFractionalScaleIsRefusedBeforeAnythingStarts(@TempDir Path results) {
        CommandRun q = bench("ssb", "--query", "q9.9", "--results", results.toString());
        assertEquals(2, q.exit(), q.err());
        assertTrue(q.err().contains("q9.9"), q.err());
        assertTrue(!q.err().contains("starting") && !q.err().contains("load"), "nothing started: " + q.err());
        // nothing listens on port 1: exit 2, not 3, shows the check came before connecting
        CommandRun jit = bench("ssb", "jit", "--query", "q9.9", "--url", "jdbc:postgresql://127.0.0.1:1/x", "--results", results.toString());
        assertEquals(2, jit.exit(), jit.err());
        CommandRun s = bench("ssb", "load", "-s", "1.5", "--results", results.toString());
        assertEquals(2, s.exit(), s.err());
        assertTrue(s.err().contains("must be a whole number"), s.err());
        // the load options name their components to a harness; to the command line user, the option typed
        assertTrue(s.err().contains("bench: -s 1.5: "), s.err());
    }

    /** The study's options name their components to a harness; to the command line user, the option typed (before connecting). */
    @Test
    void theOptionsChecksNameTheOptionTyped(@TempDir Path results) {
        String url = "jdbc:postgresql://127.0.0.1:1/x";
        String[][] cases = {
                {"bench: --workers 2 is given twice", "ssb", "--workers", "2,0,2"},
                {"bench: --repeat must be at least 1", "ssb", "--repeat", "0"},
                {"bench: --query selects queries of verification 3, which --verification 1 leaves out", "ssb", "jit", "--verification", "1",
                        "--query", "q1.1"},
                {"bench: --matrix jit_above_cost and --jit-above-cost: give its values in one of them", "ssb", "jit", "--jit-above-cost", "0",
                        "--matrix", "jit_above_cost=0,10"},
                {"bench: --columns must be 1..4", "ssb", "index-build", "--columns", "5"},
                {"bench: --maintenance-workers 1025: expected 0..1024", "ssb", "index-build", "--maintenance-workers", "0,1025"}};
        for (String[] c : cases) {
            String[] args = Stream.concat(Stream.of(c).skip(1), Stream.of("--url", url, "--results", results.toString())).toArray(String[]::new);
            CommandRun r = bench(args);
            assertEquals(2, r.exit(), r.err());
            assertEquals(c[0], r.err().strip(), r.err());
        }
    }

    /** --fresh is the embedded server's cache's: elsewhere it reloaded nothing, silently (refused before connecting). */
    @Test
    void theCacheOptionsAreRefusedWhereThereIsNoCache(@TempDir Path results) {
        String url = "jdbc:postgresql://127.0.0.1:1/x";
        String[][] cases = {
                {"bench: --fresh applies to the embedded server's SSB cache; not to a --url server: --reload replaces the SSB data "
                        + "Kensho loaded there", "ssb", "--fresh", "--url", url},
                {"bench: --fresh applies to the embedded server's SSB cache; not to a --url server: --reload replaces the SSB data "
                        + "Kensho loaded there", "ssb", "jit", "--fresh", "--no-cache", "--url", url},
                {"bench: --fresh applies to the embedded server's SSB cache; not to --keep-data's server: --reload replaces the SSB "
                        + "data Kensho loaded there", "ssb", "load", "--fresh", "--keep-data", results.resolve("kept").toString()},
                {"bench: --fresh applies to the embedded server's SSB cache; a --pg-bin server is loaded anew each run",
                        "ssb", "index-build", "--fresh", "--pg-bin", results.toString()}};
        for (String[] c : cases) {
            String[] args = Stream.concat(Stream.of(c).skip(1), Stream.of("--results", results.toString())).toArray(String[]::new);
            CommandRun r = bench(args);
            assertEquals(2, r.exit(), r.err());
            assertEquals(c[0], r.err().strip(), r.err());
        }
    }

    /**
     * A --set of what the command sets in every cell was overridden there, silently, while run.json listed it among the
     * run's settings (README's "give their proportion with --set" for maintenance_work_mem ran index-build at 1GB):
     * refused in one line before connecting (nothing listens on port 1: exit 2, not 3).
     */
    @Test
    void aSetOfWhatTheCommandVariesIsRefused(@TempDir Path results) {
        String url = "jdbc:postgresql://127.0.0.1:1/x";
        String[][] cases = {
                {"ssb", "--set", "max_parallel_workers_per_gather=4", "--workers", "2"},
                {"ssb", "--set", "max_worker_processes=20", "--worker-pool", "gather"},
                {"ssb", "jit", "--set", "jit=off"},
                {"ssb", "jit", "--set", "max_parallel_workers_per_gather=2"},
                {"ssb", "jit", "--set", "jit_above_cost=0", "--jit-above-cost", "10"},
                {"ssb", "jit", "--set", "work_mem=1GB", "--matrix", "work_mem=1GB,2GB"},
                {"ssb", "index-build", "--set", "maintenance_work_mem=20GB"},
                {"ssb", "index-build", "--set", "max_parallel_maintenance_workers=4"}};
        for (String[] c : cases) {
            String[] args = Stream.concat(Stream.of(c), Stream.of("--url", url, "--results", results.toString())).toArray(String[]::new);
            CommandRun r = bench(args);
            String name = c[java.util.Arrays.asList(c).indexOf("--set") + 1].split("=")[0];
            assertEquals(2, r.exit(), String.join(" ", c) + ": " + r.err());
            assertTrue(r.err().strip().startsWith("bench: --set " + name + ": ") && r.err().contains("sets it itself"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
        // what the command leaves alone stays the user's: a pool-less sweep only raises max_worker_processes when too low
        CommandRun kept = bench("ssb", "--set", "max_worker_processes=20", "--url", url, "--results", results.toString());
        assertEquals(3, kept.exit(), kept.err());
    }

    /**
     * picocli runs the subcommand alone: `bench ssb --url URL drop` ignored the URL, found the embedded server and said
     * "nothing to drop" (exit 0); `bench ssb -s 10 load` loaded SF 1. Refused in one line naming the option.
     */
    @Test
    void anOptionOfSsbBeforeASubcommandIsRefused() {
        CommandRun r = bench("ssb", "--url", "jdbc:postgresql://127.0.0.1:5432/postgres", "-U", "postgres", "drop");
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("bench: --url is an option of 'bench ssb' itself, which 'bench ssb drop' does not read"), r.err());
        assertTrue(r.out().isEmpty(), "nothing dropped or said: " + r.out());
    }

    @Test
    void genWritesTheFiveTables(@TempDir Path out) throws Exception {
        CommandRun r = bench("ssb", "gen", "-s", "0.01", "--out", out.toString(), "--threads", "2");
        assertEquals(0, r.exit(), r.err());
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(5, files.filter(p -> p.toString().endsWith(".tbl")).count());
        }
        try (Stream<String> lines = Files.lines(out.resolve("supplier.tbl"))) {
            assertEquals(20, lines.count());
        }
        assertTrue(r.out().contains("ssb gen -s 0.01"), r.out());
    }

    @Test
    void badScaleIsAUsageError(@TempDir Path out) {
        CommandRun r = bench("ssb", "gen", "-s", "0", "--out", out.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("bench: -s 0"), "the option as typed: " + r.err());
        CommandRun l = bench("ssb", "gen", "--scale", "0", "--out", out.toString());
        assertTrue(l.err().startsWith("bench: --scale 0"), l.err());
    }
}
