package dev.kensho.pgbench.micro;

import dev.kensho.jmh.ConnectionState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * Study 002 §2 (the MemSet patches): per branch, the accounts whose balance exceeds 100, over
 * pgbench's tables at scale 10. Per row the executor evaluates the filter's int4gt, which is what
 * the study profiled. On freshly initialised tables every balance is 0, so the filter rejects every
 * row and the join sees none; the study's tables had been run on (1.08 M function calls for 1 M rows).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class JoinGroupCount {
    public static final String SQL = "select b.bid, count(*) from pgbench_accounts a, pgbench_branches b "
            + "where a.bid = b.bid and a.abalance > 100 group by b.bid";

    /** Returns the counted accounts, so the work cannot be optimised away. */
    @Benchmark
    public long joinGroupCount(ConnectionState c, MicroTables.PgbenchReady tables) throws SQLException {
        long sum = 0;
        try (Statement s = c.connection.createStatement(); ResultSet rs = s.executeQuery(SQL)) {
            while (rs.next()) sum += rs.getLong(2);
        }
        return sum;
    }
}
