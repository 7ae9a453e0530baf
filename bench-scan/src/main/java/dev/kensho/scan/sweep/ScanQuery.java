package dev.kensho.scan.sweep;

import dev.kensho.scan.Scan;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The study's two queries and planner settings. The range is keys 1..k with k = round(N·percent/100);
 * the full-scan variant compares {@code col01 || '_'}, an expression no index covers, so only a Seq
 * Scan can answer it. With the study's settings (enable_seqscan and enable_bitmapscan off) the range
 * query can only be a plain Index Scan, whatever its selectivity.
 */
public final class ScanQuery {
    /** The study's "PostgreSQL 実行計画関係の設定" table, verbatim. */
    public static final Map<String, String> STUDY_PLANNER_SETTINGS = studySettings();

    private ScanQuery() {}

    private static Map<String, String> studySettings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("enable_bitmapscan", "off");
        m.put("enable_gathermerge", "on");
        m.put("enable_hashagg", "off");
        m.put("enable_hashjoin", "off");
        m.put("enable_indexonlyscan", "off");
        m.put("enable_indexscan", "on");
        m.put("enable_material", "off");
        m.put("enable_mergejoin", "off");
        m.put("enable_nestloop", "on");
        m.put("enable_parallel_append", "off");
        m.put("enable_parallel_hash", "off");
        m.put("enable_partition_pruning", "off");
        m.put("enable_partitionwise_aggregate", "off");
        m.put("enable_partitionwise_join", "off");
        m.put("enable_seqscan", "off");
        m.put("enable_sort", "on");
        m.put("enable_tidscan", "on");
        return Map.copyOf(m);
    }

    /** Rows a percentage selects: round(N·percent/100), at least 1. */
    public static long upperKey(long rows, double percent) {
        return Math.max(1, Math.min(rows, Math.round(rows * percent / 100.0)));
    }

    static String key(long k) {
        String s = Long.toString(k);
        return "0".repeat(Math.max(0, 30 - s.length())) + s;
    }

    public static String sql(Scan scan, String table, long rows, double percent) {
        String lo = key(1);
        String hi = key(upperKey(rows, percent));
        if (scan == Scan.INDEX) {
            return "SELECT * FROM " + table + " WHERE col01 >= '" + lo + "' AND col01 <= '" + hi + "'";
        }
        return "SELECT * FROM " + table + " WHERE col01 || '_' >= '" + lo + "' || '_' AND col01 || '_' <= '" + hi + "' || '_'";
    }

    /**
     * Session settings for both queries: the study's planner settings, jit = off, plus
     * max_parallel_workers_per_gather when given (parallelWorkers null keeps the server's value).
     * jit is off because enable_seqscan = off adds 1e10 to the Seq Scan's cost, above every
     * jit_*_above_cost: a JIT-capable server (PostgreSQL built with LLVM) would otherwise compile
     * the full scan's expressions and time the compilation (80–100 ms on a scan of 6–10 ms).
     */
    public static Map<String, String> sessionSettings(Integer parallelWorkers) {
        Map<String, String> m = new TreeMap<>(STUDY_PLANNER_SETTINGS);
        m.put("jit", "off");
        if (parallelWorkers != null) m.put("max_parallel_workers_per_gather", String.valueOf(parallelWorkers));
        return m;
    }

    /**
     * The {@link #sessionSettings} this server has. The study's list is 11's: an older server lacks the settings of what
     * came later (enable_gathermerge 10; enable_parallel_append, enable_parallel_hash, enable_partition_pruning, the
     * partitionwise ones and jit 11), and without the feature its plans are the ones the study's value allows.
     */
    public static Map<String, String> sessionSettings(Connection c, Integer parallelWorkers) throws SQLException {
        Map<String, String> m = new TreeMap<>(sessionSettings(parallelWorkers));
        m.keySet().retainAll(known(c, m.keySet()));
        return m;
    }

    /** Of these settings, the names this server has. */
    private static Set<String> known(Connection c, Set<String> names) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM pg_settings WHERE name = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("text", names.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** SETs {@link #sessionSettings(Connection, Integer)} on the connection. */
    public static void configure(Connection c, Integer parallelWorkers) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (var e : sessionSettings(c, parallelWorkers).entrySet()) {
                s.execute("SET " + e.getKey() + " = " + e.getValue());
            }
        }
    }
}
