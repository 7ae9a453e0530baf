package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kensho.core.KenshoException;
import dev.kensho.pgbench.PgbenchRun;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** pgbench 15's checks of its options, in its words (checked against the C pgbench 15), all before any server is reached. */
class OptionChecksTest {

    private static void refused(String message, Supplier<?> what) {
        KenshoException e = assertThrows(KenshoException.class, what::get);
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertEquals(message, e.getMessage());
    }

    private static PgbenchRun run() {
        return new PgbenchRun().selectOnly();
    }

    @Test
    void givenValuesOutOfPgbenchsRangesAreUsageErrors() {
        refused("-t/--transactions must be in range 1..2147483647", () -> run().transactions(0).config());
        refused("-t/--transactions must be in range 1..2147483647", () -> run().transactions(-5).seconds(2).config());
        refused("-t/--transactions must be in range 1..2147483647", () -> run().transactions(2147483648L).config());
        refused("-T/--time must be in range 1..2147483647", () -> run().seconds(0).config());
        refused("-c/--client must be in range 1..2147483647", () -> run().clients(0).config());
        refused("-j/--jobs must be in range 1..2147483647", () -> run().threads(0).config());
        refused("-P/--progress must be in range 1..2147483647", () -> run().progress(0).config());
        refused("--aggregate-interval must be in range 1..2147483647", () -> run().log(true).aggregateInterval(0).config());
        refused("invalid rate limit: \"0\"", () -> run().rate(0).config());
        refused("invalid rate limit: \"-5\"", () -> run().rate(-5).config());
        refused("invalid latency limit: \"0\"", () -> run().latencyLimitMs(0).config());
        refused("invalid sampling rate: \"0\"", () -> run().log(true).samplingRate(0).config());
        refused("--progress-timestamp is allowed only under --progress", () -> run().progressTimestamp(true).config());
        refused("specify either a number of transactions (-t) or a duration (-T), not both", () -> run().transactions(5).seconds(2).config());
        refused("unrecognized random seed option \"foo\": expecting an unsigned integer, \"time\" or \"rand\"",
                () -> run().randomSeed("foo").config());
        refused("invalid variable definition: \"foo\"", () -> run().define("foo").config());
        // no name, no value (pgbench 15: invalid variable definition: "=5", "x=")
        refused("invalid variable definition: \"=5\"", () -> run().define("=5").config());
        refused("invalid variable definition: \"x=\"", () -> run().define("x=").config());
        // not given: pgbench's defaults (10 transactions per client)
        assertEquals(10, run().config().effectiveTransactions());
        assertEquals(7, run().transactions(7).config().effectiveTransactions());
    }

    /**
     * The edges pgbench 15 accepts (each run with the C pgbench: -l --sampling-rate=1; --max-tries=0 with -T 1 or
     * with -L 10; -T 4 --aggregate-interval=2) next to those it refuses (--max-tries=0 with -t only; -T 5 with
     * --aggregate-interval=2; sampling together with aggregation).
     */
    @Test
    void boundariesAsPgbench() {
        assertEquals(1.0, run().log(true).samplingRate(1).config().samplingRate());
        assertEquals(1.0, RunConfig.parseSamplingRate("1"));
        assertEquals(0, run().maxTries(0).seconds(1).config().maxTries());
        assertEquals(0, run().maxTries(0).latencyLimitMs(10).transactions(1).config().maxTries());
        refused("an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)",
                () -> run().maxTries(0).transactions(1).config());
        refused("invalid number of maximum tries: \"-1\"", () -> run().maxTries(-1).config());
        assertEquals(2, run().log(true).aggregateInterval(2).seconds(4).config().aggregateInterval());
        refused("duration (5) must be a multiple of aggregation interval (2)",
                () -> run().log(true).aggregateInterval(2).seconds(5).config());
        refused("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time",
                () -> run().log(true).aggregateInterval(1).samplingRate(0.5).config());
        // pgbench 15's words for each, in its order (checked against the C binary)
        refused("number of seconds for aggregation (3) must not be higher than test duration (2)",
                () -> run().log(true).aggregateInterval(3).seconds(2).config());
        refused("log sampling (--sampling-rate) is allowed only when logging transactions (-l)",
                () -> run().samplingRate(0.5).aggregateInterval(2).config());
        refused("log aggregation is allowed only when actually logging transactions", () -> run().aggregateInterval(2).logPrefix("x").config());
        refused("log file prefix (--log-prefix) is allowed only when logging transactions (-l)", () -> run().logPrefix("x").config());
        refused("-s/--scale must be in range 1..2147483647", () -> run().scale(0).config());
    }

    /** What was typed is echoed, as pgbench does: "0.0" stays "0.0", "abc" is no number. */
    @Test
    void typedNumbersAreEchoed() {
        refused("invalid rate limit: \"0.0\"", () -> RunConfig.parseRate("0.0"));
        refused("invalid rate limit: \"abc\"", () -> RunConfig.parseRate("abc"));
        refused("invalid latency limit: \"-5\"", () -> RunConfig.parseLatencyLimit("-5"));
        refused("invalid sampling rate: \"2\"", () -> RunConfig.parseSamplingRate("2"));
        assertEquals(2.5, RunConfig.parseLatencyLimit("2.5"));
        assertEquals("-5", RunConfig.typed(-5.0));
        assertEquals("0.25", RunConfig.typed(0.25));
    }

    /**
     * More connections than this process may open files for is refused before connecting, as pgbench does ("need at
     * least N open files"): the client past the limit failed with "Too many open files", exit 3 as if the server were at
     * fault. The JVM raises its soft limit to the hard one; a million connections are past any set limit.
     */
    @Test
    void moreConnectionsThanOpenFilesAreRefusedBeforeConnecting() throws Exception {
        String limits = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/limits"));
        String line = limits.lines().filter(l -> l.startsWith("Max open files")).findFirst().orElse("");
        org.junit.jupiter.api.Assumptions.assumeTrue(!line.isEmpty() && !line.substring(14).trim().startsWith("unlimited"),
                "no finite open-files limit here: " + line);
        String limit = line.substring(14).trim().split("\\s+")[0];
        KenshoException e = assertThrows(KenshoException.class, () -> ClientLimits.checkOpenFiles(1_000_000, 4, 2, "-c"));
        assertEquals(KenshoException.USAGE, e.exitCode());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("1000000 connections need about ")
                && e.getMessage().contains(" but this process may open " + limit + ": lower -c, or raise the limit (ulimit -n "), e.getMessage());
        ClientLimits.checkOpenFiles(8, 4, 2, "-c");   // a few: nothing to say
    }

    @Test
    void aThreadPerClientIsNamedBeyondAHundredClientsPerCore() {
        assertEquals("1024 clients on 2 cores with --engine pgjdbc, a thread per client: their scheduling is part of what is"
                + " measured; --engine wire runs them on -j threads, as pgbench",
                ClientLimits.threadPerClientLoad(1024, dev.kensho.pgbench.Engine.PGJDBC, 2, ""));
        assertEquals("up to 101 clients on 1 core", ClientLimits.threadPerClientLoad(101, dev.kensho.pgbench.Engine.PGJDBC, 1, "up to ")
                .substring(0, 27));
        org.junit.jupiter.api.Assertions.assertNull(ClientLimits.threadPerClientLoad(200, dev.kensho.pgbench.Engine.PGJDBC, 2, ""));
        org.junit.jupiter.api.Assertions.assertNull(ClientLimits.threadPerClientLoad(1024, dev.kensho.pgbench.Engine.WIRE, 2, ""),
                "the wire engine runs its clients on -j threads");
    }
}
