package dev.kensho.core.env;

import java.io.IOException;

/**
 * The CPU time of one PostgreSQL server's processes on its host, in /proc's clock ticks (the unit of /proc/stat's
 * lines, so a difference over the host's reads as a share of the host): the postmaster, its live children (backends,
 * parallel workers, checkpointer, ...) and the children it has already reaped (/proc's cutime and cstime), so that a
 * backend which came and went between two readings (-C) counts too. A host's busy share alone cannot tell the server's
 * work from another program's on a shared machine.
 */
public final class ServerCpu {
    private final ProcFiles host;
    private final int postmaster;

    private ServerCpu(ProcFiles host, int postmaster) {
        this.host = host;
        this.postmaster = postmaster;
    }

    /** Either the server or why its processes cannot be read. */
    public record Found(ServerCpu server, String unavailable) {}

    /**
     * The server one of whose backends has this pid. A host that is not the server's after all (a tunnel to another
     * machine: the same host is judged by name) has no postgres process there, and says so.
     */
    public static Found of(ProcFiles host, int backendPid) {
        try {
            String backend = host.read("/proc/" + backendPid + "/stat");
            if (!isPostgres(backend)) return new Found(null, "process " + backendPid + " on " + host.source() + " is not the server's backend");
            int parent = (int) field(backend, 4);
            if (!isPostgres(host.read("/proc/" + parent + "/stat"))) {
                return new Found(null, "the parent of backend " + backendPid + " on " + host.source() + " is no postmaster");
            }
            return new Found(new ServerCpu(host, parent), null);
        } catch (IOException | RuntimeException e) {
            return new Found(null, "the server's processes cannot be read on " + host.source() + ": " + e.getMessage());
        }
    }

    /** The server's processes' user and system time so far, in clock ticks. */
    public long ticks() throws IOException {
        long sum = 0;
        for (String child : host.read("/proc/" + postmaster + "/task/" + postmaster + "/children").trim().split("\\s+")) {
            if (child.isEmpty()) continue;
            try {
                String stat = host.read("/proc/" + child + "/stat");
                if (!stat.isEmpty()) sum += field(stat, 14) + field(stat, 15);
            } catch (IOException gone) {
                // exited since the list was read: the postmaster's cutime has it, or will at the next reading
            }
        }
        // the postmaster's own, and its reaped children's, read after the live ones: one that exits in between is
        // then in cutime rather than in neither
        String pm = host.read("/proc/" + postmaster + "/stat");
        return sum + field(pm, 14) + field(pm, 15) + field(pm, 16) + field(pm, 17);
    }

    /** Field n (1-based, as proc(5) numbers them) of a /proc/PID/stat line; the name in field 2 may hold spaces. */
    static long field(String stat, int n) {
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return Long.parseLong(rest[n - 3]);
    }

    /** The name /proc gives a server process: its executable's, whatever the process title says. */
    private static boolean isPostgres(String stat) {
        int open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < open) return false;
        String comm = stat.substring(open + 1, close);
        return comm.equals("postgres") || comm.equals("postmaster");
    }
}
