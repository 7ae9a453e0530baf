package dev.kensho.core.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Password lookup as libpq does it (so a target psql and the C pgbench reach, Kensho reaches with the same file):
 * PGPASSWORD, then PGPASSFILE or ~/.pgpass, first matching line wins.
 */
final class PgPass {
    private PgPass() {}

    /**
     * The default socket directories of common libpq builds (upstream /tmp; Debian, Ubuntu and the PGDG packages
     * /var/run/postgresql): libpq matches a connection to its default directory against "localhost" lines, and a
     * connection to any other directory only against lines naming that directory.
     */
    private static final Set<String> DEFAULT_SOCKET_DIRS = Set.of("/tmp", "/var/run/postgresql", "/run/postgresql");

    private static final Set<PosixFilePermission> GROUP_OR_WORLD = EnumSet.complementOf(
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));

    /** @param host a host name or address as given (not resolved), or a socket directory */
    static String lookup(String host, int port, String db, String user) {
        return lookup(host, port, db, user, System.getenv(), Path.of(System.getProperty("user.home")), System.err);
    }

    static String lookup(String host, int port, String db, String user, Map<String, String> env, Path home, PrintStream warnings) {
        String pw = env.get("PGPASSWORD");
        if (pw != null && !pw.isEmpty()) return pw;
        String file = env.get("PGPASSFILE");
        Path p = file != null && !file.isEmpty() ? Path.of(file) : home.resolve(".pgpass");
        if (!Files.exists(p)) return null;
        // libpq's checks and words: a file others may read is ignored, never used
        if (!Files.isRegularFile(p)) {
            warnings.println("WARNING: password file \"" + p + "\" is not a plain file");
            return null;
        }
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
            if (mode.stream().anyMatch(GROUP_OR_WORLD::contains)) {
                warnings.println("WARNING: password file \"" + p + "\" has group or world access; permissions should be u=rw (0600) or less");
                return null;
            }
        } catch (UnsupportedOperationException | IOException e) {
            // no POSIX modes (libpq does not check on Windows either)
        }
        String hostKey = host == null || host.isEmpty() || DEFAULT_SOCKET_DIRS.contains(host) ? "localhost" : host;
        try {
            for (String line : Files.readAllLines(p)) {
                if (line.endsWith("\r")) line = line.substring(0, line.length() - 1);
                if (line.isEmpty() || line.startsWith("#")) continue;
                List<String> f = fields(line);
                if (f.size() < 5) continue;
                if (matches(f.get(0), hostKey) && matches(f.get(1), Integer.toString(port))
                        && matches(f.get(2), db) && matches(f.get(3), user)) {
                    String password = unescape(f.get(4));
                    return password.isEmpty() ? null : password; // libpq stops at the first match, empty or not
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** A field matches its value, or anything when it is a bare '*' (an escaped '\\*' is a literal star, as in libpq). */
    private static boolean matches(String rawField, String value) {
        return rawField.equals("*") || unescape(rawField).equals(value);
    }

    /** The line's five fields with their backslash escapes kept: split on the first four unescaped ':'. */
    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < line.length() && out.size() < 4; i++) {
            char c = line.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == ':') {
                out.add(line.substring(start, i));
                start = i + 1;
            }
        }
        out.add(line.substring(start));
        return out;
    }

    /** libpq's de-escaping: a backslash takes the next character literally. */
    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) c = s.charAt(++i);
            sb.append(c);
        }
        return sb.toString();
    }
}
