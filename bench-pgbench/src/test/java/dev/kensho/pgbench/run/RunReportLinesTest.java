package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.measure.LatencySummary;
import dev.kensho.core.result.Timeline;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.RunReport;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The report of a rate-limited run with a latency limit, whose counts a live run cannot repeat: the counts and
 * times the C pgbench 15 printed for one (two scripts, -R 20000 -L 0.05 -T 2, most transactions skipped) given to
 * the report, and the lines it printed expected back.
 */
class RunReportLinesTest {
    /** pgbench -n -R 20000 -L 0.05 -T 2 -f a.sql@1 -f b.sql@3 (SELECT 1; / SELECT 2;), PostgreSQL 15.20. */
    static final List<String> PGBENCH = List.of(
            "transaction type: multiple scripts",
            "scaling factor: 1",
            "query mode: simple",
            "number of clients: 1",
            "number of threads: 1",
            "maximum number of tries: 1",
            "duration: 2 s",
            "number of transactions actually processed: 18355",
            "number of failed transactions: 0 (0.000%)",
            "number of transactions skipped: 21786 (54.274%)",
            "number of transactions above the 0.1 ms latency limit: 13001/18355 (70.831%)",
            "latency average = 0.098 ms",
            "latency stddev = 0.379 ms",
            "rate limit schedule lag: avg 0.052 (max 7.755) ms",
            "initial connection time = 3.498 ms",
            "tps = 9193.142131 (without initial connection time)",
            "SQL script 1: a.sql",
            " - weight: 1 (targets 25.0% of total)",
            " - 4591 transactions (25.0% of total, tps = T)",
            " - number of failed transactions: 0 (0.000%)",
            " - number of transactions skipped: 4981 (52.037%)",
            " - latency average = 0.094 ms",
            " - latency stddev = 0.353 ms",
            "SQL script 2: b.sql",
            " - weight: 3 (targets 75.0% of total)",
            " - 13764 transactions (75.0% of total, tps = T)",
            " - number of failed transactions: 0 (0.000%)",
            " - number of transactions skipped: 16805 (54.974%)",
            " - latency average = 0.099 ms",
            " - latency stddev = 0.388 ms");

    private static LatencySummary lat(long n, double avg, double stddev, double max) {
        return new LatencySummary(n, avg, stddev, avg, avg, max, max, max);
    }

    @Test
    void rateLimitedRunWithSkippedTransactionsAsPgbench() {
        List<RunReport.ScriptReport> scripts = List.of(
                new RunReport.ScriptReport("a.sql", 1, 4, 4591, 0, 4981, 0, 0, 0, 0, 0, lat(4591, 0.094, 0.353, 5), List.of()),
                new RunReport.ScriptReport("b.sql", 3, 4, 13764, 0, 16805, 0, 0, 0, 0, 0, lat(13764, 0.099, 0.388, 5), List.of()));
        double bench = 18355 / 9193.142131;
        RunReport r = new RunReport("multiple scripts", 1, null, 0, "simple", 1, 1, 1, 2, 0, 18355, 0, 0, 0, 0, false, 0,
                21786, 0, 0, 13001, 0.05, 20000, lat(18355, 0.098, 0.379, 5), lat(18355, 0.052, 0.01, 7.755), false,
                3.498, bench, 9193.142131, false, scripts, false, false, 0, 0, 0, Engine.PGJDBC, new Timeline(Map.of()),
                new Histogram(3), 5, Double.NaN, null, null, Double.NaN, -1);
        List<String> ours = r.lines().stream()
                .filter(l -> !l.startsWith("(") && !l.startsWith("latency percentiles"))
                .map(l -> l.startsWith(" - ") ? l.replaceAll("tps = \\d+\\.\\d+", "tps = T") : l)
                .toList();
        assertEquals(PGBENCH, ours);
    }

