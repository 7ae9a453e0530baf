package dev.kensho.core.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Password lookup as libpq does it: PGPASSWORD, then PGPASSFILE or ~/.pgpass. */
final class PgPass {
    private PgPass() {}

    static String lookup(String host, int port, String db, String user) {
        String env = System.getenv("PGPASSWORD");
        if (env != null && !env.isEmpty()) return env;
        String file = System.getenv("PGPASSFILE");
        Path p = file != null && !file.isEmpty() ? Path.of(file) : Path.of(System.getProperty("user.home"), ".pgpass");
        if (!Files.isReadable(p)) return null;
        try {
            for (String line : Files.readAllLines(p)) {
                if (line.isBlank() || line.startsWith("#")) continue;
                List<String> f = fields(line);
                if (f.size() < 5) continue;
                if (matches(f.get(0), host) && matches(f.get(1), Integer.toString(port))
                        && matches(f.get(2), db) && matches(f.get(3), user)) {
                    return f.get(4);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    private static boolean matches(String pattern, String value) {
        return pattern.equals("*") || pattern.equals(value)
                || (pattern.equals("localhost") && (value.equals("127.0.0.1") || value.equals("::1")));
    }

    /** Splits on ':' honouring backslash escapes of ':' and '\'. */
    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                sb.append(line.charAt(++i));
            } else if (c == ':' && out.size() < 4) {
                out.add(sb.toString());
                sb.setLength(0);
            } else {
                sb.append(c);
            }
        }
        out.add(sb.toString());
        return out;
    }
}
