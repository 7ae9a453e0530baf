package dev.kensho.core.server;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A PostgreSQL server to measure. Open one with {@link TargetSpec#open()}; closing it stops a
 * managed server (keeping its data only with --keep-data).
 *
 * <p>{@link #connect()} and {@link #pool} may be called from any thread (a sweep's clients connect at once). Settings
 * changes and restarts ({@link #control()}) run one at a time but change the server under every connection: make them
 * between measurements.
 */
public interface Target extends AutoCloseable {

    /** Embedded, local binaries, remote or container: what Kensho may do to the server follows from it. */
    TargetKind kind();

    /** One line for humans and results: kind, version, URL with credentials masked. */
    String describe();

    /** JDBC URL without credentials. */
    String jdbcUrl();

    /** The role Kensho connects as. */
    String user();

    /** The database measurements run in. */
    String database();

    /** Host and port as a client such as the C pgbench or psql needs them. */
    String host();

    /** The server's port (for a Unix socket, the number in its file name). */
    int port();

    /**
     * A new connection with the session settings of the last {@link ServerControl#apply} applied; the caller's to
     * close (closing the target does not close it).
     *
     * @return an open connection to {@link #database()} as {@link #user()}
     * @throws dev.kensho.core.KenshoException the server cannot be reached or refuses the login, with a one-line reason
     *         ({@link dev.kensho.core.KenshoException#TARGET})
     * @throws SQLException what pgjdbc throws otherwise
     */
    Connection connect() throws SQLException;

    /**
     * A new connection with extra pgjdbc properties on top of the target's own (credentials, session
     * settings), e.g. preferQueryMode and prepareThreshold for pgbench's -M modes.
     */
    Connection connect(java.util.Properties extra) throws SQLException;

    /**
     * The file holding the password of a managed server that has one (a server run as an ordinary user, see
     * ManagedServer), for a JVM this one starts (JMH's forks: -Dkensho.passwordFile); empty for the others.
     */
    default java.util.Optional<java.nio.file.Path> serverPasswordFile() {
        return java.util.Optional.empty();
    }

    /** How a client that speaks the wire protocol itself logs in as {@link #connect()} does (pgbench's own engine). */
    WireLogin wireLogin();

    /** A new connection to another database of the same server (e.g. to create the measured one). */
    Connection connect(String database) throws SQLException;

    /**
     * A HikariCP pool over {@link #connect()}'s settings; closed with the target, or before by closing it
     * ({@code try (HikariDataSource ds = target.pool(4)) { ... }}). A test given its Target by
     * {@link dev.kensho.junit.KenshoTarget} has its pools closed when it ends. Its connections follow later
     * {@link ServerControl#apply}s and survive {@link ServerControl#restart()}: pooled ones made before are replaced,
     * idle ones at once and busy ones when returned.
     *
     * @param size the pool's maximum size; it opens no connection until one is asked for
     * @return a new pool, the caller's
     * @throws IllegalStateException the target is closed
     */
    HikariDataSource pool(int size);

    /** Restarts and settings: what Kensho may change on this server. */
    ServerControl control();

    /** True when the server runs on this host, so /proc and the page cache describe it. */
    boolean sameHost();

    /** How long Kensho's matrices wait for a server that is restarting or recovering: a crash recovery takes seconds. */
    java.time.Duration RECOVERY_WAIT = java.time.Duration.ofSeconds(60);

    /**
     * Waits, up to {@code max}, until the server accepts connections again. After a crash (a killed backend, the
     * kernel's OOM killer at a thousand clients) PostgreSQL restarts itself and answers "the database system is in
     * recovery mode" (SQLSTATE 57P03) meanwhile; a managed server's postmaster also refuses connections while it
     * restarts. A matrix that went on at once would record its next trials as failures in milliseconds each.
     * Returns the seconds waited, 0 when the first connection was accepted; any other failure, or still none after
     * {@code max}, is thrown as {@link #connect()} throws it: a server that refuses connections because it is down
     * (a remote one, or a managed one whose postmaster is gone) fails at once.
     */
    default double awaitAccepting(java.time.Duration max) throws SQLException {
        long start = System.nanoTime(), deadline = start + max.toNanos();
        for (int attempt = 0; ; attempt++) {
            try (Connection c = connect()) {
                return attempt == 0 ? 0 : (System.nanoTime() - start) / 1e9;
            } catch (SQLException | RuntimeException e) {
                if (!comingBack(e, kind().managed() && postmasterRuns(control().dataDirectory())) || System.nanoTime() > deadline) throw e;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
            if (Thread.currentThread().isInterrupted()) throw new SQLException("interrupted while waiting for the server");
        }
    }

    /**
     * A failure that a restarting server gives: 57P03 (starting up, in recovery), 57P01/57P02 (a connection caught by
     * the shutdown or the crash reset), and where Kensho runs the server and its postmaster still runs, a refused or
     * cut connection.
     */
    private static boolean comingBack(Throwable e, boolean ownPostmasterRuns) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String state = t instanceof SQLException s ? String.valueOf(s.getSQLState()) : "";
            if (state.equals("57P03") || state.equals("57P02") || state.equals("57P01")) return true;
            if (ownPostmasterRuns && (t instanceof java.net.ConnectException || state.equals("08001") || state.equals("08006"))) return true;
        }
        return false;
    }

    /**
     * Whether the postmaster named by the data directory's postmaster.pid still runs. A crash of a backend leaves it
     * running and restarting the server; a killed postmaster (its pid file stays) restarts nothing, so a refused
     * connection then is no reason to wait.
     */
    private static boolean postmasterRuns(java.util.Optional<java.nio.file.Path> data) {
        if (data.isEmpty()) return false;
        try {
            java.util.List<String> pidFile = java.nio.file.Files.readAllLines(data.get().resolve("postmaster.pid"));
            return !pidFile.isEmpty() && ProcessHandle.of(Long.parseLong(pidFile.get(0).strip())).map(ProcessHandle::isAlive).orElse(false);
        } catch (java.io.IOException | NumberFormatException e) {
            return false;   // no pid file (a stopped server) or one cut short
        }
    }

    /** server_version_num, e.g. 170006. */
    int serverVersionNum();

    /**
     * Closes the pools made by {@link #pool}, then stops a server Kensho started (embedded, --pg-bin, a container),
     * removing its data directory unless --keep-data; on a remote server, puts back what Kensho changed with ALTER
     * SYSTEM. Connections from {@link #connect()} are the caller's and stay open until closed.
     */
    @Override
    void close();
}
