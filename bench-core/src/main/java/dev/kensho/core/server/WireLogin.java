package dev.kensho.core.server;

import java.util.Map;

/**
 * What a client speaking PostgreSQL's wire protocol itself (not through pgjdbc) needs to log in as
 * {@link Target#connect()} does: the same user, database and session settings. Holds the password, so
 * {@link #toString()} leaves it out; nothing may print or store it.
 *
 * @param startupParameters the StartupMessage's parameters besides user and database (application_name,
 *                          options carrying the session settings)
 * @param password          null for trust, peer or a password the server never asks for
 * @param host              a host name or address, or a directory holding the server's Unix-domain socket
 *                          ({@link #socketFile()})
 * @param sslMode           pgjdbc's sslmode for this target ({@code disable}, {@code allow}, {@code prefer},
 *                          {@code require}, {@code verify-ca}, {@code verify-full}); {@code prefer} when unset,
 *                          {@code verify-full} for pgjdbc's {@code ssl=true}
 * @param pgjdbcOnly        why only pgjdbc can log in as the URL says (a client certificate, an SSL factory), or null
 * @param timeoutSeconds    how long a login may take before it fails (libpq's connect_timeout, pgjdbc's loginTimeout);
 *                          0 waits for ever, as both do without one
 */
public record WireLogin(String host, int port, String database, String user, String password,
                        Map<String, String> startupParameters, String sslMode, String pgjdbcOnly, int timeoutSeconds) {

    public WireLogin {
        startupParameters = Map.copyOf(startupParameters);
    }

    public WireLogin(String host, int port, String database, String user, String password,
                     Map<String, String> startupParameters, String sslMode, String pgjdbcOnly) {
        this(host, port, database, user, password, startupParameters, sslMode, pgjdbcOnly, 0);
    }

    public WireLogin(String host, int port, String database, String user, String password,
                     Map<String, String> startupParameters, String sslMode) {
        this(host, port, database, user, password, startupParameters, sslMode, null);
    }

    /** The same login within at most this many seconds (its own timeout, where shorter, stays). */
    public WireLogin within(int seconds) {
        int t = timeoutSeconds > 0 && timeoutSeconds < seconds ? timeoutSeconds : seconds;
        return new WireLogin(host, port, database, user, password, startupParameters, sslMode, pgjdbcOnly, t);
    }

    /**
     * The server's Unix-domain socket when {@code host} is a directory, as libpq reads a host starting with a
     * slash ({@code -h /var/run/postgresql}); null for TCP.
     */
    public java.nio.file.Path socketFile() {
        return socketFile(host, port);
    }

    /** libpq's socket file name in a socket directory: DIR/.s.PGSQL.PORT; null when host is not a directory. */
    public static java.nio.file.Path socketFile(String host, int port) {
        return host != null && host.startsWith("/") ? java.nio.file.Path.of(host, ".s.PGSQL." + port) : null;
    }

    @Override
    public String toString() {
        return "WireLogin[" + user + "@" + host + ":" + port + "/" + database + ", sslmode=" + sslMode
                + (password == null ? "" : ", password ***") + "]";
    }
}
