package dev.kensho.cli;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.PgRelease;
import dev.kensho.core.server.TargetSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Which PostgreSQL to measure: the options every command shares (a picocli mixin). */
public final class TargetOptions {

    @Option(names = "--pg-version", split = ",", paramLabel = "VERSION",
            description = "Embedded PostgreSQL: a major (16, 17, 18 are in bench.jar; default the newest) or a minor release "
                    + "(16.6). Any other release zonky builds (9.6 to 18, e.g. the studies' 10.6, 11.1, 17.2) is fetched once "
                    + "from the local Maven repository or Maven Central (KENSHO_MAVEN_REPOSITORY: a mirror). "
                    + "Commands that compare versions accept a list: --pg-version 16,17.")
    List<String> pgVersions = new ArrayList<>();

    @Option(names = "--pg-bin", split = ",", paramLabel = "DIR",
            description = "Run an installed PostgreSQL from DIR (initdb, pg_ctl, postgres), managed like the embedded one "
                    + "(e.g. a build with LLVM JIT). As root the server runs as the system user 'kensho'. "
                    + "Commands that compare versions accept a list: --pg-bin /opt/pg16/bin,/opt/pg17/bin.")
    List<Path> pgBins = new ArrayList<>();

    @Option(names = "--url", paramLabel = "JDBC_URL",
            description = "Measure a remote server, e.g. jdbc:postgresql://db:5432/bench?sslmode=require. "
                    + "Without --restart-command it is never restarted or reconfigured: settings are session-level only. A local server's "
                    + "Unix-domain socket as pgbench's -h DIR: jdbc:postgresql:///bench?host=/var/run/postgresql "
                    + "(&port=N; no TLS over a socket, as libpq). Commands that compare servers take it more than once "
                    + "(--url URL1 --url URL2), each a target of its own. What the URL leaves out comes from libpq's environment "
                    + "(PGHOST, PGPORT, PGDATABASE, PGUSER, PGOPTIONS, PGAPPNAME, PGSSLMODE, PGTZ, PGDATESTYLE, PGGEQO), as for pgbench: jdbc:postgresql:/// takes it all.")
    List<String> urls = new ArrayList<>();

    @Option(names = {"-U", "--user", "--username"}, paramLabel = "USER", description = "User for a --url that names none (default: PGUSER, else the OS user); a URL's own user beside another --user is refused; --username as pgbench and psql spell it.")
    String user;

    @Option(names = "--password-file", paramLabel = "FILE",
            description = "Read the password for --url from FILE (else PGPASSWORD, else PGPASSFILE or ~/.pgpass). Never printed or stored.")
    Path passwordFile;

