package dev.kensho.pgbench.micro;

import dev.kensho.jmh.TargetState;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Study 002 §3 (EUC-SJIS direct conversion): {@code select * from accounts} with the server
 * converting every row to the client's encoding, against the same query without conversion
 * (client_encoding = the database's encoding). The study's database was EUC_JP; {@code bench micro}
 * creates one on managed servers, elsewhere the conversion is from whatever the database uses (the
 * trial records it).
 *
 * <p>Rows are streamed (fetch size 10 000) and only counted: pgjdbc decodes a value only when it is
 * read, so the client's work is the same for both encodings and the difference is the server's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Thread)
public class EncodingConversion {
    public static final String SQL = "select * from pgbench_accounts";

    /** none: client_encoding = server_encoding; any other value is a client_encoding (the study: SJIS). */
    @Param({"none", "SJIS"})
    public String clientEncoding;

    private Connection connection;

    @Setup(Level.Trial)
    public void open(TargetState server, MicroTables.PgbenchReady tables) throws SQLException {
        Properties p = new Properties();
        // pgjdbc insists on UTF8 unless told the application changes client_encoding itself
        p.setProperty("allowEncodingChanges", "true");
        connection = server.target.connect(p);
        try (Statement s = connection.createStatement()) {
            s.execute("select set_config('client_encoding', "
                    + ("none".equals(clientEncoding) ? "current_setting('server_encoding')" : dev.kensho.core.server.SqlIdentifier.literal(clientEncoding))
                    + ", false)");
        }
        connection.setAutoCommit(false);   // a cursor, so the table is streamed, not held
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        if (connection != null) connection.close();
    }

    @Benchmark
    public long selectAll() throws SQLException {
        long rows = 0;
        try (Statement s = connection.createStatement()) {
            s.setFetchSize(10_000);
            try (ResultSet rs = s.executeQuery(SQL)) {
                while (rs.next()) rows++;
            }
        }
        connection.commit();
        return rows;
    }
}
