package dev.kensho.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    /** Writers on many threads and a reader taking intervals meanwhile: nothing lost or counted twice. */
    @Test
    void intervalsPartitionWhatManyThreadsRecord() throws Exception {
        LatencyRecorder r = new LatencyRecorder();
        int threads = 6;
        int each = 100_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                // thread t records t+1 ms once in every 1000 values, 100 µs otherwise
                for (int i = 0; i < each; i++) r.recordNanos(i % 1000 == 0 ? (id + 1) * 1_000_000L : 100_000L);
            });
            w.start();
            writers.add(w);
        }
        AtomicBoolean done = new AtomicBoolean();
        long[] seen = new long[1];
        Thread reader = new Thread(() -> {
            while (!done.get()) seen[0] += r.interval().getTotalCount();
        });
        reader.start();
        go.countDown();
        for (Thread w : writers) w.join();
        done.set(true);
        reader.join();
        Histogram last = r.interval();
        assertEquals((long) threads * each, seen[0] + last.getTotalCount(), "the intervals add up to every value recorded");
        Histogram total = r.total();
        assertEquals((long) threads * each, total.getTotalCount());
        assertEquals(threads * each / 1000, total.getTotalCount() - total.getCountAtValue(100));
        assertEquals(threads * 1000, total.getMaxValue(), threads);   // µs, within the histogram's 3 digits
        assertEquals(100, total.getValueAtPercentile(50));
    }

    @Test
    void clampsToAnHourAndForgetsOnReset() {
        LatencyRecorder r = new LatencyRecorder();
        r.recordNanos(2L * 3_600_000_000_000L);   // two hours
        r.recordNanos(0);                          // below the lowest: 1 µs
        Histogram h = r.total();
        assertEquals(2, h.getTotalCount());
        assertEquals(1, h.getMinValue());
        assertEquals(LatencyRecorder.HIGHEST_US, h.getMaxValue(), LatencyRecorder.HIGHEST_US / 1000);
        r.reset();
        assertEquals(0, r.total().getTotalCount());
        r.recordNanos(5_000);
        assertEquals(1, r.interval().getTotalCount());
        assertEquals(1, r.total().getTotalCount(), "an interval already taken stays in the total");
    }

    /** A warm-up recorded and never read as an interval is gone after reset, not counted in the measurement. */
    @Test
    void resetForgetsValuesNotYetTakenAsAnInterval() {
        LatencyRecorder r = new LatencyRecorder();
        r.recordNanos(50_000_000);
        r.reset();
        r.recordNanos(1_000_000);
        Histogram h = r.total();
        assertEquals(1, h.getTotalCount());
        assertEquals(1000, h.getMaxValue());
    }

    /** Parts merge into counts that add up: 3 values of 100 µs and 1 of 2000 µs → 4, p50 100, max 2000. */
    @Test
    void mergeAddsParts() {
        Histogram a = LatencyRecorder.empty(), b = LatencyRecorder.concurrent();
        a.recordValueWithCount(100, 3);
        b.recordValue(2000);
        Histogram m = LatencyRecorder.merge(List.of(a, b));
        assertEquals(4, m.getTotalCount());
        assertEquals(100, m.getValueAtPercentile(50));
        assertEquals(2000, m.getMaxValue());
    }
}
