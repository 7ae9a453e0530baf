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
