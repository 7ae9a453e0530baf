package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which server to measure, as the options common to every command describe it. Exactly one of
 * embedded (the default), --pg-bin, --url or --testcontainers.
 */
public final class TargetSpec {
    private PgRelease pgVersion;
    private Path pgBin;
    private String url;
    private String user;
    private Path passwordFile;
    /**
     * The file's password, read once when given: a pipe ({@code --password-file <(pass show db)}) holds it for one read, and a
     * second read found it "empty". Null with {@link #passwordFileError} set where it could not be read.
     */
    private String passwordFromFile;
    private String passwordFileError;
    private String testcontainersImage;
    private boolean testcontainers;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private Path keepData;
    private String restartCommand;

    /** An embedded server of this major (carried by bench.jar, or fetched: see {@link EmbeddedBinaries}); null: the newest carried. */
    public TargetSpec pgVersion(Integer major) { this.pgVersion = major == null ? null : PgRelease.major(major); return this; }
    /** An embedded server of a major ("17", "9.6") or one minor release ("16.6"), as --pg-version takes it. */
    public TargetSpec pgVersion(String release) { this.pgVersion = release == null ? null : PgRelease.parse(release); return this; }
    /** An embedded server of this release (see {@link PgRelease#parse}). */
    public TargetSpec pgVersion(PgRelease release) { this.pgVersion = release; return this; }
    /** A server run from the PostgreSQL binaries in this directory (initdb, pg_ctl, postgres), as --pg-bin. */
    public TargetSpec pgBin(Path dir) { this.pgBin = dir; return this; }
    /**
     * A server Kensho does not run (--url): never restarted or reconfigured without {@link #restartCommand}. What the
     * URL leaves out comes from libpq's environment (PGHOST, PGPORT, PGDATABASE, PGUSER, PGOPTIONS...), as for psql.
     */
    public TargetSpec url(String jdbcUrl) {
        this.url = jdbcUrl;
        ConnectionUrl.rememberPasswords(jdbcUrl, System.getenv());
        return this;
    }
    /** The role a remote target connects as (--user); null: the URL's, else PGUSER, else the operating-system user's name. */
    public TargetSpec user(String user) { this.user = user; return this; }
    /**
     * A file holding the remote role's password (--password-file): read once, now (a pipe holds it for one read), and
     * kept in memory only, never stored or printed; {@link #open()} says what is wrong with it.
     */
    public TargetSpec passwordFile(Path file) {
        this.passwordFile = file;
        passwordFromFile = null;
        passwordFileError = null;
        if (file == null) return this;
        try {
            passwordFromFile = Files.readString(file).strip();
            // masked from now on: the command line a run records before its target opens may quote it elsewhere
            dev.kensho.core.Credentials.remember(passwordFromFile);
        } catch (IOException | RuntimeException unreadable) {
            // open() says why
            passwordFileError = unreadable instanceof IOException io ? KenshoException.ioReason(io) : String.valueOf(unreadable.getMessage());
        }
        return this;
    }
    /** A Testcontainers server (needs org.testcontainers:postgresql and Docker); null image: the default. */
    public TargetSpec testcontainers(String image) { this.testcontainers = true; this.testcontainersImage = image; return this; }
    /** A server setting every measurement needs (--set); {@link #open()} fails where the server refuses it. */
    public TargetSpec set(String name, String value) { this.settings.put(name, value); return this; }
    /** Several settings, as {@link #set} each. */
    public TargetSpec settings(Map<String, String> s) { this.settings.putAll(s); return this; }
    /** Keeps a managed server's data directory here after it stops (--keep-data). */
    public TargetSpec keepData(Path dir) { this.keepData = dir; return this; }
    /** The command that restarts a remote server (--restart-command): the permission to ALTER SYSTEM and restart it. */
    public TargetSpec restartCommand(String command) { this.restartCommand = command; return this; }

    /** The release asked for, or null for the default (the newest bench.jar carries). */
    public PgRelease pgVersion() { return pgVersion; }
    /** The settings given with {@link #set}. */
    public Map<String, String> settings() { return Map.copyOf(settings); }
    /** The remote URL, or null. */
    public String url() { return url; }
    /** The password file, or null. */
    public Path passwordFile() { return passwordFile; }
    /** Whether open() connects to a server Kensho does not run (a URL or a container). */
    public boolean isRemote() { return url != null || testcontainers; }
    /** Where a managed server's data stays, or null. */
    public Path keepData() { return keepData; }
    /** The binaries' directory of a --pg-bin target, or null. */
    public Path pgBin() { return pgBin; }

    /** The kind of target open() will start or connect to. */
    public TargetKind kind() {
        if (url != null) return TargetKind.REMOTE;
        if (testcontainers) return TargetKind.TESTCONTAINERS;
        return pgBin != null ? TargetKind.LOCAL_BINARIES : TargetKind.EMBEDDED;
    }

