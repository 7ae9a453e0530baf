package dev.kensho.scan;

/**
 * What one layout's table turned out to be, recorded in run.json (the study's table-size table).
 *
 * @param layout       high or low clustering
 * @param table        table name (the index is table + "_pk")
 * @param rows         rows loaded
 * @param multiplier   p of the low-clustering permutation i → (i·p mod N) + 1; 1 for high
 * @param correlation  pg_stats.correlation of col01 after ANALYZE (≈1 high, ≈0 low)
 * @param tableBytes   pg_relation_size of the table
 * @param indexBytes   pg_relation_size of the primary-key index
 * @param pages        heap pages (relpages)
 * @param rowsPerPage  rows / pages (the study: 40)
 * @param tablespace   tablespace name, or "pg_default"
 * @param loadSeconds  time to load, index and VACUUM ANALYZE; 0 when an existing table was reused
 * @param reused       true when a matching table from an earlier run was kept
 */
public record LayoutFacts(Layout layout, String table, long rows, long multiplier, double correlation,
                          long tableBytes, long indexBytes, long pages, double rowsPerPage, String tablespace,
                          double loadSeconds, boolean reused) {

    public long totalBytes() {
        return tableBytes + indexBytes;
    }
}
