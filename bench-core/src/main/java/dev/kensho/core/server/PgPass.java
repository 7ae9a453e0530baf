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

    /**
     * The home directory libpq reads ~/.pgpass, ~/.pg_service.conf and ~/.postgresql/ from: $HOME, else the user's
     * entry in the password database (the JVM's user.home is that entry alone, so a HOME set for a job went unseen).
     */
    static Path home(Map<String, String> env) {
        String home = env.get("HOME");
        return home != null && home.startsWith("/") ? Path.of(home) : Path.of(System.getProperty("user.home"));
    }

    /**
     * A file libpq reads from the user's home by default: ~/NAME, and on Windows %APPDATA%\postgresql\WINDOWS_NAME
     * (a --url that psql logs in with found no password there).
     */
    static Path libpqFile(Map<String, String> env, Path home, String name, String windowsName) {
        String appData = env.get("APPDATA");
        boolean windows = System.getProperty("os.name", "").startsWith("Windows");
        return windows && appData != null && !appData.isEmpty() ? Path.of(appData, "postgresql", windowsName) : home.resolve(name);
    }

    /** @param host a host name or address as given (not resolved), or a socket directory */
    static String lookup(String host, int port, String db, String user, Map<String, String> env, Path home, PrintStream warnings) {
        String pw = env.get("PGPASSWORD");
        if (pw != null && !pw.isEmpty()) return pw;
        String file = env.get("PGPASSFILE");
        Path p = file != null && !file.isEmpty() ? Path.of(file) : libpqFile(env, home, ".pgpass", "pgpass.conf");
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
        // an IPv6 address as libpq holds it, without the URL's brackets: a line for ::1 matches [::1]
        if (host != null && host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        String hostKey = host == null || host.isEmpty() || DEFAULT_SOCKET_DIRS.contains(host) ? "localhost" : host;
        try {
            for (String line : Files.readAllLines(p)) {
                if (line.endsWith("\r")) line = line.substring(0, line.length() - 1);
                if (line.isEmpty() || line.startsWith("#")) continue;
                // field by field as libpq matches them: an unescaped ':' ends a field only where the value has ended,
                // so a line for ::1 may write its colons bare
                int at = 0;
                for (String value : new String[] {hostKey, Integer.toString(port), db, user}) {
                    at = at < 0 ? -1 : matchField(line, at, value);
                }
                if (at < 0) continue;
                String password = unescape(line.substring(at));
                return password.isEmpty() ? null : password; // libpq stops at the first match, empty or not
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /**
     * libpq's pwdfMatchesString: where the next field starts when the field at {@code from} matches {@code value}
     * (a bare '*' matches anything, an escaped character is itself), else -1.
     */
    private static int matchField(String line, int from, String value) {
        if (line.startsWith("*:", from)) return from + 2;
        int i = from, v = 0;
        while (i < line.length()) {
            boolean escaped = false;
            if (line.charAt(i) == '\\') {
                i++;
                escaped = true;
                if (i >= line.length()) return -1;
            }
            char c = line.charAt(i);
            if (c == ':' && !escaped && v == value.length()) return i + 1;
            if (v == value.length() || c != value.charAt(v)) return -1;
            i++;
            v++;
        }
        return -1;
    }

    /** libpq's de-escaping of the password: a backslash takes the next character literally; an unescaped ':' ends it. */
    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ':') break;
            if (c == '\\' && i + 1 < s.length()) c = s.charAt(++i);
            sb.append(c);
        }
        return sb.toString();
    }
}
