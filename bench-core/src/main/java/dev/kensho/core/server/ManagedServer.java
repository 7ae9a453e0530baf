package dev.kensho.core.server;

import dev.kensho.core.JvmShutdown;
import dev.kensho.core.KenshoException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * A PostgreSQL server Kensho runs itself, from the embedded binaries or --pg-bin: it owns the data
 * directory and the settings file {@code kensho.conf} that postgresql.conf includes, restarts when a
 * postmaster-level value changes, and stops the server when closed (a shutdown hook covers Ctrl-C).
 */
final class ManagedServer extends JdbcTarget implements ServerControl {
    static final String DATABASE = "kensho";
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private final TargetKind kind;
    private final Path bin;
    private final Path instance;   // owns data/, server.log, owner.pid
    private final Path data;
    private final ServerLog serverLog;
    private final boolean keep;
    /** In the instance directory while initdb runs: a data directory beside it is an interrupted one (see initdb). */
    static final String INITDB_STARTED = "initdb.started";
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final Thread shutdownHook = new Thread(this::jvmEnding, "kensho-server-stop");
    /** Held while the server is stopped and its instance removed: by close() or the shutdown hook, one at a time. */
    private final Object ending = new Object();
    private volatile boolean running;
    /**
     * Set as Kensho first starts (or clears a stale pid of) its data directory: before that, a postmaster.pid in it
     * is not Kensho's (a refused --keep-data DIR holding someone's running cluster), and nothing may stop it.
     */
    private volatile boolean started;
    /** Why the last start failed (its first line), null after one that succeeded: a later restart says so, not "killed". */
    private String lastStartFailure;
    private Process watchdog;
    /** Holds the lock on a kept directory while this server uses it (see InstanceDirectory.claim). */
    private FileChannel inUse;
    /** server.log's size when the last start began; -1 before any (see rejectedSetting). */
    private long startMark = -1;
    private String versionLine = "";

    private ManagedServer(TargetKind kind, Path bin, Path instance, boolean keep, int port) {
        super("127.0.0.1", port, DATABASE, "postgres", null, Map.of());
        this.kind = kind;
        this.bin = bin;
        this.instance = instance;
        this.data = instance.resolve("data");
        this.serverLog = new ServerLog(instance.resolve("server.log"));
        this.keep = keep;
    }

    /**
     * Why a managed server cannot run here, or null on Linux. Off Linux, /proc (orphans, the server's CPU), runuser and
     * setsid (the server's user as root, its watchdog), and on Windows /dev/null, are missing; zonky's binaries bench.jar
     * carries are Linux's: an initdb failing with a shell's "cannot execute binary file" told a Mac user nothing.
     */
    static String unsupportedPlatform() {
        String os = System.getProperty("os.name", "?");
        if (os.toLowerCase(java.util.Locale.ROOT).startsWith("linux")) return null;
        return "Kensho manages a PostgreSQL server (embedded, or --pg-bin) on Linux only, not on " + os
                + "; give --url of a server you run, or --testcontainers where a Docker engine runs";
    }

    static void refuseUnsupportedPlatform() {
        String why = unsupportedPlatform();
        if (why != null) throw new KenshoException(KenshoException.TARGET, why);
    }

    /**
     * Starts a server from bin. With keepDir the data survive close() and a later start reuses
     * them; otherwise the instance lives under KenshoHome/instances and is deleted on close.
     */
    public static ManagedServer start(TargetKind kind, Path bin, Path keepDir, Map<String, String> initialSettings) {
        refuseUnsupportedPlatform();
        if (!Files.isDirectory(bin)) {
            throw KenshoException.usage("--pg-bin " + bin + ": " + (Files.exists(bin) ? "not a directory" : "no such directory")
                    + " (give the bin directory of an installed PostgreSQL, e.g. /usr/lib/postgresql/15/bin)");
        }
        for (String tool : List.of("initdb", "pg_ctl", "postgres")) {
            String noexec = Files.isRegularFile(bin.resolve(tool)) ? noexecMount(bin) : null;
            if (noexec != null && !Files.isExecutable(bin.resolve(tool))) {
                // the files are there with their x bits: "no executable initdb" sent the user looking at the binaries
                throw KenshoException.usage(kind == TargetKind.EMBEDDED
                        ? "KENSHO_HOME " + KenshoHome.dir() + " is on a file system mounted noexec (" + noexec + "): the PostgreSQL"
                                + " programs Kensho keeps there cannot run; set KENSHO_HOME to a directory on another file system"
                        : "--pg-bin " + bin + " is on a file system mounted noexec (" + noexec + "): its programs cannot run");
            }
            if (!Files.isExecutable(bin.resolve(tool))) {
                // the installation's directory for its bin directory (/usr/lib/postgresql/15): the one meant is named
                Path under = bin.resolve("bin");
                throw KenshoException.usage("--pg-bin " + bin + " is not a PostgreSQL bin directory: it has no executable " + tool
                        + (Files.isExecutable(under.resolve(tool)) ? " (" + under + " has: --pg-bin " + under + ")" : ""));
            }
        }
        initialSettings.forEach((k, v) -> {
            String why = refusal(k, v);
            if (why != null) throw KenshoException.usage("--set " + k + ": " + why);
        });
        InstanceDirectory.reapOrphans();
        for (int attempt = 1; ; attempt++) {
            ManagedServer s = startOnce(kind, bin, keepDir, initialSettings, attempt == 3);
            if (s != null) return s;
        }
    }

