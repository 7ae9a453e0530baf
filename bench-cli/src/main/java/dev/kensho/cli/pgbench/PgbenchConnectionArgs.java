package dev.kensho.cli.pgbench;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * pgbench's connection arguments on a {@code bench pgbench} command line: {@code -h HOST}, {@code -p PORT} and a
 * trailing DBNAME, which Kensho takes as one {@code --url} (its {@code -h} is --help). A pgbench user's command line
 * {@code bench pgbench run -h db -p 5432 -U postgres -S -T 60 bench} printed the help and exited 0 without running
 * anything, and without {@code -h} was refused as "Unknown options: '-p', '5432', 'bench'"; both now name the --url.
 */
public final class PgbenchConnectionArgs {
    private static final Set<String> COMMANDS = Set.of("run", "init", "sweep");

    private PgbenchConnectionArgs() {
    }

    /** Whether {@code qualifiedName} ("bench pgbench run") is one of the pgbench commands that take --url. */
    public static boolean isPgbenchCommand(String qualifiedName) {
        String[] words = qualifiedName.split(" ");
        return words.length == 3 && words[1].equals("pgbench") && COMMANDS.contains(words[2]);
    }

    /**
     * The --url option ("--url jdbc:postgresql://HOST:PORT/DBNAME") that pgbench's {@code -h HOST -p PORT DBNAME} among {@code args} (the command line) mean, if the
     * arguments picocli could not match ({@code unmatched}) are such: a host after -h, a -p, or a bare word.
     *
     * @param helpRequested picocli took a -h as --help: then only a host after it (the first unmatched word) makes it
     *                      pgbench's -h, and a lone -h stays help
     */
    public static Optional<String> hint(List<String> args, List<String> unmatched, boolean helpRequested) {
        if (unmatched.isEmpty()) return Optional.empty();
        String host = null, port = null, db = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String next = i + 1 < args.size() ? args.get(i + 1) : null;
            if ((a.equals("-h") || a.equals("--host")) && next != null && !next.startsWith("-")) {
                host = next;
                i++;
            } else if (a.startsWith("--host=")) {
                host = a.substring("--host=".length());
            } else if ((a.equals("-p") || a.equals("--port")) && next != null && !next.startsWith("-")) {
                port = next;
                i++;
            } else if (a.startsWith("--port=")) {
                port = a.substring("--port=".length());
            } else if (a.matches("-p\\d+")) {
                port = a.substring(2);
            }
        }
        if (helpRequested && (host == null || !unmatched.get(0).equals(host))) return Optional.empty();
        // DBNAME: pgbench's one non-option argument, the unmatched word that is no host or port value (pgbench refuses
        // a second one, and so is none of them taken for it here)
        int words = 0;
        for (int i = 0; i < unmatched.size(); i++) {
            String u = unmatched.get(i);
            // the word after an unknown option is its value ("-o /tmp/out" was told "--url jdbc:postgresql://localhost//tmp/out")
            // (not after one that has its value already: --foo=3 DBNAME, -o/tmp/out DBNAME)
            String prev = i > 0 ? unmatched.get(i - 1) : "";
            boolean valueOfUnknown = prev.startsWith("-") && !List.of("-h", "--host", "-p", "--port").contains(prev)
                    && (prev.startsWith("--") ? !prev.contains("=") : prev.length() == 2);
            if (!u.startsWith("-") && !u.equals(host) && !u.equals(port) && !valueOfUnknown) {
                db = u;
                words++;
            }
        }
        if (words > 1) db = null;
        boolean pgbenchLike = host != null || port != null || unmatched.contains("-p") || unmatched.contains("--port") || db != null;
        if (!pgbenchLike) return Optional.empty();
        if (db != null && (db.startsWith("postgresql://") || db.startsWith("postgres://"))) {
            return Optional.of("--url " + dev.kensho.core.Credentials.maskUrl(db));   // libpq's URI, which --url takes as it is
        }
        if (db != null && db.contains("=")) {
            // libpq's "host=... dbname=..." in DBNAME's place, as pgbench takes it: the URL it means
            Optional<String> conninfo = conninfoUrl(db);
            if (conninfo.isPresent()) return Optional.of("--url " + conninfo.get());
            db = null;
        }
        String dbPart = db == null ? "DBNAME" : db;
        String url;
        if (host != null && host.startsWith("/")) {
            // a Unix-domain socket directory, as pgbench's -h /var/run/postgresql
            url = "jdbc:postgresql:///" + dbPart + "?host=" + host + (port == null ? "" : "&port=" + port);
        } else {
            url = "jdbc:postgresql://" + (host == null ? "localhost" : host) + (port == null ? "" : ":" + port) + "/" + dbPart;
        }
        return Optional.of("--url " + url);
    }

    /**
     * A libpq connection string ({@code host=db port=5433 dbname='my db' user=u}) as a URL --url takes (libpq's keywords
     * as its parameters; a password is left out, for --password-file or ~/.pgpass), or empty when it is no such string.
     */
    static Optional<String> conninfoUrl(String conninfo) {
        java.util.Map<String, String> kv = new java.util.LinkedHashMap<>();
        int i = 0, n = conninfo.length();
        while (true) {
            while (i < n && Character.isWhitespace(conninfo.charAt(i))) i++;
            if (i >= n) break;
            int eq = conninfo.indexOf('=', i);
            if (eq < 0) return Optional.empty();
            String key = conninfo.substring(i, eq).strip();
            if (key.isEmpty() || key.chars().anyMatch(Character::isWhitespace)) return Optional.empty();
            i = eq + 1;
            while (i < n && Character.isWhitespace(conninfo.charAt(i))) i++;
            StringBuilder v = new StringBuilder();
            boolean quoted = i < n && conninfo.charAt(i) == '\'';
            if (quoted) i++;
            for (; i < n; i++) {
                char c = conninfo.charAt(i);
                if (c == '\\' && i + 1 < n) {
                    v.append(conninfo.charAt(++i));
                } else if (quoted ? c == '\'' : Character.isWhitespace(c)) {
                    i++;
                    break;
                } else {
                    v.append(c);
                }
            }
            kv.put(key, v.toString());
        }
        if (kv.isEmpty()) return Optional.empty();
        String host = kv.remove("host"), port = kv.remove("port"), db = kv.remove("dbname");
        kv.keySet().removeIf(k -> k.equalsIgnoreCase("password"));   // never in a hint, whatever its case
        StringBuilder url = new StringBuilder("jdbc:postgresql://");
        StringBuilder query = new StringBuilder();
        if (host != null && host.startsWith("/")) {
            query.append("host=").append(host);
        } else if (host != null) {
            url.append(host.contains(":") ? "[" + host + "]" : host);
        }
        if (port != null) {
            if (host != null && host.startsWith("/")) query.append("&port=").append(port);
            else url.append(':').append(port);
        }
        url.append('/').append(db == null ? "" : java.net.URLEncoder.encode(db, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"));
        for (var e : kv.entrySet()) {
            if (query.length() > 0) query.append('&');
            query.append(e.getKey()).append('=').append(java.net.URLEncoder.encode(e.getValue(), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("+", "%20"));
        }
        return Optional.of(url + (query.length() > 0 ? "?" + query : ""));
    }
}