    /**
     * Kensho's own lines (percentiles, the parenthesised notes, the driver's CPU) come after all of pgbench's, its
     * per-script lines included: they stood between pgbench's tps line and its "SQL script 1:" block.
     */
    @Test
    void kenshosLinesFollowAllOfPgbenchs() {
        List<RunReport.ScriptReport> scripts = List.of(
                new RunReport.ScriptReport("a.sql", 1, 4, 4591, 0, 4981, 0, 0, 0, 0, 0, lat(4591, 0.094, 0.353, 5), List.of()),
                new RunReport.ScriptReport("b.sql", 3, 4, 13764, 0, 16805, 0, 0, 0, 0, 0, lat(13764, 0.099, 0.388, 5), List.of()));
        RunReport r = new RunReport("multiple scripts", 1, null, 0, "simple", 1, 1, 1, 2, 0, 18355, 0, 0, 0, 0, false, 0,
                21786, 0, 0, 13001, 0.05, 20000, lat(18355, 0.098, 0.379, 5), lat(18355, 0.052, 0.01, 7.755), false,
                3.498, 18355 / 9193.142131, 9193.142131, false, scripts, false, false, 0, 50, 50, Engine.PGJDBC, new Timeline(Map.of()),
                new Histogram(3), 5, 1.5, null, null, Double.NaN, -1);
        List<String> lines = r.lines().stream().map(l -> l.startsWith(" - ") ? l.replaceAll("tps = \\d+\\.\\d+", "tps = T") : l).toList();
        assertEquals(PGBENCH, lines.subList(0, PGBENCH.size()), String.join("\n", lines));
        List<String> kenshos = lines.subList(PGBENCH.size(), lines.size());
        assertEquals(5, kenshos.size(), String.join("\n", kenshos));
        assertTrue(kenshos.get(0).startsWith("latency percentiles: "), kenshos.get(0));
        assertTrue(kenshos.subList(1, kenshos.size()).stream().allMatch(l -> l.startsWith("(")), String.join("\n", kenshos));
    }

    /**
     * A warmed-up driver that faulted thousands of times a second (its heap written before the clock, so the heap grew
     * or the kernel took pages back while it ran: DAMON did on this project's VMs, at 15-25 % of the client's CPU) is
     * told why and what avoids it; tens a second, or a run without the warm-up (whose first pass through the heap
     * faults anyway), is not.
     */
    @Test
    void aWarmedUpDriverThatFaultedOftenIsToldWhy() {
        String hint = "(the JVM faulted on memory while the clock ran, after the warm-up had written its heap";
        RunReport many = faulted(10_000, 50);
        List<String> l = many.lines();
        assertTrue(l.stream().anyMatch(s -> s.startsWith("(this driver's process used 1.50 CPU-seconds") && s.contains(", 5000 page faults a second; ")),
                String.join("\n", l));
        assertTrue(l.stream().anyMatch(s -> s.startsWith(hint) && s.contains("-XX:+UseTransparentHugePages")), String.join("\n", l));
        assertEquals(5000.0, many.metrics().get("driver_page_faults_per_s").doubleValue());
        List<String> few = faulted(100, 50).lines();
        assertTrue(few.stream().anyMatch(s -> s.contains(", 50 page faults a second; ")), String.join("\n", few));
        assertTrue(few.stream().noneMatch(s -> s.startsWith(hint)), String.join("\n", few));
        List<String> cold = faulted(10_000, 0).lines();
        assertTrue(cold.stream().noneMatch(s -> s.startsWith(hint)), String.join("\n", cold));
        // where /proc does not tell: neither the count nor the metric
        RunReport unknown = faulted(-1, 50);
        assertTrue(unknown.lines().stream().noneMatch(s -> s.contains("page faults")), String.join("\n", unknown.lines()));
        assertEquals(null, unknown.metrics().get("driver_page_faults_per_s"));
    }

    private static RunReport faulted(long faults, int warmup) {
        List<RunReport.ScriptReport> scripts = List.of(
                new RunReport.ScriptReport("a.sql", 1, 1, 4000, 0, 0, 0, 0, 0, 0, 0, lat(4000, 0.5, 0.1, 5), List.of()));
        return new RunReport("a.sql", 1, null, 0, "prepared", 4, 2, 1, 2, 0, 4000, 0, 0, 0, 0, false, 0,
                0, 0, 0, 0, 0, 0, lat(4000, 0.5, 0.1, 5), lat(0, 0, 0, 0), false,
                3.5, 2.0, 2000, false, scripts, false, false, 0, warmup, warmup, Engine.PGJDBC, new Timeline(Map.of()),
                new Histogram(3), 5, 1.5, null, null, Double.NaN, faults);
    }