    /**
     * The mount point of the file system holding dir when it is mounted noexec, else null: the longest mount point of
     * /proc/self/mountinfo above dir's real path (fields 5 and 6: mount point, per-mount options).
     */
    static String noexecMount(Path dir) {
        try {
            Path real = dir.toRealPath();
            String best = null;
            boolean noexec = false;
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] f = line.split(" ");
                if (f.length < 6) continue;
                // octal escapes for spaces and the like, as the kernel writes them
                String point = f[4].replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
                if (!real.startsWith(Path.of(point))) continue;
                if (best == null || point.length() >= best.length()) {
                    best = point;
                    noexec = List.of(f[5].split(",")).contains("noexec");
                }
            }
            return noexec ? best : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;   // no /proc: the executable check below says what it can
        }
    }

    /**
     * One try of {@link #start}; null when another process took the port between choosing it and the server's
     * bind (initdb runs in between: seconds in which a busy machine's connections take ephemeral ports), and
     * that is not to be the last try.
     */
    private static ManagedServer startOnce(TargetKind kind, Path bin, Path keepDir, Map<String, String> initialSettings,
                                           boolean lastTry) {
        Path instance = null;
        FileChannel inUse = null;
        try {
            if (keepDir != null) {
                // a link's target: the server user was given the link (chown), not the directory it names
                if (Files.isSymbolicLink(keepDir) && !Files.exists(keepDir)) {
                    throw KenshoException.usage("--keep-data " + keepDir + " is a link to " + Files.readSymbolicLink(keepDir)
                            + ", which does not exist");
                }
                instance = Files.exists(keepDir) ? keepDir.toRealPath() : keepDir.toAbsolutePath();
                InstanceDirectory.refuseForeignFiles(keepDir, instance);
                // as root DIR is given to the server's user: another user's (their own kept server, its password file)
                // was taken from them, and the run then failed on their server's password
                if (ServerUser.isRoot() && Files.exists(instance)) {
                    String owner = Files.getOwner(instance).getName();
                    if (!owner.equals("root") && !owner.equals(ServerUser.NAME)) {
                        throw KenshoException.usage("--keep-data " + keepDir + " belongs to " + owner + ": as root, Kensho gives the"
                                + " directory to its server's user '" + ServerUser.NAME + "'; give one of root's own");
                    }
                }
                // before anything is made in it: a refusal left in-use.lock and owner.pid behind
                ServerUser.checkReachable(instance, "--keep-data");
                Files.createDirectories(instance);
                inUse = InstanceDirectory.claim(instance);
            } else {
                Path root = KenshoHome.makeDirectories(KenshoHome.trusted().resolve("instances"));
                instance = Files.createTempDirectory(root, "pg");
            }
            Files.writeString(instance.resolve("owner.pid"), Long.toString(ProcessHandle.current().pid()));
            ServerUser.checkReachable(instance, keepDir != null ? "--keep-data" : "KENSHO_HOME");
        } catch (IOException | RuntimeException e) {
            if (keepDir != null) InstanceDirectory.release(keepDir.toAbsolutePath(), inUse);
            // a throw-away directory made before the failure (a full disk took its owner.pid's bytes) is nobody's to reap
            else if (instance != null) InstanceDirectory.deleteTree(instance);
            if (e instanceof RuntimeException r) throw r;
            String reason = KenshoException.ioReason((IOException) e);
            // a full disk is the machine's state, not a wrong option: exit 3, as for the directory Kensho makes itself
            if (keepDir != null && !noSpace(e)) throw KenshoException.usage("--keep-data " + keepDir + ": cannot use it (" + reason + ")");
            throw new KenshoException(KenshoException.TARGET, "cannot create the server directory " + (keepDir != null ? keepDir
                    : KenshoHome.dir().resolve("instances") + " (" + KenshoHome.dir() + " is " + KenshoHome.chosenBy() + ")") + ": " + reason, e);
        }
        ManagedServer s = new ManagedServer(kind, bin, instance, keepDir != null, FreePort.choose());
        s.inUse = inUse;
        s.settings.putAll(initialSettings);
        // from the first step on: a Ctrl-C or a kill during initdb or the start must not leave a server running.
        // A kept directory's watchdog waits until initdb() has found it Kensho's: it would stop whatever runs there.
        Runtime.getRuntime().addShutdownHook(s.shutdownHook);
        try {
            // inside: its failure (an interrupt while it makes the server's user) closes what was made, the hook and directory too
            if (!s.keep) s.startWatchdog();
            s.initdb();
            s.ensurePassword();
            s.writeConf();
            if (s.keep) s.startWatchdog();
            s.startServer();
            s.refuseOverridden(initialSettings);
            s.ensureDatabase();
            // interrupted while its last steps (JDBC, which does not look) ran: the caller will never get the server
            if (Thread.currentThread().isInterrupted()) throw new KenshoException(KenshoException.FAILURE, "starting PostgreSQL interrupted");
        } catch (RuntimeException e) {
            String rejected = s.rejectedSetting(initialSettings);
            boolean portTaken = s.portTaken();
            s.close();
            // the settings a server starts with are the command line's --set (TargetSpec.set)
            if (rejected != null) throw KenshoException.usage("--set " + rejected);
            // not again for a start that was interrupted: each try is waited out to its end
            if (portTaken && !lastTry && !Thread.currentThread().isInterrupted()) return null;
            // a valid value the machine cannot give (shared_buffers beyond its memory): the settings are the lead
            if (!initialSettings.isEmpty() && e instanceof KenshoException k && k.getMessage().startsWith("starting PostgreSQL failed")) {
                throw new KenshoException(k.exitCode(), k.getMessage() + "; it was started with " + initialSettings.entrySet().stream()
                        .map(x -> x.getKey() + "=" + x.getValue()).collect(java.util.stream.Collectors.joining(", ")), k);
            }
            throw e;
        }
        return s;
    }

    /** Whether the last start failed because something else listens on or holds the chosen port. */
    private boolean portTaken() {
        return startMark >= 0 && serverLog.linesSince(startMark).stream().anyMatch(l -> l.contains("Address already in use"));
    }

    /**
     * A JVM killed with SIGKILL (a CI timeout, a killed test fork) runs no shutdown hook. A shell
     * that outlives it stops the server and removes the instance within a second, so no postgres is
     * left running, even where no later Kensho start in the same KENSHO_HOME would reap it.
     * close() ends it.
     */
    private void startWatchdog() {
        // a pg_ctl start under way when the JVM ends writes its pid file a moment later: look three times. Only while
        // owner.pid still names this JVM: a next run may already have claimed a kept directory and started its own
        // server there, which is not this watchdog's to stop
        String script = "while kill -0 \"$1\" 2>/dev/null; do sleep 1; done; for i in 1 2 3; do "
                + "if [ -f \"$2/postmaster.pid\" ] && [ \"$(cat \"$4/owner.pid\" 2>/dev/null)\" = \"$1\" ]; then "
                + String.join(" ", ServerUser.commandPrefix())
                + " \"$3\" -D \"$2\" -m immediate -w -t 60 stop; fi; sleep 1; done"
                + (keep ? "" : "; " + InstanceDirectory.TABLESPACES_RM + "rm -rf \"$4\"");
        // in a session of its own: a CI job killed as a process group (kill -9 -PGID, timeout) takes the JVM with it,
        // and the watchdog must outlive exactly that
        List<String> command = new ArrayList<>(Files.isExecutable(SETSID) ? List.of(SETSID.toString()) : List.of());
        command.addAll(List.of("sh", "-c", script, "kensho-watchdog", Long.toString(ProcessHandle.current().pid()),
                data.toString(), bin.resolve("pg_ctl").toString(), instance.toString()));
        try {
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            withoutCredentials(pb.environment());
            watchdog = pb.start();
        } catch (IOException e) {
            did("no watchdog (" + e.getMessage() + "): a killed JVM leaves the server to the next start's reaping");
        }
    }

    /**
     * The environment a managed server's tools run with: without libpq's variables (PGPASSWORD, PGPASSFILE, ...), which
     * are a remote target's, nor Kensho's own (KENSHO_MAVEN_REPOSITORY's https://user:password@host, KENSHO_TEST_URL's
     * URL): the server keeps its environment, and any user of the machine may log in to it as superuser (trust) and
     * read it (COPY FROM PROGRAM 'env').
     */
    static void withoutCredentials(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("PG") || k.startsWith("KENSHO_"));
    }

    private List<String> cmd(String tool, String... args) {
        List<String> c = new ArrayList<>(ServerUser.commandPrefix());
        c.add(bin.resolve(tool).toString());
        c.addAll(List.of(args));
        return c;
    }

    /** Whether an I/O failure was a full file system (ENOSPC), in whichever exception or cause said it. */
    static boolean noSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("No space left on device")) return true;
        }
        return false;
    }

    /**
     * Where a full file system under the instance is the likely cause of a tool's failure that said nothing: the space
     * left there, else "".
     */
    private String spaceLeft() {
        try {
            long free = Files.getFileStore(instance).getUsableSpace();
            return free >= 16L << 20 ? "" : " (the file system of " + instance + " has " + (free >> 10) + " kB free)";
        } catch (IOException e) {
            return "";
        }
    }

    private String exec(List<String> command, String what, long timeoutSeconds) {
        Path output = null;
        try {
            // the output goes to a file, not a pipe read to its end: a child that hangs, or a server that inherits the
            // pipe, would hold a read for ever, and the time limit would never be reached; in the temporary directory,
            // not the instance's: a full disk there took the tool's words (initdb failed: and nothing)
            try {
                output = Files.createTempFile("kensho-exec", ".out");
            } catch (IOException noTmp) {
                output = Files.createTempFile(instance, "exec", ".out");
            }
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("LC_ALL", "C");
            withoutCredentials(pb.environment());
            Process p = pb.start();
            // an interrupt (a cancelled start, a JUnit @Timeout) lets the tool finish first: an initdb left running wrote
            // into a directory already deleted, and the postmaster of a pg_ctl start came up after its directory went,
            // a server nobody would stop; what the tool did is then known, and close() can undo it
            boolean interrupted = false, done;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (true) {
                try {
                    done = p.waitFor(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
            if (!done) {
                p.destroyForcibly();
                throw new KenshoException(KenshoException.TARGET, what + " timed out after " + timeoutSeconds + " s");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String reason = ServerLog.failureReason(text), log = serverLog.tail(startMark);
                if (reason.isBlank()) reason = "it said nothing" + spaceLeft();
                else if (log.isEmpty()) reason += spaceLeft();
                // pg_ctl's "Examine the log output." says nothing once the log's line is quoted beside it
                if (!log.isEmpty() && reason.startsWith("Examine the log output")) {
                    throw new KenshoException(KenshoException.TARGET, what + " failed" + log);
                }
                throw new KenshoException(KenshoException.TARGET, what + " failed: " + reason + log);
            }
            // after its failure, which says more: interrupted or not, a tool that failed failed
            if (interrupted) throw new KenshoException(KenshoException.FAILURE, what + " interrupted");
            return text;
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, what + " failed: " + e.getMessage(), e);
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException ignored) {
                    // the instance directory goes with the server
                }
            }
        }
    }

    /**
     * "name=value: the server's words" when the last start failed over one of these settings
     * (a line it logged since then rejects the parameter), else null: a usage error, not a target failure.
     */
    private String rejectedSetting(Map<String, String> asked) {
        if (startMark < 0) return null;   // no start was tried: the failure came before it
        for (String l : serverLog.linesSince(startMark)) {
            // "postgres: ..." is a check of the settings made before logging starts ("max_connections" (1) too small)
            // "requires a Boolean value" (or a numeric one): a boolean's typo, or one of 9.6's booleans that became enums
            if (!(l.contains("invalid value") || l.contains("unrecognized configuration parameter") || l.contains("outside the valid range")
                    || l.contains("\" requires a ") || l.startsWith("postgres: "))) {
                continue;
            }
            for (var e : asked.entrySet()) {
                if (l.contains("\"" + e.getKey() + "\"")) return e.getKey() + "=" + e.getValue() + ": " + ServerLog.logMessage(l);
            }
        }
        return null;
    }

    /** The server's password where it has one ({@link #passwordAuth}), in the instance directory, the owner's only. */
    static final String PASSWORD_FILE = "kensho.pw";

    /**
     * Whether the server asks for a password. Run as an ordinary user, the server is that user: with trust, any other
     * user of the machine logged in as its superuser and ran programs as them (COPY ... TO PROGRAM), reading their
     * files and ~/.pgpass. As root the server is the user kensho, who owns nothing else: trust, as test servers have
     * (-Dkensho.serverPassword=true asks for the password there too).
     */
    static boolean passwordAuth() {
        return !ServerUser.isRoot() || Boolean.getBoolean("kensho.serverPassword");
    }

    @Override
    public java.util.Optional<Path> serverPasswordFile() {
        Path f = instance.resolve(PASSWORD_FILE);
        return passwordAuth() && Files.isRegularFile(f) ? java.util.Optional.of(f) : java.util.Optional.empty();
    }

    /**
     * Gives the server a password before it listens: a random one, set in single-user mode (which reads no network) and
     * kept in the instance directory (a kept data directory's next run reads it), and a pg_hba.conf that asks every
     * connection for it. Old data directories and templates made with trust are brought along the same way.
     */
    private void ensurePassword() {
        if (!passwordAuth()) return;
        Path file = instance.resolve(PASSWORD_FILE);
        Path hba = data.resolve("pg_hba.conf");
        String hbaText = "# Written by Kensho: the server runs as the user who started it, so every login needs its password.\n"
                + "host all all 127.0.0.1/32 md5\n";
        try {
            if (Files.isRegularFile(file) && Files.readString(hba).equals(hbaText)) {
                usePassword(Files.readString(file).strip());
                return;
            }
            byte[] bytes = new byte[24];
            new java.security.SecureRandom().nextBytes(bytes);
            String pw = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            Path sql = Files.createTempFile(instance, "kensho-password", ".sql");
            try {
                Files.writeString(sql, "ALTER ROLE postgres PASSWORD '" + pw + "';\n");
                ProcessBuilder pb = new ProcessBuilder(cmd("postgres", "--single", "-D", data.toString(), "-c", "listen_addresses=", "postgres"))
                        .redirectInput(sql.toFile()).redirectErrorStream(true);
                withoutCredentials(pb.environment());
                Process p = pb.start();
                String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                if (!p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0 || out.contains("ERROR:")) {
                    p.destroyForcibly();
                    // the line that says why (a FATAL after the LOG lines a start writes first)
                    String why = out.lines().filter(l -> l.contains("FATAL:") || l.contains("ERROR:") || l.contains("PANIC:")).findFirst()
                            .orElse(KenshoException.firstLine(out.strip()));
                    throw new KenshoException(KenshoException.TARGET, "cannot give the server its password (postgres --single): "
                            + dev.kensho.core.Credentials.mask(why.strip()), null);
                }
            } finally {
                Files.deleteIfExists(sql);
            }
            Path tmp = Files.createTempFile(instance, PASSWORD_FILE, ".tmp");   // rw------- as created
            Files.writeString(tmp, pw + "\n");
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.writeString(hba, hbaText);
            usePassword(pw);
            did("gave the server a password for every login (kept in " + file + ", readable by its owner only)");
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot give the server its password: " + KenshoException.ioReason(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KenshoException(KenshoException.FAILURE, "interrupted", e);
        }
    }

    private void initdb() {
        ServerUser.own(instance);
        Path marker = instance.resolve(INITDB_STARTED);
        if (Files.exists(marker) && Files.exists(data)) {
            // Kensho's own initdb, cut short (Ctrl-C, kill), before or after it wrote PG_VERSION: Kensho's to remove
            InstanceDirectory.deleteTree(data);
            did("removed the data directory an interrupted initdb left in " + data);
        }
        if (Files.exists(data.resolve("PG_VERSION"))) {
            if (!includesKenshoConf()) {
                throw KenshoException.usage(data + " is not a data directory Kensho finished making (no include of kensho.conf"
                        + " in its postgresql.conf); remove it, or give another directory");
            }
            checkSameMajor();
            did("reused data directory " + data);
            return;
        }
        try {
            Files.writeString(marker, "initdb under way since " + java.time.Instant.now() + "\n");
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot write " + marker + ": " + e.getMessage(), e);
        }
        InitdbTemplate template = InitdbTemplate.of(bin);
        boolean copied = template.copyTo(data);
        if (!copied) {
            // -N, not --no-sync: that long name came with 10 (9.6 spells it --nosync); the short one is every version's
            exec(cmd("initdb", "-D", data.toString(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "-N"),
                    "initdb", 300);
            // an initdb that exits 0 and makes nothing is not PostgreSQL's: said so, not as "cannot edit postgresql.conf"
            if (!Files.isRegularFile(data.resolve("PG_VERSION"))) {
                throw KenshoException.usage("--pg-bin " + bin + ": its initdb made no data directory in " + data
                        + " (is it PostgreSQL's initdb?)");
            }
        }
        try {
            Path conf = data.resolve("postgresql.conf");
            String text = Files.readString(conf);
            if (!text.contains("include_if_exists = 'kensho.conf'")) {
                Files.writeString(conf, text + "\n# Settings chosen by Kensho (--set, workloads); rewritten on every change.\n"
                        + "include_if_exists = 'kensho.conf'\n");
            }
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot edit postgresql.conf: " + e.getMessage(), e);
        }
        if (!copied) template.keep(data);   // before kensho.conf: that file is this server's
        try {
            Files.delete(marker);   // complete: from now on a later start may reuse it
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot remove " + marker + ": " + e.getMessage(), e);
        }
        did(copied ? "initdb " + data + " (a copy of " + template.dir() + ", initdb's data directory for this build, made once)"
                : "initdb " + data);
    }

    private boolean includesKenshoConf() {
        try {
            return Files.readString(data.resolve("postgresql.conf")).contains("include_if_exists = 'kensho.conf'");
        } catch (IOException e) {
            return false;
        }
    }

    /** A kept data directory of another major version cannot start; say so rather than what the server trips over first. */
    private void checkSameMajor() {
        try {
            String dataMajor = Files.readString(data.resolve("PG_VERSION")).strip();
            String version = exec(List.of(bin.resolve("postgres").toString(), "-V"), "postgres -V", 60).strip();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\) (\\d+)(?:\\.(\\d+))?").matcher(version);
            if (!m.find()) return;
            // a major was two numbers before 10 (PG_VERSION says 9.6), one since
            String major = Integer.parseInt(m.group(1)) >= 10 || m.group(2) == null ? m.group(1) : m.group(1) + "." + m.group(2);
            if (!major.equals(dataMajor)) {
                throw KenshoException.usage("--keep-data " + instance + " holds a PostgreSQL " + dataMajor
                        + " data directory; these binaries are PostgreSQL " + major
                        + " (keep each version's data in its own directory)");
            }
        } catch (IOException e) {
            // unreadable PG_VERSION: the server's own error will tell
        }
    }

    /** kensho.conf: connection settings plus every setting applied so far; atomically replaced. */
    private void writeConf() {
        StringBuilder sb = new StringBuilder("# Written by Kensho. Do not edit: it is rewritten before each measurement.\n");
        sb.append("listen_addresses = '127.0.0.1'\n");
        sb.append("port = ").append(port()).append('\n');
        // No Unix socket: the server user may not write /var/run/postgresql, and TCP is what clients use.
        sb.append("unix_socket_directories = ''\n");
        // in the file's quoted strings a backslash starts an escape (\b is a backspace): each is doubled
        settings.forEach((k, v) -> sb.append(k).append(" = '").append(v.replace("\\", "\\\\").replace("'", "''")).append("'\n"));
        try {
            Path tmp = data.resolve("kensho.conf.tmp");
            Files.writeString(tmp, sb.toString());
            Files.move(tmp, data.resolve("kensho.conf"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            ServerUser.own(data.resolve("kensho.conf"));
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot write kensho.conf: " + e.getMessage(), e);
        }
    }

    private void startServer() {
        started = true;
        startMark = serverLog.size();
        // A kept data directory may carry a stale pid file from a killed run.
        if (Files.exists(data.resolve("postmaster.pid"))) clearStalePidFile();
        try {
            exec(cmd("pg_ctl", "-D", data.toString(), "-l", serverLog.path().toString(), "-w", "-t", "120", "start"),
                    "starting PostgreSQL", 180);
        } catch (RuntimeException e) {
            lastStartFailure = KenshoException.firstLine(e);
            throw e;
        }
        lastStartFailure = null;
        running = true;
        forgetVersion();
        try (Connection c = connect("postgres"); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            versionLine = rs.getString(1);
        } catch (SQLException e) {
            throw translate(e, "postgres");
        }
    }

    /**
     * A kept directory's postmaster.pid left by a run its watchdog could not clean up after: the server it names, if
     * it still runs there, is stopped; a file naming any other process (its number taken since, e.g. after a reboot,
     * perhaps by another run's server) is removed, since pg_ctl stop would signal that process and wait two minutes.
     */
    private void clearStalePidFile() {
        Path pidFile = data.resolve("postmaster.pid");
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
        } catch (IOException | RuntimeException e) {
            pid = -1;   // empty or cut short: no server wrote it completely
        }
        Optional<ProcessHandle> process = pid > 0 ? ProcessHandle.of(pid).filter(ProcessHandle::isAlive) : Optional.empty();
        Boolean running = process.map(h -> InstanceDirectory.isPostmasterOf(h, data)).orElse(false);
        if (running == null) {
            throw KenshoException.usage(pidFile + " names process " + pid + ", which may be a server running in " + data
                    + "; stop it, or remove the file if it is not");
        }
        if (running) {
            stopQuietly();
            did("stopped the server a killed run left running in " + data);
            return;
        }
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot remove the stale " + pidFile + ": " + e.getMessage(), e);
        }
        did("removed a stale postmaster.pid (process " + pid + " is no server of " + data + ")");
    }

    private void ensureDatabase() {
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (rs.next()) return;
            }
            s.execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw KenshoException.target("cannot create database " + DATABASE + ": " + KenshoException.firstLine(e), e);
        }
    }

    private void stopServer() {
        stopServer(false);
    }

    /**
     * Stops the server: a fast shutdown (with its checkpoint) unless immediate is asked (data about to be deleted have
     * nothing to keep) or the server crashed since it started. PostgreSQL 18 asked for a fast shutdown during crash
     * recovery never finishes it (its startup process ends, the postmaster waits on): where a fast shutdown does not
     * finish, an immediate one follows.
     */
    private void stopServer(boolean immediate) {
        continueIfStopped();
        ServerLog.CrashScan scan = startMark < 0 ? null : new ServerLog.CrashScan(startMark);   // one, on from where it stopped, every 50 ms
        String crash = scan == null ? null : scan.scan(serverLog.path());
        // a command that failed on its killed backend comes here at once: on a loaded machine the postmaster may not
        // have reaped it yet, and it logs the crash as it reaps. Until then it still takes new connections, so a
        // quarter second passes before one counts as healthy; a server that refuses them is resetting, and its log
        // line is awaited up to 3 s
        long since = System.nanoTime();
        for (long waited = 0; crash == null && waited < 3_000_000_000L; waited = System.nanoTime() - since) {
            if (waited >= 250_000_000L && acceptsConnections()) break;
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
            crash = scan == null ? null : scan.scan(serverLog.path());
        }
        if (crash != null) {
            did("the server crashed (server log: " + crash + "); stopped with -m immediate");
            ServerActions.crashed(kind.label() + " at 127.0.0.1:" + port(), crash);
        }
        if (!immediate && crash == null) {
            try {
                exec(cmd("pg_ctl", "-D", data.toString(), "-m", "fast", "-w", "-t", "120", "stop"), "stopping PostgreSQL", 180);
                running = false;
                return;
            } catch (KenshoException e) {
                if (!Files.exists(data.resolve("postmaster.pid"))) throw e;
                did("a fast shutdown did not finish (" + e.getMessage() + "); stopped with -m immediate");
            }
        }
        exec(cmd("pg_ctl", "-D", data.toString(), "-m", "immediate", "-w", "-t", "60", "stop"), "stopping PostgreSQL", 90);
        running = false;
    }

    /**
     * A server whose processes were stopped (SIGSTOP, a debugger's pause) takes no signal until continued: pg_ctl stop
     * waited its two minutes, and Ctrl-C's hook with it. Continued (SIGCONT), they shut down as asked.
     */
    private void continueIfStopped() {
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        } catch (IOException | RuntimeException e) {
            return;
        }
        ProcessHandle postmaster = ProcessHandle.of(pid).orElse(null);
        // a stale file's number may since name another process (a job stopped with Ctrl-Z): only a postgres is continued
        if (postmaster == null || !postmaster.info().command().map(c -> c.endsWith("/postgres")).orElse(false)) return;
        List<String> stopped = new ArrayList<>();
        java.util.stream.Stream.concat(java.util.stream.Stream.of(postmaster), postmaster.descendants()).forEach(h -> {
            try {
                String stat = Files.readString(Path.of("/proc", String.valueOf(h.pid()), "stat"));
                // "pid (comm) S ...": the state follows the command's closing parenthesis, which the command may contain
                if (stat.substring(stat.lastIndexOf(')') + 2).startsWith("T")) stopped.add(String.valueOf(h.pid()));
            } catch (IOException | RuntimeException gone) {
                // ended meanwhile, or no /proc
            }
        });
        if (stopped.isEmpty()) return;
        List<String> kill = new ArrayList<>(List.of("kill", "-CONT"));
        kill.addAll(stopped);
        try {
            new ProcessBuilder(kill).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
            did("continued " + stopped.size() + " stopped server process" + (stopped.size() == 1 ? "" : "es") + " (SIGCONT) to shut the server down");
        } catch (IOException e) {
            // no kill(1): pg_ctl's own wait says the rest
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the process postmaster.pid names is alive (false with no file). */
    private boolean postmasterAlive() {
        try {
            long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Why Kensho will not write this setting to kensho.conf, or null. It chooses where its servers listen (127.0.0.1, a
     * free port, no Unix socket): another listen_addresses would open a benchmark server to the network, another port
     * lose it. A line break (or other control character) would end the quoted value in the file.
     */
    static String refusal(String name, String value) {
        if (List.of("listen_addresses", "port", "unix_socket_directories").contains(name.toLowerCase(java.util.Locale.ROOT))) {
            return "Kensho sets it on the servers it runs (127.0.0.1, a free port, no Unix socket)";
        }
        // another pg_hba.conf would drop the password a server run by an ordinary user asks for (a trust line let any
        // user of the machine in as its superuser), silently
        if (List.of("hba_file", "ident_file").contains(name.toLowerCase(java.util.Locale.ROOT))) {
            return "Kensho writes who may log in to the servers it runs (their pg_hba.conf; they use no pg_ident.conf)";
        }
        // another data directory started the server on that cluster (a kept one, another run's), which then outlived the
        // failed start unowned: Kensho waited for its own and gave up
        if (List.of("data_directory", "config_file").contains(name.toLowerCase(java.util.Locale.ROOT))) {
            return "Kensho owns the data directory and configuration of the servers it runs (--keep-data DIR keeps one of them)";
        }
        if (value.chars().anyMatch(ch -> ch < 0x20 && ch != '\t')) return "a value cannot hold a line break or other control character";
        return null;
    }

    /**
     * Refuses settings a postgresql.auto.conf entry (an ALTER SYSTEM's: a kept data directory's, or the run's own --setup)
     * would override: PostgreSQL reads that file after kensho.conf, so the server would run with the file's value while
     * the run records Kensho's.
     */
    private void refuseOverridden(Map<String, String> wanted) {
        if (wanted.isEmpty()) return;
        try (Connection c = connect("postgres");
             var ps = c.prepareStatement("SELECT name, setting, sourcefile FROM pg_file_settings WHERE name = ANY (?)"
                     + " AND sourcefile NOT LIKE '%/kensho.conf' AND seqno > (SELECT min(seqno) FROM pg_file_settings"
                     + " WHERE sourcefile LIKE '%/kensho.conf') ORDER BY seqno DESC")) {
            ps.setArray(1, c.createArrayOf("text", wanted.keySet().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    String name = rs.getString(1);
                    throw KenshoException.usage(name + "=" + wanted.get(name) + " would not take: " + rs.getString(3) + " sets it to '"
                            + rs.getString(2) + "', and PostgreSQL reads that file after Kensho's settings (remove the line, or ALTER SYSTEM RESET "
                            + name + ")");
                }
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_file_settings: " + KenshoException.firstLine(e), e);
        }
    }

    /** The server log's line telling that a server process crashed (or was killed) since the last start, else null. */
    private String crashSinceStart() {
        return startMark < 0 ? null : new ServerLog.CrashScan(startMark).scan(serverLog.path());
    }

    @Override
    public long logMark() {
        return serverLog.size();
    }

    @Override
    public Optional<String> crashSince(long mark, long waitMillis) {
        return serverLog.crashSince(mark, waitMillis);
    }

    private void jvmEnding() {
        JvmShutdown.begin();
        synchronized (ending) {
            // all of it now, not half by a close() the halt cuts short; a server still running keeps its directory
            // (deleted, nothing could stop it): the watchdog, or a later start's reaping, stops it
            if (stopQuietly() && !keep) InstanceDirectory.deleteInstance(instance);
        }
    }

    /** True when no server of Kensho's runs here any more (or never did). */
    private boolean stopQuietly() {
        if (!started) return true;
        try {
            // a non-kept instance's data go with the server: no shutdown checkpoint to wait for
            if (Files.exists(data.resolve("postmaster.pid"))) stopServer(!keep);
            return true;
        } catch (RuntimeException e) {
            return !Files.exists(data.resolve("postmaster.pid"));   // best effort on the way out
        }
    }

    @Override
    public TargetKind kind() {
        return kind;
    }

    @Override
    public String describe() {
        String v = versionLine.isEmpty() ? "" : versionLine.split(",")[0];
        return kind.label() + " " + v + " at 127.0.0.1:" + port() + " (data " + data + ")";
    }

    @Override
    public ServerControl control() {
        return this;
    }

    @Override
    public boolean sameHost() {
        return true;
    }

    @Override
    public boolean canRestart() {
        return true;
    }

    /** Synchronized with {@link #apply}: parallel tests share the server, and two stop/start sequences must not interleave. */
    @Override
    public synchronized void restart() {
        restartServer();
        did("restarted");
    }

    private void restartServer() {
        // the exit hook stops the server: a restart now would start it again behind the hook's back
        if (JvmShutdown.begun()) throw new KenshoException(KenshoException.FAILURE, "interrupted: no restart", null);
        if (postmasterAlive()) {
            lastStartFailure = null;   // a start that timed out came up after all: a later end is not that start's
            stopServer();
        } else {
            // killed, or ended on its own: pg_ctl stop would fail on it ("No such process"), and the server stay down
            running = false;
            // a start that failed (its port taken meanwhile, a bad line in a kept postgresql.conf) left it down: nothing killed it
            did(lastStartFailure != null ? "PostgreSQL was down, its last start having failed (" + lastStartFailure + "): started it again"
                    : "the postmaster had ended (" + Optional.ofNullable(crashSinceStart()).orElse("killed or stopped from outside") + "): started it again");
        }
        startServer();
        sessionChanged();
    }

    @Override
    public synchronized SettingsOutcome apply(Map<String, String> wanted) {
        if (JvmShutdown.begun()) throw new KenshoException(KenshoException.FAILURE, "interrupted: no more settings changes", null);
        wanted.forEach((k, v) -> {
            String why = refusal(k, v);
            if (why != null) throw KenshoException.usage(k + "=" + v + ": " + why);
        });
        Map<String, String> refused = new LinkedHashMap<>();
        List<String> actions = new ArrayList<>();
        Map<String, String> changing = new LinkedHashMap<>();
        Map<String, Current> current;
        try (Connection c = connect()) {
            wanted = SettingValue.spelledAsServer(c, wanted);
            current = current(c, wanted.keySet());
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_settings: " + KenshoException.firstLine(e), e);
        }
        Map<String, String> before = new LinkedHashMap<>(settings);
        boolean restartNeeded = false;
        boolean changed = false;
        // a backend-level setting reaches only sessions that start after the reload: the pools' idle ones would keep the old value
        boolean newSessionsOnly = false;
        for (var e : wanted.entrySet()) {
            Current now = current.get(e.getKey());
            String ctx = now == null ? null : now.context();
            if (ctx == null) {
                refused.put(e.getKey(), "unknown setting");
                continue;
            }
            // the server's value however it is written (16384 for 128MB of shared_buffers): a string compare restarted it for nothing
            if (e.getValue().equals(settings.get(e.getKey())) || now.serverWideSame(e.getValue())) continue;
            if (ctx.equals("internal")) {
                refused.put(e.getKey(), "fixed when the server was built or initialised (context internal)");
                continue;
            }
            String old = settings.put(e.getKey(), e.getValue());
            changing.put(e.getKey(), e.getValue());
            changed = true;
            if (ctx.equals("postmaster")) {
                restartNeeded = true;
                actions.add("set " + e.getKey() + " " + (old == null ? "(default)" : old) + " → " + e.getValue() + " (restart)");
            } else {
                actions.add("set " + e.getKey() + " = " + e.getValue());
                // and pgjdbc's own TimeZone and DateStyle: a session has them from its login (JdbcTarget.afterLogin)
                newSessionsOnly |= ctx.equals("backend") || ctx.equals("superuser-backend") || List.of("TimeZone", "DateStyle").contains(e.getKey());
            }
        }
        if (changed) {
            try {
                refuseOverridden(changing);
            } catch (KenshoException e) {
                settings.clear();
                settings.putAll(before);
                throw e;
            }
            writeConf();
            try {
                if (restartNeeded) {
                    restartServer();
                    actions.add("restarted PostgreSQL for postmaster-level settings");
                } else {
                    reload();
                    if (newSessionsOnly) sessionChanged();
                }
            } catch (KenshoException e) {
                String rejected = running ? null : rejectedSetting(wanted);
                boolean wasDown = !running;
                // A value the server rejects must not leave a server that cannot start.
                settings.clear();
                settings.putAll(before);
                writeConf();
                if (wasDown) {
                    try {
                        startServer();
                    } catch (RuntimeException again) {
                        // said too, or the notes went on as if the settings before had been restored
                        did("could not " + String.join(", ", actions) + ": " + (rejected != null ? rejected : e.getMessage())
                                + "; starting PostgreSQL again with the settings before failed too: " + KenshoException.firstLine(again));
                        throw again;
                    }
                    sessionChanged();   // the pools' connections went with the failed restart
                } else {
                    reload();
                }
                // run.json's notes tell what the server went through, a failed restart among it
                did("could not " + String.join(", ", actions) + ": " + (rejected != null ? rejected : e.getMessage())
                        + (wasDown ? "; started PostgreSQL again with the settings before" : "; put back the settings before"));
                if (rejected != null) throw KenshoException.usage(rejected);
                throw e;
            }
        }
        actions.forEach(this::did);
        Map<String, String> applied = new LinkedHashMap<>(wanted);
        applied.keySet().removeAll(refused.keySet());
        return new SettingsOutcome(applied, restartNeeded, refused, actions);
    }

    /**
     * A setting as this server has it. Where its value is a session's (sent by the client, or ALTER DATABASE / ROLE), the
     * server's own may differ, so only its kensho.conf entry says what it has.
     */
    private record Current(String context, String setting, String unit, String vartype, String source) {
        boolean serverWideSame(String wanted) {
            return !List.of("client", "session", "database", "user", "database user").contains(source)
                    && SettingValue.same(vartype, setting, unit, wanted);
        }
    }

    @Override
    protected Map<String, String> serverSettings() {
        synchronized (this) {
            return new LinkedHashMap<>(settings);
        }
    }

    /** The named settings from pg_settings, over c; names the server does not know are left out. */
    private static Map<String, Current> current(Connection c, Iterable<String> names) throws SQLException {
        Map<String, Current> out = new LinkedHashMap<>();
        try (var ps = c.prepareStatement("SELECT context, setting, unit, vartype, source FROM pg_settings WHERE name = ?")) {
            for (String n : names) {
                ps.setString(1, n);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) out.put(n, new Current(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
                }
            }
        }
        return out;
    }

    private void reload() {
        long logMark = serverLog.size();
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SELECT pg_reload_conf()");
        } catch (SQLException e) {
            throw KenshoException.target("pg_reload_conf failed: " + KenshoException.firstLine(e), e);
        }
        // SIGHUP is asynchronous: wait until a new backend sees every value, so the next
        // measurement cannot start under the old settings.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Connection c = connect("postgres"); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE '%kensho.conf' AND NOT applied AND error IS NULL")) {
                rs.next();
                if (rs.getInt(1) == 0) break;
            } catch (SQLException e) {
                break;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        checkFileErrors(logMark);
    }

    /** Throws for a value in kensho.conf the server rejected on this reload; logMark: server.log's size before it. */
    private void checkFileErrors(long logMark) {
        // pg_file_settings says "setting could not be applied" both for a value the server rejects and
        // for a postmaster-level change awaiting a restart. Those restart rather than reload here, so
        // only the first can be meant: a rejected value, which must not stay in kensho.conf, where it
        // would stop the next restart.
        try (Connection c = connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT f.name, f.setting, f.error FROM pg_file_settings f"
                     + " LEFT JOIN pg_settings p ON p.name = f.name WHERE f.error IS NOT NULL"
                     + " AND (f.error <> 'setting could not be applied' OR p.context IS DISTINCT FROM 'postmaster')")) {
            if (rs.next()) {
                String name = rs.getString(1);
                String error = rs.getString(3);
                if (error.equals("setting could not be applied")) error = serverLog.line(logMark, '"' + name + '"', error);
                throw KenshoException.usage(name + "=" + rs.getString(2) + ": " + error);
            }
        } catch (SQLException e) {
            // pg_file_settings needs superuser; we are postgres here, so this is unexpected but harmless
        }
    }

    @Override
    public Map<String, String> applied() {
        return Collections.unmodifiableMap(settings);
    }

    /** Kept for {@link #actions()} and reported to the run's record (ServerActions). */
    private void did(String action) {
        log.add(action);
        ServerActions.record(kind.label() + " at 127.0.0.1:" + port(), action);
    }

    /** What Kensho did to this server so far (initdb, settings, restarts), for the run log. */
    @Override
    public List<String> actions() {
        return List.copyOf(log);
    }

    @Override
    public Optional<Path> dataDirectory() {
        return Optional.of(data);
    }

    @Override
    public Optional<Path> binDirectory() {
        return Optional.of(bin);
    }

    @Override
    public void close() {
        // an interrupted thread (a cancelled start or run) stops its server all the same: with the interrupt pending,
        // pg_ctl stop was not waited for, the server was taken for one that would not stop and kept running
        boolean interrupted = Thread.interrupted();
        try {
            closeUninterrupted();
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private void closeUninterrupted() {
        closePools();
        // after a Ctrl-C the command's thread comes here while the hook stops the server: interleaved, each one's
        // deleting tripped over the other's (or over pg_ctl's output file) and the halt cut the rest short
        synchronized (ending) {
            boolean stopped = stopQuietly();
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
            // a server that would not stop keeps its directory and its watchdog, which stops it once this JVM ends
            if (stopped && watchdog != null) watchdog.destroy();
            if (stopped && !keep) InstanceDirectory.deleteInstance(instance);
        }
        InstanceDirectory.release(instance, inUse);
    }

}
