package dev.kensho.pgbench.micro;

import dev.kensho.jmh.ConnectionState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Study 002 §4 (extracting data from a tuple): a table of 100 text columns col0..col99 and 100 000
 * rows ({@link MicroTables#WIDE}). Variable-width columns have no cached offsets, so reaching a
 * column means walking every column before it: the cost grows with the column's position.
 * <ul>
 * <li>{@link #trailingColumns}: the study's query, {@code select col95, ..., col99}.</li>
 * <li>{@link #oneColumn}: additional test 1, {@code select colN} for each position N.</li>
 * <li>{@link #leadingColumns}: additional test 2, {@code select col0, ..., colN}.</li>
 * </ul>
 * Rows are counted, not decoded (pgjdbc decodes lazily), so the client's work hardly varies.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class TupleDeform {

    /** The column position N of additional tests 1 and 2; {@code bench micro --columns} sets the list. */
    @State(Scope.Benchmark)
    public static class Column {
        @Param({"0", "24", "49", "74", "99"})
        public int column;
    }

    public static String trailingSql() {
        return "select " + columns(95, 99) + " from " + MicroTables.WIDE;
    }

    public static String oneColumnSql(int n) {
        return "select " + columns(n, n) + " from " + MicroTables.WIDE;
    }

    public static String leadingSql(int n) {
        return "select " + columns(0, n) + " from " + MicroTables.WIDE;
    }

    private static String columns(int from, int to) {
        if (from < 0 || to >= MicroTables.WIDE_COLUMNS || from > to) {
            throw new IllegalArgumentException("columns " + from + ".." + to + " outside col0..col" + (MicroTables.WIDE_COLUMNS - 1));
        }
        return IntStream.rangeClosed(from, to).mapToObj(i -> "col" + i).collect(Collectors.joining(", "));
    }

    @Benchmark
    public long trailingColumns(ConnectionState c, MicroTables.WideReady tables) throws SQLException {
        return count(c, trailingSql());
    }

    @Benchmark
    public long oneColumn(ConnectionState c, MicroTables.WideReady tables, Column p) throws SQLException {
        return count(c, oneColumnSql(p.column));
    }

    @Benchmark
    public long leadingColumns(ConnectionState c, MicroTables.WideReady tables, Column p) throws SQLException {
        return count(c, leadingSql(p.column));
    }

    private static long count(ConnectionState c, String sql) throws SQLException {
        // streamed through a cursor (fetch size 10 000): all 100 columns of 100 000 rows are 110 MB
        c.connection.setAutoCommit(false);
        long rows = 0;
        try (Statement s = c.connection.createStatement()) {
            s.setFetchSize(10_000);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) rows++;
            }
        }
        c.connection.commit();
        return rows;
    }
}
