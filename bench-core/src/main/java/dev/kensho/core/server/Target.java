package dev.kensho.core.server;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A PostgreSQL server to measure. Open one with {@link TargetSpec#open()}; closing it stops a
 * managed server (keeping its data only with --keep-data).
 */
public interface Target extends AutoCloseable {

    TargetKind kind();

    /** One line for humans and results: kind, version, URL with credentials masked. */
    String describe();

    /** JDBC URL without credentials. */
    String jdbcUrl();

    String user();

    /** The database measurements run in. */
    String database();

    /** Host and port as a client such as the C pgbench or psql needs them. */
    String host();

    int port();

    /**
     * A new connection with the session settings of the last {@link ServerControl#apply} applied.
     * Connection failures become a {@link dev.kensho.core.KenshoException} with a one-line reason.
     */
    Connection connect() throws SQLException;

    /**
     * A new connection with extra pgjdbc properties on top of the target's own (credentials, session
     * settings), e.g. preferQueryMode and prepareThreshold for pgbench's -M modes.
     */
    Connection connect(java.util.Properties extra) throws SQLException;

    /** How a client that speaks the wire protocol itself logs in as {@link #connect()} does (pgbench's own engine). */
    WireLogin wireLogin();

    /** A new connection to another database of the same server (e.g. to create the measured one). */
    Connection connect(String database) throws SQLException;

    /**
     * A HikariCP pool over {@link #connect()}'s settings; closed with the target, or before by closing it (the
     * DataSource is {@link AutoCloseable}). A test given its Target by {@link dev.kensho.junit.KenshoTarget} has its
     * pools closed when it ends.
     */
    DataSource pool(int size);

    /** Restarts and settings: what Kensho may change on this server. */
    ServerControl control();

    /** True when the server runs on this host, so /proc and the page cache describe it. */
    boolean sameHost();

    /** server_version_num, e.g. 170006. */
    int serverVersionNum();

    @Override
    void close();
}
