package dev.kensho.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StyleTest {
    @Test
    void axesReadAsWordsWithUnits() {
        assertEquals("latency avg (ms)", Style.axis("latency_avg_ms"));
        assertEquals("selectivity (%)", Style.axis("selectivity_pct"));
        assertEquals("TPS", Style.axis("tps"));
        assertEquals("clients", Style.axis("clients"));
        assertEquals("time (ms)", Style.axis("ms"));
        assertEquals("time (s)", Style.axis("s"));
        assertEquals("share (%)", Style.axis("pct"));
        assertEquals("MB", Style.axis("mb"));
        assertEquals("reduction % (positive = faster with JIT)", Style.axis("reduction % (positive = faster with JIT)"));
    }
}
