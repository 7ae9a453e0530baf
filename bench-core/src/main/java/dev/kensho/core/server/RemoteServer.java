package dev.kensho.core.server;

import dev.kensho.core.Credentials;
import dev.kensho.core.JvmShutdown;
import dev.kensho.core.KenshoException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Someone else's server (--url), or a container Kensho cannot restart. Settings are session-level
 * only; a setting that needs a reload or restart is refused with its reason, unless the user gave
 * --restart-command, which is the explicit permission to ALTER SYSTEM and restart. What ALTER SYSTEM
 * changed is put back when the target closes (or the JVM ends), with one more restart if needed.
 */
final class RemoteServer extends JdbcTarget implements ServerControl {
    private final TargetKind kind;
    private final String restartCommand;
    private final Map<String, String> applied = new LinkedHashMap<>();
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final AutoCloseable resource;
    private String versionLine = "";
    /** Settings changed with ALTER SYSTEM → their earlier postgresql.auto.conf entry (null: none); see restoreSettings. */
    private final Map<String, String> originals = new LinkedHashMap<>();
    /** Whether the server may run with (or has on disk for its next start) a postmaster-level value of the run's. */
    private boolean restartToRestore;
    /** A --restart-command runs now (the run's, or the restore's): the exit hook says it waits for it. */
    private volatile boolean restartRunning;
    /** This run's claim on the server's configuration, taken before any change and held until the settings are put back. */
    private final SettingsClaim claim = new SettingsClaim(this);
    /** pg_postmaster_start_time() before Kensho's first ALTER SYSTEM: a server still started then never took the run's values. */
    private String startedBeforeChanges;
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    /** How long a --restart-command that returned may take to restart the server; shorter in tests. */
    static java.time.Duration restartGrace = java.time.Duration.ofSeconds(15);

