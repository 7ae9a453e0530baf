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
        assertTrue(r.err().contains("--scale"), r.err());
    }
}
