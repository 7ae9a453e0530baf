package dev.kensho.core.env;

import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import dev.kensho.core.server.OwnStatements;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.Target;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Facts recorded with every run, so a result can be explained later: server version and every
 * non-default setting, JIT availability, checksums, the target (credentials masked), and the client
 * host. Written to run.json under "environment".
 */
public final class Environment {
    private Environment() {}

    public static Map<String, Object> capture(Target target) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target_kind", target.kind().label());
        m.put("target", Credentials.mask(target.describe()));
        // which build ran: a --pg-bin directory, or where the embedded binaries were unpacked
        target.control().binDirectory().ifPresent(bin -> m.put("bin_directory", bin.toString()));
        m.put("jdbc_url", Credentials.maskUrl(target.jdbcUrl()));
        m.put("user", target.user());
        m.put("same_host", target.sameHost());
        m.put("server", server(target));
        if (!target.sameHost()) {
            Map<String, Object> host = serverHost(target);
            if (!host.isEmpty()) m.put("server_host", host);
        }
        // a copy: applied() is the live map, and run.json, rewritten after every trial, showed the cell in progress (the
        // last one's shared_buffers beside the 128MB the server was read with) under "when the environment was read"
        m.put("kensho_settings", new LinkedHashMap<>(target.control().applied()));
        m.put("client", client());
        return m;
    }

    /**
     * A connection for a few questions, without named server-side statements: behind a transaction pooler (PgBouncer's
     * pool_mode=transaction) the server connection may hold an earlier client's S_1, and every other env run recorded
     * "prepared statement S_1 already exists" and jit_available false.
     */
    private static Connection oneOff(Target target) throws SQLException {
        Connection c = target.connect();
        try {
            c.unwrap(org.postgresql.PGConnection.class).setPrepareThreshold(0);
        } catch (SQLException notPgjdbc) {
            // another driver's connection has no such statements to avoid
        }
        return c;
    }

    /**
     * pg_jit_available(): false on a server built without LLVM (zonky's), where jit settings change nothing; true where
     * it cannot be asked (before 11 there is no jit setting to give, and the server refuses one).
     */
    public static boolean jitAvailable(Target target) {
        try (Connection c = oneOff(target)) {
            return jitAvailable(c);
        } catch (SQLException e) {
            return true;
        }
    }

    /**
     * pg_jit_available() with jit on for the question: it is false in a session with jit off, so a --set jit=off
     * recorded a JIT build as one without LLVM (and --matrix jit=on,off warned that jit changed nothing). 11 and later.
     */
    public static boolean jitAvailable(Connection c) throws SQLException {
        // without a role's statement_timeout: the first call loads llvmjit, which took longer than a 3 ms one, and the
        // record said false of a JIT build
        return OwnStatements.run(c, s -> {
            s.execute("SET LOCAL jit = on");
            try (ResultSet rs = s.executeQuery("SELECT pg_jit_available()")) {
                return !rs.next() || rs.getBoolean(1);
            }
        });
    }

    public static Map<String, Object> server(Target target) {
        Map<String, Object> m = new LinkedHashMap<>();
        // a remote target's --set reaches the server in the startup packet, as pgjdbc's own settings do (source "client"):
        // they are Kensho's, recorded as kensho_settings, not what pgjdbc set for its session
        java.util.Set<String> kensho = new java.util.HashSet<>();
        for (String name : target.control().applied().keySet()) kensho.add(name.toLowerCase(java.util.Locale.ROOT));
        Map<String, String> nonDefault = new LinkedHashMap<>();
        Map<String, String> driverSession = new LinkedHashMap<>();
        try (Connection c = oneOff(target); Statement s = c.createStatement()) {
            // first, and outside Kensho's own transaction below, whose SET LOCAL would hide the database's or role's
            // timeouts. Where a role's statement_timeout of a millisecond or two cancels even this, read within Kensho's
            // own (the timeouts are then its own, and are listed from pg_db_role_setting): the setting that explains
            // the run's failures is the one most worth recording
            String settingsError = null;
            try {
                readSettings(s, kensho, List.of(), nonDefault, driverSession);
            } catch (SQLException e) {
                nonDefault.clear();
                driverSession.clear();
                try {
                    OwnStatements.run(c, own -> readSettings(own, kensho, OwnStatements.TIMEOUTS, nonDefault, driverSession));
                    settingsError = "read without the session's timeouts (" + KenshoException.firstLine(e) + "): "
                            + String.join(", ", OwnStatements.TIMEOUTS) + " are listed where the database or role sets them only";
                } catch (SQLException again) {
                    nonDefault.clear();
                    driverSession.clear();
                    settingsError = "the settings could not be read: " + Credentials.mask(KenshoException.firstLine(again));
                }
            }
            String settingsFailed = settingsError;
            OwnStatements.run(c, own -> {
                // JIT came with 11: before it there is neither pg_jit_available() nor a jit setting, and no JIT
                boolean jit = ServerVersion.of(c).atLeast(11);
                try (ResultSet rs = own.executeQuery("SELECT version(), current_setting('server_version'), "
                        + "current_setting('server_version_num')::int, current_setting('data_checksums'), "
                        + (jit ? "current_setting('jit')" : "NULL"))) {
                    rs.next();
                    m.put("version", rs.getString(1));
                    m.put("server_version", rs.getString(2));
                    m.put("server_version_num", rs.getInt(3));
                    // asked with jit on below; no JIT before 11. Until asked, unknown (null), not false: a failure
                    // below left a JIT build recorded as one without LLVM
                    m.put("jit_available", jit ? null : false);
                    m.put("data_checksums", rs.getString(4));
                    if (jit) m.put("jit", rs.getString(5));
                }
                if (jit) m.put("jit_available", jitAvailable(c));
                m.put("clock_offset_ms", clockOffsetMs(own));
                // an empty map of a read that failed would read as "none"
                if (!nonDefault.isEmpty() || settingsFailed == null) m.put("non_default_settings", nonDefault);
                if (!driverSession.isEmpty() || settingsFailed == null) m.put("driver_session_settings", driverSession);
                if (settingsFailed != null) m.put("settings_error", settingsFailed);
                m.put("in_recovery", inRecovery(own));
                m.put("database", database(own));
                Map<String, Object> role = role(own);
                m.put("role", role);
                if (!Boolean.TRUE.equals(role.get("superuser")) && !((List<?>) role.get("privileges_of")).contains("pg_read_all_settings")) {
                    // pg_settings leaves them out for this role: their absence above says nothing about their values
                    m.put("settings_hidden", "settings only a superuser or pg_read_all_settings may read (shared_preload_libraries, "
                            + "data_directory, ...) are not listed");
                }
                return null;
            });
        } catch (SQLException e) {
            // what was read before the failure stays on record
            if (!nonDefault.isEmpty()) m.putIfAbsent("non_default_settings", nonDefault);
            if (!driverSession.isEmpty()) m.putIfAbsent("driver_session_settings", driverSession);
            m.put("error", Credentials.mask(e.getMessage()));
        }
        return m;
    }

    /**
     * The server's clock less this machine's, in ms (rounded; the query's round trip bounds its error): trials' started and
     * finished are this machine's times, a server log's are the server's, and a server on a host whose clock is off
     * had its log cut an hour wide of the trial.
     */
    private static long clockOffsetMs(Statement s) throws SQLException {
        long before = java.time.Instant.now().toEpochMilli();
        try (ResultSet rs = s.executeQuery("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")) {
            rs.next();
            long after = java.time.Instant.now().toEpochMilli();
            return rs.getLong(1) - (before + after) / 2;
        }
    }

    /**
     * pg_settings' non-default values into nonDefault (by name, "value (source)"), what pgjdbc's login set for its own
     * session into driverSession; of the names in own (Kensho's SET LOCAL), the database's and role's values only.
     */
    private static Void readSettings(Statement s, java.util.Set<String> kensho, java.util.Collection<String> own, Map<String, String> nonDefault,
                                     Map<String, String> driverSession) throws SQLException {
        java.util.TreeMap<String, String> sorted = new java.util.TreeMap<>();
        // current_setting() writes values as SHOW does (128MB, not "16384 8kB")
        try (ResultSet rs = s.executeQuery("SELECT name, current_setting(name), source FROM pg_settings "
                + "WHERE source NOT IN ('default', 'override') AND name NOT IN ('application_name') ORDER BY name")) {
            while (rs.next()) {
                String name = rs.getString(1), source = rs.getString(3);
                if (own.contains(name)) continue;
                // pgjdbc's startup packet sets DateStyle, TimeZone, client_encoding, extra_float_digits for its own
                // session: listed as the server's, they hid what the server itself is configured with
                if (!"client".equals(source)) sorted.put(name, rs.getString(2) + " (" + source + ")");
                else if (!kensho.contains(name.toLowerCase(java.util.Locale.ROOT))) driverSession.put(name, rs.getString(2));
            }
        }
        // what pgjdbc's own session settings hid of the database's and role's (ALTER DATABASE ... SET TimeZone): the
        // pgbench clients run with those, as libpq's do; in pg_settings' order (C's: DateStyle before autovacuum)
        java.util.Set<String> hidden = new java.util.HashSet<>(driverSession.keySet());
        hidden.addAll(own);
        hiddenByDriver(s, hidden).forEach(sorted::putIfAbsent);
        nonDefault.putAll(sorted);
        return null;
    }

    /**
     * The database's and role's values (ALTER DATABASE/ROLE ... SET) of settings pgjdbc's login set for its own session,
     * "value (source)" by name as pg_settings would list them: of the four places, the one the server applies last.
     */
    private static Map<String, String> hiddenByDriver(Statement s, java.util.Set<String> names) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        if (names.isEmpty()) return out;
        Map<String, String> canonical = new java.util.HashMap<>();
        for (String n : names) canonical.put(n.toLowerCase(java.util.Locale.ROOT), n);
        Map<String, Integer> rank = new java.util.HashMap<>();
        // pg_db_role_setting is readable by every role; setdatabase/setrole 0 mean every database/role
        try (ResultSet rs = s.executeQuery("SELECT (s.setdatabase <> 0)::int + 2 * (s.setrole <> 0)::int, c FROM pg_db_role_setting s, "
                + "unnest(s.setconfig) c WHERE s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database())) "
                + "AND s.setrole IN (0, (SELECT oid FROM pg_roles WHERE rolname = current_user))")) {
            while (rs.next()) {
                int r = rs.getInt(1);
                String[] nv = rs.getString(2).split("=", 2);
                String name = canonical.get(nv[0].toLowerCase(java.util.Locale.ROOT));
                if (name == null || nv.length < 2 || rank.getOrDefault(name, -1) > r) continue;
                rank.put(name, r);
                out.put(name, nv[1] + " (" + switch (r) {
                    case 3 -> "database user";
                    case 2 -> "user";
                    case 1 -> "database";
                    default -> "global";
                } + ")");
            }
        }
        return out;
    }

    /** Whether the server is a standby replaying WAL (a read replica): what a run there measured is not a primary's. */
    private static boolean inRecovery(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT pg_is_in_recovery()")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /**
     * The database's encoding and collation (pg_settings lists them as defaults, so non_default_settings had none): a
     * conversion's cost and a sort's order depend on them. The locale provider and ICU locale where the release has
     * them (15 on), read through to_jsonb so that one query serves every release's columns.
     */
    private static Map<String, Object> database(Statement s) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        try (ResultSet rs = s.executeQuery("SELECT current_database(), pg_encoding_to_char(d.encoding), d.datcollate, d.datctype,"
                + " to_jsonb(d) ->> 'datlocprovider', coalesce(to_jsonb(d) ->> 'datlocale', to_jsonb(d) ->> 'daticulocale')"
                + " FROM pg_database d WHERE d.datname = current_database()")) {
            if (!rs.next()) return m;
            m.put("name", rs.getString(1));
            m.put("encoding", rs.getString(2));
            m.put("collate", rs.getString(3));
            m.put("ctype", rs.getString(4));
            String provider = rs.getString(5);
            if (provider != null) m.put("locale_provider", switch (provider) {
                case "i" -> "icu";
                case "c" -> "libc";
                case "b" -> "builtin";
                default -> provider;
            });
            if (rs.getString(6) != null) m.put("locale", rs.getString(6));
        }
        return m;
    }

    /**
     * The role Kensho runs as and the predefined roles whose privileges it has: what it could observe and do
     * (CHECKPOINT, pg_read_file, other roles' pg_stat_activity rows, every setting) follows from them.
     */
    private static Map<String, Object> role(Statement s) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        try (ResultSet rs = s.executeQuery("SELECT current_user, rolsuper, ARRAY(SELECT p.rolname::text FROM pg_roles p "
                + "WHERE p.rolname IN ('pg_monitor', 'pg_read_all_settings', 'pg_read_all_stats', 'pg_read_server_files', 'pg_checkpoint') "
                + "AND pg_has_role(current_user, p.oid, 'USAGE') ORDER BY 1) FROM pg_roles WHERE rolname = current_user")) {
            rs.next();
            m.put("name", rs.getString(1));
            m.put("superuser", rs.getBoolean(2));
            // a superuser has the privileges of every one (pg_has_role says so): "none" read as the opposite
            m.put("privileges_of", List.of((String[]) rs.getArray(3).getArray()));
        }
        return m;
    }

    /**
     * The CPUs, memory and kernel of a server on another host, read through the server where its role may
     * read server files (see {@link ProcFiles}); empty where it may not. The studies list the database
     * host's machine next to their results.
     */
    public static Map<String, Object> serverHost(Target target) {
        Map<String, Object> m = new LinkedHashMap<>();
        try (Connection c = oneOff(target)) {
            ProcFiles files = ProcFiles.throughServer(c).files();
            if (files == null) return m;
            m.put("cpus", HostSampler.cpu(files.read("/proc/stat")).perCpu().keySet().stream().filter(k -> !k.equals("cpu")).count());
            String model = HostSampler.cpuModel(files.read("/proc/cpuinfo"));
            if (model != null) m.put("cpu_model", model);
            Long mem = HostSampler.memory(files.read("/proc/meminfo")).get("MemTotal");
            if (mem != null) m.put("memory_bytes", mem * 1024);
            String version = files.read("/proc/version").strip();
            m.put("kernel", version.indexOf(" (") > 0 ? version.substring(0, version.indexOf(" (")) : version);
        } catch (SQLException | java.io.IOException e) {
            m.put("error", Credentials.mask(e.getMessage()));
        }
        return m;
    }

    public static Map<String, Object> client() {
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            m.put("host", InetAddress.getLocalHost().getHostName());
        } catch (Exception e) {
            m.put("host", "unknown");
        }
        m.put("cpus", Runtime.getRuntime().availableProcessors());
        // what the number above folds together (affinity, quota) and the host it was taken from
        m.putAll(Confinement.ofThisProcess());
        m.put("cpu_model", HostSampler.cpuModel());
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                m.put("memory_bytes", os.getTotalMemorySize());
            }
        } catch (NoClassDefFoundError e) {
            // a runtime without the jdk.management module (a jlink'ed one): the memory goes unrecorded
        }
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        // which build: Debian's 17 and Temurin's 25 both read "OpenJDK 64-Bit Server VM"
        m.put("jvm_vendor", System.getProperty("java.vendor") + " (" + System.getProperty("java.vm.vendor") + "), " + System.getProperty("java.home"));
        m.put("jvm_max_heap_bytes", Runtime.getRuntime().maxMemory());
        m.put("kensho_version", KenshoVersion.version());
        m.put("kensho_commit", KenshoVersion.commit());
        return m;
    }
}