    /**
     * Remote targets not closed yet, weakly held, for one hook when the JVM ends (Ctrl-C) without close(). First it
     * cancels what their connections run: a backend learns of a closed client only when it next reads or writes, so
     * a long query would go on running on someone's server. Then it puts back what ALTER SYSTEM changed; in this
     * order, so that no cancel meets the restore's own statements.
     */
    private static final java.util.Set<RemoteServer> OPEN =
            Collections.synchronizedSet(Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                JvmShutdown.begin();   // before any lock: apply() refuses from now on
                List<RemoteServer> open;
                synchronized (OPEN) {
                    open = new ArrayList<>(OPEN);
                }
                open.forEach(RemoteServer::cancelRunning);
                for (RemoteServer r : open) {
                    // the restore waits for it, silent until now: a command that hangs held the JVM without a word
                    if (r.restartRunning) {
                        System.err.println("bench: waiting for the run's --restart-command on " + r.host() + ":" + r.port()
                                + " to end (interrupt again to stop it)...");
                    }
                    r.restoreSettings();
                }
            }, "kensho-remote-servers-at-exit"));
        } catch (IllegalStateException alreadyEnding) {
            // first used while the JVM ends (Ctrl-C after --url was read, before the target opened): apply() refuses,
            // so there is nothing for a hook to put back; thrown, it made the class unusable (ExceptionInInitializerError)
            JvmShutdown.begin();
        }
    }

    RemoteServer(TargetKind kind, String host, int port, String database, String user, String password,
                 Map<String, String> urlProperties, String restartCommand, AutoCloseable resource) {
        super(host, port, database, user, password, urlProperties);
        this.kind = kind;
        this.restartCommand = restartCommand;
        this.resource = resource;
        OPEN.add(this);
    }

    /** Connects once to fail fast with a one-line reason (host, password, database). */
    RemoteServer verify() {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            versionLine = rs.getString(1);
        } catch (SQLException e) {
            throw translate(e, database());
        }
        return this;
    }

    @Override
    public TargetKind kind() {
        return kind;
    }

    @Override
    public String describe() {
        String v = versionLine.isEmpty() ? "" : versionLine.split(",")[0] + " ";
        return kind.label() + " " + v + "at " + jdbcUrl() + " as " + user();
    }

    @Override
    public ServerControl control() {
        return this;
    }

    @Override
    public boolean sameHost() {
        Boolean known = sameHost;
        if (known == null) sameHost = known = local(host());
        return known;
    }

    private volatile Boolean sameHost;

    /**
     * A socket directory, or a name whose addresses are this host's: a loopback one, or one of its interfaces'. By the
     * spelling alone ("localhost", "127.") the machine's own host name read as another host, whose CPU then counted
     * Kensho's own as other processes'. (A tunnel to 127.0.0.1 still reads as this host: nothing on the wire tells.)
     */
    static boolean local(String host) {
        if (host.startsWith("/")) return true;
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            for (java.net.InetAddress a : java.net.InetAddress.getAllByName(h)) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || java.net.NetworkInterface.getByInetAddress(a) != null) return true;
            }
        } catch (java.io.IOException e) {
            // a name that does not resolve here is not this host's
        }
        return false;
    }

    /** pg_postmaster_start_time() as text, or null when the server does not answer. */
    private String startTime() {
        try (Connection c = connect()) {
            return startTime(c);
        } catch (SQLException | KenshoException e) {
            return null;
        }
    }

    private static String startTime(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_postmaster_start_time()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Override
    public boolean canRestart() {
        return restartCommand != null;
    }

    /**
     * Synchronized with {@link #apply} and {@link #restoreSettings}: one restart command at a time, and none during a
     * settings change or a restore. Refused once the JVM is ending: the exit hook puts the settings back, restarting
     * itself if they need it; a run's restart then was one more of someone's server, or raced the hook's.
     */
    @Override
    public synchronized void restart() {
        if (JvmShutdown.begun()) throw new KenshoException(KenshoException.FAILURE, "interrupted: no restart", null);
        runRestartCommand();
    }

    /** Runs --restart-command and waits until the server is back, restarted; the restore's own restart too, as the JVM ends. */
    private void runRestartCommand() {
        if (restartCommand == null) {
            throw KenshoException.usage("Kensho does not restart a remote server without --restart-command");
        }
        if (JvmShutdown.signalledAgain()) {
            throw new KenshoException(KenshoException.FAILURE, "not run after a second interrupt", null);
        }
        // in a session of its own: a Ctrl-C reaches the whole foreground process group, and a restart cut half-way
        // would leave the server down; this way it finishes, and the exit hook restores after it
        List<String> cmd = Files.isExecutable(SETSID) ? List.of(SETSID.toString(), "-w", "sh", "-c", restartCommand)
                : List.of("sh", "-c", restartCommand);
        // a command that restarts nothing (a wrong service name, a no-op script) exits 0 too: measurements would then
        // run under the old values, said to be the new ones; the postmaster's start time tells a restart from none
        claim.take();
        String startedBefore = startTime();
        restartRunning = true;
        try {
            ServerUser.run(cmd, "run --restart-command",
                    KenshoHome.dir().resolve("logs").resolve("restart-command.log"));
        } finally {
            restartRunning = false;
        }
        did("ran --restart-command");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        // a command that returns before the restart (systemctl --no-block) is given a while to start it
        long unchangedDeadline = System.nanoTime() + restartGrace.toNanos();
        while (true) {
            try (Connection c = connect()) {
                String startedNow = startTime(c);
                if (startedBefore != null && startedBefore.equals(startedNow)) {
                    if (JvmShutdown.signalledAgain()) {
                        throw new KenshoException(KenshoException.FAILURE, "not restarted yet after --restart-command, and interrupted a second time", null);
                    }
                    if (System.nanoTime() > unchangedDeadline) {
                        throw KenshoException.target("--restart-command ran, but the server at " + host() + ":" + port()
                                + " was not restarted (its pg_postmaster_start_time is still " + startedNow
                                + "): the command must restart this server", null);
                    }
                    Thread.sleep(250);
                    continue;
                }
                forgetVersion();
                sessionChanged();
                claim.take();   // the restart ended the session that held it
                return;
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new KenshoException(KenshoException.FAILURE, "interrupted", ie);
            } catch (SQLException | KenshoException e) {
                if (e instanceof KenshoException k && k.getMessage().startsWith("--restart-command ran, but")) throw k;
                if (System.nanoTime() > deadline) {
                    throw KenshoException.target("server did not come back within 120 s after --restart-command", e);
                }
                if (JvmShutdown.signalledAgain()) {
                    throw new KenshoException(KenshoException.FAILURE, "not back after --restart-command, and interrupted a second time", e);
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new KenshoException(KenshoException.FAILURE, "interrupted", ie);
                }
            }
        }
    }

    /**
     * "name=value: " for the setting the server's words name (they quote it: parameter "work_mem"), as a managed
     * server's refusal leads; a generic lead when they name none of those asked.
     */
    private String rejectedSetting(Map<String, String> session, String words) {
        String lower = words == null ? "" : words.toLowerCase(java.util.Locale.ROOT);
        for (var e : session.entrySet()) {
            boolean asked = !e.getValue().equals(sessionSettings.get(e.getKey()));
            if (asked && lower.contains("\"" + e.getKey().toLowerCase(java.util.Locale.ROOT) + "\"")) return e.getKey() + "=" + e.getValue() + ": ";
        }
        return "setting rejected by the server: ";
    }

    @Override
    public synchronized SettingsOutcome apply(Map<String, String> wanted) {
        // the JVM is ending: the hook has restored, or is about to restore, what the run changed; nothing new now
        if (JvmShutdown.begun()) throw new KenshoException(KenshoException.FAILURE, "interrupted: no more settings changes", null);
        Map<String, Current> current = new LinkedHashMap<>();
        boolean superuser;
        try (Connection c = connect()) {
            wanted = SettingValue.spelledAsServer(c, wanted);
            superuser = readCurrent(c, wanted.keySet(), current);
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_settings: " + KenshoException.firstLine(e), e);
        }
        Map<String, String> refused = new LinkedHashMap<>();
        List<String> actions = new ArrayList<>();
        boolean restartNeeded = false;
        boolean reloadNeeded = false;
        Map<String, String> systemWide = new LinkedHashMap<>();
        Map<String, String> session = new LinkedHashMap<>(sessionSettings);
        for (var e : wanted.entrySet()) {
            String name = e.getKey();
            Current now = current.get(name);
            // a dotted name the server does not know yet is a custom one (myapp.tenant): any session may set it
            String ctx = now == null ? (name.indexOf('.') > 0 ? "user" : null) : now.context;
            if (ctx == null) {
                refused.put(name, "unknown setting");
            } else if (ctx.equals("user") || ctx.equals("backend") || ((ctx.equals("superuser") || ctx.equals("superuser-backend")) && superuser)) {
                // backend-level ones too: the session settings travel in the startup packet, where a backend takes them
                if (!e.getValue().equals(session.get(name))) actions.add("session SET " + name + " = " + e.getValue());
                session.put(name, e.getValue());
            } else if (SettingValue.same(now.vartype, now.setting, now.unit, e.getValue())) {
                // nothing to change: the server already has this value, however it is written
            } else if (restartCommand != null && superuser && (ctx.equals("sighup") || ctx.equals("postmaster"))) {
                systemWide.put(name, e.getValue());
                if (ctx.equals("postmaster")) restartNeeded = true; else reloadNeeded = true;
            } else if (restartCommand != null && (ctx.equals("sighup") || ctx.equals("postmaster"))) {
                // ALTER SYSTEM, and reading pg_file_settings to put the old entry back, are a superuser's: refused
                // before any change, where the server's "permission denied for view pg_file_settings" named neither
                refused.put(name, "needs a " + ctx + "-level change, which --restart-command makes with ALTER SYSTEM: only a superuser may,"
                        + " and " + user() + " is not one");
            } else if (ctx.equals("internal")) {
                // no restart command changes it: said as a managed server says it, not as a permission to give
                refused.put(name, "fixed when the server was built or initialised (context internal)");
            } else {
                refused.put(name, "needs a " + ctx + "-level change on a remote server; Kensho does not reconfigure it"
                        + (ctx.startsWith("superuser") ? " (not a superuser)" : " without --restart-command"));
            }
        }
        if (!systemWide.isEmpty()) {
            claim.take();
            try (Connection c = connect(); Statement s = c.createStatement()) {
                if (startedBeforeChanges == null) startedBeforeChanges = startTime(c);
                rememberOriginals(c, systemWide.keySet());
                for (var e : systemWide.entrySet()) {   // each differs from the server's value (SettingValue.same)
                    s.execute(alterSystemSet(e.getKey(), e.getValue()));
                    // recorded at once, in order: a restart that fails next must not leave the change unsaid
                    changed(actions, "ALTER SYSTEM SET " + e.getKey() + " = " + e.getValue());
                }
                if (reloadNeeded && !restartNeeded) {
                    s.execute("SELECT pg_reload_conf()");
                    changed(actions, "reloaded the configuration (pg_reload_conf)");
                }
            } catch (SQLException ex) {
                throw KenshoException.target("cannot change settings: " + KenshoException.firstLine(ex), ex);
            }
            if (restartNeeded) {
                restartToRestore = true;   // before the command: a Ctrl-C during it restores with a restart
                // refused after a Ctrl-C: the server never took the run's values, and the restore puts the file back
                // with a reload, where this restart and the restore's were two
                restart();
                actions.add("restarted with --restart-command");
            }
            // what the server runs with now: a value that did not take (a command line's -c, a reload not seen yet)
            // would be measured as the one asked for
            awaitTaken(systemWide);
        }
        // Session settings travel with new connections: the server must accept them before any connection
        // (a pool's included) gets them, and a rejected value leaves the earlier, good ones in force.
        if (!session.equals(sessionSettings)) {
            try (Connection c = connect(database(), properties(session))) {
                // connected: values accepted
            } catch (KenshoException | SQLException ex) {
                // the server answered and refused the startup packet: its words, not "cannot connect"
                String words = ex.getCause() instanceof SQLException sql ? serverWords(sql) : ex.getMessage();
                throw KenshoException.usage(rejectedSetting(session, words) + words);
            }
            sessionSettings = java.util.Collections.unmodifiableMap(session);
            sessionChanged();
        }
        // session SETs are the trials' own parameters; run.json's notes keep what changed the server, recorded as it happened
        actions.forEach(a -> {
            if (a.startsWith("session SET")) log.add(a);
        });
        Map<String, String> ok = new LinkedHashMap<>(wanted);
        ok.keySet().removeAll(refused.keySet());
        applied.putAll(ok);
        return new SettingsOutcome(ok, restartNeeded, refused, actions);
    }

    /**
     * Waits (a reload is asynchronous) until the server runs with each wanted value (but strings), as PostgreSQL reads it; throws when
     * one has not taken within 10 s: something the server reads after postgresql.auto.conf (its command line's -c)
     * overrides it, and a measurement would run under a value other than the one it records.
     */
    private void awaitTaken(Map<String, String> wanted) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Map<String, String> notTaken = new LinkedHashMap<>();
            try (Connection c = connect();
                 var ps = c.prepareStatement("SELECT name, setting, unit, vartype, current_setting(name) FROM pg_settings WHERE name = ANY (?)")) {
                ps.setArray(1, c.createArrayOf("text", wanted.keySet().toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String name = rs.getString(1);
                        // a string's spelling may differ from the server's with the same meaning (a list's spaces, a
                        // time zone's alias): only values SettingValue reads as PostgreSQL does are compared
                        if ("string".equals(rs.getString(4))) continue;
                        if (!SettingValue.same(rs.getString(4), rs.getString(2), rs.getString(3), wanted.get(name))) notTaken.put(name, rs.getString(5));
                    }
                }
            } catch (SQLException e) {
                throw KenshoException.target("cannot read pg_settings: " + KenshoException.firstLine(e), e);
            }
            if (notTaken.isEmpty()) return;
            if (System.nanoTime() > deadline) {
                StringBuilder sb = new StringBuilder();
                notTaken.forEach((n, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(n).append("=").append(wanted.get(n))
                        .append(" (it runs with ").append(v).append(")"));
                throw KenshoException.target("ALTER SYSTEM did not take on " + host() + ":" + port() + ": " + sb
                        + "; something the server reads after postgresql.auto.conf (a -c on its command line) overrides it", null);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new KenshoException(KenshoException.FAILURE, "interrupted", ie);
            }
        }
    }

    /**
     * The first time Kensho changes a setting with ALTER SYSTEM: what postgresql.auto.conf held for it before
     * (null: no entry), so that {@link #close()} can put it back. Read from pg_file_settings, which only a
     * superuser may read, as only a superuser may ALTER SYSTEM.
     */
    private void rememberOriginals(Connection c, Iterable<String> names) throws SQLException {
        List<String> fresh = new ArrayList<>();
        for (String n : names) if (!originals.containsKey(n)) fresh.add(n);
        if (fresh.isEmpty()) return;
        Map<String, String> auto = new LinkedHashMap<>();
        try (var ps = c.prepareStatement("SELECT name, setting FROM pg_file_settings WHERE name = ANY (?)"
                + " AND sourcefile LIKE '%postgresql.auto.conf' ORDER BY seqno")) {
            ps.setArray(1, c.createArrayOf("text", fresh.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) auto.put(rs.getString(1), rs.getString(2));   // the last entry wins, as in the server
            }
        }
        for (String n : fresh) {
            originals.put(n, auto.get(n));
        }
    }

    /**
     * Settings PostgreSQL reads as a list of quoted elements (GUC_LIST_QUOTE): a value in one pair of quotes would be
     * one element ("a, b" as a single library name), so their elements are given one by one.
     */
    private static final java.util.Set<String> QUOTED_LISTS = java.util.Set.of("shared_preload_libraries",
            "session_preload_libraries", "local_preload_libraries", "temp_tablespaces", "search_path", "unix_socket_directories");

    /** ALTER SYSTEM SET for a value as postgresql.conf (or --set) writes it. */
    static String alterSystemSet(String name, String value) {
        if (!QUOTED_LISTS.contains(name)) return "ALTER SYSTEM SET " + name + " = " + literal(value);
        List<String> items = listItems(value);
        if (items.isEmpty()) return "ALTER SYSTEM SET " + name + " = ''";
        return "ALTER SYSTEM SET " + name + " = " + String.join(", ", items.stream().map(RemoteServer::literal).toList());
    }

    private static String literal(String v) {
        return SqlIdentifier.literal(v);
    }

    /** A list value split as PostgreSQL's SplitIdentifierString does: commas, blanks around items, "double quotes". */
    static List<String> listItems(String value) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false, any = false;
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < value.length() && value.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cur.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
                any = true;
            } else if (ch == ',') {
                out.add(cur.toString().strip());
                cur.setLength(0);
                any = false;
            } else {
                cur.append(ch);
                any |= !Character.isWhitespace(ch);
            }
        }
        if (any || !out.isEmpty()) out.add(cur.toString().strip());
        return out;
    }

    /**
     * Puts back what ALTER SYSTEM changed (an earlier entry of postgresql.auto.conf, or none), then reloads, or
     * restarts with --restart-command when a postmaster-level setting was among them: the server is left as found.
     */
    synchronized void restoreSettings() {
        if (originals.isEmpty()) return;
        // said before the first connection: on a host that does not answer, that waits a connect timeout
        boolean ending = JvmShutdown.begun();
        if (ending) System.err.println("bench: putting back the settings Kensho changed on " + host() + ":" + port() + "...");
        Connection c = connectOrNull();
        // a server that never restarted since (a restart command that failed before its stop, or restarted nothing, or
        // apply's refused after a Ctrl-C) runs with what it had: the file put back and a reload leave it as found, where
        // a restart would be one more
        if (restartToRestore && c != null && startedBeforeChanges != null && startedBeforeChanges.equals(startTimeOrNull(c))) {
            restartToRestore = false;
        }
        Map<String, String> left = putBack(c);
        if (left == null && restartToRestore) {
            // down: a restart of the run's stopped it and did not start it again (the command failed half-way). The
            // command brings it back with the run's values still in postgresql.auto.conf: they go back now, and the
            // restart below starts it with what it had; without this it came back, and stayed, with the run's
            try {
                sayRestart(ending);
                runRestartCommand();
                did("the server did not answer: ran --restart-command to put the settings back");
                left = putBack(connectOrNull());
            } catch (KenshoException e) {
                // still down: said below
            }
        }
        if (left == null) {
            // still down, with the run's values in its postgresql.auto.conf (they may be why it does not start): the
            // user is told what to put back there, all in this line, since a run that measured nothing keeps no run.json
            System.err.println("warning: the server at " + host() + ":" + port() + " does not answer, and its postgresql.auto.conf"
                    + " still holds what Kensho's ALTER SYSTEM set: " + howToPutBack(originals.keySet()) + "; put that back, then start the server");
            originals.clear();
            restartToRestore = false;
            return;
        }
        String notRestored = left.isEmpty() ? "" : howToPutBack(left.keySet());
        if (!left.isEmpty()) {
            System.err.println("warning: could not put back " + left + " on " + host() + ":" + port()
                    + "; its postgresql.auto.conf still holds what Kensho's ALTER SYSTEM set: " + notRestored);
        }
        originals.clear();
        if (restartToRestore) {
            restartToRestore = false;
            try {
                sayRestart(ending);
                runRestartCommand();
            } catch (KenshoException e) {
                String file = left.isEmpty() ? "its postgresql.auto.conf is as Kensho found it" : "its postgresql.auto.conf is as Kensho found it but for " + notRestored;
                System.err.println("warning: settings restored, but --restart-command failed: " + KenshoException.firstLine(e)
                        + (answers() ? "; the server runs with the run's postmaster-level settings until it restarts (" + file + ")"
                                : "; the server does not answer: start it (" + file + ")"));
            }
        }
    }

    /** For each name, what its postgresql.auto.conf entry was before the run: "wal_level (no entry: remove its line)". */
    private String howToPutBack(java.util.Collection<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            String was = originals.get(n);
            out.add(n + (was == null ? " (it had no entry: remove its line)" : " (it was '" + was + "')"));
        }
        return String.join(", ", out);
    }

    /** As the exit hook's first line, before a restart that may take minutes; none after a second interrupt, which refuses it. */
    private void sayRestart(boolean ending) {
        if (ending && !JvmShutdown.signalledAgain()) System.err.println("bench: restarting " + host() + ":" + port() + " with --restart-command, for the postmaster-level settings"
                + " (interrupt again to stop it)...");
    }

    private Connection connectOrNull() {
        try {
            return connect();
        } catch (SQLException | KenshoException e) {
            return null;
        }
    }

    private static String startTimeOrNull(Connection c) {
        try {
            return startTime(c);
        } catch (SQLException e) {
            return null;
        }
    }

    /**
     * Puts each changed entry back over c, one by one (a value the server will not take back leaves the others restored),
     * reloads unless a restart follows, and closes c. What could not be put back, name to reason; null when c is null
     * (the server did not answer).
     */
    private Map<String, String> putBack(Connection c) {
        if (c == null) return null;
        Map<String, String> left = new LinkedHashMap<>();
        java.util.Set<String> pending = new java.util.LinkedHashSet<>(originals.keySet());
        try (c; Statement s = c.createStatement()) {
            for (var e : originals.entrySet()) {
                try {
                    if (e.getValue() == null) {
                        s.execute("ALTER SYSTEM RESET " + e.getKey());
                        did("ALTER SYSTEM RESET " + e.getKey() + " (restored)");
                    } else {
                        s.execute(alterSystemSet(e.getKey(), e.getValue()));
                        did("ALTER SYSTEM SET " + e.getKey() + " = " + e.getValue() + " (restored)");
                    }
                } catch (SQLException one) {
                    left.put(e.getKey(), KenshoException.firstLine(one));
                }
                pending.remove(e.getKey());
            }
            if (!restartToRestore) {
                s.execute("SELECT pg_reload_conf()");
                did("reloaded the configuration (pg_reload_conf)");
            }
        } catch (SQLException e) {
            // the connection broke half-way: what was not done yet stays changed
            pending.forEach(n -> left.put(n, KenshoException.firstLine(e)));
        }
        return left;
    }

    /** Whether the server takes a connection now. */
    private boolean answers() {
        try (Connection c = connect()) {
            return true;
        } catch (SQLException | KenshoException e) {
            return false;
        }
    }

    /** A setting as the server runs with it; {@link SettingValue} compares a wanted value with it as PostgreSQL reads both. */
    private record Current(String context, String setting, String unit, String vartype) {}

    /**
     * Reads the wanted settings as the server has them (names it does not know are left out) over c, and returns
     * whether the user is a superuser (who may SET superuser-context settings).
     */
    private boolean readCurrent(Connection c, Iterable<String> names, Map<String, Current> into) throws SQLException {
        try (var ps = c.prepareStatement("SELECT name, context, setting, unit, vartype FROM pg_settings WHERE name = ANY (?)");
             Statement s = c.createStatement()) {
            List<String> list = new ArrayList<>();
            names.forEach(list::add);
            ps.setArray(1, c.createArrayOf("text", list.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) into.put(rs.getString(1), new Current(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
            }
            try (ResultSet rs = s.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
                return rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_settings: " + KenshoException.firstLine(e), e);
        }
    }

    @Override
    public Map<String, String> applied() {
        return Collections.unmodifiableMap(applied);
    }

    private void changed(List<String> actions, String action) {
        actions.add(action);
        did(action);
    }

    /**
     * Kept for {@link #actions()} and reported to the run's record (ServerActions); a change to the server (ALTER SYSTEM, a
     * restart) is said on stderr as it happens too: it is someone else's server, and a command that measures nothing
     * (env) or is cut short keeps no record of it.
     */
    private void did(String action) {
        log.add(action);
        ServerActions.record("remote " + host() + ":" + port(), action);
        if (action.startsWith("ALTER SYSTEM") || action.contains("--restart-command") || action.startsWith("reloaded")) {
            System.err.println(Credentials.maskText("bench: " + host() + ":" + port() + ": " + action));   // a conninfo's value
        }
    }

    @Override
    public List<String> actions() {
        return List.copyOf(log);
    }

    @Override
    public Optional<Path> dataDirectory() {
        return Optional.empty();
    }

    @Override
    public Optional<Path> binDirectory() {
        return Optional.empty();
    }

    @Override
    public void close() {
        OPEN.remove(this);
        restoreSettings();
        claim.release();
        closePools();
        if (resource != null) {
            try {
                resource.close();
            } catch (Exception ignored) {
                // a container that will not stop is Testcontainers' Ryuk's to reap
            }
        }
    }

    /** A remote target for --url, connecting as {@link ConnectionUrl#read} reads it from the URL and the JVM's environment. */
    static RemoteServer fromUrl(String url, String user, String password, String restartCommand) {
        return fromUrl(url, user, password, restartCommand, System.getenv());
    }

    static RemoteServer fromUrl(String url, String user, String password, String restartCommand, Map<String, String> env) {
        ConnectionUrl c = ConnectionUrl.read(url, user, password, env);
        RemoteServer r = new RemoteServer(TargetKind.REMOTE, c.host(), c.port(), c.database(), c.user(), c.password(), c.properties(),
                restartCommand, null);
        if (c.service() != null) r.did("took service " + c.service() + " from the connection service file, as libpq does for what the URL leaves out");
        if (!c.fromEnvironment().isEmpty()) {
            r.did("took " + String.join(", ", c.fromEnvironment()) + " from the environment, as libpq does for what the URL leaves out");
        }
        return r;
    }
}
