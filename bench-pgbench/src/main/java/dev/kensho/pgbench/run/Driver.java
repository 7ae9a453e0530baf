package dev.kensho.pgbench.run;

import dev.kensho.core.KenshoException;
import dev.kensho.core.measure.LatencyMoments;
import dev.kensho.core.measure.LatencyRecorder;
import dev.kensho.core.measure.LatencySummary;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.WireLogin;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import dev.kensho.pgbench.RunWindow;
import dev.kensho.pgbench.script.ClientScriptRunner;
import dev.kensho.pgbench.script.Command;
import dev.kensho.pgbench.script.PgbenchRandom;
import dev.kensho.pgbench.script.Script;
import dev.kensho.pgbench.script.ScriptException;
import dev.kensho.pgbench.script.TransactionOutcome;
import dev.kensho.pgbench.script.Variables;
import dev.kensho.pgbench.script.WarmupScript;
import dev.kensho.pgbench.script.expr.CFormat;
import dev.kensho.pgbench.script.expr.Expr;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The pgbench run engine. pgbench's -j threads become groups that own their clients' shared state
 * (script choice, -R schedule, log sampling and the -l file), exactly as pgbench's threads do; each
 * client runs on its own Java thread with its own connection, because JDBC blocks where libpq lets
 * one pgbench thread multiplex its clients. A lost connection (server restart) counts the
 * transaction as failed; the client reconnects and goes on.
 */
public final class Driver {
    private static final long RECONNECT_PAUSE_NANOS = 100_000_000L;
    /** A client gives up reconnecting after this long, or at the run's end (-T) if that comes first. */
    private static final long RECONNECT_LIMIT_NANOS = 60_000_000_000L;

    /** The warm-up ends after this even if the JIT is still busy. */
    private static final long WARMUP_LIMIT_NANOS = 10_000_000_000L;
    /** Warm-up transactions per runner (see warmup()). */
    private static final int WARMUP_FRESH_EVERY = 100;

    private final Target target;
    private final RunConfig cfg;
    private final Connector connector;
    private final int extraConnections;
    private final RunWindow window;
    /**
     * SQL each client runs between its warm-up and the run, on the warm-up's connection: DEALLOCATE ALL in prepared
     * mode (the run starts as pgbench's does), and with a window on PostgreSQL 15+ pg_stat_force_next_flush() (an
     * idle backend keeps up to a second of counts for ten seconds: the warm-up's would land in the run's deltas), before
     * 15 a sleep past the collector's interval (PGSTAT_STAT_INTERVAL, 500 ms), whose end sends them. The clients run
     * it at once: it costs a trial half a second. The sleep is a transaction of its own without the database's or role's
     * statement_timeout (SET LOCAL: a session's SET would stay for the run): one under half a second cancelled it, and
     * the warm-up's transactions were counted in the trial's commits.
     */
    private List<String> betweenPhases = List.of();
    private static final List<String> PRE15_FLUSH = List.of("BEGIN", "SET LOCAL statement_timeout = 0", "SELECT pg_sleep(0.51)", "COMMIT");
    /** The run uses the wire engine (asked for, and the login allows it). */
    private boolean wireEngine;
    private WireLogin login;

    // shared counters
    private final LongAdder ok = new LongAdder(), skipped = new LongAdder(), serialization = new LongAdder(),
            deadlock = new LongAdder(), other = new LongAdder(), lost = new LongAdder(), retried = new LongAdder(),
            retries = new LongAdder(), late = new LongAdder(), connects = new LongAdder(), connectNanos = new LongAdder(),
            reconnects = new LongAdder();
    /** The run's seconds the transactions are filed under; before the start, the warm-up's own. */
    private volatile RunSeconds seconds;
    private List<Script> warmupScripts;
    /** The seed the run drew from ('time' and 'rand' made one): what reproduces it. */
    private long randomSeed;
    /** Watches the JIT during the warm-up; null without one. */
    private JitSettle jit;
    private LatencyRecorder[] scriptLatency;
    private LatencyMoments[] scriptMoments;
    private LongAdder[] scriptOk, scriptFailed, scriptSkipped, scriptSerialization, scriptDeadlock, scriptOther, scriptRetried, scriptRetries;
    private AtomicLongArray[] commandFailures, commandRetries;
    private final AtomicBoolean aborted = new AtomicBoolean();
    /** The first client abort's message, for a caller that reads the report and not the errors stream. */
    private final java.util.concurrent.atomic.AtomicReference<String> firstAbort = new java.util.concurrent.atomic.AtomicReference<>();
    /** Set when a client could not connect (the others do not start), or by --exit-on-abort when one aborts (the others stop). */
    private volatile boolean cancelled;
    /** --exit-on-abort: the client whose abort stopped the run, -1 while none has. */
    private final AtomicInteger abortedBy = new AtomicInteger(-1);
    private volatile List<Client> allClients = List.of();

    private String partitionMethod;
    private int partitions;
    private long startNanos;
    private long startEpochMicros;
    /** The wall clock in µs as the run's log stamps it: its start's plus the monotonic time since. */
    private final LongSupplier logClock = () -> startEpochMicros + (System.nanoTime() - startNanos) / 1000;
    private long deadlineNanos = Long.MAX_VALUE;
    /**
     * Counted down as each client finishes, before it closes its connection: the run's end is known then, and its
     * seconds end with it. Closing waits on the backends' exits (each close hands a core to a backend ending itself:
     * 256 wire clients took 2.6 s), during which the seconds ticked on, -P printing seconds after the run's end.
     */
    private CountDownLatch finishedClients;

    /**
     * @param extraConnections connections the caller has open and keeps open during the run (a sampler), counted
     *                         in the max_connections check
     * @param window told when the measured interval begins and ends
     */
    public Driver(Target target, RunConfig cfg, int extraConnections, RunWindow window) {
        this.target = target;
        this.cfg = cfg;
        this.connector = new Connector(target, cfg.mode());
        this.extraConnections = extraConnections;
        this.window = window;
    }

    /** A pgbench thread: state its clients share. */
    private final class Group {
        final int index;
        final PgbenchRandom choose, throttle, sample;
        final double throttleDelayMicros;
        long trigger;
        boolean scheduling;
        TxLog log;
        final java.util.concurrent.atomic.AtomicLong connectedAt = new java.util.concurrent.atomic.AtomicLong();

        Group(int index, PgbenchRandom.Seeds seeds, int groups) {
            this.index = index;
            this.choose = seeds.choose()[index];
            this.throttle = seeds.throttle()[index];
            this.sample = seeds.sample()[index];
            this.throttleDelayMicros = cfg.rate() > 0 ? 1_000_000.0 / cfg.rate() * groups : 0;
        }

        /** The next transaction's script, drawn from r: the thread's {@link #choose}, or a warm-up's own state. */
        int chooseScript(PgbenchRandom r) {
            if (cfg.scripts().size() == 1) return 0;   // pgbench draws nothing then either
            synchronized (this) {
                return Script.choose(cfg.scripts(), r);
            }
        }

        /**
         * The next -R schedule point of this thread (pgbench's thread->throttle_trigger). The schedule starts when the
         * thread's first client asks, as pgbench's starts when its thread passes the start barrier: from the run's start,
         * a client woken late (a loaded machine) found a short schedule (-t 200 -R 100000: 2 ms) all behind it, and -L
         * skipped every transaction.
         */
        synchronized long nextSchedule() {
            if (!scheduling) {
                trigger = System.nanoTime();
                scheduling = true;
            }
            trigger += throttle.nextPoisson(throttleDelayMicros) * 1000L;
            return trigger;
        }

        synchronized boolean sampled() {
            return cfg.samplingRate() == 0 || sample.nextDouble() <= cfg.samplingRate();
        }
    }

