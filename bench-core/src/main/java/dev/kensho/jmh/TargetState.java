package dev.kensho.jmh;

import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.util.Map;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A PostgreSQL server for JMH benchmarks, shared by every thread of a trial: the embedded server by
 * default, or the one system properties name (JMH passes them to forks with -jvmArgsAppend):
 * {@code -Dkensho.url=jdbc:postgresql://host/db -Dkensho.user=U -Dkensho.passwordFile=F}, {@code -Dkensho.pgVersion=16} (or a release such as 16.6),
 * {@code -Dkensho.pgBin=/usr/lib/postgresql/17/bin}, {@code -Dkensho.set.jit=off} (any setting),
 * {@code -Dkensho.restartCommand=CMD} (permission to reconfigure and restart a remote server). JMH prints a fork's VM
 * options: a password belongs in the password file (or PGPASSWORD, ~/.pgpass), not in the URL.
 * A setting the server does not take fails the trial (as {@link TargetSpec#open()} refuses it): a
 * benchmark must not report numbers measured under settings other than the ones asked for.
 *
 * <pre>
 * &#64;Benchmark
 * public long count(ConnectionState c) throws SQLException { ... c.connection ... }
 * </pre>
 */
@State(Scope.Benchmark)
public class TargetState {
    /** The server, open from the trial's setup to its teardown. */
    public Target target;

    /** Opens the server the system properties name (the embedded one by default). */
    @Setup(Level.Trial)
    public void open() {
        open(System.getProperties());
    }

    /** The system properties a benchmark gives in place of the command line's options: its errors name them. */
    static final Map<String, String> PROPERTY_NAMES = Map.of("--url", "-Dkensho.url", "--user", "-Dkensho.user",
            "--password-file", "-Dkensho.passwordFile", "--pg-version", "-Dkensho.pgVersion", "--pg-bin", "-Dkensho.pgBin",
            "--restart-command", "-Dkensho.restartCommand", "--set", "-Dkensho.set.");

    void open(java.util.Properties p) {
        try {
            target = spec(p).open();
        } catch (dev.kensho.core.KenshoException e) {
            throw e.naming(PROPERTY_NAMES);
        }
    }

    /** Closes it: a server Kensho started stops. */
    @TearDown(Level.Trial)
    public void close() {
        if (target != null) target.close();
    }

    static TargetSpec spec(java.util.Properties p) {
        TargetSpec s = new TargetSpec();
        String url = p.getProperty("kensho.url");
        if (url != null) s.url(url).user(p.getProperty("kensho.user"));
        String passwordFile = p.getProperty("kensho.passwordFile");
        if (passwordFile != null) s.passwordFile(java.nio.file.Path.of(passwordFile));
        String bin = p.getProperty("kensho.pgBin");
        if (bin != null) s.pgBin(java.nio.file.Path.of(bin));
        String version = p.getProperty("kensho.pgVersion");
        if (version != null) {
            try {
                s.pgVersion(version.strip());
            } catch (RuntimeException e) {
                // Kensho's usage error, as the other properties' are: a bare IllegalArgumentException read as a bug
                throw dev.kensho.core.KenshoException.usage("-Dkensho.pgVersion=" + version + ": a major (17, 9.6) or minor release (16.6)");
            }
        }
        String restart = p.getProperty("kensho.restartCommand");
        if (restart != null) s.restartCommand(restart);
        for (Map.Entry<Object, Object> e : p.entrySet()) {
            String k = e.getKey().toString();
            if (k.startsWith("kensho.set.")) s.set(k.substring("kensho.set.".length()), e.getValue().toString());
        }
        return s;
    }
}
