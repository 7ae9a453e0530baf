package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The run's seconds: every transaction once, whole seconds, and nobody waits for a writer that stalls. */
class RunSecondsTest {
    private static final long S = RunSeconds.SECOND_NANOS, MS = 1_000_000L;

    @Test
    void aStalledWriterHoldsTheTimelineButNotProgress() {
        long origin = 1_000 * S;
        List<RunSeconds.Second> progress = new ArrayList<>(), timeline = new ArrayList<>();
        RunSeconds rs = new RunSeconds(origin, false, progress::add, timeline::add);
        rs.ok(origin + 100 * MS, 2 * MS, -1, 0);
        RunSeconds.Second stalled = rs.enter(origin + 500 * MS);   // a client preempted in the middle of filing

        rs.read(origin + 1_030 * MS, false);
        assertTrue(progress.isEmpty(), "second 0 is sealed but a writer is inside: -P waits a little");
        assertTrue(timeline.isEmpty());
        // a transaction that ended in second 0 but is filed after the seal moves to second 1, it is not lost
        rs.ok(origin + 900 * MS, 3 * MS, -1, 0);

        rs.read(origin + 1_030 * MS + RunSeconds.PATIENCE_NANOS, false);
        assertEquals(1, progress.size(), "after its patience -P reads the second as it stands");
        assertEquals(0, progress.get(0).index);
        assertEquals(1, progress.get(0).latency.getTotalCount());
        assertTrue(timeline.isEmpty(), "the timeline still waits for the writer");

        stalled.latency.recordValue(4_000);
        rs.exit(stalled, origin + 500 * MS);
        assertTrue(timeline.isEmpty(), "handed over by the next reader");
        rs.read(origin + 1_140 * MS, false);
        assertEquals(1, timeline.size());
        assertEquals(2, timeline.get(0).latency.getTotalCount(), "the stalled writer's transaction is in its second");
        assertTrue(timeline.get(0).whole());

        rs.sealAll(origin + 1_400 * MS);
        assertEquals(2, timeline.size());
        RunSeconds.Second last = timeline.get(1);
        assertEquals(1, last.latency.getTotalCount());
        assertEquals(400 * MS, last.end - last.start, "the run's last second ends with the run");
        assertFalse(last.whole());
        assertEquals(2, rs.total().getTotalCount(), "the run's histogram has what the writers filed through ok()");
        assertEquals(2, progress.size(), "every second reaches -P once, in order");
        assertEquals(1, progress.get(1).index);
    }

    @Test
    void theClientThatFilesPastTheEndOfASecondReadsIt() {
        long origin = 5 * S;
        List<RunSeconds.Second> progress = new ArrayList<>();
        RunSeconds rs = new RunSeconds(origin, true, progress::add, s -> { });
        rs.ok(origin + 10 * MS, 1 * MS, 200_000, 0);
        rs.failed(origin + 20 * MS, 2);
        rs.ok(origin + 999 * MS, 3 * MS, 0, 1);
        rs.skipped(origin + 1_005 * MS);   // within the grace: nothing is read yet
        assertTrue(progress.isEmpty());
        rs.ok(origin + 1_000 * MS + RunSeconds.GRACE_NANOS, 1 * MS, 0, 0);
        assertEquals(1, progress.size(), "no ticker thread involved");
        RunSeconds.Second s = progress.get(0);
        assertEquals(2, s.latency.getTotalCount());
        assertEquals(4_000, s.latencySum.sum(), 1e-9);
        assertEquals(1_000_000 + 9_000_000, s.latencySum2.sum(), 1e-9);
        assertEquals(2, s.lag.getTotalCount());
        assertEquals(200 + 1, s.lagSum.sum(), 1e-9, "a lag of 0 is kept as 1 µs, the histograms' lowest");
        assertEquals(1, s.failed.sum());
        assertEquals(2, s.retried.sum());
        assertEquals(3, s.retries.sum());
        assertEquals(0, s.skipped.sum(), "the skip fell in second 1");
        // a second without transactions is still a second
        rs.sealAll(origin + 3_500 * MS);
        assertEquals(List.of(0L, 1L, 2L, 3L), progress.stream().map(x -> x.index).toList());
        assertEquals(1, progress.get(1).skipped.sum());
        assertEquals(0, progress.get(2).latency.getTotalCount());
        assertEquals(3, rs.total().getTotalCount());
        assertEquals(3, rs.totalLag().getTotalCount());
    }

    @Test
    void concurrentWritersAndReadersFileEveryTransactionExactlyOnce() throws Exception {
        long origin = System.nanoTime();
        List<RunSeconds.Second> progress = new ArrayList<>(), timeline = new ArrayList<>();
        RunSeconds rs = new RunSeconds(origin, false, progress::add, timeline::add);
        int writers = 6, each = 200_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                // spread over about 2.5 s so several seconds are sealed while others file
                for (int i = 0; i < each; i++) {
                    rs.ok(System.nanoTime(), 1_000 + i % 5_000, -1, 0);
                    if (i % 1_000 == 0) LockSupport.parkNanos(12 * MS);
                }
            });
            t.start();
            ts.add(t);
        }
        Thread ticker = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                rs.read(System.nanoTime(), true);
                LockSupport.parkNanos(3 * MS);
            }
        });
        ticker.start();
        go.countDown();
        for (Thread t : ts) t.join();
        ticker.interrupt();
        ticker.join();
        long end = System.nanoTime();
        rs.sealAll(end);

        assertTrue(timeline.size() >= 2, "several seconds: " + timeline.size());
        long filed = 0;
        for (int i = 0; i < timeline.size(); i++) {
            RunSeconds.Second s = timeline.get(i);
            assertEquals(i, s.index);
            assertEquals(origin + i * S, s.start);
            assertTrue(i == timeline.size() - 1 ? s.end == end : s.whole(), "whole seconds but the last");
            filed += s.latency.getTotalCount();
        }
        assertEquals((long) writers * each, filed, "every transaction in exactly one second");
        assertEquals((long) writers * each, rs.total().getTotalCount());
        assertEquals(timeline.stream().map(s -> s.index).toList(), progress.stream().map(s -> s.index).toList());
    }
}