    @Option(names = "--testcontainers", arity = "0..1", fallbackValue = "", paramLabel = "IMAGE",
            description = "Start a PostgreSQL container (default image postgres:17) with fsync kept on. Needs a Docker engine.")
    String testcontainers;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "Server setting, repeatable. Managed servers: written to kensho.conf, which postgresql.conf includes "
                    + "(restart when postmaster-level). Remote: session SET; one that needs a reload or restart stops the run "
                    + "(exit 2) unless --restart-command permits ALTER SYSTEM.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--keep-data", paramLabel = "DIR",
            description = "Keep the managed server's data directory in DIR and reuse it next time instead of reloading.")
    Path keepData;

    @Option(names = "--restart-command", paramLabel = "CMD",
            description = "Shell command that restarts a remote server: the explicit permission to ALTER SYSTEM and restart it "
                    + "(cold-cache runs, postmaster-level settings).")
    String restartCommand;

    /** One spec per requested embedded version or --pg-bin directory, or the single remote/container spec. */
    public List<TargetSpec> specs() {
        TargetSpec base = base();
        if (!pgBins.isEmpty() && !pgVersions.isEmpty()) {
            throw KenshoException.usage("--pg-version selects an embedded server; it cannot be combined with --url, --pg-bin or --testcontainers");
        }
        List<TargetSpec> out = new ArrayList<>();
        if (urls.size() > 1) {
            if (!pgBins.isEmpty() || !pgVersions.isEmpty() || testcontainers != null) {
                throw KenshoException.usage("choose one of --url, --pg-bin and --testcontainers");
            }
            // one command restarts one server: which of them it is, Kensho cannot tell
            if (restartCommand != null) throw KenshoException.usage("--restart-command restarts one server; give one --url with it");
            // the file read once for all of them: a pipe (<(pass show db)) gives one read, and the second target found it empty
            TargetSpec remote = base.copy().user(user).passwordFile(passwordFile);
            for (String u : urls) {
                TargetSpec t = remote.copy().url(u);
                if (out.stream().anyMatch(o -> o.label().equals(t.label()))) {
                    throw KenshoException.usage("--url names " + t.label().substring("remote ".length()) + " twice");
                }
                out.add(t);
            }
        }
        for (String v : pgVersions) {
            PgRelease r = PgRelease.parse(v);
            if (out.stream().anyMatch(t -> t.pgVersion().equals(r))) throw KenshoException.usage("--pg-version " + r + " is given twice");
            out.add(base.withPgVersion(r));
        }
        for (Path d : pgBins) {
            // --pg-bin= (an unset variable in a script) was the current directory, refused as "not a bin directory"
            if (d.toString().isEmpty()) throw KenshoException.usage("--pg-bin is empty: give the bin directory of an installed PostgreSQL");
            if (out.stream().anyMatch(t -> t.pgBin().equals(d))) throw KenshoException.usage("--pg-bin " + d + " is given twice");
            out.add(base.copy().pgBin(d));
        }
        // one data directory holds one server: the second target found the first's files (another major's, or "in use")
        if (keepData != null && out.size() > 1) {
            throw KenshoException.usage("--keep-data " + keepData + " holds one server's data; it cannot serve " + out.size()
                    + " targets (give one --pg-version or --pg-bin, or run each with a --keep-data of its own)");
        }
        return out.isEmpty() ? List.of(base) : out;
    }

    /** The one target of a command that measures a single server. */
    public TargetSpec single() {
        List<TargetSpec> s = specs();
        if (s.size() > 1) throw KenshoException.usage("this command measures one server; give one --pg-version, --pg-bin or --url");
        return s.get(0);
    }

    /** The --set settings, for the run's parameters: a resumed run must measure under the same ones. */
    public Map<String, String> settings() {
        return new LinkedHashMap<>(settings);
    }

    /**
     * A --set of a setting the command sets itself in every cell would be overridden there while run.json recorded it
     * among the run's settings: refused, naming where its values go (owner: setting → "from OPTION").
     */
    public void refuseOwnSettings(String command, Map<String, String> owner) {
        for (String name : settings.keySet()) {
            String from = owner.get(name.strip().toLowerCase(java.util.Locale.ROOT));
            if (from != null) throw KenshoException.usage("--set " + name.strip() + ": " + command + " sets it itself " + from + "; give its values there");
        }
    }

    /** A name as postgresql.conf's grammar takes it: an identifier, or two joined by a dot (an extension's, auto_explain.log_min_duration). */
    private static final java.util.regex.Pattern SETTING_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

    private TargetSpec base() {
        // written to kensho.conf as it is, such a name made the managed server's start fail (a target error, exit 3, after initdb)
        Map<String, String> seen = new java.util.HashMap<>();
        for (String name : settings.keySet()) {
            if (!SETTING_NAME.matcher(name).matches()) {
                // the value is not repeated: it may be a connection string with a password
                throw KenshoException.usage("--set " + name + "=...: '" + name + "' is not a setting's name (NAME=VALUE, e.g. work_mem=64MB)");
            }
            // one setting in two spellings: the server took the last while run.json recorded both
            String other = seen.put(name.toLowerCase(java.util.Locale.ROOT), name);
            if (other != null) throw KenshoException.usage("--set " + other + " and --set " + name + " are one setting: give it once");
        }
        TargetSpec t = new TargetSpec().settings(settings).keepData(keepData).restartCommand(restartCommand);
        if (urls.size() == 1) t.url(urls.get(0)).user(user).passwordFile(passwordFile);
        if (testcontainers != null) t.testcontainers(testcontainers.isEmpty() ? null : testcontainers);
        if (urls.isEmpty() && (user != null || passwordFile != null)) {
            throw KenshoException.usage("--user and --password-file go with --url");
        }
        // a server Kensho starts it restarts itself: the command was never run, while the user took it for the way restarts went
        if (urls.isEmpty() && restartCommand != null) {
            throw KenshoException.usage("--restart-command restarts a server given with --url; Kensho restarts the servers it starts itself");
        }
        return t;
    }
}
