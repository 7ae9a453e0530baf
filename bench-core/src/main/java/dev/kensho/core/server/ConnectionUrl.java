package dev.kensho.core.server;

import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A --url, with --user, a password and libpq's environment, read as libpq reads a connection: the server, database, role
 * and password it names, and the rest as pgjdbc's URL parameters. What a remote target connects with ({@link
 * RemoteServer#fromUrl}); the server itself, its settings and restarts, are RemoteServer's. Holds the password, so
 * {@link #toString()} leaves it out.
 *
 * @param properties      pgjdbc's parameters, each value encoded as in a URL, in the order a printed URL (jdbcUrl) gives them
 * @param service         the connection service that filled what the URL leaves out (?service= or PGSERVICE), or null
 * @param fromEnvironment the libpq variables taken from the environment, in the order taken
 */
record ConnectionUrl(String host, int port, String database, String user, String password, Map<String, String> properties,
                     String service, List<String> fromEnvironment) {

    /**
     * A URL cut into its parts, nothing decoded: authority (userinfo@host:port), database (null when
     * none) and query (without the '?'). jdbc:postgresql:// and libpq's postgresql:// and postgres://.
     */
    record Parts(String authority, String database, String query) {
        static Parts of(String url) {
            String prefix = "jdbc:postgresql://";
            String rest;
            if (url.startsWith(prefix)) {
                rest = url.substring(prefix.length());
            } else if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
                rest = url.substring(url.indexOf("//") + 2);   // libpq's URI, as psql and pgbench take it
            } else {
                throw KenshoException.usage("--url must start with " + prefix + " (or libpq's postgresql://) (got " + Credentials.maskUrl(url) + ")");
            }
            String query = "";
            int q = rest.indexOf('?');
            if (q >= 0) {
                query = rest.substring(q + 1);
                rest = rest.substring(0, q);
            }
            int slash = rest.indexOf('/');
            return new Parts(slash < 0 ? rest : rest.substring(0, slash),
                    slash < 0 || slash == rest.length() - 1 ? null : rest.substring(slash + 1), query);
        }
    }

    /** libpq's decoding of a URI's userinfo: %XX only, in UTF-8; IllegalArgumentException for a bad escape. */
    static String percentDecode(String s) {
        return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /**
     * Parses a jdbc:postgresql:// URL into host, port, database and the remaining properties. As in a libpq URI, the
     * host may be a Unix-socket directory, percent-encoded ({@code jdbc:postgresql://%2Fvar%2Frun%2Fpostgresql/test})
     * or given as a {@code host} parameter ({@code jdbc:postgresql:///test?host=/var/run/postgresql}), and
     * {@code host} and {@code port} parameters override the URL's. What the URL (and user, password) leave out comes
     * from libpq's environment, as psql and pgbench take it: PGHOST, PGPORT, PGDATABASE, PGUSER, PGOPTIONS, PGAPPNAME,
     * PGSSLMODE, PGSSLROOTCERT, PGSSLCERT, PGSSLKEY, PGCONNECT_TIMEOUT, PGPASSWORD and PGPASSFILE; PGTZ, PGDATESTYLE and
     * PGGEQO as settings after the URL's options, as libpq sends them. A service (PGSERVICE or ?service=, libpq's
     * pg_service.conf) fills what the URL leaves out before the environment does, as in libpq. libpq's parameter names
     * (application_name, connect_timeout, dbname) are taken as pgjdbc's; any other pgjdbc does not know is refused (pgjdbc
     * ignores it, and the run's record then claimed a setting that never took effect).
     */
    static ConnectionUrl read(String url, String user, String password, Map<String, String> env) {
        Reading r = new Reading(url, env);
        r.refuseUnmaskable();
        r.readHostAndPort(r.readUserInfo());
        r.readParameters();
        Path home = PgPass.home(env);
        // a service fills what the URL leaves out, before the environment does (libpq's order)
        r.takeService(home);
        r.takeServerFromEnvironment();
        r.readPort();
        if (r.host.isEmpty()) r.host = "localhost";
        r.readSocketFile();
        String u = r.user(user);
        if (r.db == null) r.db = fromEnv(env, "PGDATABASE", r.fromEnv);
        if (r.db == null) r.db = u;
        r.takeParametersLeftOut();
        r.takeSslFiles(home);
        r.takeSettingsFromEnvironment();
        String pw = password != null ? password : r.urlPassword != null ? r.urlPassword : r.servicePassword;
        if (pw == null) pw = PgPass.lookup(r.host, r.port, r.db, u, env, home, System.err);
        return new ConnectionUrl(r.host, r.port, r.db, u, pw, r.props, r.service, r.fromEnv);
    }

    /**
     * A connection being read: what the URL, then a service, then the environment have given so far, each step of
     * read() filling what the ones before it left out. read() holds the order of the steps, which is libpq's.
     */
    private static final class Reading {
        final String url;
        final Parts parts;
        final Map<String, String> env;
        // where url's authority starts and ends, and its userinfo's '@' in it (-1: none): the bad port's message masks by them
        int authorityStart, afterAuthority, infoAt;
        /** url with its password masked where this parse ends it. */
        String masked;
        String host, portText, db;
        int port = 5432;
        String urlUser, urlPassword, serviceUser, servicePassword;
        String service, timeout, fallbackName;
        final Map<String, String> props = new LinkedHashMap<>();
        final List<String> fromEnv = new ArrayList<>();

        Reading(String url, Map<String, String> env) {
            this.url = url;
            this.parts = Parts.of(url);
            this.env = env;
        }

        /** Refuses a URL whose password Credentials.maskUrl would not mask where this parse ends it. */
        void refuseUnmaskable() {
            // user:pa/ss@host or user:pa?ss@host: the authority ends at the '/' or '?' (as in libpq), the password's start
            // read as the port and its rest as the database or a parameter, which every message would then quote; an '@'
            // before any parameter's value is refused (a database name's is written %40), whether or not the authority has an
            // '@' of its own: user:We1rd@pw/x?y#z@host read as host pw and database x put "pw" and "x" in every message
            authorityStart = url.indexOf("//") + 2;
            afterAuthority = authorityStart + parts.authority().length();
            infoAt = parts.authority().lastIndexOf('@');
            int infoColon = infoAt < 0 ? -1 : parts.authority().substring(0, infoAt).indexOf(':');
            // where this parse ends the password (its '@'), and the masked form of the URL as this parse reads it
            int parsedEnd = infoColon < 0 ? -1 : authorityStart + infoAt;
            masked = Credentials.maskUrl(parsedEnd < 0 ? url
                    : url.substring(0, authorityStart + infoColon + 1) + "****" + url.substring(parsedEnd));
            int stray = url.indexOf('@', afterAuthority), value = url.indexOf('=', afterAuthority);
            int maskedEnd = Credentials.passwordEnd(url);
            if (stray >= 0 && (value < 0 || stray < value) || maskedEnd > parsedEnd) {
                // the masker takes the password to a later '@' (a host after it): every message would show its rest
                throw KenshoException.usage("--url has an '@' after its host: a '/' or '?' in a user name or password is written %2F or %3F, "
                        + "an '@' in a database name %40: " + masked);
            }
            if (maskedEnd != parsedEnd) {
                // a user name the masker cannot tell from free text (//us er:pw@host): its password would be printed whole
                throw KenshoException.usage("--url has a user name Kensho cannot mask the password after: a space, '#', '[' or ']' in a user "
                        + "name is written %20, %23, %5B or %5D: " + masked);
            }
        }

        /** The URL's database, and the user and password of its user:password@; returns the authority's host:port. */
        String readUserInfo() {
            String hostPort = parts.authority();
            db = parts.database();
            int at = hostPort.lastIndexOf('@');
            if (at >= 0) {
                // libpq's user:password@host (pgjdbc has no such form: it would take it all for the host name,
                // and put the password in its error messages)
                String info = hostPort.substring(0, at);
                hostPort = hostPort.substring(at + 1);
                int c = info.indexOf(':');
                try {
                    // libpq decodes %XX only: a '+' is a '+' (URLDecoder's form decoding made pa+ss "pa ss")
                    urlUser = percentDecode(c < 0 ? info : info.substring(0, c));
                    if (c >= 0) urlPassword = percentDecode(info.substring(c + 1));
                } catch (IllegalArgumentException e) {
                    throw KenshoException.usage("--url has a bad user name or password (a % not followed by two hex digits): " + Credentials.maskUrl(url));
                }
            }
            return hostPort;
        }

        /** The host (decoded) and the port's text, from the authority's host:port. */
        void readHostAndPort(String hostPort) {
            host = hostPort;
            for (String one : hostPort.split(",", -1)) {
                if (one.startsWith("[") != one.contains("]")) {
                    // an IPv6 address without its other bracket: a host named "[:" was looked up, and the run blamed the network
                    throw KenshoException.usage("--url has an IPv6 address without its closing ']' (or a ']' without its '['): " + Credentials.maskUrl(url));
                }
            }
            int colon = hostPort.lastIndexOf(':');
            if (colon >= 0 && !hostPort.endsWith("]")) {
                host = hostPort.substring(0, colon);
                portText = hostPort.substring(colon + 1);
            }
            try {
                host = java.net.URLDecoder.decode(host, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw KenshoException.usage("--url has a bad host (a % not followed by two hex digits): " + Credentials.maskUrl(url));
            }
        }

        /** The URL's parameters: libpq's taken as theirs, pgjdbc's checked and kept, any other refused. */
        void readParameters() {
            for (String kv : parts.query().split("&")) {
                if (kv.isEmpty()) continue;
                int eq = kv.indexOf('=');
                String k = eq < 0 ? kv : kv.substring(0, eq);
                String v;
                try {
                    v = eq < 0 ? "" : java.net.URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    // the JDK's message quotes the characters after the '%': a password's
                    throw KenshoException.usage("--url has a bad value for " + k + " (a % not followed by two hex digits): " + masked);
                }
                switch (k) {
                    case "user" -> urlUser = v;
                    case "password" -> urlPassword = v;
                    case "host" -> host = v;          // libpq's parameter; pgjdbc would ignore it
                    case "port" -> portText = v;
                    // libpq's names, which pgjdbc ignores
                    case "service" -> service = v;
                    case "dbname" -> db = v;
                    case "connect_timeout" -> timeout = v;
                    case "application_name" -> props.put("ApplicationName", kv.substring(eq + 1));
                    case "fallback_application_name" -> fallbackName = v;
                    default -> {
                        org.postgresql.PGProperty known = org.postgresql.PGProperty.forName(k);
                        if (known == null) {
                            throw KenshoException.usage("--url has a parameter " + k + " that pgjdbc does not know and Kensho does not translate (pgjdbc would ignore it): "
                                    + masked);
                        }
                        String bad = badValue(known, v);
                        if (bad != null) throw KenshoException.usage("--url has " + k + "=" + v + ", which " + bad + ": " + masked);
                        props.put(k, kv.substring(eq + 1));
                    }
                }
            }
        }

        /** What the service (?service= or PGSERVICE) sets and the URL left out. */
        void takeService(Path home) {
            if (service == null) service = fromEnv(env, "PGSERVICE", fromEnv);
            if (service == null) return;
            for (Map.Entry<String, String> e : ServiceFile.lookup(service, env, home).entrySet()) {
                String v = e.getValue();
                switch (e.getKey()) {
                    case "host" -> { if (host.isEmpty()) host = v; }
                    case "port" -> { if (portText == null || portText.isEmpty()) portText = v; }
                    case "dbname" -> { if (db == null) db = v; }
                    case "user" -> serviceUser = v;
                    case "password" -> servicePassword = v;
                    case "connect_timeout" -> { if (timeout == null) timeout = v; }
                    case "application_name" -> props.putIfAbsent("ApplicationName", java.net.URLEncoder.encode(v, StandardCharsets.UTF_8));
                    case "fallback_application_name" -> { if (fallbackName == null) fallbackName = v; }
                    case "options", "sslmode", "sslrootcert", "sslcert", "sslkey" -> {
                        if (!(e.getKey().equals("sslmode") && props.containsKey("ssl"))) {
                            props.putIfAbsent(e.getKey(), java.net.URLEncoder.encode(v, StandardCharsets.UTF_8));
                        }
                    }
                    default -> throw KenshoException.usage("service \"" + service + "\" sets " + e.getKey()
                            + ", which Kensho does not take from a service file: give its pgjdbc equivalent in --url");
                }
            }
            if (host.contains(",")) throw KenshoException.usage("service \"" + service + "\" names several hosts; Kensho connects to one: give it in --url");
        }

        /** PGHOST and PGPORT, where the URL and the service left the host or the port out. */
        void takeServerFromEnvironment() {
            if (host.isEmpty() && present(env, "PGHOST")) {
                host = env.get("PGHOST");
                fromEnv.add("PGHOST");
                if (host.contains(",")) {
                    throw KenshoException.usage("PGHOST=" + host + " names several hosts; Kensho connects to one: give it in --url");
                }
            }
            if ((portText == null || portText.isEmpty()) && present(env, "PGPORT")) {
                portText = env.get("PGPORT");
                fromEnv.add("PGPORT");
                if (!portText.matches("\\d{1,5}") || Integer.parseInt(portText) < 1 || Integer.parseInt(portText) > 65535) {
                    throw KenshoException.usage("PGPORT=" + portText + " is no port (1 to 65535); the --url without a port takes it");
                }
            }
        }

        /** The port its text gives, 5432 when none does. */
        void readPort() {
            if (portText == null || portText.isEmpty()) return;
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                // not a number: the start of a password without its '@host' (//user:secret/db), not quoted
                String shown = masked;
                int p = portText.matches("\\d+") ? -1 : url.indexOf(":" + portText, authorityStart + infoAt + 1);
                if (p >= 0 && p < afterAuthority) shown = Credentials.maskUrl(url.substring(0, p + 1) + "****" + url.substring(p + 1 + portText.length()));
                throw KenshoException.usage("--url has a bad port (1 to 65535): " + shown);
            }
        }

        /** A Unix socket's directory and port from the socketFactory a URL Kensho printed names; refuses a socket named twice. */
        void readSocketFile() {
            if (UnixSocketFactory.class.getName().equals(props.get("socketFactory"))) {
                // a URL Kensho printed (jdbcUrl) for a Unix socket: back to the socket's directory and port
                Path file = Path.of(java.net.URLDecoder.decode(props.getOrDefault("socketFactoryArg", ""), StandardCharsets.UTF_8));
                String name = file.getFileName() == null ? "" : file.getFileName().toString();
                if (file.getParent() == null || !name.matches("\\.s\\.PGSQL\\.\\d+")) {
                    throw KenshoException.usage("--url: socketFactoryArg must be a socket file DIR/.s.PGSQL.PORT: " + Credentials.maskUrl(url));
                }
                host = file.getParent().toString();
                port = Integer.parseInt(name.substring(".s.PGSQL.".length()));
                props.remove("socketFactory");
                props.remove("socketFactoryArg");
            }
            if (host.startsWith("/") && props.containsKey("socketFactory")) {
                throw KenshoException.usage("--url names a socket directory (" + host + ") and a socketFactory: give one of them");
            }
        }

        /** The role: --user, else the URL's, the service's, PGUSER's, the system user's; refuses --user beside another in the URL. */
        String user(String user) {
            // two users for one server: --user had replaced the URL's without a word, where psql takes the URL's; with several
            // --url each naming its own, one --user quietly changed the role measured on every host
            if (user != null && urlUser != null && !user.equals(urlUser)) {
                throw KenshoException.usage("--url " + Credentials.maskUrl(url) + " names user " + urlUser + ", and --user " + user
                        + ": give the user once (in the URL, or in --user for URLs that name none)");
            }
            String u = user != null ? user : urlUser != null ? urlUser : serviceUser != null ? serviceUser : fromEnv(env, "PGUSER", fromEnv);
            return u != null ? u : System.getProperty("user.name");
        }

        /** The parameters the URL and the service left out: from PGOPTIONS and the like, the fallback name, the timeout. */
        void takeParametersLeftOut() {
            // as URL parameters, encoded as the URL's own are: the printed URL (jdbcUrl) then holds them, and the run's
            // record reproduces the run without the environment it ran in
            for (String[] p : new String[][] {{"options", "PGOPTIONS"}, {"ApplicationName", "PGAPPNAME"}, {"sslmode", "PGSSLMODE"},
                    {"sslrootcert", "PGSSLROOTCERT"}, {"sslcert", "PGSSLCERT"}, {"sslkey", "PGSSLKEY"}}) {
                if (!props.containsKey(p[0]) && !(p[0].equals("sslmode") && props.containsKey("ssl")) && present(env, p[1])) {
                    String bad = badValue(org.postgresql.PGProperty.forName(p[0]), env.get(p[1]));
                    if (bad != null) throw KenshoException.usage(p[1] + "=" + env.get(p[1]) + ", which " + bad + " (the --url without " + p[0] + " takes it)");
                    props.put(p[0], java.net.URLEncoder.encode(env.get(p[1]), StandardCharsets.UTF_8));
                    fromEnv.add(p[1]);
                }
            }
            if (fallbackName != null) props.putIfAbsent("ApplicationName", java.net.URLEncoder.encode(fallbackName, StandardCharsets.UTF_8));
            if (timeout == null) timeout = fromEnv(env, "PGCONNECT_TIMEOUT", fromEnv);
            if (timeout != null) connectTimeout(timeout, props);
        }

        /** The client certificate, key and root certificate libpq finds under $HOME, where pgjdbc looks elsewhere. */
        void takeSslFiles(Path home) {
            // pgjdbc reads ~/.postgresql/ from the JVM's user.home; libpq from $HOME
            if (home.equals(Path.of(System.getProperty("user.home")))) return;
            String mode = java.net.URLDecoder.decode(props.getOrDefault("sslmode", ""), StandardCharsets.UTF_8);
            if (mode.startsWith("verify-")) props.putIfAbsent("sslrootcert", encodedPath(home.resolve(".postgresql/root.crt")));
            for (String[] f : new String[][] {{"sslcert", "postgresql.crt"}, {"sslkey", "postgresql.key"}}) {
                Path file = home.resolve(".postgresql").resolve(f[1]);
                if (Files.exists(file)) props.putIfAbsent(f[0], encodedPath(file));
            }
        }

        /** PGDATESTYLE, PGTZ and PGGEQO, as settings after the options. */
        void takeSettingsFromEnvironment() {
            // libpq sends PGDATESTYLE, PGTZ and PGGEQO as settings of their own, which the server applies after the options
            // (the URL's among them), and none whose value is "default"; pgbench in Tokyo with PGTZ=UTC ran in UTC, Kensho in
            // the server's zone
            Map<String, String> libpqSettings = new LinkedHashMap<>();
            for (String[] p : new String[][] {{"DateStyle", "PGDATESTYLE"}, {"TimeZone", "PGTZ"}, {"geqo", "PGGEQO"}}) {
                if (present(env, p[1]) && !env.get(p[1]).equalsIgnoreCase("default")) {
                    libpqSettings.put(p[0], env.get(p[1]));
                    fromEnv.add(p[1]);
                }
            }
            if (!libpqSettings.isEmpty()) {
                String before = props.containsKey("options") ? java.net.URLDecoder.decode(props.get("options"), StandardCharsets.UTF_8) + " " : "";
                props.put("options", java.net.URLEncoder.encode(before + JdbcTarget.options(libpqSettings), StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * libpq's connect_timeout as pgjdbc's two: the login's whole time and the socket's connect. As libpq: 0 or less
     * waits for ever, 1 is taken as 2. A server that accepts and never answers held a run for ever.
     */
    private static void connectTimeout(String seconds, Map<String, String> props) {
        int s;
        try {
            s = Integer.parseInt(seconds.strip());
        } catch (NumberFormatException e) {
            throw KenshoException.usage("invalid integer value \"" + seconds + "\" for connection option \"connect_timeout\"");
        }
        if (s <= 0) return;
        String v = Integer.toString(Math.max(2, s));
        props.putIfAbsent("loginTimeout", v);
        props.putIfAbsent("connectTimeout", v);
    }

    private static String encodedPath(Path p) {
        return java.net.URLEncoder.encode(p.toString(), StandardCharsets.UTF_8);
    }

    /**
     * Remembers the passwords a URL and PGPASSWORD give (Credentials.remember) before the target opens: a run records its
     * command line first, which may quote one where no pattern masks it (a --restart-command's text). Nothing else of
     * read's: no errors (open() gives them), no ~/.pgpass warnings, no notes.
     */
    static void rememberPasswords(String url, Map<String, String> env) {
        if (url == null) return;
        try {
            Parts parts = Parts.of(url);
            int at = parts.authority().lastIndexOf('@');
            String user = null;
            if (at >= 0) {
                String info = parts.authority().substring(0, at);
                int c = info.indexOf(':');
                user = percentDecode(c < 0 ? info : info.substring(0, c));
                if (c >= 0) dev.kensho.core.Credentials.remember(percentDecode(info.substring(c + 1)), user, parts.database());
            }
            for (String kv : parts.query().split("&")) {
                if (kv.startsWith("password=")) {
                    dev.kensho.core.Credentials.remember(java.net.URLDecoder.decode(kv.substring(9), StandardCharsets.UTF_8), user, parts.database());
                }
            }
        } catch (RuntimeException bad) {
            // a URL open() refuses, with its reason
        }
        if (present(env, "PGPASSWORD")) dev.kensho.core.Credentials.remember(env.get("PGPASSWORD"), env.get("PGUSER"), env.get("PGDATABASE"), "postgres");
    }

    /**
     * Why pgjdbc would not take this value of a URL parameter, or null: one of a fixed set (sslmode), a whole number
     * where the default is one (connectTimeout), true or false where the default is (pgjdbc reads any other word as
     * false). Found at the connection, sslmode=bogus was exit 3, a server's fault; a boolean's typo was silently false.
     */
    static String badValue(org.postgresql.PGProperty p, String value) {
        // listed with choices that are not their whole grammar: protocolVersion takes 3.0 and 3.2, requireAuth a list
        if (LOOSER_THAN_LISTED.contains(p.getName())) return null;
        // ssl: present and empty means on, as true does; anything else but false was read as false, silently
        if (p == org.postgresql.PGProperty.SSL) {
            return value.isEmpty() || value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false") ? null : "is neither true nor false";
        }
        String[] choices = p.getChoices();
        if (choices != null && choices.length > 0) {
            return java.util.Arrays.stream(choices).anyMatch(c -> c.equalsIgnoreCase(value)) ? null : "is none of " + String.join(", ", choices);
        }
        String d = p.getDefaultValue();
        if (d == null || p.name().toLowerCase(java.util.Locale.ROOT).contains("password")) return null;
        // a number (loginTimeout is read as a float; the whole-number ones then say so at the connection)
        if (d.matches("-?\\d+") && !value.strip().matches("-?\\d+(\\.\\d+)?")) return "is no number";
        if ((d.equals("true") || d.equals("false")) && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            return "is neither true nor false";
        }
        return null;
    }

    private static final java.util.Set<String> LOOSER_THAN_LISTED = java.util.Set.of("protocolVersion", "requireAuth");

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isEmpty();
    }

    /** The variable's value, noted in taken, or null when it is unset or empty (libpq passes over an empty one too). */
    private static String fromEnv(Map<String, String> env, String name, List<String> taken) {
        if (!present(env, name)) return null;
        taken.add(name);
        return env.get(name);
    }

    @Override
    public String toString() {
        return "ConnectionUrl[" + user + "@" + host + ":" + port + "/" + database + (password == null ? "" : ", password ***") + "]";
    }

}
