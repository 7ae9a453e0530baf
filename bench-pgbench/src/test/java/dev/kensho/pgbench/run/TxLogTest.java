package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The -l file's fields for given transactions, the expected lines worked out by hand from pgbench 15's doLog and
 * accumStats (src/bin/pgbench/pgbench.c): per transaction "%d %lld %.0f %d %lld %lld" [lag] [tries - 1]; per
 * interval the 15 fields, the first beginning at the whole second the run started in, an interval ending when
 * start + interval <= now, empty intervals printed, the last partial one not.
 */
class TxLogTest {
    @TempDir
    Path dir;

    private List<String> lines(Path f) throws Exception {
        return Files.readAllLines(f);
    }

    /**
     * A client's line is stamped once it holds the log: one that read the clock first and then waited for another
     * client's write would come out of time order (and in an aggregate be added to the interval after its own).
     */
    @Test
    void aLineIsStampedWhenItsWriterHoldsTheLog() throws Exception {
        Path f = dir.resolve("shared");
        AtomicLong clock = new AtomicLong(1_700_000_000_999_999L);
        try (TxLog log = new TxLog(f, false, false, false, false, false, 0, m -> { })) {
            Thread waiting;
            synchronized (log) {
                waiting = new Thread(() -> log.transactionNow(1, 1, 500, null, 0, clock::get, 0, 1, null));
                waiting.start();
                while (waiting.getState() != Thread.State.BLOCKED) Thread.onSpinWait();
                log.transaction(0, 1, 300, null, 0, 1_700_000_001_000_000L, 0, 1, null);
                clock.set(1_700_000_001_000_001L);
            }
            waiting.join();
        }
        // the waiting client's stamp is the time it wrote, not the time it began to wait
        assertEquals(List.of("0 1 300 0 1700000001 0", "1 1 500 0 1700000001 1"), lines(f));
    }

    @Test
    void perTransactionLines() throws Exception {
        Path plain = dir.resolve("plain");
        try (TxLog log = new TxLog(plain, false, false, false, false, false, 0, m -> { })) {
            log.transaction(3, 7, 1234, null, 1, 1_700_000_000_123_456L, 99, 1, null);
            log.transaction(0, 8, 0, "failed", 0, 1_700_000_001_000_007L, 99, 1, "serialization");
        }
        // no -R: no lag field; --max-tries 1: no retries field; the time split into s and µs
        assertEquals(List.of("3 7 1234 1 1700000000 123456", "0 8 failed 0 1700000001 7"), lines(plain));

        Path all = dir.resolve("all");
        try (TxLog log = new TxLog(all, true, true, true, true, false, 0, m -> { })) {
            log.transaction(3, 7, 1234, null, 1, 1_700_000_000_123_456L, 56, 3, null);
            log.transaction(2, 9, 0, "skipped", 0, 1_700_000_000_999_999L, 2500, 1, null);
            log.transaction(1, 4, 5100, "serialization", 0, 1_700_000_001_000_000L, 1934, 2, "serialization");
        }
        // -R adds the lag, --max-tries the retries (tries - 1); pgbench computes the lag of successful transactions
        // only and writes 0 for a skipped or failed one (Kensho wrote a failed transaction's real lag)
        assertEquals(List.of("3 7 1234 1 1700000000 123456 56 2", "2 9 skipped 0 1700000000 999999 0 0",
                "1 4 serialization 0 1700000001 0 0 1"), lines(all));
    }

    /**
     * The log's clock has pgbench's µs precision: a clock read in whole ms (every reading a multiple of 1000) would
     * stamp every line of a run the same fraction of a ms early.
     */
    @Test
    void theClockHasMicrosecondPrecision() throws Exception {
        boolean subMillisecond = false;
        for (int i = 0; i < 50 && !subMillisecond; i++) {
            long before = System.currentTimeMillis();
            long us = TxLog.nowEpochMicros();
            long after = System.currentTimeMillis();
            assertTrue(us >= before * 1000 && us < (after + 1) * 1000, before + " " + us + " " + after);
            subMillisecond = us % 1000 != 0;
            Thread.sleep(0, 137_000);
        }
        assertTrue(subMillisecond, "50 readings, all whole milliseconds");
    }