    /**
     * Numbers at a rounding tie as C's printf writes them (pgbench's snprintf hands %f to it): a weight of 1 in 16 is
     * 6.25 %, a failure in 1600 transactions 0.0625 %, both exact doubles, rounded to even; Java's Formatter rounded
     * them up (6.3 %, 0.063 %).
     */
    @Test
    void tiesRoundAsPgbenchsPrintf() {
        List<RunReport.ScriptReport> scripts = List.of(
                new RunReport.ScriptReport("a.sql", 1, 16, 100, 0, 0, 0, 0, 0, 0, 0, lat(100, 0.0625, 0.01, 1), List.of()),
                new RunReport.ScriptReport("b.sql", 15, 16, 1499, 1, 0, 1, 0, 0, 0, 0, lat(1499, 0.0625, 0.01, 1), List.of()));
        RunReport r = new RunReport("multiple scripts", 1, null, 0, "simple", 16, 1, 1, 0, 100, 1599, 1, 1, 0, 0, false, 0,
                0, 0, 0, 0, 0, 0, lat(1599, 0.0625, 0.01, 1), lat(0, 0, 0, 0), false,
                2.0, 1.0, 1599, false, scripts, false, false, 0, 0, 0, Engine.PGJDBC, new Timeline(Map.of()),
                new Histogram(3), 5, Double.NaN, null, null, Double.NaN, -1);
        List<String> l = r.lines();
        assertTrue(l.contains("number of failed transactions: 1 (0.062%)"), String.join("\n", l));
        assertTrue(l.contains("latency average = 0.062 ms"), String.join("\n", l));
        assertTrue(l.contains(" - weight: 1 (targets 6.2% of total)"), String.join("\n", l));
        assertTrue(l.contains(" - weight: 15 (targets 93.8% of total)"), String.join("\n", l));
    }

    /**
     * A rate-limited run whose every transaction was skipped (-R with -L beyond the server's reach) is a finding, 0
     * tps, not a failure; but it measured no latency, which it recorded as 0 ms into the cell's medians.
     */
    @Test
    void aRunWithEveryTransactionSkippedHasNoLatency() {
        List<RunReport.ScriptReport> scripts = List.of(
                new RunReport.ScriptReport("a.sql", 1, 1, 0, 0, 400, 0, 0, 0, 0, 0, lat(0, 0, 0, 0), List.of()));
        RunReport r = new RunReport("a.sql", 1, null, 0, "simple", 1, 1, 1, 2, 0, 0, 0, 0, 0, 0, false, 0,
                400, 0, 0, 0, 0.05, 200, lat(0, 0, 0, 0), lat(0, 0, 0, 0), false,
                3.5, 2.0, 0, false, scripts, false, false, 0, 0, 0, Engine.PGJDBC, new Timeline(Map.of()),
                new Histogram(3), 5, Double.NaN, null, null, Double.NaN, -1);
        assertEquals(null, r.unmeasured(null));
        assertEquals(0.0, r.metrics().get("tps").doubleValue());
        assertEquals(400L, r.metrics().get("skipped").longValue());
        assertTrue(r.metrics().keySet().stream().noneMatch(k -> k.startsWith("latency_")), r.metrics().toString());
        // nor does the report print one, as pgbench's printSimpleStats; its lag average is 0/0, which pgbench prints as NaN
        List<String> l = r.lines();
        assertTrue(l.stream().noneMatch(x -> x.startsWith("latency average") || x.startsWith("latency stddev")), String.join("\n", l));
        assertTrue(l.contains("number of transactions skipped: 400 (100.000%)"), String.join("\n", l));
        assertTrue(l.contains("number of transactions above the 0.1 ms latency limit: 0/0 (0.000%)"), String.join("\n", l));
        assertTrue(l.contains("rate limit schedule lag: avg NaN (max 0.000) ms"), String.join("\n", l));
    }
}
