package dev.kensho.report;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Results directories written through bench-core's RunDirectory, as the workloads write them. */
final class SampleRuns {
    private SampleRuns() {}

    static final int[] CLIENTS = {1, 4, 16};
    /** tps per version, clients, repeat: medians 1000/4000/8000 (16) and 1050/4200/7600 (17). */
    static final double[][][] TPS = {
        {{1000, 1010, 990}, {3900, 4000, 4100}, {8000, 7900, 8100}},
        {{1050, 1040, 1060}, {4200, 4150, 4250}, {7600, 7700, 7500}},
    };
    static final String[] VERSIONS = {"16", "17"};

    /** One run sweeping 2 versions × 3 client counts × 3 repeats, plus a skipped cell. */
    static RunResults pgbenchSweep(Path root) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("pgbench sweep",
                List.of("bench", "pgbench", "sweep", "--pg-version", "16,17", "--clients", "1,4,16,64", "--repeat", "3"),
                Map.of("script", "select-only", "repeat", 3)))) {
            for (int v = 0; v < 2; v++) {
                rd.environment("pg" + VERSIONS[v], env(VERSIONS[v] + ".10"));
                for (int c = 0; c < CLIENTS.length; c++) sweepCell(rd, VERSIONS[v], c, true);
            }
            rd.append(Trial.of("clients=64;version=17", 0).param("version", "17").param("clients", 64)
                    .param("script", "select-only").skipped("max_connections is 50, below 64 clients").build());
            rd.note("restarted pg17 for max_connections");
            return RunDirectory.read(rd.path());
        }
    }

    /** One run per version (no version parameter in the trials), for comparing two directories. */
    static RunResults pgbenchSingle(Path root, int v) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("pgbench sweep",
                List.of("bench", "pgbench", "sweep", "--pg-version", VERSIONS[v]), Map.of()))) {
            rd.environment("default", env(VERSIONS[v] + ".10"));
            for (int c = 0; c < CLIENTS.length; c++) sweepCell(rd, VERSIONS[v], c, false);
            return RunDirectory.read(rd.path());
        }
    }

    /**
     * bench pgbench run -c 4, 3 repeats, as RunReport records it (19 metrics, the failure counters all 0), on server
     * 17.10: tps base, base + 10, base − 10.
     */
    static RunResults pgbenchRun(Path root, double base) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("pgbench run", List.of("bench", "pgbench", "run", "-c", "4"), Map.of()))) {
            rd.environment("default", env("17.10"));
            for (int r = 0; r < 3; r++) {
                double tps = base + (r == 0 ? 0 : r == 1 ? 10 : -10);
                Trial.Builder t = Trial.of("clients=4", r).param("clients", 4).param("threads", 2).param("script", "tpcb-like")
                        .metric("tps", tps).metric("transactions", (long) (tps * 10));
                for (String zero : List.of("failed", "connection_failures", "serialization_failures", "deadlock_failures", "skipped",
                        "retries", "late")) {
                    t.metric(zero, 0L);
                }
                rd.append(t.metric("latency_avg_ms", 4000 / tps).metric("latency_stddev_ms", 0.5).metric("latency_p50_ms", 3500 / tps)
                        .metric("latency_p90_ms", 5000 / tps).metric("latency_p99_ms", 9000 / tps).metric("latency_max_ms", 20.0 + r)
                        .metric("initial_connection_ms", 3.0).metric("seconds", 10.0).metric("tps_cv_pct", 2.0 + r)
                        .metric("lag_avg_ms", 0.0).build());
            }
            return RunDirectory.read(rd.path());
        }
    }

    private static void sweepCell(RunDirectory rd, String version, int c, boolean withVersion) {
        int v = version.equals("16") ? 0 : 1;
        for (int r = 0; r < 3; r++) {
            double tps = TPS[v][c][r];
            Trial.Builder t = Trial.of("clients=" + CLIENTS[c] + (withVersion ? ";version=" + version : ""), r);
            if (withVersion) t.param("version", version);
            rd.append(t.param("clients", CLIENTS[c]).param("threads", Math.max(1, CLIENTS[c] / 2)).param("script", "select-only")
                    .metric("tps", tps).metric("latency_avg_ms", CLIENTS[c] * 1000.0 / tps).build());
        }
    }

    private static Map<String, Object> env(String serverVersion) {
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("server_version", serverVersion);
        server.put("non_default_settings", Map.of("shared_buffers", "16384 8kB (configuration file)"));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target_kind", "embedded");
        m.put("server", server);
        m.put("client", Map.of("host", "bench-host-1", "cpus", 2, "memory_bytes", 25_000_000_000L));
        return m;
    }

    /**
     * A scan sweep as bench-scan writes it: selectivity_pct 10..100 by 10, high and low clustering,
     * index and full scan, 2 repeats. full = 10 + 0.01·s ms; index = 0.2·s (high) or 1.0·s (low), so
     * the crossovers are at 50 + 10·0.5/1.9 = 52.63 % (high) and 10 + 10·0.1/9.9 = 10.10 % (low).
     */
    static RunResults scan(Path root) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("scan", List.of("bench", "scan", "--step", "10"), Map.of()))) {
            for (String layout : List.of("high", "low")) {
                for (String scan : List.of("index", "full")) {
                    for (int s = 10; s <= 100; s += 10) {
                        for (int r = 0; r < 2; r++) {
                            double t = scan.equals("full") ? 10 + 0.01 * s : (layout.equals("high") ? 0.2 : 1.0) * s;
                            rd.append(Trial.of("shared_buffers=128MB;cache=warm;layout=" + layout + ";selectivity=" + s + ";scan=" + scan, r)
                                    .param("shared_buffers", "128MB").param("cache", "warm").param("layout", layout)
                                    .param("selectivity_pct", (double) s).param("scan", scan)
                                    .metric("time_ms", t + 0.1 * r).metric("rows", s * 1000).build());
                        }
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    /**
     * A noisy small scan as bench scan records it, 1..10 %, one repeat, findings in run.json. full 0.06 ms, except one
     * 5.7 ms outlier at 5 %. high: index 0.02 ms, slower at 3, 6, 9 and 10 % (crosses 5 times, first between 2 and 3 %:
     * 2 + 0.04/0.06 = 2.67 %); low: index 0.01·s ms, crosses once at 6 %. High crosses before low: not as the study expects.
     */
    static RunResults scanNoisy(Path root) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("scan", List.of("bench", "scan", "--rows", "100", "--to", "10"),
                Map.of()))) {
            for (String layout : List.of("high", "low")) {
                for (String scan : List.of("full", "index")) {
                    for (int s = 1; s <= 10; s++) {
                        double t = scan.equals("full") ? (s == 5 ? 5.7 : 0.06)
                                : layout.equals("low") ? 0.01 * s : s == 3 ? 0.08 : s == 6 ? 0.09 : s >= 9 ? 0.1 : 0.02;
                        rd.append(Trial.of("shared_buffers=128MB;cache=warm;layout=" + layout + ";selectivity=" + s + ";scan=" + scan, 0)
                                .param("shared_buffers", "128MB").param("cache", "warm").param("layout", layout)
                                .param("selectivity_pct", (double) s).param("scan", scan).metric("time_ms", t).build());
                    }
                }
            }
            rd.parameter("crossovers", List.of(
                    Map.of("shared_buffers", "128MB", "cache", "warm", "layout", "high",
                            "crossover", "2.7 % (curves cross 5 times; fitted lines do not meet inside the sweep)"),
                    Map.of("shared_buffers", "128MB", "cache", "warm", "layout", "low", "crossover", "6.0 %")));
            rd.parameter("checks", List.of(
                    Map.of("verdict", "as expected", "expectation", "index scan faster at the lowest selectivity (high, warm, shared_buffers 128MB)",
                            "detail", "crossover 2.7 %"),
                    Map.of("verdict", "NOT as expected",
                            "expectation", "crossover at a larger selectivity for high clustering than for low (warm, shared_buffers 128MB)",
                            "detail", "high 2.7 %, low 6.0 %")));
            return RunDirectory.read(rd.path());
        }
    }

    /**
     * An SSB JIT matrix: 4 queries × jit off/on, 3 repeats; off 10/20/40/30 s, on 8/15/40/12 s. Q3.1's jit=on run
     * compiled nothing (below jit_above_cost): its difference is not JIT's.
     */
    static RunResults ssbJit(Path root) {
        double[][] times = {{10, 8}, {20, 15}, {40, 40}, {30, 12}};
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("ssb jit", List.of("bench", "ssb", "jit"), Map.of()))) {
            String[] queries = {"Q1.1", "Q2.1", "Q10.1", "Q3.1"};
            for (int q = 0; q < 4; q++) {
                for (int j = 0; j < 2; j++) {
                    for (int r = 0; r < 3; r++) {
                        rd.append(Trial.of("query=" + queries[q] + ";jit=" + (j == 0 ? "off" : "on"), r).param("query", queries[q])
                                .param("jit", j == 0 ? "off" : "on").metric("seconds", times[q][j] + (r - 1) * 0.5)
                                .metric("jit_functions", j == 0 || q == 3 ? 0 : 4).build());
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    /**
     * bench ssb over workers 0 and 2, 3 repeats, as ParallelSweep writes it: the load first (a trial of its own,
     * step=load, without workers or query), then Q1.1 (2 s, 1 s) and Q2.1 (4 s, 3 s) ± 0.1 per repeat.
     */
    static RunResults ssbWorkersWithLoad(Path root) {
        return ssbWorkers(root, "17", true);
    }

    /** The same on another version, with or without the load (a run that found the data loaded has none). */
    static RunResults ssbWorkers(Path root, String version, boolean load) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("ssb", List.of("bench", "ssb", "--workers", "0,2"), Map.of()))) {
            if (load) {
                rd.append(Trial.of("load;version=" + version, 0).param("step", "load").param("version", version).param("scale", 1.0)
                        .param("jobs", 2).metric("rows", 6_000_000L).metric("generate_cpu_seconds", 20.0).metric("copy_seconds", 30.0)
                        .metric("index_seconds", 5.0).metric("analyze_seconds", 2.0).metric("total_seconds", 40.0)
                        .metric("rows_per_second", 200_000.0).build());
            }
            double[][] seconds = {{2, 1}, {4, 3}};
            String[] queries = {"Q1.1", "Q2.1"};
            for (int w = 0; w < 2; w++) {
                for (int q = 0; q < 2; q++) {
                    for (int r = 0; r < 3; r++) {
                        int workers = w * 2;
                        rd.append(Trial.of("version=" + version + ";pool=default;workers=" + workers + ";query=" + queries[q], r)
                                .param("version", version).param("pool", "default").param("workers", workers).param("query", queries[q])
                                .metric("seconds", seconds[q][w] + (r - 1) * 0.1).metric("rows", 1000 * (q + 1))
                                .metric("workers_planned", workers).metric("workers_launched", workers).metric("explain_ms", 10.0).build());
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    /**
     * The parallel-query matrix (study 000 ch.7) on a small table: pools gather and gather*4 × workers 0, 2, 4 × Q2.1,
     * Q3.1, 2 repeats. gather: 0.08 and 0.06 s at 0 workers, 1.6 and 2 times as fast at 2 and 4, but the plans at 4
     * have one Gather with Workers Planned 2; gather*4 measured workers=2 only (0 and 4 skipped).
     */
    static RunResults ssbWorkers(Path root) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("ssb", List.of("bench", "ssb", "--workers", "0,2,4",
                "--worker-pool", "gather,gather*4"), Map.of()))) {
            for (String pool : List.of("gather", "gather*4")) {
                for (int w : new int[] {0, 2, 4}) {
                    for (String q : List.of("Q2.1", "Q3.1")) {
                        for (int r = 0; r < 2; r++) {
                            Trial.Builder t = Trial.of("version=17;pool=" + pool + ";workers=" + w + ";query=" + q, r)
                                    .param("version", "17").param("pool", pool).param("workers", w).param("query", q);
                            if (pool.equals("gather*4") && w != 2) {
                                rd.append(t.skipped("pattern gather*4 needs max_worker_processes=" + 4 * w + " but this server has 8").build());
                                continue;
                            }
                            // Q3.1 at 4 workers: no parallel plan at all (a small table's)
                            int planned = q.equals("Q3.1") && w == 4 ? 0 : Math.min(w, 2);
                            rd.append(t.metric("seconds", (q.equals("Q2.1") ? 0.08 : 0.06) / (w == 0 ? 1 : w == 2 ? 1.6 : 2))
                                    .metric("workers_planned", planned).metric("workers_launched", planned)
                                    .extra("gathers", w == 0 ? List.of() : List.of(Map.of("node", "Gather", "planned", planned, "launched", planned)))
                                    .build());
                        }
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    /** What ssb jit records on a jit=on trial that compiled nothing. */
    static final String NOT_TRIGGERED = "JIT not triggered (plan cost 15357, jit_above_cost 100000); lower --jit-above-cost";

    /**
     * ssb jit at the default jit_above_cost on a small scale, 2 repeats, as JitMatrix runs it (repeat-major, off/on
     * then on/off): verification 1 (multiply, subtract, sum, avg) never compiled, every jit=on trial carries the
     * warning; verification 2 (integer, numeric, real, double precision) compiled, off 10 s, on 9, 8, 7, 6 s.
     */
    static RunResults ssbJitPartlyTriggered(Path root) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("ssb jit", List.of("bench", "ssb", "jit", "-s", "0.1"), Map.of()))) {
            String[][] queries = {{"multiply", "subtract", "sum", "avg"}, {"integer", "numeric", "real", "double precision"}};
            for (int r = 0; r < 2; r++) {
                for (int v = 0; v < 2; v++) {
                    for (int q = 0; q < 4; q++) {
                        for (String jit : r == 0 ? List.of("off", "on") : List.of("on", "off")) {
                            Trial.Builder t = Trial.of("v" + (v + 1) + ";query=" + queries[v][q] + ";jit=" + jit, r)
                                    .param("verification", v + 1).param("query", queries[v][q]).param("jit", jit)
                                    .metric("seconds", jit.equals("off") ? 10 : v == 0 ? 10.5 : 9 - q)
                                    .metric("jit_functions", jit.equals("on") && v == 1 ? 5 : 0);
                            if (jit.equals("on") && v == 0) t.extra("warning", NOT_TRIGGERED);
                            rd.append(t.build());
                        }
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    /**
     * bench micro on two versions, 2 repeats: join-group-count and the encoding pair as single queries,
     * one-column and leading-columns at columns 0, 50, 99 (time = 1 + column/10 resp. 1 + column, +1 on 17).
     */
    static RunResults micro(Path root) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("micro", List.of("bench", "micro", "--pg-version", "16,17"), Map.of()))) {
            for (String target : List.of("embedded-16", "embedded-17")) {
                double plus = target.endsWith("17") ? 1 : 0;
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("target=" + target + ";benchmark=join-group-count", r).param("target", target)
                            .param("benchmark", "join-group-count").param("query", "join-group-count").metric("ms", 7 + plus).build());
                    for (String enc : List.of("none", "SJIS")) {
                        rd.append(Trial.of("target=" + target + ";benchmark=encoding;client_encoding=" + enc, r).param("target", target)
                                .param("benchmark", "encoding").param("client_encoding", enc).param("query", "encoding " + enc)
                                .metric("ms", (enc.equals("none") ? 70 : 98) + plus).build());
                    }
                    for (String b : List.of("one-column", "leading-columns")) {
                        for (int col : List.of(0, 50, 99)) {
                            rd.append(Trial.of("target=" + target + ";benchmark=" + b + ";column=" + col, r).param("target", target)
                                    .param("benchmark", b).param("column", col)
                                    .metric("ms", (b.equals("one-column") ? 1 + col / 10.0 : 1 + col) + plus).build());
                        }
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    /**
     * A pgbench sweep as Kensho records one: 2 versions × clients 1, 4 × 2 repeats, each trial with its
     * timeline and latency histogram. Repeat 0 of every cell: 900 transactions at 100 µs and 100 at 1 ms;
     * repeat 1: 1000 at 200 µs (merged: p50 0.2 ms, p99 1 ms), all twice as long on version 17; per second 100, 300, 200 tps, repeat 1 twice that;
     * wait events: 9 at 4 clients (CPU 20 and 30 %, so 25 on average), 2 at 1 client.
     */
    static RunResults pgbenchSweepWithTimelines(Path root) {
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("pgbench sweep",
                List.of("bench", "pgbench", "sweep", "--pg-version", "16,17", "--clients", "1,4", "--repeat", "2"), Map.of()))) {
            for (String v : VERSIONS) {
                for (int c : new int[] {1, 4}) {
                    for (int r = 0; r < 2; r++) {
                        org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(1, 3_600_000_000L, 3);
                        int slower = v.equals("17") ? 2 : 1;
                        if (r == 0) {
                            h.recordValueWithCount(100 * slower, 900);
                            h.recordValueWithCount(1000 * slower, 100);
                        } else {
                            h.recordValueWithCount(200 * slower, 1000);
                        }
                        int k = r + 1;
                        dev.kensho.core.result.Timeline tl = new dev.kensho.core.result.Timeline.Builder()
                                .interval(1).put("tps", 100 * k).put("latency_p99_ms", 0.5 * k).put("failed", 0)
                                .interval(2).put("tps", 300 * k).put("latency_p99_ms", 0.7 * k).put("failed", 0)
                                .interval(3).put("tps", 200 * k).put("latency_p99_ms", 0.6 * k).put("failed", r).build();
                        Map<String, Object> pct = new LinkedHashMap<>();
                        if (c == 1) {
                            pct.put("Client:ClientRead", 90);
                            pct.put("CPU", 10);
                        } else {
                            pct.put("Client:ClientRead", r == 0 ? 50 : 40);
                            pct.put("CPU", r == 0 ? 20 : 30);
                            pct.put("LWLock:WALWrite", 10);
                            pct.put("IO:WALSync", 6);
                            pct.put("Lock:transactionid", 5);
                            pct.put("Lock:tuple", 4);
                            pct.put("LWLock:BufferContent", 3.5);
                            pct.put("IO:DataFileRead", 2);
                            pct.put("Idle:idle", 1);
                        }
                        rd.append(Trial.of("clients=" + c + ";version=" + v, r).param("version", v).param("clients", c)
                                .extra("wait_events", v.equals("17") && c == 4 && r == 1
                                        ? Map.of("samples", 12, "percent", pct, "stopped", "the sampler's connection failed after 12 samples: FATAL: terminating connection")
                                        : Map.of("samples", 30, "percent", pct))
                                .param("threads", Math.max(1, c / 2)).metric("tps", 200.0 * k * c).metric("latency_avg_ms", 0.2)
                                // the exact max, a little under the histogram's bucket (1 ms) as a run's is
                                .metric("latency_max_ms", (r == 0 ? 0.9994 : 0.2) * slower)
                                .extra(dev.kensho.core.result.Timeline.KEY, tl.columns())
                                .extra(dev.kensho.core.result.LatencyDistribution.KEY, dev.kensho.core.result.LatencyDistribution.encode(h))
                                .build());
                    }
                }
            }
            return RunDirectory.read(rd.path());
        }
    }
}
