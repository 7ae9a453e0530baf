package dev.kensho.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** pgbench's "latency stddev" and "max" come from these sums: exact values, not a histogram's. */
class LatencyMomentsTest {

    @Test
    void meanPopulationDeviationAndMaximum() {
        LatencyMoments m = new LatencyMoments();
        assertEquals(0, m.count());
        assertEquals(0, m.meanMicros());
        assertEquals(0, m.stddevMicros());
        assertEquals(0, m.maxMicros());
        for (long v : new long[] {1000, 2000, 3000, 4000}) {
            m.record(v);
        }
        assertEquals(4, m.count());
        assertEquals(2500, m.meanMicros(), 1e-9);
        // sqrt(sum2 / n - mean²), the population deviation pgbench prints (R's sd() would give 1290.99)
        assertEquals(Math.sqrt(1_250_000), m.stddevMicros(), 1e-6);
        assertEquals(4000, m.maxMicros());
        m.record(7);
        assertEquals(4000, m.maxMicros());
        m.reset();
        assertEquals(0, m.count());
        assertEquals(0, m.meanMicros());
        assertEquals(0, m.stddevMicros());
        assertEquals(0, m.maxMicros());
        // nothing of the sums before the reset is left in the next interval's figures
        m.record(10);
        m.record(30);
        assertEquals(20, m.meanMicros(), 1e-9);
        assertEquals(10, m.stddevMicros(), 1e-9);
        assertEquals(30, m.maxMicros());
    }

    @Test
    void constantLatenciesHaveNoDeviation() {
        LatencyMoments m = new LatencyMoments();
        for (int i = 0; i < 1000; i++) {
            m.record(123_457);
        }
        assertEquals(0, m.stddevMicros(), 1e-9);
        assertEquals(123_457, m.meanMicros(), 1e-9);
    }
}
