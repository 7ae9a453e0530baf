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
 * @param sslMode           pgjdbc's sslmode for this target ({@code disable}, {@code allow}, {@code prefer},
 *                          {@code require}, {@code verify-ca}, {@code verify-full}); {@code prefer} when unset,
 *                          {@code verify-full} for pgjdbc's {@code ssl=true}
 * @param pgjdbcOnly        why only pgjdbc can log in as the URL says (a client certificate, an SSL factory), or null
 */
public record WireLogin(String host, int port, String database, String user, String password,
                        Map<String, String> startupParameters, String sslMode, String pgjdbcOnly) {

    public WireLogin {
        startupParameters = Map.copyOf(startupParameters);
    }

    public WireLogin(String host, int port, String database, String user, String password,
                     Map<String, String> startupParameters, String sslMode) {
        this(host, port, database, user, password, startupParameters, sslMode, null);
    }

    @Override
    public String toString() {
        return "WireLogin[" + user + "@" + host + ":" + port + "/" + database + ", sslmode=" + sslMode
                + (password == null ? "" : ", password ***") + "]";
    }
}
