package dev.kensho.core.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import java.net.ConnectException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;

/** Connection handling shared by every kind of target: credentials, session settings, pools, errors. */
abstract class JdbcTarget implements Target {
    private final String host;
    private final int port;
    private final String database;
    private final String user;
    private volatile String password; // never printed; null = trust/.pgpass
    private final Map<String, String> urlProperties;
    /** The server's Unix-domain socket when host is a directory (libpq's convention), else null: TCP. */
    private final Path socketFile;
    /**
     * user-context settings carried by every new connection (pgjdbc "options", no extra round trip).
     * Replaced whole, never changed in place: pool threads read it while apply() builds the next one.
     */
    protected volatile Map<String, String> sessionSettings = Map.of();
    private final List<HikariDataSource> pools = new ArrayList<>();
    /** Numbers pools JVM-wide: a harness with two targets tells their pools apart in Hikari's log lines and threads. */
    private static final java.util.concurrent.atomic.AtomicInteger POOLS_MADE = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean closed;
    private int versionNum;
    /** Connections handed out, weakly held: what they run can be cancelled when the JVM ends (see RemoteServer). */
    private final java.util.Set<Connection> handedOut =
            java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    JdbcTarget(String host, int port, String database, String user, String password,
               Map<String, String> urlProperties) {
        this.host = host;
        this.port = port;
        this.database = database;
        this.user = user;
        this.password = password;
        // masked by its value from now on too: a user may also write it where no pattern finds it (a --restart-command)
        dev.kensho.core.Credentials.remember(password, user, database);
        this.urlProperties = new LinkedHashMap<>(urlProperties);
        this.socketFile = WireLogin.socketFile(host, port);
    }

    @Override public String host() { return host; }
    @Override public int port() { return port; }
    @Override public String database() { return database; }
    @Override public String user() { return user; }

    /** {@link #describe()}: a harness logs its target as it is, not as an internal class's name and hash. */
    @Override
    public String toString() {
        return describe();
    }

    @Override
    public String jdbcUrl() {
        return Credentials.maskUrl(rawUrl(database, true));
    }

    /** The URL pgjdbc connects with: without the URL's options, which {@link #properties} carries with the session's. */
    private String rawUrl(String db) {
        return rawUrl(db, false);
    }

    private String rawUrl(String db, boolean withOptions) {
        Path socket = socketFile;
        Map<String, String> props = urlProperties;
        if (!withOptions && props.containsKey("options")) {
            props = new LinkedHashMap<>(urlProperties);
            props.remove("options");
        }
        if (socket != null) {
            // pgjdbc has no Unix sockets: its socket factory connects to the file whatever host it is given.
            // libpq neither asks for TLS nor GSS encryption over a Unix socket; nor does Kensho.
            props = new LinkedHashMap<>(props);
            props.keySet().removeAll(List.of("socketFactory", "socketFactoryArg", "sslmode", "gssEncMode"));
            props.put("socketFactory", UnixSocketFactory.class.getName());
            props.put("socketFactoryArg", URLEncoder.encode(socket.toString(), StandardCharsets.UTF_8).replace("%2F", "/"));
            props.put("sslmode", "disable");
            props.put("gssEncMode", "disable");
        }
        StringBuilder sb = new StringBuilder("jdbc:postgresql://").append(socket != null ? "localhost" : host)
                .append(':').append(port).append('/').append(db);
        char sep = '?';
        for (var e : props.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = '&';
        }
        return sb.toString();
    }

    /** Where a connection goes, for messages: host:port/db, or the socket file and database. */
    private String where(String db) {
        return socketFile != null ? "socket " + socketFile + " (database " + db + ")" : host + ":" + port + "/" + db;
    }

    Properties properties() {
        return properties(sessionSettings);
    }

    /** The connection properties with these session settings. */
    Properties properties(Map<String, String> session) {
        Properties p = new Properties();
        p.setProperty("user", user);
        // Without a password of ours, an empty one: pgjdbc would otherwise read ~/.pgpass by its own rules (a localhost
        // line for 127.0.0.1, a file others can read), which libpq, the wire engine and PgPass do not.
        p.setProperty("password", password != null ? password : "");
        // Every supported server is 9.0 or later: pgjdbc then sends application_name in the startup packet, as libpq does,
        // instead of a SET after login (a round trip per connection: -C pays it per transaction). A URL's own value wins.
        p.setProperty("assumeMinServerVersion", "9.0");
        String options = startupOptions(session);
        if (options != null) p.setProperty("options", options);
        p.setProperty("ApplicationName", applicationName(session, options));
        return p;
    }

