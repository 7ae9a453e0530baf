package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kensho.core.KenshoException;
import dev.kensho.pgbench.micro.MicroBenchmarks.Benchmark;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MicroCommandTest {
    @Test
    void columnsAreListsOrRangesThatAlwaysReachTheirEnd() {
        assertEquals(List.of(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 99), MicroCommand.columns("0..99/10"));
        assertEquals(List.of(0, 49, 99), MicroCommand.columns("0, 49,99"));
        assertEquals(List.of(95, 96, 97, 98, 99, 0), MicroCommand.columns("95..99,0,99"));
        assertEquals(100, MicroCommand.columns("0..99").size());
        assertThrows(KenshoException.class, () -> MicroCommand.columns("9..0"));
        assertThrows(KenshoException.class, () -> MicroCommand.columns("0..99/0"));
        assertThrows(KenshoException.class, () -> MicroCommand.columns("a"));
    }

    @Test
    void defaultsAreTheStudy() {
        MicroCommand c = new MicroCommand();
        new CommandLine(c).parseArgs();
        var o = c.options();
        assertEquals(List.of(Benchmark.values()), o.benchmarks());
        assertEquals(10, o.scale());
        assertEquals(100_000, o.wideRows());
        assertEquals(100, o.columns().size());
        assertEquals(List.of("none", "SJIS"), o.clientEncodings());
        assertEquals("EUC_JP", o.databaseEncoding());
        assertEquals(Duration.ofSeconds(1), o.iterationTime());
        assertEquals(1, o.forks());
    }

    @Test
    void durationsAndBenchmarkNames() {
        assertEquals(Duration.ofMillis(250), MicroCommand.duration("250ms"));
        assertEquals(Duration.ofMinutes(2), MicroCommand.duration("2m"));
        assertThrows(KenshoException.class, () -> MicroCommand.duration("2h"));
        MicroCommand c = new MicroCommand();
        new CommandLine(c).parseArgs("--benchmarks", "encoding,encoding,one-column");
        assertEquals(List.of(Benchmark.ENCODING, Benchmark.ONE_COLUMN), c.options().benchmarks());
    }
}