    @Test
    void aggregatedIntervals() throws Exception {
        Path f = dir.resolve("agg");
        long s = 1_000_000_000L; // the run starts at 1000 s
        try (TxLog log = new TxLog(f, true, true, true, true, false, 2, m -> { })) {
            log.begin(s);
            log.transaction(0, 1, 100, null, 0, s + 500_000, 10, 1, null);
            log.transaction(0, 2, 300, null, 0, s + 1_900_000, 30, 2, null);
            // exactly at 1002 s: the first interval has ended (start + interval <= now), this one is in the next
            log.transaction(0, 3, 0, "skipped", 0, s + 2_000_000, 7, 1, null);
            log.transaction(0, 4, 900, "failed", 0, s + 3_000_000, 5, 3, "serialization");
            log.transaction(0, 5, 50, null, 0, s + 8_100_000, 4, 1, null);
            log.finish(s + 9_000_000);
        }
        // [1000,1002): 2 tx, sum 100+300 = 400, sum2 10000+90000 = 100000, min 100, max 300;
        //   lag sum 40, sum2 100+900 = 1000, min 10, max 30; skipped 0; retried 1 (tries 2), retries 1; failures 0 0
        // [1002,1004): no successful tx (latency and lag fields 0), 1 skipped, the failure retried twice, 1 serialization
        // [1004,1006) and [1006,1008): empty, printed; [1008,1010) is still open at 1009 s: not printed
        assertEquals(List.of(
                "1000 2 400 100000 100 300 40 1000 10 30 0 1 1 0 0",
                "1002 0 0 0 0 0 0 0 0 0 1 1 2 1 0",
                "1004 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
                "1006 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), lines(f));
    }

    /**
     * pgbench 14+ starts the first interval at the whole second the run started in (its threadRun rounds the start
     * down), so a line's logged start is when its interval began: a run starting at 1000.4 s has [1000,1001) first.
     */
    @Test
    void intervalsBeginAtTheWholeSecondTheRunStartedIn() throws Exception {
        Path f = dir.resolve("aligned");
        try (TxLog log = new TxLog(f, false, false, false, false, false, 1, m -> { })) {
            log.begin(1_000_400_000L);
            log.transaction(0, 1, 100, null, 0, 1_000_900_000L, 0, 1, null);
            log.transaction(0, 2, 200, null, 0, 1_001_200_000L, 0, 1, null);
            log.transaction(0, 3, 400, null, 0, 1_002_300_000L, 0, 1, null);
            log.finish(1_002_500_000L);
        }
        // [1002,1003) is open at 1002.5 s: not printed
        assertEquals(List.of(
                "1000 1 100 10000 100 100 0 0 0 0 0 0 0 0 0",
                "1001 1 200 40000 200 200 0 0 0 0 0 0 0 0 0"), lines(f));
    }

    /**
     * Sums past 2^53 as C's %.0f writes them, the double's exact value: latencies and lags of 20 and 39 minutes (an
     * overloaded -R run's lag grows that long) square to ~10^18, where Java's %.0f pads its shortest digits with zeros.
     */
    @Test
    void largeSumsAsCPrintsThem() throws Exception {
        Path f = dir.resolve("large");
        long s = 1_000_000_000L;
        try (TxLog log = new TxLog(f, true, false, false, false, false, 1, m -> { })) {
            log.begin(s);
            log.transaction(0, 1, 1_234_567_891L, null, 0, s + 100_000, 1_234_567_891L, 1, null);
            log.transaction(0, 2, 2_345_678_901L, null, 0, s + 200_000, 2_345_678_901L, 1, null);
            log.finish(s + 1_000_000);
        }
        // printf("%.0f", 1234567891.0 * 1234567891.0 + 2345678901.0 * 2345678901.0) in C: 7026367384084756480
        assertEquals(List.of("1000 2 3580246792 7026367384084756480 1234567891 2345678901 3580246792 7026367384084756480 "
                + "1234567891 2345678901 0 0 0 0 0"), lines(f));
    }

    @Test
    void aggregatedFieldsOfOptionsNotInUseAreZero() throws Exception {
        Path f = dir.resolve("agg0");
        long s = 1_000_000_000L;
        try (TxLog log = new TxLog(f, false, false, false, false, false, 1, m -> { })) {
            log.begin(s);
            log.transaction(1, 1, 200, null, 0, s + 100_000, 9, 1, null);
            log.transaction(1, 2, 0, "skipped", 0, s + 200_000, 9, 1, null);
            log.transaction(1, 3, 700, "failed", 0, s + 300_000, 9, 4, "deadlock");
            log.finish(s + 1_000_000);
        }
        // without -R, -L, --max-tries, --failures-detailed pgbench prints 0 for lag, skipped, retries and failures
        assertEquals(List.of("1000 1 200 40000 200 200 0 0 0 0 0 0 0 0 0"), lines(f));
    }

    /** --continue-on-error: pgbench 19's 16th field counts the other failures (with --failures-detailed, else 0). */
    @Test
    void continueOnErrorAddsTheOtherFailuresField() throws Exception {
        long s = 1_000_000_000L;
        for (boolean detailed : new boolean[] {true, false}) {
            Path f = dir.resolve("agg-other-" + detailed);
            try (TxLog log = new TxLog(f, false, false, false, detailed, true, 1, m -> { })) {
                log.begin(s);
                log.transaction(2, 1, 200, null, 0, s + 100_000, 0, 1, null);
                log.transaction(2, 2, 300, detailed ? "other" : "failed", 0, s + 200_000, 0, 1, "other");
                log.transaction(2, 3, 400, detailed ? "other" : "failed", 0, s + 300_000, 0, 1, "other");
                log.transaction(2, 4, 500, detailed ? "deadlock" : "failed", 0, s + 400_000, 0, 1, "deadlock");
                log.finish(s + 1_000_000);
            }
            assertEquals(List.of(detailed ? "1000 1 200 40000 200 200 0 0 0 0 0 0 0 0 1 2" : "1000 1 200 40000 200 200 0 0 0 0 0 0 0 0 0 0"),
                    lines(f), "detailed " + detailed);
        }
        Path single = dir.resolve("single-other");
        try (TxLog log = new TxLog(single, false, false, false, true, true, 0, m -> { })) {
            log.transaction(2, 7, 300, "other", 1, s + 200_000, 0, 1, "other");
        }
        assertEquals(List.of("2 7 other 1 1000 200000"), lines(single));
    }

    @Test
    void threadFilesAreNamedAsPgbenchNamesThem() {
        assertEquals(Path.of("d/pgbench_log.42"), TxLog.path(Path.of("d"), "pgbench_log", 42, 0));
        assertEquals(Path.of("d/p.42.3"), TxLog.path(Path.of("d"), "p", 42, 3));
    }
}
