package dev.kensho.pgbench.sweep;

import dev.kensho.core.env.HostSampler;
import dev.kensho.core.env.HostTimeline;
import dev.kensho.core.env.OwnProcess;
import dev.kensho.core.env.ProcFiles;
import dev.kensho.core.env.ServerCpu;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.server.OwnStatements;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.Target;
import dev.kensho.pgbench.RunWindow;
import dev.kensho.pgbench.run.ClientBackends;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * What the server did during one trial's measured run, as the studies observe it: pg_stat_activity
 * wait events sampled every 100 ms into a profile (share of client-backend samples per
 * "type:event" of the backends that connected after the sampler, the run's; an active backend without a wait
 * event is counted as "CPU"), pg_stat_database deltas (xact_commit less the sampler's own queries), and the
 * server host's CPU split per core, memory, and second by second its CPUs, disks and network
 * ({@link HostTimeline}). The host is read from /proc when the server shares this host, else through the
 * server (pg_read_file, where the role may); neither, and the observation says why. It is the run's
 * {@link RunWindow}: connecting, vacuum and the client's warm-up are not observed. Uses one connection of
 * its own, and a second one to read a remote host's files.
 */
public final class TrialSampler implements RunWindow, AutoCloseable {
    /** The 100 ms, the default of --wait-sample-ms. */
    public static final int DEFAULT_PERIOD_MS = 100;
    /**
     * Between two samples of pg_stat_activity; 0 samples none. A sample takes a core for a few ms on a busy host: at 73 k
     * tps on two cores, the transactions it overlapped were 4-5 % of all, yet half of those slower than an unsampled run's
     * p99.9 (p99.9 tripled), so a tail-latency study may sample less often, or not at all.
     */
    private final long periodNanos;
    /**
     * How long closed() waits for the run's backends to exit (they report their last counts then), as long as their
     * number keeps falling within {@link #EXIT_STALL_NANOS}. They end in milliseconds each, but a thousand clients' on
     * two busy cores, or a few on a loaded host, took more than the 3 s this was, and the trial lost their last commits.
     */
    private static final long EXIT_WAIT_NANOS = 30_000_000_000L;
    /**
     * How long the count may stay where it is: a session that is not the run's but connected during it (a user's psql,
     * a pooler's server connection) never ends, and held every trial for the whole wait.
     */
    private static final long EXIT_STALL_NANOS = 5_000_000_000L;
    /** How long closed() waits, before 15, for a statistics file written after the run (the collector writes one within 0.5 s). */
    private static final long COLLECTOR_WAIT_NANOS = 3_000_000_000L;
    private static final String[] DB_COLUMNS = {"xact_commit", "xact_rollback", "blks_read", "blks_hit", "temp_files",
            "temp_bytes", "tup_returned", "tup_fetched", "tup_inserted", "tup_updated", "tup_deleted", "deadlocks"};

    /**
     * The run's backends: those that connected after this sampler, which opens before the run's clients. Sessions already
     * in the database (a psql left open, a pool) are not the run's: idle in ClientRead, they made the profile theirs.
     * Less this sampler's own second connection (it connected after the first). The sampler's start is as read when it
     * connected: a connection made again after the first was lost is younger than the run's.
     */
    private String runBackends() {
        // backend_start is the server's wall clock: stepped back between this connection and the clients' (an NTP step
        // on the server host), it dated every client before the sampler and the profile came out empty, unsaid. A backend
        // that was not there when the sampler connected is the run's whatever its start says.
        return "AND (backend_start > '" + since + "'::timestamptz OR NOT pid = ANY('" + before + "'::int[]))"
                + (hostPid == 0 ? "" : " AND pid <> " + hostPid);
    }

    private Connection conn;
    /** Held by own() for each of its transactions on conn: the sampling thread and closed() both use it. */
    private final Object connection = new Object();
    private final Target target;
    /** When this sampler's first connection started (pg_stat_activity.backend_start, as text). */
    private final String since;
    /** The backends there when this sampler connected (its own included), as an int[] literal. */
    private final String before;
    /**
     * Statements this sampler ran on conn, each a transaction of its own: its commits are in pg_stat_database's count
     * too (ten a second), and are taken out of the delta, which is the run's.
     */
    private final java.util.concurrent.atomic.AtomicLong statements = new java.util.concurrent.atomic.AtomicLong();
    /** The statement count at the "before" snapshot's read. */
    private long statementsBefore;
    /** PostgreSQL 15+: a backend's counts can be flushed on request, so the sampler's own are all in or all out. */
    private final boolean forceFlush;
    /** The server host's /proc, or null with the reason in hostUnavailable. */
    private final ProcFiles host;
    private final Connection hostConn;
    /**
     * The host connection's backend, connected after the sampler's and so taken for one of the run's: it sat idle in the
     * wait profile as one more client, and held the "after" snapshot for the 3 s wait for the run's backends to go.
     */
    private final int hostPid;
    /** Statements run on hostConn (the host's files, one a read): its commits are in pg_stat_database's count too. */
    private final java.util.concurrent.atomic.AtomicLong hostStatements = new java.util.concurrent.atomic.AtomicLong();
    private long hostStatementsBefore;
    private final String hostUnavailable;
    private HostTimeline hostTimeline;
    private Timeline hostSeries;
    /** pg_stat_activity's condition for a client backend on this server (see ClientBackends). */
    private final String clients;
    /** The role sees only its own backends in pg_stat_activity: the profile is of those (the run's clients among them). */
    private final boolean ownBackendsOnly;
    /** The wait profile's key saying whose backends it counts, where not every one's. */
    public static final String BACKENDS = "backends";
    /**
     * The wait profile's key for the run's backends still there when the "after" snapshot gave up waiting for them: their
     * last counts are missing from the database delta. Absent when all had gone.
     */
    public static final String BACKENDS_LEFT = "backends_left_at_after_snapshot";
    /** The wait profile's key saying that it holds far fewer samples than its window should have had, and why. */
    public static final String THIN = "thin";
    /** A profile's key when wait events were not sampled (--wait-sample-ms 0). */
    public static final String OFF = "off";
    /** A profile's key when the sampler's connection failed during the run: its samples end there. */
    public static final String STOPPED = "stopped";
    private long backendsLeft;
    private final Map<String, Long> waits = new TreeMap<>();
    private long samples;
    private long backendSamples;
    private Map<String, Long> dbBefore;
    /** database()'s key for pg_stat_database.stats_reset (µs since the epoch, 0 where never reset): not a count. */
    private static final String STATS_RESET = "stats_reset";
    /** Whether pg_stat_database's counts were reset between the snapshots: the trial has no delta. */
    private boolean databaseReset;
    private HostSampler.CpuTimes cpuBefore;
    private Map<String, Map<String, Double>> cpu = Map.of();
    /** The server's processes on its host, or null with the reason in serverCpuUnavailable. */
    private final ServerCpu serverCpu;
    private final String serverCpuUnavailable;
    /** Clock ticks at the "before" snapshot: the server's processes', and this JVM's where it shares their host (else -1). */
    private long serverTicksBefore = -1, ownTicksBefore = -1;
    /** Shares of the host (as cpu_busy_pct): the server's processes', Kensho's where it runs there, and everything else's. */
    private Map<String, Double> processCpu = Map.of();
    private Map<String, Long> delta = Map.of();
    private long openedNanos, closedNanos;
    private Thread thread;
    private volatile boolean stop;
    private volatile String error;

    public TrialSampler(Target target) throws SQLException {
        this(target, DEFAULT_PERIOD_MS);
    }

    /** @param periodMillis between two samples of the client backends' wait events; 0 samples none */
    public TrialSampler(Target target, int periodMillis) throws SQLException {
        if (periodMillis < 0) throw new IllegalArgumentException("periodMillis " + periodMillis);
        this.periodNanos = periodMillis * 1_000_000L;
        this.conn = bounded(target.connect());
        this.target = target;
        try (Statement s = conn.createStatement();
             ResultSet rs = s.executeQuery("SELECT backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid()")) {
            rs.next();
            this.since = rs.getString(1);
        }
        try (Statement s = conn.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(array_agg(pid), '{}')::text FROM pg_stat_activity")) {
            rs.next();
            this.before = rs.getString(1);
        }
        this.clients = ClientBackends.condition(ServerVersion.of(conn));
        this.forceFlush = ServerVersion.of(conn).atLeast(15);
        this.ownBackendsOnly = !seesEveryBackend(conn);
        if (target.sameHost()) {
            this.hostPid = 0;
            this.hostConn = null;
            this.host = ProcFiles.local().orElse(null);
            this.hostUnavailable = host == null ? "this host has no /proc" : null;
        } else {
            Connection hc = bounded(target.connect());
            ProcFiles.Reading r = ProcFiles.throughServer(hc);
            if (r.files() == null) {
                hc.close();
                hc = null;
            }
            this.hostConn = hc;
            this.host = r.files() == null ? null : counted(r.files());
            this.hostPid = hc == null ? 0 : pid(hc);
            this.hostUnavailable = r.unavailable() == null ? null : "the server runs on another host and its files cannot be read: " + r.unavailable();
        }
        ServerCpu.Found found = host == null ? new ServerCpu.Found(null, hostUnavailable) : ServerCpu.of(host, pid(conn));
        this.serverCpu = found.server();
        this.serverCpuUnavailable = found.unavailable();
    }

    private static int pid(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** The host's files through hostConn, each read that succeeded counted (a failed one is a rollback, not a commit). */
    private ProcFiles counted(ProcFiles files) {
        return new ProcFiles() {
            @Override public String source() { return files.source(); }

            @Override
            public String read(String path) throws java.io.IOException {
                String text = files.read(path);
                hostStatements.incrementAndGet();
                return text;
            }

            @Override
            public java.util.List<String> list(String dir) throws java.io.IOException {
                java.util.List<String> names = files.list(dir);
                hostStatements.incrementAndGet();
                return names;
            }
        };
    }

    /** The connections this sampler holds: one, and a second to read a remote host's files. */
    public int connections() {
        return hostConn == null ? 1 : 2;
    }

    /**
     * Whether pg_stat_activity shows this role every backend: a superuser's or pg_read_all_stats' member's does (10 on);
     * to others it hides other roles' backends (no backend_type, state or wait event).
     */
    private static boolean seesEveryBackend(Connection c) throws SQLException {
        String readAllStats = ServerVersion.of(c).atLeast(10) ? " OR pg_has_role(current_user, 'pg_read_all_stats', 'USAGE')" : "";
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT rolsuper" + readAllStats + " FROM pg_roles WHERE rolname = current_user")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** Takes the "before" snapshots and starts sampling wait events: the run's clock starts next. */
    @Override
    public void opened() {
        try {
            if (forceFlush) {
                dbBefore = database();
                statementsBefore = statements.get();
            } else {
                // this backend's counts so far are sent; those from here on all land in the window
                sendOwnCounts();
                statementsBefore = statements.get();
                awaitCollector();
                dbBefore = database();
            }
            hostStatementsBefore = hostStatements.get();
        } catch (SQLException e) {
            error = e.getMessage();
        }
        if (host != null) {
            serverTicksBefore = serverTicks();
            if (hostConn == null) ownTicksBefore = OwnProcess.ticks();
            cpuBefore = hostCpu();
            hostTimeline = new HostTimeline(host);
            hostTimeline.start();
        }
        openedNanos = System.nanoTime();
        if (periodNanos > 0) {
            thread = new Thread(this::loop, "kensho-wait-sampler");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Stops sampling and takes the "after" snapshots, once the run's backends have gone. */
    @Override
    public void closed() {
        stop = true;
        if (thread != null) LockSupport.unpark(thread);   // not a whole interval's wait (--wait-sample-ms 5000) for its last turn
        closedNanos = System.nanoTime();
        if (hostTimeline != null) hostSeries = hostTimeline.stop();
        if (cpuBefore != null) {
            HostSampler.CpuTimes after = hostCpu();
            if (after != null) {
                cpu = HostSampler.split(cpuBefore, after);
                processCpu = processShares(cpuBefore, after, serverTicks(), hostConn == null ? OwnProcess.ticks() : -1);
            }
        }
        try {
            if (thread != null) thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (dbBefore == null) return;
        try {
            if (error != null && !conn.isValid(2)) {
                // terminated during the run (pg_terminate_backend, a lost network): the "before" snapshot still holds, and
                // pg_stat_database's counts are the database's, whichever backend reads them; the trial lost them all
                conn.close();
                // the login too: the host may still be silent
                java.util.Properties login = new java.util.Properties();
                login.setProperty("loginTimeout", String.valueOf(STALL_MILLIS / 1000));
                conn = bounded(target.connect(login));
            }
            awaitRunBackendsGone();
            Map<String, Long> after;
            long own;
            if (forceFlush) {
                after = database();
                // the "before" read's own commit and every later statement's up to the "after" read
                own = statements.get() - statementsBefore;
            } else {
                // every statement's since the "before" sleep, this one's included, are sent at its end; later ones are not
                sendOwnCounts();
                own = statements.get() - statementsBefore;
                awaitCollector();
                after = database();
            }
            long sampler = own + hostStatements.get() - hostStatementsBefore;
            Map<String, Long> d = new LinkedHashMap<>();
            // counts that began again within the window (pg_stat_reset(), or a crash, which discards them): no delta of
            // them holds, where negative block counts and 0 commits had been recorded
            databaseReset = !java.util.Objects.equals(after.remove(STATS_RESET), dbBefore.get(STATS_RESET))
                    || after.entrySet().stream().anyMatch(e -> e.getValue() < dbBefore.getOrDefault(e.getKey(), 0L));
            if (databaseReset) {
                delta = Map.of();
                return;
            }
            after.forEach((k, v) -> d.put(k, v - dbBefore.getOrDefault(k, 0L)));
            d.computeIfPresent("xact_commit", (k, v) -> Math.max(0, v - sampler));
            delta = d;
        } catch (SQLException e) {
            if (error == null) error = e.getMessage();
        }
    }

    /**
     * A backend reports its last counts as it exits, a moment after its client closed the connection: the
     * "after" snapshot waits for the backends that connected after this sampler's (the run's) to be gone.
     */
    private void awaitRunBackendsGone() throws SQLException {
        long giveUp = System.nanoTime() + EXIT_WAIT_NANOS, stalled = System.nanoTime() + EXIT_STALL_NANOS, before = Long.MAX_VALUE;
        String sql = "SELECT count(*) FROM pg_stat_activity WHERE " + clients + " "
                + "AND pid <> pg_backend_pid() AND datname = current_database() " + runBackends();
        while (true) {
            long left = own(s -> {
                try (ResultSet rs = s.executeQuery(sql)) {
                    rs.next();
                    return rs.getLong(1);
                }
            });
            if (left == 0) return;
            long now = System.nanoTime();
            if (left < before) stalled = now + EXIT_STALL_NANOS;
            before = left;
            if (now > giveUp || now > stalled) {
                synchronized (this) {
                    backendsLeft = left;
                }
                return;
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }

    /**
     * Runs one of the sampler's statements as a transaction of its own (one commit, counted) without the database's or
     * role's timeouts. Before 15 a read of the statistics waits for the collector to write a fresh file: on a loaded
     * host that wait outlasted a database's 200 ms statement_timeout, the read was cancelled, and the trial lost its
     * pg_stat_database figures. The timeouts bound the workload, not its observation.
     */
    private <T> T own(OwnStatements.Work<T> work) throws SQLException {
        // one transaction at a time: a sample still running when closed() gave up waiting for its thread would share
        // conn's transaction with the "after" snapshot's statements
        synchronized (connection) {
            statements.incrementAndGet();
            return OwnStatements.run(conn, work);
        }
    }

    /**
     * Before 15 a backend sends its counts at a transaction's end, when half a second (PGSTAT_STAT_INTERVAL) has
     * passed since it last did: a sleep past that sends them all, its own commit included. Without it the "before"
     * read's predecessors land in the window, and up to half a second of the window's are left out of the "after" one.
     * The sleep is one transaction (one commit, as counted) without the database's or role's statement_timeout: one
     * under half a second cancelled it, and every trial lost its database delta.
     */
    private void sendOwnCounts() throws SQLException {
        own(s -> s.execute("SELECT pg_sleep(0.51)"));
    }

    /**
     * Before 15 the counts a backend sends go to the collector, whose file a reader takes if it is under half a second
     * old (PGSTAT_STAT_INTERVAL): one written before the clients' last counts (sent before their last answer, or at
     * their exit) would leave those to the next snapshot. Waits for a file written after now; the collector has taken
     * in by then every message sent before it. 15+ reads shared memory: nothing to wait for.
     */
    private void awaitCollector() throws SQLException {
        if (forceFlush) return;
        long giveUp = System.nanoTime() + COLLECTOR_WAIT_NANOS;
        String now = own(s -> {
            try (ResultSet rs = s.executeQuery("SELECT clock_timestamp()::text")) {
                rs.next();
                return rs.getString(1);
            }
        });
        // the server's own clock_timestamp text, quoted as a literal
        String sql = "SELECT pg_stat_get_snapshot_timestamp() >= '" + now.replace("'", "''") + "'::timestamptz";
        while (true) {
            // each statement is a transaction of its own, which reads the file afresh
            boolean fresh = own(s -> {
                try (ResultSet rs = s.executeQuery(sql)) {
                    // collector off (track_counts): no fresh file comes, and no counts either
                    return !rs.next() || rs.getBoolean(1);
                }
            });
            if (fresh || System.nanoTime() > giveUp) return;
            LockSupport.parkNanos(50_000_000L);
        }
    }

    private long serverTicks() {
        try {
            return serverCpu == null ? -1 : serverCpu.ticks();
        } catch (java.io.IOException | RuntimeException e) {
            return -1;   // the postmaster gone (a restart) or a file read empty: the trial goes on without the split
        }
    }

    /**
     * The host's process time (user, nice, system) split into the server's, Kensho's and the rest, as shares of the host
     * like cpu_busy_pct. The rest is what another program took from the server and the clients: on a shared machine
     * every trial read 100 % busy, and nothing said it was not the server's doing.
     */
    private Map<String, Double> processShares(HostSampler.CpuTimes before, HostSampler.CpuTimes after, long serverTicksAfter, long ownTicksAfter) {
        long[] b = before.perCpu().get("cpu"), a = after.perCpu().get("cpu");
        if (a == null || b == null || serverTicksBefore < 0 || serverTicksAfter < 0) return Map.of();
        long total = 0;
        for (int i = 0; i < a.length; i++) total += a[i] - b[i];
        if (total <= 0) return Map.of();
        // user, nice, system: the states a process's own time is counted in (/proc/PID/stat's utime and stime)
        long processes = (a[0] - b[0]) + (a[1] - b[1]) + (a[2] - b[2]);
        long server = serverTicksAfter - serverTicksBefore;
        long own = ownTicksBefore >= 0 && ownTicksAfter >= 0 ? ownTicksAfter - ownTicksBefore : 0;
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("server_cpu_pct", Math.round(1000.0 * server / total) / 10.0);
        if (ownTicksBefore >= 0) m.put("kensho_cpu_pct", Math.round(1000.0 * own / total) / 10.0);
        m.put("other_cpu_pct", Math.round(1000.0 * Math.max(0, processes - server - own) / total) / 10.0);
        return m;
    }

    private HostSampler.CpuTimes hostCpu() {
        try {
            return HostSampler.cpu(host.read("/proc/stat"));
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** The longest a sample's query took: a stalled connection, not a starved thread, when it is long. */
    private long longestSampleNanos;

    /** A read that waits this long is a connection gone silent (a stalled network path, a frozen host). */
    static final int STALL_MILLIS = 30_000;

    /**
     * Reads on the sampler's connection fail after {@link #STALL_MILLIS}: the after-snapshot's wait for the run's backends
     * held the trial, and with a stall for good the sweep, for as long as the connection was silent; failed, the
     * connection is replaced (closed()) and the profile says it stopped.
     */
    private static Connection bounded(Connection c) throws SQLException {
        c.setNetworkTimeout(Runnable::run, STALL_MILLIS);
        return c;
    }

    private void loop() {
        String sql = "SELECT coalesce(wait_event_type || ':' || wait_event, CASE WHEN state = 'active' THEN 'CPU' ELSE 'Idle:' || coalesce(state, '') END) "
                + "FROM pg_stat_activity WHERE " + clients + " AND pid <> pg_backend_pid() AND datname = current_database() "
                + runBackends();
        long next = System.nanoTime();
        try {
            while (!stop) {
                long asked = System.nanoTime();
                own(s -> {
                    try (ResultSet rs = s.executeQuery(sql)) {
                        synchronized (this) {
                            longestSampleNanos = Math.max(longestSampleNanos, System.nanoTime() - asked);
                            samples++;
                            while (rs.next()) {
                                waits.merge(rs.getString(1), 1L, Long::sum);
                                backendSamples++;
                            }
                        }
                    }
                    return null;
                });
                next += periodNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) LockSupport.parkNanos(wait);
                else next = System.nanoTime();
            }
        } catch (SQLException e) {
            error = e.getMessage();   // the server went away (restart); the trial itself reports that
        }
    }

    private Map<String, Long> database() throws SQLException {
        Map<String, Long> m = new LinkedHashMap<>();
        if (forceFlush && hostConn != null) {
            // the host connection's reads so far land now too: before the "before" read, or within the window
            try {
                OwnStatements.run(hostConn, h -> h.execute("SELECT pg_stat_force_next_flush() FROM pg_database WHERE datname = current_database()"));
                hostStatements.incrementAndGet();
            } catch (SQLException e) {
                // the host's files are lost to the trial (host says why); its deltas are not, a commit or two off at most
            }
        }
        own(s -> s.execute("SELECT pg_stat_clear_snapshot()"));
        if (forceFlush) {
            // the sampler's own pending counts land now, not in the next snapshot's window (or after it); a backend
            // with no table's counts pending flushes nothing, its commits included, hence the read of pg_database
            own(s -> s.execute("SELECT pg_stat_force_next_flush() FROM pg_database WHERE datname = current_database()"));
        }
        own(s -> {
            try (ResultSet rs = s.executeQuery("SELECT " + String.join(", ", DB_COLUMNS) + ", coalesce((extract(epoch FROM stats_reset)"
                    + " * 1000000)::bigint, 0) FROM pg_stat_database WHERE datname = current_database()")) {
                if (rs.next()) {
                    for (int i = 0; i < DB_COLUMNS.length; i++) m.put(DB_COLUMNS[i], rs.getLong(i + 1));
                    m.put(STATS_RESET, rs.getLong(DB_COLUMNS.length + 1));
                }
            }
            return null;
        });
        return m;
    }

    /** What was observed; stops sampling. */
    public record Observation(Map<String, Object> waitProfile, Map<String, Long> databaseDelta, boolean databaseReset,
                              Map<String, Map<String, Double>> cpu, Map<String, Long> memoryKb, String error,
                              Timeline hostTimeline, Map<String, Object> host, Map<String, Double> processCpu) {

        /** Numbers worth a median: database deltas and the all-core CPU split. */
        public Map<String, Number> metrics() {
            Map<String, Number> m = new LinkedHashMap<>();
            databaseDelta.forEach((k, v) -> m.put("db_" + k, v));
            Map<String, Double> all = cpu.get("cpu");
            if (all != null) {
                // the host's busy share, as the report's host table gives it: charted as user alone, a host at 100 %
                // (64 % user, 35 % system) read as two-thirds busy
                if (all.containsKey("idle")) m.put("cpu_busy_pct", 100 - all.get("idle"));
                for (String st : new String[] {"user", "system", "softirq", "iowait", "idle"}) {
                    if (all.containsKey(st)) m.put("cpu_" + st + "_pct", all.get(st));
                }
            }
            // the host's memory in use, averaged over the run's seconds (study 001 charts it per version and clients)
            java.util.List<Double> used = hostTimeline == null ? java.util.List.of() : hostTimeline.column(HostTimeline.MEMORY_USED);
            double mean = used.stream().filter(v -> !v.isNaN()).mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            if (!Double.isNaN(mean)) m.put("mem_used_mb", Math.round(mean * 10) / 10.0);
            m.putAll(processCpu);
            return m;
        }
    }

    /**
     * Why a profile of this many samples over this window is rough, or null: 6 samples in a 10.6 s trial of 1024
     * clients on two cores, the sampler getting few turns, gave shares of so few readings without a word.
     */
    static String thin(long samples, long windowNanos) {
        return thin(samples, windowNanos, DEFAULT_PERIOD_MS * 1_000_000L, 0);
    }

    /** As above; longestNanos, the longest a sample's query took, tells a connection that stalled from a starved thread. */
    static String thin(long samples, long windowNanos, long periodNanos, long longestNanos) {
        if (periodNanos <= 0) return null;
        long expected = windowNanos / periodNanos;
        if (expected < 10 || samples >= expected / 2) return null;
        String why = longestNanos > windowNanos / 4
                ? String.format(java.util.Locale.ROOT, "one of its queries waited %.1f s for the server's answer", longestNanos / 1e9)
                : "the sampler got few turns on a busy host";
        return samples + " samples where one every " + periodNanos / 1_000_000 + " ms would be " + expected + ": " + why + ", and the shares are rough";
    }

    /** What was observed between {@link #opened} and {@link #closed}. */
    public Observation observation() {
        Map<String, Object> profile = new LinkedHashMap<>();
        synchronized (this) {
            profile.put("samples", samples);
            profile.put("interval_ms", periodNanos / 1_000_000);
            if (periodNanos == 0) profile.put(OFF, "wait events not sampled (--wait-sample-ms 0)");
            profile.put("backend_samples", backendSamples);
            if (ownBackendsOnly && periodNanos > 0) profile.put(BACKENDS, "the role's own only (pg_stat_activity hides other roles' from it)");
            if (closedNanos > openedNanos) profile.put("seconds", Math.round((closedNanos - openedNanos) / 1e6) / 1e3);
            // a profile cut short by a lost connection is not one the sampler got few turns for: said as what it is
            String thin = error != null ? null : thin(samples, closedNanos - openedNanos, periodNanos, longestSampleNanos);
            if (thin != null) profile.put(THIN, thin);
            if (error != null) profile.put(STOPPED, "the sampler's connection failed after " + samples + " samples: " + error);
            if (backendsLeft > 0) profile.put(BACKENDS_LEFT, backendsLeft);
            Map<String, Double> share = new LinkedHashMap<>();
            waits.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                    .forEach(e -> share.put(e.getKey(), backendSamples == 0 ? 0 : Math.round(1e5 * e.getValue() / backendSamples) / 1e3));
            profile.put("percent", share);
        }
        Map<String, Long> mem = Map.of();
        if (host != null) {
            try {
                mem = HostSampler.memory(host.read("/proc/meminfo"));
            } catch (java.io.IOException e) {
                // left out
            }
        }
        Map<String, Long> memory = new LinkedHashMap<>();
        for (String k : new String[] {"MemTotal", "MemAvailable", "MemFree", "Cached", "Buffers", "Dirty", "Shmem"}) {
            if (mem.containsKey(k)) memory.put(k, mem.get(k));
        }
        Map<String, Object> about = new LinkedHashMap<>();
        if (host == null) {
            about.put("unavailable", hostUnavailable);
        } else {
            about.put("source", host.source());
            if (hostTimeline != null && hostTimeline.error() != null) about.put("error", hostTimeline.error());
            if (serverCpuUnavailable != null) about.put("server_processes", serverCpuUnavailable);
        }
        return new Observation(profile, delta, databaseReset, cpu, memory, error, hostSeries, about, processCpu);
    }

    @Override
    public void close() {
        stop = true;
        if (hostTimeline != null && hostSeries == null) hostSeries = hostTimeline.stop();
        try {
            if (hostConn != null) hostConn.close();
            conn.close();
        } catch (SQLException ignored) {
            // nothing to keep
        }
    }
}
