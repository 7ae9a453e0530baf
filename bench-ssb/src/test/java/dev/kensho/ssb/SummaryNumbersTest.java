package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.kensho.core.result.Trial;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The numbers the JIT and parallel studies' summaries derive from the cells' medians, for repeats with known times
 * (the live tests only see that a number is there): the reduction rate 100 × (off − on) / off and the speed-up
 * t_first / t_this.
 */
class SummaryNumbersTest {
    private static Trial jit(String query, String jit, int repeat, double seconds, double functions) {
        return Trial.of("v=1;q=" + query + ";jit=" + jit, repeat)
                .params(Map.of("verification", 1, "query", query, "jit", jit))
                .metric("seconds", seconds).metric("jit_functions", functions).build();
    }

    @Test
    void reductionRateIsOfTheMedianWithJitOff() {
        List<Trial> t = new ArrayList<>();
        // off: 3.0, 2.0, 9.0 -> median 3.0; on: 2.4, 1.8, 2.0 -> median 2.0; 100 * (3 - 2) / 3 = 33.33…
        double[] off = {3.0, 2.0, 9.0};
        double[] on = {2.4, 1.8, 2.0};
        for (int i = 0; i < 3; i++) {
            t.add(jit("q1.1", "off", i, off[i], 0));
            t.add(jit("q1.1", "on", i, on[i], 12));
        }
        // on slower than off: 100 * (2 - 2.5) / 2 = -25
        t.add(jit("q2.1", "off", 0, 2.0, 0));
        t.add(jit("q2.1", "on", 0, 2.5, 7));
        // jit=on compiled nothing: no rate, the reason instead
        t.add(jit("q4.3", "off", 0, 1.0, 0));
        t.add(jit("q4.3", "on", 0, 0.5, 0));
        List<List<Object>> rows = JitMatrix.summary(t);
        Map<String, List<Object>> on2 = new java.util.HashMap<>();
        for (List<Object> r : rows) on2.put(r.get(1) + "|" + r.get(2), r);
        int reduction = JitMatrix.HEADER.indexOf("reduction_pct");
        int reason = JitMatrix.HEADER.indexOf("reason");
        assertEquals(100.0 / 3, (Double) on2.get("q1.1|on").get(reduction), 1e-9);
        assertNull(on2.get("q1.1|off").get(reduction));
        assertEquals(-25.0, (Double) on2.get("q2.1|on").get(reduction), 1e-9);
        assertNull(on2.get("q4.3|on").get(reduction));
        assertEquals(JitMatrix.NOT_TRIGGERED, on2.get("q4.3|on").get(reason));
    }

    private static Trial par(String version, int workers, String query, int repeat, double seconds) {
        return Trial.of("version=" + version + ";pool=enough;workers=" + workers + ";query=" + query, repeat)
                .params(Map.of("version", version, "pool", "enough", "workers", workers, "query", query))
                .metric("seconds", seconds).build();
    }

    @Test
    void speedUpIsTheFirstVersionsMedianOverThisOne() {
        List<Trial> t = new ArrayList<>();
        // 9.6, 2 workers: medians 4.0 (4.0, 8.0, 3.0); 15: 1.6 (1.6, 1.5, 9.0) -> 4.0 / 1.6 = 2.5
        t.add(par("9.6", 2, "q1.1", 0, 4.0));
        t.add(par("9.6", 2, "q1.1", 1, 8.0));
        t.add(par("9.6", 2, "q1.1", 2, 3.0));
        t.add(par("15", 2, "q1.1", 0, 1.6));
        t.add(par("15", 2, "q1.1", 1, 1.5));
        t.add(par("15", 2, "q1.1", 2, 9.0));
        // another worker count has its own base: 3.0 / 6.0 = 0.5 (slower in 15)
        t.add(par("9.6", 0, "q1.1", 0, 3.0));
        t.add(par("15", 0, "q1.1", 0, 6.0));
        // a cell the first version lacks gets none
        t.add(par("15", 4, "q1.1", 0, 1.0));
        List<List<Object>> rows = ParallelSweep.summary(t, List.of("9.6", "15"));
        Map<String, List<Object>> by = new java.util.HashMap<>();
        for (List<Object> r : rows) by.put(r.get(0) + "|" + r.get(2), r);
        int speedup = ParallelSweep.HEADER.indexOf("speedup_vs_first");
        assertEquals(2.5, (Double) by.get("15|2").get(speedup), 1e-9);
        assertEquals(1.0, (Double) by.get("9.6|2").get(speedup), 1e-9);
        assertEquals(0.5, (Double) by.get("15|0").get(speedup), 1e-9);
        assertNull(by.get("15|4").get(speedup));
    }
}
