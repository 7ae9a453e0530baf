package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * A server reached over its Unix-domain socket, as libpq reaches it with a directory for a host. The connection
 * tests use the machine's own PostgreSQL 15 at /var/run/postgresql (skipped where it is absent).
 */
@KenshoTarget
class UnixSocketTest {
    static final String URL = "jdbc:postgresql:///test?host=/var/run/postgresql";

    @Test
    void theUrlFormsOfASocketDirectory() {
        for (String url : new String[] {URL, "jdbc:postgresql://%2Fvar%2Frun%2Fpostgresql/test",
                "jdbc:postgresql://%2fvar%2frun%2fpostgresql:5432/test", "jdbc:postgresql://db.example:5433/test?host=/var/run/postgresql&port=5432"}) {
            RemoteServer t = RemoteServer.fromUrl(url, "u", null, null);
            assertEquals("/var/run/postgresql", t.host(), url);
            assertEquals(5432, t.port(), url);
            assertEquals("test", t.database(), url);
            assertEquals(Path.of("/var/run/postgresql/.s.PGSQL.5432"), t.wireLogin().socketFile(), url);
            assertTrue(t.sameHost(), url);
        }
        RemoteServer other = RemoteServer.fromUrl("jdbc:postgresql://:5433/x?host=/tmp", "u", null, null);
        assertEquals(Path.of("/tmp/.s.PGSQL.5433"), other.wireLogin().socketFile());
        assertNull(RemoteServer.fromUrl("jdbc:postgresql://localhost/x", "u", null, null).wireLogin().socketFile());
        KenshoException bad = assertThrows(KenshoException.class, () -> RemoteServer.fromUrl("jdbc:postgresql://%zz/x", "u", null, null));
        assertEquals(KenshoException.USAGE, bad.exitCode());
        assertTrue(bad.getMessage().startsWith("--url has a bad host"), bad.getMessage());
    }

    /** libpq ignores sslmode over a Unix socket; so does Kensho, for both of its clients. */
    @Test
    void noTlsOverASocket() {
        RemoteServer t = RemoteServer.fromUrl(URL + "&sslmode=require", "u", null, null);
        assertEquals("disable", t.wireLogin().sslMode());
        assertTrue(t.jdbcUrl().contains("sslmode=disable"), t.jdbcUrl());
        assertFalse(t.jdbcUrl().contains("sslmode=require"), t.jdbcUrl());
    }

    /** The URL Kensho prints (results, reports, JMH forks) reads back as the same socket. */
    @Test
    void thePrintedUrlReadsBackAsTheSameSocket() {
        RemoteServer t = RemoteServer.fromUrl("jdbc:postgresql://:6543/x?host=/tmp/my%20dir&connectTimeout=3", "u", null, null);
        String printed = t.jdbcUrl();
        assertTrue(printed.startsWith("jdbc:postgresql://localhost:6543/x?connectTimeout=3&socketFactory="
                + UnixSocketFactory.class.getName() + "&socketFactoryArg=/tmp/my+dir/.s.PGSQL.6543"), printed);
        RemoteServer back = RemoteServer.fromUrl(printed, "u", null, null);
        assertEquals("/tmp/my dir", back.host());
        assertEquals(6543, back.port());
        assertEquals(printed, back.jdbcUrl());
    }

    @Test
    void connectsOverTheSocketWithEveryKindOfConnection(@LocalPostgres(url = URL) Target pg) throws Exception {
        assertEquals(TargetKind.REMOTE, pg.kind());
        assertTrue(pg.describe().contains("/var/run/postgresql/.s.PGSQL.5432"), pg.describe());
        try (Connection c = pg.connect()) {
            assertOverTheSocket(c);
        }
        DataSource pool = pg.pool(2);
        try (Connection c = pool.getConnection()) {
            assertOverTheSocket(c);
        }
        // the printed URL is a working pgjdbc URL on its own
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), "postgres", "")) {
            assertOverTheSocket(c);
        }
        assertTrue(pg.serverVersionNum() >= 90600);
    }

    /**
     * pgjdbc's timeouts on the socket: socketTimeout ends a statement that outlives it, and the 1 ms peek behind
     * getNotifications() neither blocks nor loses what arrives (the timed-read path of the socket).
     */
    @Test
    void timeoutsAndNotifications(@LocalPostgres(url = URL) Target pg) throws Exception {
        Properties oneSecond = new Properties();
        oneSecond.setProperty("socketTimeout", "1");
        try (Connection c = pg.connect(oneSecond); Statement s = c.createStatement()) {
            long t0 = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SELECT pg_sleep(5)"));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 900 && ms < 4900, ms + " ms");   // the timeout's, not pg_sleep's 5 s (a loaded machine adds to it)
            assertTrue(causedBy(e, SocketTimeoutException.class), e.toString());
        }
        try (Connection listener = pg.connect(); Connection sender = pg.connect();
             Statement l = listener.createStatement(); Statement s = sender.createStatement()) {
            l.execute("LISTEN kensho_unix_socket");
            PGConnection pl = listener.unwrap(PGConnection.class);
            long t0 = System.nanoTime();
            PGNotification[] none = pl.getNotifications();
            assertEquals(0, none == null ? 0 : none.length);
            assertTrue(System.nanoTime() - t0 < 1_000_000_000L, "the peek for notifications returned at once");
            s.execute("NOTIFY kensho_unix_socket, 'over the socket'");
            PGNotification[] got = pl.getNotifications(5000);
            assertEquals(1, got.length);
            assertEquals("over the socket", got[0].getParameter());
            // the connection still works in blocking mode afterwards
            assertOverTheSocket(listener);
        }
    }

    @Test
    void aMissingSocketIsOneLine() {
        KenshoException e = assertThrows(KenshoException.class,
                () -> new TargetSpec().url("jdbc:postgresql:///x?host=/nonexistent-kensho").user("u").open());
        assertEquals(KenshoException.TARGET, e.exitCode());
        assertTrue(e.getMessage().startsWith("cannot connect to socket /nonexistent-kensho/.s.PGSQL.5432 (database x): "),
                e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    /** Peer authentication (Debian's default for local connections) fails on the OS user: the message says so. */
    @Test
    void peerAuthenticationFailureNamesTheOsUser() {
        RemoteServer t = RemoteServer.fromUrl(URL, "postgres", null, null);
        KenshoException e = t.translate(new SQLException("FATAL: Peer authentication failed for user \"postgres\"", "28000"), "test");
        assertEquals("peer authentication failed for user \"postgres\" at socket /var/run/postgresql/.s.PGSQL.5432 (database test): "
                + "the server takes the operating-system user (" + System.getProperty("user.name") + ") as the identity over a "
                + "Unix socket; give that user with -U, or connect over TCP", e.getMessage());
    }

    private static void assertOverTheSocket(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT inet_server_addr() IS NULL, current_database()")) {
            rs.next();
            assertTrue(rs.getBoolean(1), "a TCP connection has a server address; a Unix-socket one has none");
            assertEquals("test", rs.getString(2));
        }
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (; t != null; t = t.getCause()) {
            if (type.isInstance(t)) return true;
        }
        return false;
    }
}
