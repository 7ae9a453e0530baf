package dev.kensho.scan.sweep;

import dev.kensho.scan.CacheState;
import dev.kensho.scan.Layout;
import dev.kensho.scan.Scan;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/** One measured point: a scan of one layout at one selectivity, from one cache state and shared_buffers. */
public record Cell(String sharedBuffers, CacheState cache, Layout layout, double percent, Scan scan) {

    /** The resume key: stable across runs with the same options. */
    public String key() {
        return "shared_buffers=" + sharedBuffers + ";cache=" + cache.label() + ";layout=" + layout.label()
                + ";selectivity=" + percentText(percent) + ";scan=" + scan.label();
    }

    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shared_buffers", sharedBuffers);
        m.put("cache", cache.label());
        m.put("layout", layout.label());
        m.put("selectivity_pct", percent);
        m.put("scan", scan.label());
        return m;
    }

    public static String percentText(double p) {
        return BigDecimal.valueOf(p).stripTrailingZeros().toPlainString();
    }
}