    /**
     * The application_name of the startup packet: a --set (or --matrix) of it, else the one the options name, else
     * "kensho". Sent beside -c application_name=…, the packet's own won: the setting was recorded as applied, and every
     * connection showed "kensho".
     */
    private static String applicationName(Map<String, String> session, String options) {
        if (session.containsKey("application_name")) return session.get("application_name");
        if (options != null) {
            // the last of -c application_name=… or --application_name=…, backslash escapes read as the server reads them
            java.util.regex.Matcher m = APPLICATION_NAME_OPTION.matcher(options);
            String last = null;
            while (m.find()) last = m.group(1).replaceAll("\\\\(.)", "$1");
            if (last != null) return last;
        }
        return "kensho";
    }

    private static final java.util.regex.Pattern APPLICATION_NAME_OPTION =
            java.util.regex.Pattern.compile("(?:-c\\s*|--)application_name=((?:\\\\.|[^\\s\\\\])*)");

    /**
     * The "options" startup parameter: the URL's own (?options=-c...) and then the session settings (--set), which
     * the server applies in that order. pgjdbc took the URL's alone, dropping every --set, and the wire engine the
     * session's alone, dropping the URL's, where libpq (pgbench) sends a conninfo's options. Null when neither has any.
     */
    private String startupOptions(Map<String, String> session) {
        String raw = urlProperties.get("options");
        String url = raw == null ? "" : URLDecoder.decode(raw, StandardCharsets.UTF_8).strip();
        String set = session.isEmpty() ? "" : options(session);
        String both = url.isEmpty() ? set : set.isEmpty() ? url : url + " " + set;
        return both.isEmpty() ? null : both;
    }

    /** A managed server's own password, once it has one (ManagedServer, run by a user other than root). */
    protected void usePassword(String password) {
        this.password = password;
        dev.kensho.core.Credentials.remember(password, user, database);
    }

    /** The DateStyles said in the record, per target: once each. */
    private static final java.util.Set<String> NOTED_STYLES = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The last DateStyle the startup options ask for, null for none. */
    static String dateStyleAsked(String options) {
        String style = null;
        for (String[] nv : settingsIn(options)) if (nv[0].equals("datestyle")) style = nv[1];
        return style;
    }

