package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * libpq's connection service file (pg_service.conf): a service's parameters, looked up as libpq looks them up, so that
 * {@code PGSERVICE=name} (or {@code ?service=name}) reaches the server psql and pgbench reach. Without it a service
 * user's run went to whatever PGHOST or localhost named, and `pgbench init` rebuilt another server's tables.
 */
final class ServiceFile {
    private ServiceFile() {}

    /**
     * Where Debian's and Ubuntu's libpq (the project's machines, and the PGDG packages) look for the system-wide file
     * when PGSYSCONFDIR is unset; another build's is its own prefix's, which PGSYSCONFDIR names.
     */
    private static final Path SYSCONF_DIR = Path.of("/etc/postgresql-common");

    /**
     * The service's parameters, keywords as libpq spells them (host, port, dbname, ...): from PGSERVICEFILE or
     * ~/.pg_service.conf, else from PGSYSCONFDIR's pg_service.conf; the first file that has the service is the one read,
     * as in libpq. A service no file defines is refused, in libpq's words.
     */
    static Map<String, String> lookup(String service, Map<String, String> env, Path home) {
        String userFile = env.get("PGSERVICEFILE");
        Path user = userFile != null && !userFile.isEmpty() ? Path.of(userFile) : PgPass.libpqFile(env, home, ".pg_service.conf", ".pg_service.conf");
        Map<String, String> found = read(user, service);
        if (found != null) return found;
        String sysconf = env.get("PGSYSCONFDIR");
        Path system = (sysconf != null && !sysconf.isEmpty() ? Path.of(sysconf) : SYSCONF_DIR).resolve("pg_service.conf");
        found = read(system, service);
        if (found != null) return found;
        throw KenshoException.usage("definition of service \"" + service + "\" not found (looked in " + user + " and " + system
                + "; PGSERVICEFILE and PGSYSCONFDIR name others)");
    }

    /** The service's lines in this file, or null when the file is missing or has no such section. */
    private static Map<String, String> read(Path file, String service) {
        if (!Files.isRegularFile(file)) return null;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw KenshoException.usage("service file \"" + file + "\" cannot be read: " + KenshoException.ioReason(e));
        }
        Map<String, String> params = null;
        for (int n = 0; n < lines.size(); n++) {
            // as libpq: blanks around the line go, none before the '=' ("host = h" is a syntax error there)
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            if (line.startsWith("[")) {
                if (params != null) return params;   // the service's section ended
                if (line.equals("[" + service + "]")) params = new LinkedHashMap<>();
                continue;
            }
            if (params == null) continue;
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw KenshoException.usage("syntax error in service file \"" + file + "\", line " + (n + 1));
            }
            String key = line.substring(0, eq);
            if (key.isEmpty() || !key.equals(key.strip())) {
                throw KenshoException.usage("syntax error in service file \"" + file + "\", line " + (n + 1));
            }
            if (key.equals("service")) {
                throw KenshoException.usage("nested service specifications not supported in service file \"" + file + "\", line " + (n + 1));
            }
            // no quoting, the value is the rest of the line, blanks after the '=' aside (libpq reads "port= 5432" as
            // 5432); the first line of a keyword wins
            params.putIfAbsent(key, line.substring(eq + 1).strip());
        }
        return params;
    }
}
