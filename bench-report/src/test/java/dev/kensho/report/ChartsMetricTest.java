package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.result.Trial;
import dev.kensho.report.chart.Cells;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which metric a chart or a comparison takes when the usual name is absent: the first whose name says what it is. */
class ChartsMetricTest {
    static Cells cells(String... metrics) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < metrics.length; i++) m.put(metrics[i], (double) i + 1);
        return new Cells(List.of(new Trial("c", 0, Map.of("clients", 1), m, Map.of(), "ok", null, null)));
    }

    @Test
    void durationByItsName() {
        assertEquals(Optional.of("plan_ms"), Charts.timeMetric(cells("rows", "plan_ms")));
        assertEquals(Optional.of("total_s"), Charts.timeMetric(cells("rows", "total_s")));
        assertEquals(Optional.of("exec_seconds_p50"), Charts.timeMetric(cells("rows", "exec_seconds_p50")));
        assertEquals(Optional.of("wall_time"), Charts.timeMetric(cells("rows", "wall_time")));
        assertEquals(Optional.empty(), Charts.timeMetric(cells("rows", "workers")));
    }

    @Test
    void latencyAndNamedMetric() {
        assertEquals(Optional.of("latency_p99_ms"), Charts.latencyMetric(cells("tps", "latency_p99_ms")));
        assertEquals(Optional.empty(), Charts.latencyMetric(cells("tps", "rows")));
        assertEquals(Optional.of("tps_excluding_connections"), Charts.metric(cells("rows", "tps_excluding_connections"), "tps"));
        assertEquals(Optional.empty(), Charts.metric(cells("rows"), "tps"));
    }
}