    /** The name=value settings of startup options as the server reads them (names folded to lower case, - as _). */
    private static List<String[]> settingsIn(String options) {
        List<String[]> out = new ArrayList<>();
        if (options == null || options.isBlank()) return out;
        // the server's own reading (pg_split_opts, then -c name=value, -cname=value or --name=value)
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < options.length(); i++) {
            char ch = options.charAt(i);
            if (Character.isWhitespace(ch)) {
                if (w.length() > 0) words.add(w.toString());
                w.setLength(0);
            } else if (ch == '\\' && i + 1 < options.length()) {
                w.append(options.charAt(++i));
            } else {
                w.append(ch);
            }
        }
        if (w.length() > 0) words.add(w.toString());
        for (int i = 0; i < words.size(); i++) {
            String a = words.get(i), nv;
            if (a.equals("-c") && i + 1 < words.size()) nv = words.get(++i);
            else if (a.startsWith("-c")) nv = a.substring(2);
            else if (a.startsWith("--")) nv = a.substring(2);
            else continue;
            int eq = nv.indexOf('=');
            if (eq < 0) continue;
            out.add(new String[] {nv.substring(0, eq).toLowerCase(java.util.Locale.ROOT).replace('-', '_'), nv.substring(eq + 1)});
        }
        return out;
    }

    /**
     * What a pgjdbc session must set after login to have the TimeZone and DateStyle its startup options ask for (the
     * URL's options, --set, --matrix; the last of each): pgjdbc's startup packet sends the JVM's TimeZone and "ISO" as
     * parameters of their own, which the server applies after the options, so a --set TimeZone=UTC was recorded as
     * applied while a Tokyo JVM's queries ran in Asia/Tokyo. Of DateStyle only the order of day and month is taken:
     * pgjdbc closes a session whose output style is not ISO.
     */
    static List<String> afterLogin(String options) {
        String timeZone = null, order = null;
        for (String[] nv : settingsIn(options)) {
            if (nv[0].equals("timezone")) timeZone = nv[1];
            if (nv[0].equals("datestyle")) {
                String given = null;
                boolean german = false;
                for (String part : nv[1].split("[,\\s]+")) {
                    String p = part.toUpperCase(java.util.Locale.ROOT);
                    if (p.equals("DMY") || p.equals("MDY") || p.equals("YMD") || p.equals("EURO") || p.equals("EUROPEAN")
                            || p.equals("US") || p.equals("NONEURO") || p.equals("NONEUROPEAN")) given = p;
                    german |= p.equals("GERMAN");
                }
                // German alone sets DMY too, as the server reads it; a style alone keeps the order
                if (given == null && german) given = "DMY";
                if (given != null) order = given;
            }
        }
        List<String> set = new ArrayList<>();
        if (timeZone != null) set.add("SET TimeZone TO " + SqlIdentifier.literal(timeZone));
        if (order != null) set.add("SET DateStyle TO 'ISO, " + order + "'");
        return set;
    }

    /**
     * The settings Kensho wrote into a managed server's configuration: its TimeZone and DateStyle are the sessions' too
     * ({@link #afterLogin}), where pgjdbc's login would give them the JVM's. None for a remote server.
     */
    protected Map<String, String> serverSettings() {
        return Map.of();
    }

    /** pgjdbc's "options" startup parameter: -c name=value, spaces and backslashes escaped. */
    static String options(Map<String, String> settings) {
        StringBuilder sb = new StringBuilder();
        settings.forEach((k, v) -> {
            if (sb.length() > 0) sb.append(' ');
            sb.append("-c ").append(k).append('=').append(v.replace("\\", "\\\\").replace(" ", "\\ "));
        });
        return sb.toString();
    }

    @Override
    public WireLogin wireLogin() {
        Map<String, String> startup = new LinkedHashMap<>();
        // the URL's ApplicationName, as pgjdbc sends it (the wire engine's backends showed "kensho" whatever it said)
        String app = urlProperties.get("ApplicationName");
        String options = startupOptions(sessionSettings);
        startup.put("application_name", app != null ? URLDecoder.decode(app, StandardCharsets.UTF_8) : applicationName(sessionSettings, options));
        // the URL's currentSchema, which pgjdbc sends as the startup parameter search_path (the wire engine's clients
        // looked for the tables in the default path)
        String schema = urlProperties.get("currentSchema");
        if (schema != null) startup.put("search_path", URLDecoder.decode(schema, StandardCharsets.UTF_8));
        if (options != null) startup.put("options", options);
        String ssl = urlProperties.get("sslmode");
        // pgjdbc reads ssl=true without an sslmode as verify-full: a client of its own must not check less
        if (ssl == null) ssl = "true".equalsIgnoreCase(urlProperties.get("ssl")) ? "verify-full" : "prefer";
        String pgjdbcOnly = null;
        for (String k : List.of("sslcert", "sslkey", "sslpassword", "sslpasswordcallback", "sslfactory", "gssEncMode")) {
            if (urlProperties.containsKey(k)) {
                pgjdbcOnly = "the URL sets " + k + ", which only pgjdbc uses";
                break;
            }
        }
        // pgjdbc tries each host of jdbc:postgresql://h1,h2:5432/db in turn (targetServerType); a client of its own would
        // take the list for one host name, and fail to resolve it
        if (pgjdbcOnly == null && host != null && host.contains(",")) pgjdbcOnly = "the URL names several hosts, which only pgjdbc tries in turn";
        if (socketFile != null) {
            ssl = "disable";   // as libpq: sslmode means nothing over a Unix socket
            pgjdbcOnly = null;
        }
        // the login's bound, as pgjdbc's (a URL's loginTimeout, or connect_timeout/PGCONNECT_TIMEOUT, which ConnectionUrl
        // turned into it): a wire client's login to a server that never answers waited past -T for ever
        int timeout = 0;
        try {
            timeout = (int) Math.ceil(Double.parseDouble(URLDecoder.decode(urlProperties.getOrDefault("loginTimeout", "0"), StandardCharsets.UTF_8)));
        } catch (NumberFormatException e) {
            // pgjdbc's own check refuses it at the first connection
        }
        return new WireLogin(host, port, database, user, password, startup, ssl, pgjdbcOnly, Math.max(0, timeout));
    }

    @Override
    public Connection connect() throws SQLException {
        return connect(database);
    }

    @Override
    public Connection connect(Properties extra) throws SQLException {
        Properties p = properties();
        p.putAll(extra);
        return connect(database, p);
    }

    @Override
    public Connection connect(String db) throws SQLException {
        return connect(db, properties());
    }

    Connection connect(String db, Properties props) throws SQLException {
        if (closed) throw new IllegalStateException("target closed: " + describe());
        try {
            Connection c = DriverManager.getConnection(rawUrl(db), props);
            handedOut.add(c);
            String asked = (options(serverSettings()) + " " + props.getProperty("options", "")).strip();
            List<String> set = afterLogin(asked);
            String style = dateStyleAsked(asked);
            if (style != null && !style.toUpperCase(java.util.Locale.ROOT).startsWith("ISO") && NOTED_STYLES.add(where(db) + style)) {
                // the record names what the sessions ran with: the setting alone said German where they had ISO, DMY
                // (not describe(): it may ask the server its version, over a connection of its own)
                ServerActions.record(kind().label() + " at " + host + ":" + port, "DateStyle " + style + ": pgjdbc's sessions run with its day/month order and ISO output"
                        + " (pgjdbc requires ISO; the wire engine keeps the style)");
            }
            if (!set.isEmpty()) {
                try (java.sql.Statement st = c.createStatement()) {
                    for (String sql : set) st.execute(sql);
                } catch (SQLException e) {
                    c.close();
                    throw e;
                }
            }
            return c;
        } catch (SQLException e) {
            throw translate(e, db);
        }
    }

    /**
     * Sends a cancel request for whatever each open connection runs (an idle one ignores it). Each request is a
     * connection of its own, possibly to a host that no longer answers (the reason for the Ctrl-C): all at once, and
     * the JVM's exit waits three seconds at most.
     */
    void cancelRunning() {
        List<Connection> open;
        synchronized (handedOut) {
            open = new ArrayList<>(handedOut);
        }
        List<Thread> sent = new ArrayList<>();
        for (Connection c : open) {
            Thread t = new Thread(() -> {
                try {
                    if (!c.isClosed()) c.unwrap(org.postgresql.PGConnection.class).cancelQuery();
                } catch (SQLException | RuntimeException ignored) {
                    // gone already, or the server is: nothing left running to cancel
                }
            }, "kensho-cancel");
            t.setDaemon(true);
            t.start();
            sent.add(t);
        }
        long until = System.nanoTime() + 3_000_000_000L;
        for (Thread t : sent) {
            long left = until - System.nanoTime();
            if (left <= 0) break;
            try {
                t.join(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The server's message (masked), without pgjdbc's "FATAL: " and second lines. */
    static String serverWords(SQLException e) {
        String m = e instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                && p.getServerErrorMessage().getMessage() != null ? p.getServerErrorMessage().getMessage() : String.valueOf(e.getMessage());
        return Credentials.mask(KenshoException.firstLine(m));
    }

    /** Connection failures users cause (wrong host, password, database) become one line, exit 3. */
    KenshoException translate(SQLException e, String db) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String where = where(db);
        String msg;
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        if (state.equals("28000") && String.valueOf(e.getMessage()).contains("Peer authentication failed")) {
            msg = "peer authentication failed for user \"" + user + "\" at " + where
                    + ": the server takes the operating-system user (" + System.getProperty("user.name")
                    + ") as the identity over a Unix socket; give that user with -U, or connect over TCP";
        } else if (state.equals("28P01")
                || password == null && state.equals("08004") && String.valueOf(e.getMessage()).contains("password")) {
            // 08004: pgjdbc's own refusal to answer SCRAM with the empty password Kensho passes when it has none
            msg = "authentication failed for user \"" + user + "\" at " + where
                    + (password == null ? " (no password: none in the URL, --password-file, PGPASSWORD or ~/.pgpass)"
                            : " (password from the URL, --password-file, PGPASSWORD or ~/.pgpass)");
        } else if (state.equals("28000")) {
            // no such role, or pg_hba.conf has no entry / rejects: the server's words say which
            msg = serverWords(e) + " at " + where;
        } else if (state.equals("3D000")) {
            msg = "database \"" + db + "\" does not exist on "
                    + (socketFile != null ? "the server at socket " + socketFile : host + ":" + port);
        } else if (root instanceof UnknownHostException) {
            msg = "cannot connect to " + where + ": unknown host " + host;
        } else if (root instanceof ConnectException || state.startsWith("08")) {
            msg = "cannot connect to " + where + ": " + KenshoException.firstLine(root);
        } else {
            msg = "cannot connect to " + where + ": " + KenshoException.firstLine(e);
        }
        return KenshoException.target(Credentials.mask(msg), e);
    }

    @Override
    public synchronized HikariDataSource pool(int size) {
        if (closed) throw new IllegalStateException("target closed: " + describe());
        pools.removeIf(HikariDataSource::isClosed);   // closed by their user (a test's, see KenshoTarget)
        HikariConfig c = new HikariConfig();
        // Connections come from connect(), so every new one carries the settings of the latest apply()
        // (a remote target's session settings travel in the startup packet); see sessionChanged().
        c.setDataSource(new Connecting());
        c.setMaximumPoolSize(size);
        c.setMinimumIdle(0);
        c.setPoolName("kensho-" + database + "-" + POOLS_MADE.getAndIncrement());
        c.setInitializationFailTimeout(-1);
        HikariDataSource ds = new HikariDataSource(c);
        pools.add(ds);
        return ds;
    }

    /**
     * The pools' pooled connections were made under settings that no longer hold (session settings
     * changed) or to a server that has restarted: replace them, idle ones now and busy ones when
     * returned, so a pool made before apply() or restart() goes on working under the new settings.
     */
    synchronized void sessionChanged() {
        pools.removeIf(HikariDataSource::isClosed);
        for (HikariDataSource ds : pools) {
            var bean = ds.getHikariPoolMXBean();
            if (bean != null) bean.softEvictConnections();
        }
    }

    /** What HikariCP connects through: {@link #connect()}, its one-line failures as SQLExceptions. */
    private final class Connecting implements DataSource {
        private int loginTimeout;

        @Override
        public Connection getConnection() throws SQLException {
            try {
                return connect();
            } catch (KenshoException e) {
                throw new SQLException(e.getMessage(), "08001", e);
            }
        }

        @Override
        public Connection getConnection(String user, String password) {
            throw new UnsupportedOperationException("a target's pool connects as the target's user");
        }

        @Override public java.io.PrintWriter getLogWriter() { return null; }
        @Override public void setLogWriter(java.io.PrintWriter out) { }
        @Override public void setLoginTimeout(int seconds) { loginTimeout = seconds; }
        @Override public int getLoginTimeout() { return loginTimeout; }
        @Override public java.util.logging.Logger getParentLogger() { return java.util.logging.Logger.getLogger("dev.kensho"); }
        @Override public <T> T unwrap(Class<T> iface) throws SQLException { throw new SQLException("not a wrapper"); }
        @Override public boolean isWrapperFor(Class<?> iface) { return false; }
    }

    @Override
    public int serverVersionNum() {
        if (versionNum == 0) {
            try (Connection c = connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW server_version_num")) {
                rs.next();
                versionNum = Integer.parseInt(rs.getString(1));
            } catch (SQLException e) {
                throw KenshoException.target("cannot read server_version_num: " + KenshoException.firstLine(e), e);
            }
        }
        return versionNum;
    }

    void forgetVersion() {
        versionNum = 0;
    }

    /**
     * Whether the server takes a new connection now. Asked also after close(), whose stop checks whether the server is
     * resetting after a crash: connect() refuses then, and every healthy server's stop waited 3 s for a crash line.
     */
    boolean acceptsConnections() {
        Properties p = properties();
        // bounded: a server that stopped answering (SIGSTOP, a hung host) held this login, and with it the stop that
        // Ctrl-C's hook makes, for ever
        p.setProperty("connectTimeout", "2");
        p.setProperty("socketTimeout", "2");
        try (Connection c = DriverManager.getConnection(rawUrl("postgres"), p)) {
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /** The end of the target: its pools close, and connect() and pool() refuse from now on. */
    synchronized void closePools() {
        closed = true;
        pools.forEach(HikariDataSource::close);
        pools.clear();
    }
}