    /** This spec with another embedded major (for --pg-version 16,17 sweeps). */
    public TargetSpec withPgVersion(int major) {
        return withPgVersion(PgRelease.major(major));
    }

    /** This spec with another embedded release (for --pg-version 10.6,11.1 sweeps). */
    public TargetSpec withPgVersion(PgRelease release) {
        TargetSpec t = copy();
        t.pgVersion = release;
        return t;
    }

    /**
     * The zonky build an embedded target runs ("18.6.0", "11.1.0"), resolved as {@link #open()} resolves it (which may ask
     * the Maven repository, once per JVM); null for other kinds of target.
     */
    public String embeddedBuild() {
        if (kind() != TargetKind.EMBEDDED) return null;
        return EmbeddedBinaries.build(pgVersion == null ? PgRelease.major(KenshoVersion.newestEmbeddedMajor()) : pgVersion);
    }

    /** An independent copy. */
    public TargetSpec copy() {
        TargetSpec t = new TargetSpec();
        t.pgVersion = pgVersion;
        t.pgBin = pgBin;
        t.url = url;
        t.user = user;
        t.passwordFile = passwordFile;
        t.passwordFromFile = passwordFromFile;
        t.passwordFileError = passwordFileError;
        t.testcontainers = testcontainers;
        t.testcontainersImage = testcontainersImage;
        t.settings.putAll(settings);
        t.keepData = keepData;
        t.restartCommand = restartCommand;
        return t;
    }

    /** A short label for results: "embedded-17", "remote 127.0.0.1:5432/test". */
    public String label() {
        if (url != null) return "remote " + remoteLabel(url);
        if (testcontainers) return "testcontainers " + (testcontainersImage == null ? ContainerServer.DEFAULT_IMAGE : testcontainersImage);
        if (pgBin != null) return "pg-bin " + pgBin;
        return "embedded-" + (pgVersion == null ? KenshoVersion.newestEmbeddedMajor() : pgVersion);
    }

    /**
     * host:port/db of a URL: the same server gets the same label whether the password came in the URL
     * or from a file; only libpq's host and port parameters (a socket directory) are kept of the query.
     * What the URL leaves out is filled from libpq's environment, as the target's connection is (ConnectionUrl.read):
     * jdbc:postgresql:/// with PGHOST=db is labelled db:5432/..., not left empty.
     */
    static String remoteLabel(String url) {
        return remoteLabel(url, System.getenv());
    }

    static String remoteLabel(String url, Map<String, String> env) {
        // cut from the masked URL: a password the parse would take for a port or a database (user:pa/ss@host) is gone
        ConnectionUrl.Parts parts = ConnectionUrl.Parts.of(dev.kensho.core.Credentials.maskUrl(url));
        String hostPort = parts.authority().substring(parts.authority().lastIndexOf('@') + 1);
        StringBuilder kept = new StringBuilder();
        String service = env.getOrDefault("PGSERVICE", "");
        for (String kv : parts.query().split("&")) {
            if (kv.startsWith("host=") || kv.startsWith("port=")) kept.append(kept.length() == 0 ? '?' : '&').append(kv);
            if (kv.startsWith("service=")) service = kv.substring(8);
        }
        if (!service.isEmpty() && hostPort.isEmpty() && kept.indexOf("host=") < 0) {
            // a service's server, which it names before the environment does (ConnectionUrl.read): two services, two labels
            return "?service=" + service + (parts.database() != null ? "&dbname=" + parts.database() : "");
        }
        String pgHost = env.getOrDefault("PGHOST", ""), pgPort = env.getOrDefault("PGPORT", "");
        if (!pgHost.isEmpty() && (hostPort.isEmpty() || hostPort.startsWith(":")) && kept.indexOf("host=") < 0) hostPort = pgHost + hostPort;
        boolean portGiven = hostPort.matches(".*:\\d+$") || kept.indexOf("port=") >= 0;
        if (!portGiven && !pgPort.isEmpty()) {
            if (hostPort.isEmpty()) kept.append(kept.length() == 0 ? '?' : '&').append("port=").append(pgPort);
            else hostPort += ":" + pgPort;
        }
        // the default port written out: db and db:5432 are one server, whichever way a command got its URL
        if (!hostPort.isEmpty() && !hostPort.matches(".*:\\d+$")) hostPort += ":5432";
        String db = parts.database() != null ? parts.database() : env.getOrDefault("PGDATABASE", "");
        return hostPort + (db.isEmpty() ? "" : "/" + db) + kept;
    }