    public RunReport run() throws InterruptedException {
        cfg.validate();
        // drawn first and said as pgbench says it (pg_log_info in set_random_seed) whenever a seed was asked for, --random-seed
        // or PGBENCH_RANDOM_SEED: the value 'time' and 'rand' drew is what reproduces the run's random values
        long seed = PgbenchRandom.parseSeed(cfg.randomSeed());
        if (cfg.randomSeed() != null) cfg.err().println("setting random seed to " + Long.toUnsignedString(seed));
        int threads = cfg.effectiveThreads();
        ClientLimits.checkOpenFiles(cfg.clients() + extraConnections, threads, ClientLimits.filesPerThread(cfg.engine(), cfg.log()), "-c");
        // a sweep says it once for all its trials (ClientSweep), not in every trial of a large count
        if (window == RunWindow.NONE) {
            String crowded = ClientLimits.threadPerClientLoad(cfg.clients(), cfg.engine(), Runtime.getRuntime().availableProcessors(), "");
            if (crowded != null) cfg.err().println("warning: " + crowded);
        }
        int scale;
        try (Connection admin = target.connect()) {
            // the library's words (clients()); bench pgbench run says them as its options (ClientLimits.onCommandLine)
            ClientLimits.checkConnections(admin, cfg.clients(), extraConnections, true, "clients()");
            if (cfg.mode() != QueryMode.SIMPLE) refuseUntypedParameters(admin);
            scale = scale(admin);
            warmupScripts = WarmupScript.of(cfg.scripts(), cfg.warmupStatements() > 0 && cfg.mode() != QueryMode.SIMPLE
                    ? c -> parameterTypes(admin, c) : c -> null, table -> cfg.warmupStatements() > 0 && quietTable(admin, table));
            if (!cfg.noVacuum()) new PreRunVacuum(cfg).run(admin);
            List<String> between = new ArrayList<>();
            if (cfg.mode() == QueryMode.PREPARED) between.add("DEALLOCATE ALL");
            if (window != RunWindow.NONE && ServerVersion.of(admin).atLeast(15)) between.add("SELECT pg_stat_force_next_flush()");
            // before 15 a backend sends its counts at a transaction's end half a second or more after it last did, and
            // no sooner: one that sleeps past that sends the warm-up's last ones before the run, not within it
            else if (window != RunWindow.NONE) between.addAll(PRE15_FLUSH);
            betweenPhases = List.copyOf(between);
            LibpqLogin libpq = new LibpqLogin(target, cfg);
            login = cfg.engine() == Engine.WIRE ? libpq.wireLogin(admin) : null;
            wireEngine = login != null;
            if (!wireEngine) connector.settings(libpq.pgjdbcSettings(admin));
        } catch (SQLException e) {
            // nothing measured yet: the server's state is the problem (and the CLI keeps no empty run directory)
            throw KenshoException.target("pgbench: " + oneLine(e), e);
        }
        randomSeed = seed;
        Variables base = new Variables();
        for (String d : cfg.defines()) {
            try {
                base.define(d);
            } catch (IllegalArgumentException e) {
                throw KenshoException.usage(e.getMessage());
            }
        }
        PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(seed, cfg.clients(), threads, !base.contains("default_seed"));
        int ns = cfg.scripts().size();
        scriptLatency = new LatencyRecorder[ns];
        scriptMoments = new LatencyMoments[ns];
        scriptOk = new LongAdder[ns];
        scriptFailed = new LongAdder[ns];
        scriptSkipped = new LongAdder[ns];
        scriptSerialization = new LongAdder[ns];
        scriptDeadlock = new LongAdder[ns];
        scriptOther = new LongAdder[ns];
        scriptRetried = new LongAdder[ns];
        scriptRetries = new LongAdder[ns];
        commandFailures = new AtomicLongArray[ns];
        commandRetries = new AtomicLongArray[ns];
        for (int i = 0; i < ns; i++) {
            scriptLatency[i] = new LatencyRecorder();
            scriptMoments[i] = new LatencyMoments();
            scriptOk[i] = new LongAdder();
            scriptFailed[i] = new LongAdder();
            scriptSkipped[i] = new LongAdder();
            scriptSerialization[i] = new LongAdder();
            scriptDeadlock[i] = new LongAdder();
            scriptOther[i] = new LongAdder();
            scriptRetried[i] = new LongAdder();
            scriptRetries[i] = new LongAdder();
            commandFailures[i] = new AtomicLongArray(cfg.scripts().get(i).commands().size());
            commandRetries[i] = new AtomicLongArray(cfg.scripts().get(i).commands().size());
        }

        Group[] groups = new Group[threads];
        List<Client> clients = new ArrayList<>();
        long pid = ProcessHandle.current().pid();
        Path logDir = cfg.logDirectory();
        try {
            for (int g = 0; g < threads; g++) {
                groups[g] = new Group(g, seeds, threads);
                if (cfg.log()) {
                    groups[g].log = new TxLog(TxLog.path(logDir, cfg.logPrefix() == null ? "pgbench_log" : cfg.logPrefix(), pid, g),
                            cfg.rate() > 0, cfg.latencyLimitMs() > 0, cfg.maxTries() != 1, cfg.failuresDetailed(), cfg.continueOnError(), cfg.aggregateInterval(),
                            why -> cfg.err().println("error: " + why));
                }
                int[] range = PgbenchRandom.Seeds.clientsOfThread(cfg.clients(), threads, g);
                for (int id = range[0]; id < range[0] + range[1]; id++) {
                    Variables v = base.copy();
                    v.standard(scale, id, seed, seeds.defaultSeed());
                    clients.add(new Client(id, groups[g], v, seeds.clients()[id]));
                }
            }
            return runClients(groups, clients, threads, scale);
        } finally {
            for (Group g : groups) if (g != null && g.log != null) g.log.close();
        }
    }

