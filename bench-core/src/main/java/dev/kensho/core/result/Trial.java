package dev.kensho.core.result;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One finished measurement: a line of trials.jsonl.
 *
 * @param cell     the matrix cell this measures ("clients=16;version=17"); with repeat, the resume key
 * @param repeat   0-based repeat index within the cell
 * @param params   what was varied (clients, workers, jit…), for grouping and reports
 * @param metrics  numbers measured (tps, latency_avg_ms, seconds…); medians are taken over these
 * @param extra    anything else worth keeping (plans, wait events, settings outcome)
 * @param status   "ok", "skipped" (with reason in extra) or "failed"
 * @param started  when the trial's work began (UTC), its preparation included (a checkpoint, a prewarm, a rebuild):
 *                 with finished, the span to cut a server log or a monitoring graph to; null for a trial that never
 *                 ran (skipped before it began) and in lines written before Kensho recorded it
 * @param finished when the measurement ended (UTC)
 */
public record Trial(String cell, int repeat, Map<String, Object> params, Map<String, Object> metrics,
                    Map<String, Object> extra, String status, Instant started, Instant finished) {

    /** A line without params, metrics or extra (hand-made, or cut down with jq) reads as having none of them. */
    public Trial {
        if (params == null) params = new LinkedHashMap<>();
        if (metrics == null) metrics = new LinkedHashMap<>();
        if (extra == null) extra = new LinkedHashMap<>();
    }

    /** A trial of cell (its parameters joined, "clients=16;version=17") and repeat (0-based), built fluently. */
    public static Builder of(String cell, int repeat) {
        return new Builder(cell, repeat);
    }

    /** This trial, begun at the given instant (a runner that knows when its body began, for a body that did not say). */
    public Trial startedAt(Instant when) {
        return new Trial(cell, repeat, params, metrics, extra, status, when, finished);
    }

    /** This trial with one more extra fact. */
    public Trial withExtra(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extra);
        more.put(key, value);
        return new Trial(cell, repeat, params, metrics, more, status, started, finished);
    }

    /** Measured: not "failed" or "skipped". */
    public boolean ok() {
        return "ok".equals(status);
    }

    /**
     * The trials that stand, in their order: a failed repeat that --resume ran again (a later trial of the same cell
     * and repeat) is history, kept in trials.jsonl but no longer a failed repeat of its cell.
     */
    public static java.util.List<Trial> standing(java.util.List<Trial> trials) {
        java.util.Set<String> later = new java.util.HashSet<>();
        java.util.List<Trial> out = new java.util.ArrayList<>(trials.size());
        for (int i = trials.size() - 1; i >= 0; i--) {
            Trial t = trials.get(i);
            boolean rerun = !later.add(t.cell() + "#" + t.repeat());
            if (!(rerun && !t.ok())) out.add(t);
        }
        java.util.Collections.reverse(out);
        return out;
    }

    /** A metric as a number (tps, latency_avg_ms, ...), null when the trial has none of that name. */
    public Double metric(String name) {
        Object v = metrics.get(name);
        return v instanceof Number n ? n.doubleValue() : null;
    }

    /**
     * extra: seconds the wall clock stepped (an NTP step, a resumed VM; negative: back) since the trial before this one
     * was appended to its run directory, or since the run began or resumed: started and finished, wall-clock times, are
     * that far off each other or the trials before. Durations are timed on the monotonic clock and are not affected.
     */
    public static final String WALL_CLOCK_STEP = "wall_clock_step_s";

    /** Fluent construction that keeps insertion order of params and metrics. */
    public static final class Builder {
        private final String cell;
        private final int repeat;
        private final Map<String, Object> params = new LinkedHashMap<>();
        private final Map<String, Object> metrics = new LinkedHashMap<>();
        private final Map<String, Object> extra = new LinkedHashMap<>();
        private String status = "ok";
        private Instant started;

        private Builder(String cell, int repeat) {
            this.cell = cell;
            this.repeat = repeat;
        }

        public Builder param(String k, Object v) { params.put(k, v); return this; }
        public Builder params(Map<String, ?> m) { params.putAll(m); return this; }
        public Builder metric(String k, double v) { metrics.put(k, v); return this; }
        public Builder metric(String k, long v) { metrics.put(k, v); return this; }
        public Builder metrics(Map<String, ? extends Number> m) { metrics.putAll(m); return this; }
        public Builder extra(String k, Object v) { extra.put(k, v); return this; }
        public Builder skipped(String reason) { status = "skipped"; extra.put("reason", reason); return this; }
        public Builder failed(String reason) { status = "failed"; extra.put("reason", reason); return this; }
        /** When the trial's work began, its preparation included. */
        public Builder started(Instant when) { started = when; return this; }

        public Trial build() {
            return new Trial(cell, repeat, params, metrics, extra, status, started, Instant.now());
        }
    }
}
