package dev.kensho.pgbench.run;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.pgbench.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * What a run's clients must fit before it starts: the connections max_connections leaves free, this process's open
 * files, and (a warning) the cores a thread per client shares. Apart from {@link Driver}: a sweep and the command line
 * check them too, once, before any run.
 */
public final class ClientLimits {
    private ClientLimits() {}

    /**
     * Clients beyond what max_connections leaves free fail before the run, with the numbers (a usage error naming
     * clientsOption, the option to lower). The connection c is the caller's own and closes before the clients connect.
     *
     * @param extra     connections the caller holds during the run besides the clients (a sweep's sampler)
     * @param extraOpen whether those are open already (the server then counts them among the backends in use)
     */
    public static void checkConnections(Connection c, int clients, int extra, boolean extraOpen, String clientsOption) throws SQLException {
        String clientRows = ClientBackends.slotCondition(ServerVersion.of(c));
        // Kensho's question, not the workload's: without a role's statement_timeout (a 3 ms one failed the run before it began)
        // 16's reserved_connections keep slots for roles with pg_use_reserved_connections: a role without it passed this
        // check and its clients met "remaining connection slots are reserved" at connect, exit 3
        boolean roleReserve = ServerVersion.of(c).atLeast(16);
        int[] got = dev.kensho.core.server.OwnStatements.run(c, s -> {
            try (ResultSet rs = s.executeQuery(
                    "SELECT current_setting('max_connections')::int, current_setting('superuser_reserved_connections')::int, "
                            + "(SELECT count(*) FROM pg_stat_activity WHERE " + clientRows + "), "
                            + "(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)::int, "
                            + (roleReserve ? "current_setting('reserved_connections')::int, "
                                    + "pg_has_role(current_user, 'pg_use_reserved_connections', 'USAGE')::int" : "0, 0"))) {
                rs.next();
                return new int[] {rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5), rs.getInt(6)};
            }
        });
        int max = got[0], reserved = got[1], inUse = got[2], forRoles = got[4];
        boolean superuser = got[3] == 1, mayUseRoles = superuser || got[5] == 1;
        int needed = clients + extra;
        int others = Math.max(0, inUse - 1 - (extraOpen ? extra : 0));
        int closed = (superuser ? 0 : reserved) + (mayUseRoles ? 0 : forRoles);
        int free = max - closed - others;
        if (needed > free) {
            String roles = forRoles == 0 ? "" : String.format(Locale.ROOT, ", %d for roles with pg_use_reserved_connections%s", forRoles,
                    superuser ? "" : mayUseRoles ? ", which this role has" : ", which this role has not");
            throw KenshoException.usage(String.format(Locale.ROOT,
                    "%d clients need %d connections but the server has only %d free (max_connections=%d, %d reserved for superusers%s%s, "
                            + "%d in use by others): lower %s or raise max_connections (%s)",
                    clients, needed, free, max, reserved, superuser ? " but usable by this superuser" : "", roles, others, clientsOption,
                    raise(clientsOption, needed + closed + others + 10)));
        }
    }

    /**
     * How to raise max_connections, in the caller's words: a command line (its option starts with "-") was shown a Java
     * call, and a remote server's user a --set that Kensho refuses there without --restart-command.
     */
    private static String raise(String clientsOption, int to) {
        return clientsOption.startsWith("-") ? cliRaise(String.valueOf(to))
                : "TargetSpec.set(\"max_connections\", \"" + to + "\") or target.control().apply(Map.of(\"max_connections\", \"" + to
                        + "\")); a remote server also needs TargetSpec.restartCommand(...)";
    }

    private static String cliRaise(String to) {
        return "--set max_connections=" + to + "; on a remote server with --restart-command, or by its administrator";
    }

    private static final java.util.regex.Pattern JAVA_RAISE = java.util.regex.Pattern.compile(
            "TargetSpec\\.set\\(\"max_connections\", \"(\\d+)\"\\) or target\\.control\\(\\)\\.apply\\(Map\\.of\\(\"max_connections\", \"\\d+\"\\)\\); "
                    + "a remote server also needs TargetSpec\\.restartCommand\\(\\.\\.\\.\\)");

    /**
     * A library's message as a command line says it: the Java calls that raise max_connections as --set, and clients()
     * as clientsOption (bench pgbench run's -c, sweep's --clients).
     */
    public static KenshoException onCommandLine(KenshoException e, String clientsOption) {
        String text = String.valueOf(e.getMessage()).replace("lower clients() or raise", "lower " + clientsOption + " or raise");
        java.util.regex.Matcher m = JAVA_RAISE.matcher(text);
        if (!m.find()) return text.equals(e.getMessage()) ? e : renamed(e, text);
        return renamed(e, m.replaceFirst(java.util.regex.Matcher.quoteReplacement(cliRaise(m.group(1)))));
    }

    private static KenshoException renamed(KenshoException e, String message) {
        KenshoException said = new KenshoException(e.exitCode(), message, e.getCause());
        said.setStackTrace(e.getStackTrace());
        return said;
    }

    /**
     * As pgbench checks its open-files limit before connecting ("need at least N open files"): a client past the limit
     * failed to connect with "Too many open files", exit 3 as if the server were at fault. This process's soft limit
     * (the JVM raises it to the hard one) against what is open already, a socket a connection, and filesPerThread a
     * thread (see {@link #filesPerThread}).
     */
    public static void checkOpenFiles(int connections, int threads, int filesPerThread, String clientsOption) {
        long limit;
        long open;
        try {
            String line = Files.readAllLines(Path.of("/proc/self/limits")).stream().filter(l -> l.startsWith("Max open files"))
                    .findFirst().orElse(null);
            if (line == null || line.substring(14).trim().startsWith("unlimited")) return;
            limit = Long.parseLong(line.substring(14).trim().split("\\s+")[0]);
            try (var fds = Files.list(Path.of("/proc/self/fd"))) {
                open = fds.count();
            }
        } catch (IOException | RuntimeException e) {
            return;   // no /proc (not Linux): the connections say it if they must
        }
        long needed = open + connections + (long) filesPerThread * threads + 16;
        if (needed > limit) {
            throw KenshoException.usage(connections + " connections need about " + needed + " open files (" + open + " open already)"
                    + " but this process may open " + limit + ": lower " + clientsOption + ", or raise the limit (ulimit -n " + needed + ")");
        }
    }

    /**
     * What a -j thread holds open besides its clients' sockets: the wire engine's selector (an epoll descriptor and its
     * wake-up descriptor; two, as measured) and a -l file. The pgjdbc engine's threads hold none of the first: counting
     * four a thread refused a -c 60 -j 30 that needs 71 descriptors for 209.
     */
    public static int filesPerThread(Engine engine, boolean log) {
        return (engine == Engine.WIRE ? 2 : 0) + (log ? 1 : 0);
    }

    /** Client threads per core beyond which the pgjdbc engine's own scheduling shows in what it measures. */
    private static final int THREADS_PER_CORE = 100;

    /**
     * What a thread per client does to a run of this many clients on this many cores, or null where nothing: at 1024
     * clients on 2 cores (select-only) the pgjdbc engine measured 704 tps where the wire engine, on -j threads as pgbench,
     * measured 1543; 2048 runnable threads and backends then share two cores, and the JVM's switching among its own
     * threads is part of every latency.
     */
    public static String threadPerClientLoad(int clients, Engine engine, int cores, String upTo) {
        if (engine != Engine.PGJDBC || clients <= THREADS_PER_CORE * cores) return null;
        return upTo + clients + " clients on " + cores + (cores == 1 ? " core" : " cores") + " with --engine pgjdbc, a thread per"
                + " client: their scheduling is part of what is measured; --engine wire runs them on -j threads, as pgbench";
    }
}