    private RunReport runClients(Group[] groups, List<Client> clients, int threads, int scale) throws InterruptedException {
        allClients = List.copyOf(clients);
        jit = cfg.warmupStatements() > 0 && !cfg.connectPerTransaction() ? JitSettle.watch() : null;
        CountDownLatch connected = new CountDownLatch(clients.size());
        finishedClients = new CountDownLatch(clients.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        int depth = cfg.scripts().stream().flatMap(sc -> sc.commands().stream()).map(dev.kensho.pgbench.script.Command::expr)
                .filter(java.util.Objects::nonNull).mapToInt(Expr::depth).max().orElse(1);
        long connectStart = System.nanoTime();
        seconds = new RunSeconds(connectStart, cfg.rate() > 0, s -> { }, s -> { });
        List<Multiplexer> muxes = new ArrayList<>();
        if (wireEngine) {
            for (Group g : groups) {
                List<Client> mine = clients.stream().filter(c -> c.group == g).toList();
                Multiplexer m;
                try {
                    m = new Multiplexer(g, mine);
                } catch (IOException e) {
                    for (Multiplexer made : muxes) made.closeSelector();
                    throw new KenshoException(KenshoException.FAILURE, "pgbench: cannot open a selector: " + oneLine(e), e);
                }
                muxes.add(m);
                Thread t = new Thread(null, () -> {
                    Expr.stackHolds(depth);
                    m.run(connected, go);
                }, "pgbench-thread-" + g.index, Expr.stackBytesFor(depth));
                t.setDaemon(true);
                ts.add(t);
            }
        }
        for (Client c : wireEngine ? List.<Client>of() : clients) {
            // a small stack: up to thousands of clients (study 001 goes to 1024), each parked in socket reads; a
            // script with a deeply nested expression gets what it needs, so it is evaluated in place
            Thread t = new Thread(null, () -> {
                Expr.stackHolds(depth);
                c.run(connected, go);
            }, "pgbench-client-" + c.id, Math.max(256 * 1024, Expr.stackBytesFor(depth)));
            t.setDaemon(true);
            ts.add(t);
        }
        for (int i = 0; i < ts.size(); i++) {
            try {
                ts.get(i).start();
            } catch (OutOfMemoryError e) {
                // pthread_create refused (a process or task limit, seldom memory): the clients started so far close their
                // connections, and the caller hears which limit (the JVM's "out of memory" sent users to -Xmx)
                if (!dev.kensho.core.env.ThreadLimits.isThreadRefused(e)) throw e;
                if (jit != null) jit.close();
                cancelBeforeStart(ts.subList(0, i), go);
                for (Multiplexer m : muxes.subList(Math.min(i, muxes.size()), muxes.size())) m.closeSelector();   // never ran: never closed its own
                throw new KenshoException(KenshoException.FAILURE, "pgbench: cannot start thread " + (i + 1) + " of " + ts.size() + " ("
                        + dev.kensho.core.env.ThreadLimits.describe() + "): " + (wireEngine ? "lower -j" : "the pgjdbc engine runs a thread"
                        + " per client: lower -c, or use --engine wire (clients on -j threads, as pgbench)") + ", or raise the limit", e);
            }
        }
        try {
            connected.await();
        } catch (InterruptedException e) {
            throw stopOnInterrupt(e, ts, go, null);
        } finally {
            if (jit != null) jit.close();   // a library's caller keeps its JVM: no watcher left behind
        }
        for (Client c : clients) {
            if (c.connectError != null) {
                cancelBeforeStart(ts, go);
                throw KenshoException.target("connection to the server failed for client " + c.id + ": " + c.connectError, null);
            }
        }
        if (jit != null) {
            resetCounts();   // the warm-up ran through the same loop and counters
            HeapPretouch.run();   // part of the warm-up: the clients' first pass through eden would fault on every page
        }
        try {
            window.opened();
        } catch (RuntimeException e) {
            // the observer failed: the clients, waiting for the start, must not be left behind with their connections
            cancelBeforeStart(ts, go);
            throw e;
        }
        double initialConnMs = initialConnectionMs(connectStart, Arrays.stream(groups).mapToLong(g -> g.connectedAt.get()).toArray());
        long cpuAtStart = processCpuNanos();
        long faultsAtStart = dev.kensho.core.env.OwnProcess.minorFaults();
        dev.kensho.core.env.CpuThrottling quota = dev.kensho.core.env.CpuThrottling.ofThisProcess();
        dev.kensho.core.env.CpuThrottling.Count throttledAtStart = quota == null ? null : quota.read();
        startNanos = System.nanoTime();
        startEpochMicros = TxLog.nowEpochMicros();
        for (Group g : groups) {
            g.scheduling = false;
            if (g.log != null) g.log.begin(startEpochMicros);
        }
        if (cfg.durationSeconds() > 0) deadlineNanos = startNanos + cfg.durationSeconds() * 1_000_000_000L;
        Ticker ticker = new Ticker(cfg, startNanos, startEpochMicros, e -> stopped("the progress thread", e));
        seconds = ticker.seconds;
        try {
            ticker.start();
        } catch (OutOfMemoryError e) {
            // the last thread of the run, refused as a client's would be: the clients, waiting for the start, leave too
            if (!dev.kensho.core.env.ThreadLimits.isThreadRefused(e)) throw e;
            cancelBeforeStart(ts, go);
            window.closed();
            throw new KenshoException(KenshoException.FAILURE, "pgbench: cannot start the progress thread ("
                    + dev.kensho.core.env.ThreadLimits.describe() + "): lower the clients or threads, or raise the limit", e);
        }
        go.countDown();
        long cpuAtEnd;
        long faultsAtEnd;
        dev.kensho.core.env.CpuThrottling.Count throttledAtEnd;
        long end;
        Timeline timeline;
        try {
            finishedClients.await();
            cpuAtEnd = processCpuNanos();
            faultsAtEnd = dev.kensho.core.env.OwnProcess.minorFaults();
            throttledAtEnd = quota == null ? null : quota.read();
            end = clients.stream().mapToLong(c -> c.finishedAt).max().orElse(System.nanoTime());
            // the seconds end with the run, before the connections' closing and the observer's (a sweep waits there up
            // to 3 s for the backends to go): ticking on meanwhile, -P and the timeline showed seconds after the run's
            // end, the last transactions' 4 ms as a whole second among them
            timeline = ticker.finish(end);
            for (Thread t : ts) t.join();
        } catch (InterruptedException e) {
            InterruptedException stopped = stopOnInterrupt(e, ts, go, ticker);
            window.closed();
            throw stopped;
        }
        window.closed();
        // under -R a client may simply have had no slot of its thread's schedule (-R 5 -T 5 has 25 for 50 clients), as in
        // pgbench: said to be starved of a core, with advice that changed nothing
        long idle = wireEngine || cfg.rate() > 0 ? 0 : clients.stream().filter(c -> c.timeUp && c.lastTxEnd == 0).count();
        if (idle > 0) {
            cfg.err().println("warning: " + idle + " of " + clients.size() + " clients ran no transaction before the run's end: their"
                    + " threads got a core only after it (--engine pgjdbc runs a thread per client); the run measured fewer clients"
                    + " than it says (--engine wire runs them on -j threads, as pgbench)");
        }
        for (Group g : groups) {
            if (g.log == null) continue;
            // as pgbench's thread, whose log ends when its own clients have: an interval that ends later is not its to write
            long groupEnd = clients.stream().filter(c -> c.group == g).mapToLong(c -> c.finishedAt).max().orElse(end);
            g.log.finish(startEpochMicros + (groupEnd - startNanos) / 1000);
            g.log.close();   // here, not only in run()'s finally: a failed last flush belongs in the report
        }
        String logFailure = Arrays.stream(groups).map(g -> g.log == null ? null : g.log.failure()).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
        if (abortedBy.get() >= 0) {
            // pgbench 17+ exits at once without a report: "Run was aborted due to an error in thread N"
            throw new KenshoException(KenshoException.FAILURE, "Run was aborted due to an error in client " + abortedBy.get()
                    + " (--exit-on-abort): all clients stopped, no report");
        }
        double bench = Math.max(1e-9, (end - startNanos) / 1e9);
        long processed = ok.sum();
        long failed = serialization.sum() + deadlock.sum() + other.sum() + lost.sum();
        Histogram all = ticker.total();
        LatencySummary latency = LatencySummary.of(all, seconds.totalMoments());
        List<RunReport.ScriptReport> scripts = new ArrayList<>();
        long totalWeight = cfg.scripts().stream().mapToLong(Script::weight).sum();
        int ns = cfg.scripts().size();
        for (int i = 0; i < cfg.scripts().size(); i++) {
            Script s = cfg.scripts().get(i);
            List<RunReport.CommandReport> cmds = new ArrayList<>();
            for (int k = 0; k < s.commands().size(); k++) {
                long nanos = 0, count = 0;
                for (Client c : clients) {
                    nanos += c.runner.commandNanos(i)[k];
                    count += c.runner.commandCounts(i)[k];
                }
                cmds.add(new RunReport.CommandReport(s.commands().get(k).text(), count == 0 ? 0 : nanos / 1e6 / count,
                        commandFailures[i].get(k), commandRetries[i].get(k)));
            }
            scripts.add(new RunReport.ScriptReport(s.description(), s.weight(), totalWeight, scriptOk[i].sum(), scriptFailed[i].sum(),
                    scriptSkipped[i].sum(), scriptSerialization[i].sum(), scriptDeadlock[i].sum(), scriptOther[i].sum(), scriptRetried[i].sum(),
                    scriptRetries[i].sum(), ns == 1 ? latency : LatencySummary.of(scriptLatency[i].total(), scriptMoments[i]), cmds));
        }
        // pgbench's average: conn_total_duration / (cnt + failures), connections and disconnections over transactions
        double connMs = cfg.connectPerTransaction() ? (processed + failed == 0 ? 0 : connectNanos.sum() / 1e6 / (processed + failed)) : initialConnMs;
        String type = cfg.scripts().size() == 1 ? cfg.scripts().get(0).description() : "multiple scripts";
        return new RunReport(type, scale, partitionMethod, partitions, cfg.mode().pgbenchName(), cfg.clients(), threads, cfg.maxTries(),
                cfg.durationSeconds(), cfg.effectiveTransactions(), processed, failed, serialization.sum(), deadlock.sum(),
                other.sum(), cfg.continueOnError(), lost.sum(), skipped.sum(), retried.sum(), retries.sum(), late.sum(), cfg.latencyLimitMs(), cfg.rate(),
                latency, LatencySummary.of(ticker.totalLag(), seconds.lagMoments()), cfg.connectPerTransaction(), connMs, bench,
                processed / bench, cfg.failuresDetailed(), scripts, cfg.perStatement(), aborted.get(), reconnects.sum(),
                // the fewest any client ran: a long script's warm-up ends at its 10 s limit, short of those asked
                allClients.stream().mapToLong(c -> c.warmupRan).min().orElse(0), warmupAsked(),
                wireEngine ? Engine.WIRE : Engine.PGJDBC,
                timeline == null || latency.count() == 0 ? timeline
                        : timeline.capped(List.of("latency_p50_ms", "latency_p99_ms", "latency_max_ms"), latency.maxMs()), all, randomSeed,
                cpuAtStart < 0 || cpuAtEnd < 0 ? Double.NaN : (cpuAtEnd - cpuAtStart) / 1e9, firstAbort.get(), logFailure,
                throttledAtStart == null || throttledAtEnd == null ? Double.NaN : throttledAtEnd.percentSince(throttledAtStart),
                faultsAtStart < 0 || faultsAtEnd < 0 ? -1 : faultsAtEnd - faultsAtStart);
    }

    /** How often a client thread waiting for the start looks (see awaitStart). */
    private static final long START_LOOK_MILLIS = 50;

    /**
     * Waits for the start, looking every {@link #START_LOOK_MILLIS} on a timer of the thread's own. Woken by the latch
     * alone, each waiter wakes the next once it runs: with 1024 client threads on two cores busy with the run, the
     * chain took 20-30 s (half the clients woke after a 10 s -T was over, and the run's end, its last client's, came
     * long after its last transaction, deflating tps); waking every thread from one loop was no better, each wake-up
     * preempting the waker. Timers expire independently of the busy cores' order of running.
     */
    private static void awaitStart(CountDownLatch go) throws InterruptedException {
        while (!go.await(START_LOOK_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            // not yet
        }
    }

    /** The run ends before its start: the clients waiting for it close their connections and their threads end. */
    private void cancelBeforeStart(List<Thread> started, CountDownLatch go) throws InterruptedException {
        cancelled = true;
        go.countDown();
        for (Thread t : started) t.join();
    }

    /**
     * The caller's thread was interrupted (a harness's timeout, a cancelled Future): the run stops as it is, no report.
     * Its clients must not go on loading the server (and its next test) to the end of -T, each with its connection,
     * nor its ticker for ever: they are cut off as --exit-on-abort cuts them, and waited for before the interrupt is
     * passed on.
     */
    private InterruptedException stopOnInterrupt(InterruptedException e, List<Thread> ts, CountDownLatch go, Ticker ticker) {
        cancelled = true;
        go.countDown();
        for (Client c : allClients) c.cut();
        boolean interrupted = false;
        for (Thread t : ts) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException again) {
                    interrupted = true;
                }
            }
        }
        if (ticker != null) ticker.cancel();
        if (interrupted) Thread.currentThread().interrupt();
        return e;
    }

    /**
     * pgbench 15's "initial connection time": from before its threads start to the barrier they all pass once
     * connected ({@code bench_start - start_time}), so the last thread's connection phase, not their average.
     *
     * @param connectedAt when each thread (group) had connected its clients, in System.nanoTime()
     */
    static double initialConnectionMs(long connectStart, long[] connectedAt) {
        long last = connectStart;
        for (long t : connectedAt) last = Math.max(last, t);
        return (last - connectStart) / 1e6;
    }

    /**
     * CPU time of this whole JVM (clients, GC, the JIT, the samplers), or -1 where the platform does not give it: a
     * runtime without the jdk.management module (a jlink'ed one) has no com.sun.management, and naming it throws.
     */
    static long processCpuNanos() {
        try {
            if (java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                return os.getProcessCpuTime();
            }
        } catch (NoClassDefFoundError e) {
            // no jdk.management: the report goes without the driver's CPU line
        }
        return -1;
    }

    /**
     * The warm-up's clients file their transactions as the run's do and read the seconds when due; one of them also
     * reads now and then as the ticker will, so that path is compiled too.
     */
    private void readWarmupSeconds() {
        seconds.read(System.nanoTime(), true);
    }

    /** Forgets what the warm-up counted; called while every client waits for the start. */
    private void resetCounts() {
        for (LongAdder a : List.of(ok, skipped, serialization, deadlock, other, lost, retried, retries, late, reconnects)) a.reset();
        for (int i = 0; i < scriptLatency.length; i++) {
            scriptLatency[i].reset();
            scriptMoments[i].reset();
            for (LongAdder a : List.of(scriptOk[i], scriptFailed[i], scriptSkipped[i], scriptSerialization[i], scriptDeadlock[i],
                    scriptOther[i], scriptRetried[i], scriptRetries[i])) a.reset();
            commandFailures[i] = new AtomicLongArray(commandFailures[i].length());
            commandRetries[i] = new AtomicLongArray(commandRetries[i].length());
        }
    }

    // ------------------------------------------------------------------ client

    private final class Client {
        final int id;
        final Group group;
        final ClientScriptRunner runner;
        Connection conn;
        Thread thread;
        String connectError;
        long finishedAt;
        /** The end of this client's last transaction of the run, and whether it stopped because -T's time was up. */
        long lastTxEnd;
        boolean timeUp;
        long txNo;
        /** The warm-up transactions this client ran (its 10 s limit may end it short of those asked). */
        long warmupRan;
        /** In warmup(): see loop(). */
        boolean warming, warmupFailed;
        /**
         * Where scripts are drawn from: the thread's state, in the warm-up one of its own. Not a branch on
         * {@link #warming}: C2 compiles a branch the warm-up never took as a trap, and the run's first transaction would
         * throw the client path's compiled code away, to be compiled again while the clock runs (seen: the first
         * second of a c=8 run at half speed, several seconds when the compiler thread waits for a core).
         */
        PgbenchRandom choose;

        // the wire engine: this client's connection and where it is in its thread's Multiplexer
        WireConnection wire;
        SelectionKey key;
        Multiplexer mux;
        Phase phase = Phase.DONE;
        ClientScriptRunner active;
        long limit, until, wakeAt, scheduled, start, sleepStart;
        boolean throttled;
        int script, tries;
        /** -R with -L: the script of the slot just skipped, which the next slot runs (pgbench draws none for it), or -1. */
        int skippedScript = -1;

        Client(int id, Group group, Variables vars, PgbenchRandom random) {
            this.id = id;
            this.group = group;
            this.choose = group.choose;
            try {
                this.runner = new ClientScriptRunner(cfg.scripts(), id, vars, random, cfg.mode(),
                        ClientScriptRunner.Options.defaults().withStderr(cfg.err()::println).withCommandTiming(cfg.perStatement()).withSleeper(Driver.this::sleepWithinRun));
            } catch (ScriptException e) {
                throw KenshoException.usage(e.getMessage());
            }
        }

        void run(CountDownLatch connected, CountDownLatch go) {
            thread = Thread.currentThread();
            boolean counted = false;
            try {
                if (!cfg.connectPerTransaction()) {
                    try {
                        conn = connector.connect();
                    } catch (SQLException | RuntimeException e) {
                        connectError = oneLine(e);
                    }
                }
                group.connectedAt.accumulateAndGet(System.nanoTime(), Math::max);
                if (connectError == null && conn != null) warmup();
                connected.countDown();
                counted = true;
                awaitStart(go);
                if (connectError == null && !cancelled) loop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException | Error e) {
                // a defect, or the heap exhausted (a result the pgjdbc engine holds whole): this client stops, the others
                // finish and the run reports (as a wire thread that stops); escaping, it printed a stack trace and the run
                // went on without a word in its report, a client short, "ok"
                stopped("client " + id, e);
            } finally {
                if (!counted) connected.countDown();   // a defect in the warm-up must not leave the start waiting
                long now = System.nanoTime();
                // a client whose -T was up ends with -T, or with its last transaction past it: one whose thread got a
                // core only after the end (a thousand client threads on two cores) ran nothing then, and stretched the
                // run by seconds in which nothing ran, deflating tps
                finishedAt = timeUp ? Math.max(lastTxEnd, Math.min(now, deadlineNanos)) : now;
                finishedClients.countDown();
                close();
            }
        }

        /**
         * JIT warm-up of the client path on this client's connection, before the clock starts: the run's own
         * transaction loop over the warm-up twins of its scripts ({@link WarmupScript}: no table touched), with a
         * random state of its own, so the measured run is exactly pgbench's. The counts it leaves are reset.
         */
        private void warmup() {
            int n = warmupAsked();
            if (n == 0) return;
            long giveUp = System.nanoTime() + WARMUP_LIMIT_NANOS;
            ClientScriptRunner w = null;
            warming = true;
            try {
                // n transactions each, then client 0 alone goes on until the JIT is idle: queued compilations need the
                // code to stay hot, and the compiler thread needs a core (with every client busy it got a fifth of one
                // and was still compiling ten seconds later)
                for (int gen = 0; (txNo < n || id == 0 && !jit.settled()) && System.nanoTime() < giveUp && !warmupFailed && !cancelled; gen++) {
                    // A fresh runner with new statement texts now and then: the run starts with new statements and
                    // unset variables, and pgjdbc's first executions of a statement take another path (Parse, Describe,
                    // unnamed until prepareThreshold). Code compiled without ever seeing those paths is thrown away at
                    // the run's first transaction and compiled again while the clock runs.
                    if (w != null) w.releaseStatements();
                    // as at the run's start (below): pgjdbc then prepares again the statements it kept (BEGIN, END)
                    if (gen > 0 && cfg.mode() == QueryMode.PREPARED) deallocateAll();
                    w = warmupRunner(gen);
                    choose = new PgbenchRandom(-1 - id - gen);
                    loop(w, txNo + WARMUP_FRESH_EVERY, giveUp, false);
                    if (id == 0) readWarmupSeconds();
                }
                warmupRan = txNo;
                if (w != null) w.releaseStatements();
                if (!warmupFailed && warmsFailurePath()) warmFailurePath();
                // leave the session as pgbench finds it: no transaction open (a script that ends inside one, which
                // aborts the client, left the warm-up's open, and the run's first BEGIN went into it with a WARNING),
                // no named statement of ours (pgjdbc forgets its cache too)
                if (conn != null && !conn.isClosed()) try (Statement st = conn.createStatement()) {
                    if (conn.unwrap(org.postgresql.core.BaseConnection.class).getTransactionState()
                            != org.postgresql.core.TransactionState.IDLE) st.execute("ROLLBACK");
                    for (String sql : betweenPhases) {
                        try {
                            st.execute(sql);
                        } catch (SQLException e) {
                            // on to the next: a failed sleep's COMMIT still ends its transaction
                            if (conn.isClosed()) break;
                        }
                    }
                }
            } catch (ScriptException e) {
                throw new IllegalStateException(e);
            } catch (SQLException e) {
                // the run itself will meet and report whatever is wrong with the connection
            } finally {
                warming = false;
                choose = group.choose;
                txNo = 0;
                skippedScript = -1;
            }
            freshIfLostInWarmup();
        }

        /**
         * A session the server ended during the warm-up (idle_in_transaction_session_timeout while a JVM pause held the
         * client between two statements; an administrator's pg_terminate_backend) is replaced before the clock starts:
         * it was the run's first failed transaction and reconnection, though nothing measured was lost.
         */
        private void freshIfLostInWarmup() {
            boolean lost;
            try {
                lost = conn == null || conn.isClosed();
            } catch (SQLException e) {
                lost = true;
            }
            if (!lost || cancelled) return;
            close();
            // as any lost connection: retried while the server restarts; the reconnection is the warm-up's, whose counts
            // are reset at the start. One that cannot be had is left to the run, which reports it as it would
            connect(false);
        }

        private void loop() {
            loop(runner, cfg.effectiveTransactions(), deadlineNanos, cfg.rate() > 0);
        }

        /** {@link WarmupScript#FAILING}: a failed try and its retry, on this client's connection, nothing counted. */
        private void warmFailurePath() throws ScriptException {
            ClientScriptRunner f = failingRunner();
            TransactionOutcome out = f.runScript(conn, 0);
            if (out.retryable()) f.retry(conn, out);
            f.releaseStatements();
        }

        /** A runner of {@link WarmupScript#FAILING} in the place of each of the run's scripts (a thread draws among them). */
        ClientScriptRunner failingRunner() throws ScriptException {
            return new ClientScriptRunner(java.util.Collections.nCopies(cfg.scripts().size(), WarmupScript.FAILING), id,
                    runner.variables().copy(), new PgbenchRandom(id), cfg.mode(),
                    ClientScriptRunner.Options.defaults().withStderr(line -> { }).withCommandTiming(cfg.perStatement()));
        }

        private void deallocateAll() throws SQLException {
            try (Statement st = conn.createStatement()) {
                st.execute("DEALLOCATE ALL");
            }
        }

        /** The runner of a warm-up generation: the run's own variables (a copy) and -r timing, so the compiled path is the run's. */
        ClientScriptRunner warmupRunner(int gen) throws ScriptException {
            return new ClientScriptRunner(WarmupScript.generation(warmupScripts, gen), id, runner.variables().copy(),
                    new PgbenchRandom(id + gen), cfg.mode(),
                    ClientScriptRunner.Options.defaults().withStderr(line -> { }).withCommandTiming(cfg.perStatement()));
        }

        /**
         * The next transaction's script. pgbench draws it once per transaction it runs: a slot skipped under -R with -L
         * goes back to scheduling with the script it drew (CSTATE_PREPARE_THROTTLE), so the next slot runs that one.
         */
        private int nextScript() {
            int s = skippedScript >= 0 ? skippedScript : group.chooseScript(choose);
            skippedScript = -1;
            return s;
        }

        /**
         * A reconnect after a lost connection (not -C's connection: pgbench's own) may take seconds, a server restarting:
         * the slot it held up is judged by -L again, as pgbench judges every slot before it starts, and skipped if late.
         * It was sent seconds behind its schedule, one "late" transaction per client with the outage in its latency.
         */
        private boolean lateAfterReconnect(long scheduled, long latencyLimitNanos) {
            return cfg.rate() > 0 && !warming && latencyLimitNanos > 0 && !cfg.connectPerTransaction()
                    && System.nanoTime() > scheduled + latencyLimitNanos;
        }

        /** -R with -L: a transaction already later than the limit when it would start is skipped, as pgbench does. */
        private void skip(int script) {
            skippedScript = script;
            skipped.increment();
            seconds.skipped(System.nanoTime());
            scriptSkipped[script].increment();
            log(0, "skipped", script, 0, null, 1);
            txNo++;
        }

        /**
         * The transaction loop, for the run and for the warm-up (which compiles this very method): with
         * {@link #warming}, scripts are drawn from the warm-up's own random state ({@link #choose}), nothing is
         * logged and the first failure ends the warm-up.
         */
        private void loop(ClientScriptRunner r, long limit, long until, boolean throttled) {
            long latencyLimitNanos = (long) (cfg.latencyLimitMs() * 1e6);
            long burstClock = 0;   // the clock reading a burst of -L skips is judged by; 0 outside one
            // the latest clock reading: the previous transaction's end serves the deadline check (a read fewer per transaction)
            long clock = System.nanoTime();
            // no limit (-T) as the largest one, not as 0: the warm-up always has a limit (see choose)
            if (limit == 0) limit = Long.MAX_VALUE;
            while (txNo < limit) {
                if (clock >= until) {
                    timeUp = !warming;
                    return;
                }
                // connecting (-C, or after a lost connection) is not part of the transaction's latency
                boolean connecting = conn == null;
                if (!throttled && conn == null && !connect(cfg.connectPerTransaction())) return;
                int script = nextScript();
                long scheduled = 0;
                if (throttled) {
                    scheduled = group.nextSchedule();
                    if (scheduled > until) {
                        timeUp = !warming;
                        return;
                    }
                    // pgbench skips transactions already later than the latency limit when they would start, a burst of
                    // them against one clock reading: read per slot, a slot's handling that took longer than the slots
                    // come (-R 100000) never caught up, and every transaction of the run was skipped
                    if (latencyLimitNanos > 0) {
                        if (burstClock == 0) burstClock = System.nanoTime();
                        if (burstClock > scheduled + latencyLimitNanos) {
                            skip(script);
                            clock = burstClock;
                            continue;
                        }
                        burstClock = 0;
                    }
                    if (!parkUntil(scheduled)) {
                        timeUp = !warming && !cancelled;
                        return;
                    }
                }
                if (conn == null) {
                    if (!connect(cfg.connectPerTransaction())) return;
                    if (lateAfterReconnect(scheduled, latencyLimitNanos)) {
                        skip(script);
                        clock = System.nanoTime();
                        continue;
                    }
                }
                long start = System.nanoTime();
                // a thread preempted since its last look at the clock (a thousand clients on two cores: seconds) must
                // not start a transaction after -T: the run would drag on past its duration at a trickle. Under -C the
                // connection begun before -T is the transaction's: pgbench runs it, however late the login ends (and
                // its run lasts that long); stopping here left the login's time out of the run, tps too high
                if (start >= until && !(connecting && cfg.connectPerTransaction())) {
                    timeUp = !warming;
                    return;
                }
                if (!throttled) scheduled = start;
                TransactionOutcome out = r.runScript(conn, script);
                int tries = 1;
                while (retrying(out, tries, scheduled, until)) {
                    out = r.retry(conn, out);
                    tries++;
                }
                if (endedByTheClock(out, until)) return;
                long end = System.nanoTime();
                if (!out.ok() && warming) {   // in this order: see choose
                    warmupFailed = true;
                    return;
                }
                if (!record(out, script, tries, scheduled, start, end, throttled)) return;
                if (!warming) lastTxEnd = end;
                txNo++;
                if (cfg.connectPerTransaction()) disconnect();
                clock = end;
            }
        }

        /**
         * pgbench's end of -T for a try that failed (a serialization or deadlock failure, or an error
         * --continue-on-error goes past) once the time is over: not a failed transaction, its client just finishes
         * (CSTATE_ERROR: {@code timer_exceeded ? CSTATE_FINISHED : doRetry(...)}), so a run whose clients wait on
         * one another's locks at its end does not report their last tries as failures. The retries it already made
         * stay in -r's per-command counts and out of the totals, as pgbench's.
         */
        private boolean endedByTheClock(TransactionOutcome out, long until) {
            if (warming || out.ok() || System.nanoTime() < until) return false;
            return out.retryable() || (cfg.continueOnError() && out.status() == TransactionOutcome.Status.SQL_ERROR
                    && !connectionGone(out));
        }

        /** --max-tries: whether a failed try is tried again (counted and, with --verbose-errors, told). */
        private boolean retrying(TransactionOutcome out, int tries, long scheduled, long until) {
            long latencyLimitNanos = (long) (cfg.latencyLimitMs() * 1e6);
            if (!(out.retryable() && (cfg.maxTries() == 0 || tries < cfg.maxTries())
                    && (latencyLimitNanos == 0 || System.nanoTime() - scheduled < latencyLimitNanos)
                    && System.nanoTime() < until)) return false;
            // the warm-up's failing transaction (the wire engine's, WarmupScript.FAILING) is neither counted nor told
            if (out.command() >= 0 && !warming) commandRetries[out.script()].incrementAndGet(out.command());
            if (cfg.verboseErrors() && !warming) verboseError(out, tries, true, scheduled);
            return true;
        }

        /**
         * Counts, measures and logs a finished transaction; false when the client aborts (pgbench's rules: only
         * serialization and deadlock failures, with --continue-on-error any other SQL error, and Kensho's lost
         * connections, are failed transactions; any other error aborts the client and is neither counted nor logged).
         */
        private boolean record(TransactionOutcome out, int script, int tries, long scheduled, long start, long end, boolean throttled) {
            long latencyLimitNanos = (long) (cfg.latencyLimitMs() * 1e6);
            boolean lostConnection = !out.ok() && !out.retryable() && out.status() != TransactionOutcome.Status.END_IN_TRANSACTION
                    && (out.status() == TransactionOutcome.Status.CONNECTION_LOST || connectionGone(out));
            // pgbench 19's --continue-on-error: an SQL error that is not a lost connection fails the transaction, not the client
            boolean continued = cfg.continueOnError() && out.status() == TransactionOutcome.Status.SQL_ERROR && !lostConnection;
            if (cfg.verboseErrors() && (out.retryable() || continued)) verboseError(out, tries, false, scheduled);
            // pgbench 15 counts a script that ends inside a transaction block as processed, then aborts the client
            boolean processed = out.ok() || out.status() == TransactionOutcome.Status.END_IN_TRANSACTION;
            if (!processed && !out.retryable() && !lostConnection && !continued) return abort(out);
            if (tries > 1) {
                retried.increment();
                retries.add(tries - 1);
                scriptRetried[script].increment();
                scriptRetries[script].add(tries - 1);
            }
            long lat = end - scheduled;
            if (processed) {
                ok.increment();
                scriptOk[script].increment();
                seconds.ok(end, lat, throttled ? Math.max(0, start - scheduled) : -1, tries - 1);
                if (scriptLatency.length > 1) {
                    scriptLatency[script].recordNanos(lat);
                    scriptMoments[script].record(LatencyRecorder.micros(lat));
                }
                if (latencyLimitNanos > 0 && lat > latencyLimitNanos) late.increment();
                // the values the report's sums hold (rounded µs), so that the log's lines add up to its average
                log(LatencyRecorder.micros(lat), null, script, throttled ? LatencyRecorder.micros(Math.max(0, start - scheduled)) : 0, null, tries);
                return out.ok() || abort(out);
            }
            scriptFailed[script].increment();
            if (out.command() >= 0) commandFailures[script].incrementAndGet(out.command());
            seconds.failed(end, tries - 1);
            String kind;
            // an admin shutdown's 57P01 is an SQL error that ended the session: a lost connection, not a continued error
            switch (lostConnection ? TransactionOutcome.Status.CONNECTION_LOST : out.status()) {
                case SERIALIZATION_FAILURE -> {
                    serialization.increment();
                    scriptSerialization[script].increment();
                    kind = "serialization";
                }
                case DEADLOCK_FAILURE -> {
                    deadlock.increment();
                    scriptDeadlock[script].increment();
                    kind = "deadlock";
                }
                case SQL_ERROR -> {
                    other.increment();
                    scriptOther[script].increment();
                    kind = "other";
                }
                default -> {
                    String refusal = pgjdbcRefusal(serverWords(out));
                    if (refusal != null && !wireEngine) {
                        // pgjdbc ends a session whose DateStyle or client_encoding the script changed: reconnecting, every
                        // transaction failed the same way. The client aborts, as pgbench's does where it cannot go on.
                        aborted.set(true);
                        String why = "client " + id + " aborted in command " + out.command() + " of script " + out.script() + ": " + refusal;
                        if (firstAbort.compareAndSet(null, why)) cfg.err().println("error: " + why);
                        close();
                        if (cfg.exitOnAbort()) stopAll(id);
                        return false;
                    }
                    lost.increment();
                    // where pgbench aborts the client, and says so: the run goes on, and says that (not on Ctrl-C, whose
                    // hook stops the server under the clients and says so last)
                    if (!dev.kensho.core.JvmShutdown.begun() && !cancelled) cfg.err().println("warning: client " + id + " lost its connection"
                            + (out.command() >= 0 ? " in command " + out.command() + " of script " + out.script() : "")
                            + ": " + serverWords(out).strip().replaceAll("\\s*\\R\\s*", "; ") + " (a failed transaction; the client reconnects)");
                    close();
                    kind = "failed";
                }
            }
            // the log writes lag 0 for it (TxLog), as pgbench measures the lag of successful transactions only
            log(lat / 1000, cfg.failuresDetailed() && !kind.equals("failed") ? kind : "failed", script, (start - scheduled) / 1000, kind, tries);
            return true;
        }

        /**
         * What pgjdbc's closing of a session the script reconfigured means (SET DateStyle = 'German', SET client_encoding
         * = 'LATIN1': pgjdbc needs ISO dates and UTF8), and the way out; null for any other lost connection.
         */
        static String pgjdbcRefusal(String words) {
            String setting = words.contains("requires DateStyle to begin with ISO") ? "DateStyle"
                    : words.contains("requires client_encoding to be UTF8") ? "client_encoding" : null;
            if (setting == null) return null;
            return "the script sets " + setting + " to a value pgjdbc does not work with (it closes the session: " + words.strip()
                    + "); run it with --engine wire, which keeps the session as pgbench does";
        }

        private static final java.util.regex.Pattern QUERY_N = java.util.regex.Pattern.compile(" query \\d+: ");
        private static final java.util.regex.Pattern QUERY_ERROR = java.util.regex.Pattern.compile(" query \\d+: ERROR:");

        /** The error of a failed transaction without pgbench's "client N script S aborted in command C query Q: " before it. */
        private static String serverWords(TransactionOutcome out) {
            String m = String.valueOf(out.message());
            java.util.regex.Matcher q = QUERY_N.matcher(m);
            return q.find() ? m.substring(q.end()) : m;   // libpq's words already (ClientScriptRunner)
        }

        /** pgbench's client abort: said on stderr, not a failed transaction; always false (the client stops). */
        private boolean abort(TransactionOutcome out) {
            aborted.set(true);
            String m = String.valueOf(out.message());
            firstAbort.compareAndSet(null, m.strip().replaceAll("\\s*\\R\\s*", "; "));
            // a failed meta-command is two of pgbench's error lines, what went wrong and then the abort; an SQL error's
            // DETAIL and HINT lines follow its first as libpq wrote them, without the prefix
            // (the first may hold a newline of its own, a \setshell's output quoted: pgbench prefixes its lines, not that)
            int second = out.status() == TransactionOutcome.Status.META_ERROR ? m.lastIndexOf("\nclient ") : -1;
            cfg.err().println("error: " + (second < 0 ? m : m.substring(0, second) + "\nerror: " + m.substring(second + 1)));
            if (cfg.exitOnAbort()) stopAll(id);
            return false;
        }

        /** Admin shutdown, crash shutdown and "cannot connect now" end the session as surely as a broken socket. */
        private boolean connectionGone(TransactionOutcome out) {
            String s = out.sqlState();
            if (ClientScriptRunner.sessionEnded(s) || (s != null && s.startsWith("57P"))) return true;
            if (wireEngine) return wire == null || !wire.channel().isOpen();
            try {
                // an ERROR (not a FATAL) the server answered came over a live session: no probe (--continue-on-error
                // meets one per failed transaction, and the probe is a round trip)
                if (s != null && QUERY_ERROR.matcher(String.valueOf(out.message())).find()) return conn == null || conn.isClosed();
                return conn == null || conn.isClosed() || !conn.isValid(2);
            } catch (SQLException e) {
                return true;
            }
        }

        /**
         * (Re)connects; with a lost server keeps trying every 100 ms, for 60 s or until the run's end. A client that gives
         * up is aborted, as pgbench's is: ended silently at -T's end, a run whose server died half-way reported its
         * transactions over the whole duration, exit 0, and a sweep took it into its median.
         */
        private boolean connect(boolean measured) {
            long t0 = System.nanoTime();
            long giveUp = Math.min(deadlineNanos, t0 + RECONNECT_LIMIT_NANOS);
            String last = null;
            while (true) {
                if (cancelled) return false;
                // a reconnection's attempt ends with its time: one that got no answer (a host gone silent, its new
                // connections dropped) waited for ever, past -T. A -C connection is the transaction's, unbounded as pgbench's
                int bound = measured ? 0 : (int) Math.max(1, java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(giveUp - System.nanoTime() + 999_999_999L));
                try {
                    if (wireEngine) {
                        wire = WireConnection.open(bound > 0 ? login.within(bound) : login, cfg.mode());
                    } else {
                        conn = connector.connect(bound);
                    }
                    if (cancelled) {
                        close();   // --exit-on-abort stopped the run while this client was connecting
                        return false;
                    }
                    if (measured) {
                        connects.increment();
                        connectNanos.add(System.nanoTime() - t0);
                    } else {
                        reconnects.increment();
                    }
                    return true;
                } catch (SQLException | IOException | RuntimeException e) {
                    last = oneLine(e);
                    if (refusedForGood(e)) {
                        // the server answered and will not have this login (a role, a password, a database, no free
                        // slot): pgbench's client abort; retried, a -C run went on at 0 tps, saying nothing, exit 0
                        aborted.set(true);
                        firstAbort.compareAndSet(null, "client " + id + " aborted while establishing connection: " + last);
                        cfg.err().println("error: " + last);
                        cfg.err().println("error: client " + id + " aborted while establishing connection");
                        if (cfg.exitOnAbort()) stopAll(id);
                        return false;
                    }
                }
                if (System.nanoTime() + RECONNECT_PAUSE_NANOS > giveUp) {
                    aborted.set(true);
                    String why = "client " + id + " could not reconnect"
                            + (giveUp == deadlineNanos ? " before the run's end" : " within " + RECONNECT_LIMIT_NANOS / 1_000_000_000L + " s") + ": " + last;
                    firstAbort.compareAndSet(null, why);
                    cfg.err().println("error: " + why);
                    if (cfg.exitOnAbort()) stopAll(id);
                    return false;
                }
                LockSupport.parkNanos(RECONNECT_PAUSE_NANOS);
            }
        }

        /**
         * Whether a failed login is the server's refusal, not its absence: retrying helps a server restarting (no answer,
         * class 08; "the database system is starting up" or "shutting down", and the administrator's terminations, 57P),
         * and nothing else.
         */
        private static boolean refusedForGood(Throwable e) {
            // the target's translation (a KenshoException naming host and database) carries the driver's exception
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                String state = t instanceof SQLException q ? q.getSQLState() : t instanceof WireConnection.LoginRefused l ? l.sqlState : null;
                if (state != null) return !state.startsWith("08") && !state.startsWith("57P");
            }
            return false;
        }

        /**
         * --verbose-errors: pgbench's lines for a serialization or deadlock failure, whether the transaction is
         * retried or ends failed (pgbench prints them as "pgbench: client 1 got an error in command 3 (SQL) of script 0; ...").
         */
        private void verboseError(TransactionOutcome out, int tries, boolean retrying, long scheduledNanos) {
            cfg.err().println("client " + id + " got an error in command " + out.command() + " (SQL) of script " + out.script() + "; " + serverWords(out));
            StringBuilder sb = new StringBuilder("client ").append(id)
                    .append(retrying ? " repeats the transaction after the error" : " ends the failed transaction")
                    .append(" (try ").append(tries);
            if (cfg.maxTries() != 0) sb.append('/').append(cfg.maxTries());
            if (cfg.latencyLimitMs() > 0) {
                sb.append(CFormat.printf(", %.3f%% of the maximum time of tries was used",
                        100.0 * (System.nanoTime() - scheduledNanos) / (cfg.latencyLimitMs() * 1e6)));
            }
            cfg.err().println(sb.append(')'));
        }

        /** --exit-on-abort: cuts this client's connection from another thread and wakes it from a -R or \sleep wait. */
        void cut() {
            Connection c = conn;
            if (c != null) {
                try {
                    c.abort(Runnable::run);
                } catch (SQLException | RuntimeException ignored) {
                    // already closed
                }
            }
            Thread t = thread;
            if (t != null) LockSupport.unpark(t);
            Multiplexer m = mux;
            if (m != null) m.selector.wakeup();
        }

        private void log(long latencyUs, String result, int script, long lagUs, String kind, int tries) {
            if (group.log == null || warming) return;   // in this order: see choose
            if (cfg.aggregateInterval() == 0 && !group.sampled()) return;
            group.log.transactionNow(id, txNo + 1, latencyUs, result, script, logClock, lagUs, tries, kind);
        }

        // ---- the wire engine (driven by this client's Multiplexer, on its thread)

        /** Sets the client up for a phase of its thread's loop: the warm-up's runner and limits, or the run's. */
        void plan(ClientScriptRunner r, long limit, long until, boolean throttled) {
            this.active = r;
            this.limit = limit == 0 ? Long.MAX_VALUE : limit;   // no limit (-T) as the largest one: see choose
            this.until = until;
            this.throttled = throttled;
            phase = Phase.NEW;
        }

        /** Starts transactions until one waits for the server or the clock, or the client is done. */
        void next() {
            long latencyLimitNanos = (long) (cfg.latencyLimitMs() * 1e6);
            // read again after each transaction begun, not per skipped slot: a burst of -L skips is judged by one reading, as in loop()
            long now = System.nanoTime();
            while (true) {
                if (txNo >= limit || now >= until || cancelled) {
                    finish();
                    return;
                }
                if (!throttled && wire == null && !connect(cfg.connectPerTransaction())) {
                    finish();
                    return;
                }
                script = nextScript();
                if (throttled) {
                    scheduled = group.nextSchedule();
                    if (scheduled > until) {
                        finish();
                        return;
                    }
                    if (latencyLimitNanos > 0 && now > scheduled + latencyLimitNanos) {
                        skip(script);
                        continue;
                    }
                    if (now < scheduled) {
                        phase = Phase.THROTTLED;
                        wakeAt = Math.min(scheduled, until);
                        return;
                    }
                }
                if (!begin()) return;
                now = System.nanoTime();
            }
        }

        /** The clock this client waited for has come (-R schedule, \sleep). */
        void wake() {
            if (phase == Phase.THROTTLED) {
                if (System.nanoTime() >= until || cancelled) {
                    finish();
                } else if (begin()) {
                    next();
                }
            } else if (phase == Phase.SLEEP) {
                if (drive(active.slept(System.nanoTime() - sleepStart))) next();
            }
        }

        /** The socket is ready: the answer to the command in flight (or a write a full buffer held back). */
        void ready(SelectionKey k) {
            ClientScriptRunner.Step step;
            try {
                if (k.isWritable() && wire.flush()) k.interestOps(SelectionKey.OP_READ);
                if (!k.isReadable()) return;
                step = wire.read();
            } catch (IOException e) {
                if (phase != Phase.SQL) {
                    close();   // lost while idle (a server restart between transactions): the next one reconnects
                    return;
                }
                step = wire.broken(e);
            }
            if (step != null && phase == Phase.SQL && drive(step)) next();
        }

        private boolean begin() {
            if (wire == null) {
                if (!connect(cfg.connectPerTransaction())) {
                    finish();
                    return false;
                }
                if (lateAfterReconnect(scheduled, (long) (cfg.latencyLimitMs() * 1e6))) {
                    skip(script);
                    phase = Phase.NEW;
                    return true;   // the next slot may start
                }
            }
            start = System.nanoTime();
            if (!throttled) scheduled = start;
            tries = 1;
            return drive(active.begin(script));
        }

        /** Follows the runner's steps; true when the transaction is over and the next may start. */
        private boolean drive(ClientScriptRunner.Step step) {
            while (true) {
                switch (step) {
                    case SQL, PIPELINE -> {
                        try {
                            if (step == ClientScriptRunner.Step.PIPELINE && !wire.pipe(active)) {
                                step = active.piped();   // queued: the pipeline leaves at \endpipeline
                                continue;
                            }
                            if (step == ClientScriptRunner.Step.SQL) wire.send(active);
                            mux.watch(this);
                            phase = Phase.SQL;
                            // read at once, as pgbench does after sending (PQconsumeInput in CSTATE_WAIT_RESULT): an
                            // answer already there (a quick server on the other core) then costs no wait in the selector,
                            // a sleep and a wake-up (bench/pgbench-vs-c.sh, c=4 -j2 select-only: client CPU per
                            // transaction 1.5x -> 1.2x pgbench's, tps 0.81..0.86 -> 0.92..0.96 of pgbench's)
                            if (!wire.pendingWrite()) {
                                ClientScriptRunner.Step answered = wire.read();
                                if (answered != null) {
                                    step = answered;
                                    continue;
                                }
                            }
                            return false;
                        } catch (IOException e) {
                            step = wire.broken(e);
                        }
                    }
                    case SLEEP -> {
                        sleepStart = System.nanoTime();
                        wakeAt = sleepStart + active.sleepNanos();   // past -T's end too, as sleepWithinRun
                        phase = Phase.SLEEP;
                        return false;
                    }
                    case DONE -> {
                        TransactionOutcome out = active.outcome();
                        if (retrying(out, tries, scheduled, until)) {
                            tries++;
                            step = active.beginRetry(out);
                            continue;
                        }
                        if (endedByTheClock(out, until)) {
                            finish();
                            return false;
                        }
                        long end = System.nanoTime();
                        if ((!out.ok() && warming) || !record(out, script, tries, scheduled, start, end, throttled)) {
                            if (warming) warmupFailed = true;
                            // an aborted client's session ends with it, as pgbench's (its backend was left idle, or idle
                            // in an aborted transaction, until the run's end)
                            else close();
                            finish();
                            return false;
                        }
                        txNo++;
                        if (cfg.connectPerTransaction()) disconnect();
                        phase = Phase.NEW;
                        return true;
                    }
                }
            }
        }

        private void finish() {
            phase = Phase.DONE;
            finishedAt = System.nanoTime();
        }

        /**
         * -C's close after each transaction: its time is connection time, as pgbench 14+ adds finishCon's to
         * conn_duration (a backend's exit is not free: over TCP it is the FIN exchange).
         */
        private void disconnect() {
            long t0 = System.nanoTime();
            close();
            if (!warming) connectNanos.add(System.nanoTime() - t0);
        }

        void close() {
            if (wire != null) {
                wire.close();
                wire = null;
                key = null;
            }
            runner.releaseStatements();
            if (conn != null) {
                try {
                    conn.close();
                } catch (SQLException ignored) {
                    // already broken
                }
                conn = null;
            }
        }
    }

    /** Where a wire-engine client is: starting a transaction, waiting for its -R schedule, the server or a \sleep, or done. */
    private enum Phase { NEW, THROTTLED, SQL, SLEEP, DONE }

    /**
     * A pgbench thread of the wire engine: owns its clients' connections and runs them all, waiting for whichever
     * answers or wakes first (pgbench's threadRun: one wait over the thread's sockets and its earliest timer).
     */
    private final class Multiplexer {
        final Group group;
        final List<Client> clients;
        final Selector selector;

        Multiplexer(Group group, List<Client> clients) throws IOException {
            this.group = group;
            this.clients = clients;
            this.selector = Selector.open();
            for (Client c : clients) c.mux = this;
        }

        /** For a multiplexer whose thread never ran (its run() closes its own). */
        void closeSelector() {
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        void run(CountDownLatch connected, CountDownLatch go) {
            boolean counted = false;
            try {
                for (Client c : clients) {
                    c.thread = Thread.currentThread();
                    if (cfg.connectPerTransaction() || cancelled) continue;
                    try {
                        c.wire = WireConnection.open(login, cfg.mode());
                    } catch (IOException | RuntimeException e) {
                        c.connectError = oneLine(e);
                    }
                }
                group.connectedAt.accumulateAndGet(System.nanoTime(), Math::max);
                if (clients.stream().allMatch(c -> c.connectError == null)) warmup();
                for (Client c : clients) connected.countDown();
                counted = true;
                awaitStart(go);
                if (clients.stream().allMatch(c -> c.connectError == null) && !cancelled) {
                    for (Client c : clients) c.plan(c.runner, cfg.effectiveTransactions(), deadlineNanos, cfg.rate() > 0);
                    loop();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException | RuntimeException | Error e) {
                // the selector failed, a defect, or the heap exhausted: this thread's clients stop, the others finish and
                // the run reports
                stopped("thread " + group.index, e);
            } finally {
                if (!counted) for (Client c : clients) connected.countDown();   // never leave the start waiting
                long now = System.nanoTime();
                for (Client c : clients) {
                    if (c.phase != Phase.DONE || c.finishedAt == 0) c.finishedAt = now;
                    finishedClients.countDown();
                }
                for (Client c : clients) c.close();
                try {
                    selector.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }

        /** Same warm-up as the pgjdbc engine's (see Client.warmup), on this thread's loop. */
        private void warmup() throws IOException {
            int n = jit == null ? 0 : warmupAsked();
            if (n == 0) return;
            long giveUp = System.nanoTime() + WARMUP_LIMIT_NANOS;
            try {
                for (int gen = 0; System.nanoTime() < giveUp; gen++) {
                    boolean more = false;
                    for (Client c : clients) {
                        c.phase = Phase.DONE;
                        if (c.warmupFailed || !(c.txNo < n || c.id == 0 && !jit.settled())) continue;
                        more = true;
                        c.warming = true;
                        c.choose = new PgbenchRandom(-1 - c.id - gen);
                        c.plan(c.warmupRunner(gen), c.txNo + WARMUP_FRESH_EVERY, giveUp, false);
                    }
                    if (!more) break;
                    loop();
                    if (group.index == 0) readWarmupSeconds();
                }
                for (Client c : clients) c.warmupRan = c.txNo;
                // then the failure path, a failed try and (with --max-tries) its retry: see WarmupScript.FAILING
                boolean failing = false;
                for (Client c : warmsFailurePath() ? clients : List.<Client>of()) {
                    c.phase = Phase.DONE;
                    if (c.warmupFailed || c.wire == null) continue;
                    failing = true;
                    c.warming = true;
                    c.plan(c.failingRunner(), c.txNo + 1, giveUp, false);
                }
                if (failing) loop();
            } catch (ScriptException e) {
                throw new IllegalStateException(e);
            } finally {
                for (Client c : clients) {
                    c.warming = false;
                    c.choose = group.choose;
                    c.txNo = 0;
                    c.skippedScript = -1;
                    c.finishedAt = 0;
                    c.phase = Phase.DONE;
                }
                // leave the session as pgbench finds it: no transaction of the warm-up's open (see Client.warmup), no
                // statement of its left prepared (see betweenPhases); sent to every client before any answer is awaited,
                // as the pgjdbc engine's threads run them at once
                List<Client> sent = new ArrayList<>();
                for (Client c : clients) {
                    if (c.wire == null) continue;
                    List<String> sql = new ArrayList<>();
                    if (c.wire.inTransaction()) sql.add("ROLLBACK");
                    sql.addAll(betweenPhases);
                    if (sql.isEmpty()) continue;
                    try {
                        c.wire.sendBetweenPhases(sql);
                        sent.add(c);
                    } catch (IOException e) {
                        c.close();   // the run reconnects and reports what is wrong
                    }
                }
                for (Client c : sent) {
                    if (c.wire == null) continue;
                    try {
                        c.wire.awaitBetweenPhases(cfg.mode() == QueryMode.PREPARED);
                    } catch (IOException e) {
                        c.close();
                    }
                }
                // a session the server ended during the warm-up, replaced before the clock starts (see
                // Client.freshIfLostInWarmup); its reconnection is the warm-up's, whose counts are reset at the start
                for (Client c : clients) {
                    if (c.wire != null && !c.wire.isOpen()) c.close();
                    if (c.wire == null && !cancelled) c.connect(false);
                }
            }
        }

        /** Runs the planned clients until every one is done. */
        private void loop() throws IOException {
            for (Client c : clients) if (c.phase == Phase.NEW) c.next();
            while (!cancelled) {
                long wake = Long.MAX_VALUE;
                boolean live = false;
                for (Client c : clients) {
                    if ((c.phase == Phase.THROTTLED || c.phase == Phase.SLEEP) && c.wakeAt <= System.nanoTime()) c.wake();
                    if (c.phase == Phase.THROTTLED || c.phase == Phase.SLEEP) wake = Math.min(wake, c.wakeAt);
                    live |= c.phase != Phase.DONE;
                }
                if (!live) return;
                // a timer below a millisecond (a -R schedule) is waited for by parking: Selector counts in milliseconds
                long wait = wake == Long.MAX_VALUE ? 100_000_000L : wake - System.nanoTime();
                // the ready keys go straight to their clients: no selected-key set to fill, walk and clear per wait
                if (wait <= 0) {
                    selector.selectNow(onReady);
                } else if (wait < 1_000_000L) {
                    if (selector.selectNow(onReady) == 0) LockSupport.parkNanos(wait);
                } else {
                    selector.select(onReady, wait / 1_000_000L);
                }
            }
        }

        private final java.util.function.Consumer<SelectionKey> onReady = k -> {
            if (k.isValid()) ((Client) k.attachment()).ready(k);
        };

        /** Registers the client's connection (a new one after -C or a reconnect) and asks for a write a full buffer held. */
        void watch(Client c) throws IOException {
            if (c.key == null || c.key.channel() != c.wire.channel()) {
                c.key = c.wire.channel().register(selector, SelectionKey.OP_READ, c);
            }
            c.key.interestOps(c.wire.pendingWrite() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }
    }

    /**
     * Whether the warm-up ends with {@link WarmupScript#FAILING}: where a failure's time counts, a retried transaction's
     * latency (--max-tries other than 1) or a continued one's (--continue-on-error). Otherwise a failure is not timed, and
     * the server is spared the ERROR it logs.
     */
    private boolean warmsFailurePath() {
        return cfg.maxTries() != 1 || cfg.continueOnError();
    }

    /** --exit-on-abort: the first client to abort stops all others; the run then fails without a report. */
    private void stopAll(int client) {
        if (!abortedBy.compareAndSet(-1, client)) return;
        cancelled = true;
        for (Client c : allClients) if (c.id != client) c.cut();
    }

    /** Parks until the given nanoTime; false when the run's deadline comes first (or --exit-on-abort stopped it). */
    private boolean parkUntil(long when) {
        while (true) {
            long now = System.nanoTime();
            if (now >= deadlineNanos || cancelled) return false;
            if (now >= when) return true;
            LockSupport.parkNanos(Math.min(when, deadlineNanos) - now);
            if (Thread.currentThread().isInterrupted()) return false;
        }
    }

    /**
     * \sleep inside a transaction: to its end, also past the end of a -T run, as pgbench lets a started transaction
     * finish (cutting it short counted a shortened transaction, with a latency the script never had).
     */
    private void sleepWithinRun(long nanos) {
        long until = System.nanoTime() + nanos;
        long now;
        while ((now = System.nanoTime()) < until && !Thread.currentThread().isInterrupted() && !cancelled) LockSupport.parkNanos(until - now);
    }

    // ------------------------------------------------------------------ before the run

    /** The warm-up transactions each client is to run: --warmup's share, at least 50; none under -C. */
    private int warmupAsked() {
        return cfg.connectPerTransaction() || cfg.warmupStatements() <= 0 ? 0 : Math.max(50, cfg.warmupStatements() / cfg.clients());
    }

    /** A client or thread that stopped on e: said, and the run marked aborted with it (the first one is the report's). */
    private void stopped(String who, Throwable e) {
        String why = who + " stopped: " + stoppedBy(e);
        cfg.err().println("error: " + why);
        aborted.set(true);
        firstAbort.compareAndSet(null, why);
    }

    /**
     * Why a client or thread stopped, in a line: the heap exhausted is said with its size and what to change (the JVM's
     * "Java heap space" alone named neither).
     */
    private String stoppedBy(Throwable e) {
        if (!(e instanceof OutOfMemoryError oom) || dev.kensho.core.env.ThreadLimits.isThreadRefused(oom)) return oneLine(e);
        return "out of memory (" + e.getMessage() + "; the JVM's heap is at most " + (Runtime.getRuntime().maxMemory() >> 20) + " MB): "
                + (wireEngine ? "" : "the pgjdbc engine holds a statement's whole result in memory (--engine wire reads it as it comes); ")
                + "give the JVM more (java -Xmx...)";
    }

    /** A managed server's data outlive neither its run nor a separate init (unless kept): what to do instead. */
    // the command line's way and the library's: a harness that called PgbenchRun.run has no --init to add
    private static final String MANAGED_EMPTY = "a server Kensho starts holds no pgbench tables: add --init [-s SCALE],"
            + " or give --keep-data DIR to both 'bench pgbench init' and this run; from Java, run new PgbenchInit().run(target)"
            + " on this Target first";
    private static final String REMOTE_INIT = "\"bench pgbench init\"; from Java, new PgbenchInit().run(target)";

    /** The start of the warning that the pgjdbc engine prints dates in ISO under another DateStyle (LibpqLogin says it; kept in run.json's notes). */
    public static final String DATE_STYLE_WARNING = "warning: the database's DateStyle is ";

    private int scale(Connection c) throws SQLException {
        if (!cfg.builtinUsed()) return cfg.scale() == null ? 1 : cfg.scale();
        int n;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from pgbench_branches")) {
            rs.next();
            n = rs.getInt(1);
        } catch (SQLException e) {
            // pgbench's hint, for a missing table only, naming Kensho's command
            String hint = !"42P01".equals(e.getSQLState()) ? "" : missingTablesHint();
            throw KenshoException.target("could not count number of branches: " + oneLine(e) + hint, e);
        }
        if (n == 0) {
            // pgbench 15 goes on at scale 0, and every builtin then aborts its clients on random(1, 0)
            throw KenshoException.target("invalid count(*) from pgbench_branches: 0 ("
                    + (target.kind().managed() ? MANAGED_EMPTY : "the table is empty: run " + REMOTE_INIT) + ")", null);
        }
        // as pgbench, whenever -s is given: equal or not, it says nothing to a builtin script (a custom script's :scale)
        if (cfg.scale() != null) {
            cfg.err().println("warning: scale option ignored, using count from pgbench_branches table (" + n + ")");
        }
        // pgbench reports how pgbench_accounts is partitioned; before 10 nothing is (pgbench: "probably an older version,
        // coldly assume no partitioning"), and there is no pg_partitioned_table to ask
        if (!ServerVersion.of(c).atLeast(10)) return n;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT a.r IS NOT NULL, p.partstrat, (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = p.partrelid) "
                        + "FROM (SELECT to_regclass('pgbench_accounts') AS r) a LEFT JOIN pg_partitioned_table p ON p.partrelid = a.r")) {
            rs.next();
            // pgbench's check too: branches alone make a scale, and every builtin would then abort on its first statement
            if (!rs.getBoolean(1)) throw KenshoException.target("no pgbench_accounts table found in search_path" + missingTablesHint(), null);
            if (rs.getString(2) != null) {
                partitionMethod = "h".equals(rs.getString(2)) ? "hash" : "range";
                partitions = rs.getInt(3);
            }
        }
        return n;
    }

    private String missingTablesHint() {
        return target.kind().managed() ? " (" + MANAGED_EMPTY + ")"
                : " (perhaps you need to do initialization (" + REMOTE_INIT + ") in database \"" + target.database() + "\")";
    }

    /**
     * The types the server infers for a statement's parameters, from a Describe (parse analysis only: no row
     * is read, nothing runs); null when it cannot be described (e.g. its table does not exist yet).
     */
    private static List<String> parameterTypes(Connection c, Command sql) {
        if (sql.paramNames().isEmpty()) return List.of();
        try (java.sql.PreparedStatement ps = c.prepareStatement(sql.parameterizedSql())) {
            java.sql.ParameterMetaData md = ps.getParameterMetaData();
            List<String> types = new ArrayList<>();
            for (int i = 1; i <= md.getParameterCount(); i++) {
                String t = md.getParameterTypeName(i);
                // a type name that is not a plain identifier (arrays, quoted names) is not worth quoting here
                if (t == null || !t.matches("[a-z_][a-z0-9_]*")) return null;
                types.add(t);
            }
            return types;
        } catch (SQLException e) {
            return null;
        }
    }

    /**
     * Under -M extended and prepared a statement's variables go as parameters of unknown type, which the server must
     * type from the statement: {@code :aid + :row_count} (the studies' read scripts) is "operator is not unique: unknown +
     * unknown", and every client aborts on it at its first transaction (pgbench's too), a sweep's every trial. Said
     * before the run, where it is the script's line; other errors (a table the script makes itself) are the run's.
     */
    private void refuseUntypedParameters(Connection admin) {
        for (Script s : cfg.scripts()) {
            for (Command c : s.commands()) {
                // one a transaction may not reach (a branch never taken) fails, as pgbench's, only if it runs
                if (c.kind() != Command.Kind.SQL || c.paramNames().isEmpty() || !s.alwaysReached(c)) continue;
                try (java.sql.PreparedStatement ps = admin.prepareStatement(c.parameterizedSql())) {
                    ps.getParameterMetaData();
                } catch (RuntimeException e) {
                    // pgjdbc's own failure to describe (a $1 of the script's own beside the variables): the run tells
                } catch (SQLException e) {
                    // ambiguous_function ("operator is not unique"), indeterminate_datatype ("could not determine data type")
                    if ("42725".equals(e.getSQLState()) || "42P18".equals(e.getSQLState())) {
                        throw KenshoException.usage(s.name() + ":" + c.line() + ":" + c.column() + ": under -M " + cfg.mode().pgbenchName()
                                + " the server cannot type this command's variables (" + KenshoException.firstLine(e)
                                + "); pgbench's clients abort on it too; -M simple sends them as text, or cast them (:aid::int)");
                    }
                }
            }
        }
    }

    /** See {@link WarmupScript.QuietTables}: false when in doubt (no such table, no privilege to read the catalog). */
    private static boolean quietTable(Connection c, String table) {
        try (java.sql.PreparedStatement ps = c.prepareStatement("select c.relkind in ('r', 'p') and not c.relhasrules"
                + " and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal)"
                + " from pg_class c where c.oid = to_regclass(?)")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            return false;
        }
    }

    /** pgbench quotes the server's message without its severity. */
    static String oneLine(Throwable e) {
        return KenshoException.firstLine(e).replaceFirst("^ERROR: +", "");
    }
}
