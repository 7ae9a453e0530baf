package dev.kensho.jmh;

import java.sql.Connection;
import java.sql.SQLException;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One connection per benchmark thread to {@link TargetState}'s server, opened before the trial
 * (connection set-up is not what a query benchmark measures).
 */
@State(Scope.Thread)
public class ConnectionState {
    /** This thread's connection, with the settings the target was given. */
    public Connection connection;

    /** Connects to the trial's server. */
    @Setup(Level.Trial)
    public void open(TargetState server) throws SQLException {
        connection = server.target.connect();
    }

    /** Closes the connection. */
    @TearDown(Level.Trial)
    public void close() throws SQLException {
        if (connection != null) connection.close();
    }
}
