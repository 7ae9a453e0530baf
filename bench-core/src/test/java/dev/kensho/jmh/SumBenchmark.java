package dev.kensho.jmh;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.openjdk.jmh.annotations.Benchmark;

/** A query benchmark written the way users write theirs: JMH annotations plus Kensho's states. */
public class SumBenchmark {
    @Benchmark
    public long sum(ConnectionState c) throws SQLException {
        try (Statement s = c.connection.createStatement(); ResultSet rs = s.executeQuery("SELECT sum(g) FROM generate_series(1, 10000) g")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