    /**
     * The conflicts {@link #open()} refuses, checked without opening anything: a command with several
     * targets checks them all before the first starts.
     */
    public void validate() {
        // the kinds given, by name: a JMH state or a test suite gives two of them and has no way to give the third
        java.util.List<String> chosen = new java.util.ArrayList<>();
        if (url != null) chosen.add("--url");
        if (pgBin != null) chosen.add("--pg-bin");
        if (testcontainers) chosen.add("--testcontainers");
        String kinds = chosen.size() < 2 ? String.join("", chosen)
                : String.join(", ", chosen.subList(0, chosen.size() - 1)) + " and " + chosen.get(chosen.size() - 1);
        if (chosen.size() > 1) throw KenshoException.usage("choose one of " + kinds);
        if (pgVersion != null && !chosen.isEmpty()) {
            throw KenshoException.usage("--pg-version selects an embedded server; it cannot be combined with " + kinds);
        }
        if (keepData != null && (url != null || testcontainers)) {
            throw KenshoException.usage("--keep-data applies to managed servers (embedded or --pg-bin) only");
        }
        // a file there is the user's path mistake (createDirectories would say only "FileAlreadyExistsException")
        if (keepData != null && java.nio.file.Files.exists(keepData) && !java.nio.file.Files.isDirectory(keepData)) {
            throw KenshoException.usage("--keep-data " + keepData + ": is a file, not a directory");
        }
    }

    /**
     * Starts the server, or connects to it, as the spec says; close the Target to stop one Kensho started. An open
     * interrupted midway (a cancelled {@code Future}, a JUnit {@code @Timeout}) lets the step under way (initdb,
     * pg_ctl) finish, stops what it started and removes its directory before it throws, the interrupt still set.
     *
     * @return the open target, the caller's to close
     * @throws dev.kensho.core.KenshoException {@link dev.kensho.core.KenshoException#USAGE} for a spec
     *         {@link #validate()} refuses, a password file that cannot be read or a setting a remote server refuses;
     *         {@link dev.kensho.core.KenshoException#TARGET} for a server that cannot be started or reached;
     *         {@link dev.kensho.core.KenshoException#FAILURE} when interrupted
     */
    public Target open() {
        validate();
        if (url != null) {
            RemoteServer r = RemoteServer.fromUrl(url, user, readPasswordFile(), restartCommand).verify();
            if (!settings.isEmpty()) {
                SettingsOutcome o;
                try {
                    o = r.apply(settings);
                } catch (RuntimeException e) {
                    r.close();
                    throw e;
                }
                if (!o.ok()) {
                    // Every measurement would need the setting: refuse the run rather than measure
                    // under the server's own values with a warning scrolled away.
                    r.close();
                    throw KenshoException.usage("--set " + o.refusalReason());
                }
            }
            return r;
        }
        if (testcontainers) return ContainerServer.start(testcontainersImage, settings);
        if (pgBin != null) return ManagedServer.start(TargetKind.LOCAL_BINARIES, pgBin.toAbsolutePath(), keepData, settings);
        PgRelease release = pgVersion == null ? PgRelease.major(KenshoVersion.newestEmbeddedMajor()) : pgVersion;
        return ManagedServer.start(TargetKind.EMBEDDED, EmbeddedBinaries.binDirectory(release), keepData, settings);
    }

    private String readPasswordFile() {
        if (passwordFile == null) return null;
        if (passwordFileError != null) {
            throw KenshoException.usage("--password-file " + passwordFile + ": cannot read (" + passwordFileError + ")");
        }
        String password = passwordFromFile;
        // an empty file is a secret that was not written (echo "$UNSET" > f); with trust auth it would pass unnoticed
        if (password.isEmpty()) throw KenshoException.usage("--password-file " + passwordFile + " is empty");
        // said as libpq says it of a ~/.pgpass others may read (which libpq then ignores; this file was asked for by name)
        try {
            var mode = Files.getPosixFilePermissions(passwordFile);
            if (mode.stream().anyMatch(m -> m.name().startsWith("GROUP_") || m.name().startsWith("OTHERS_"))) {
                System.err.println("warning: --password-file " + passwordFile + " has group or world access ("
                        + java.nio.file.attribute.PosixFilePermissions.toString(mode) + "); permissions should be u=rw (0600) or less");
            }
        } catch (IOException | UnsupportedOperationException noModes) {
            // a file system without POSIX modes
        }
        return password;
    }

    /** Why Kensho cannot manage a server on this machine (embedded or --pg-bin), or null when it can. */
    public static String managedUnavailableReason() {
        return ManagedServer.unsupportedPlatform();
    }

    /** Why --testcontainers cannot run on this machine, or null when it can. */
    public static String containersUnavailableReason() {
        return ContainerServer.unavailableReason();
    }
}
