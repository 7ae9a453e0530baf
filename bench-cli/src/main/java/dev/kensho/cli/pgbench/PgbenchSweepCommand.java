package dev.kensho.cli.pgbench;

import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.pgbench.ClientSweep;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.run.RunConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench pgbench sweep: the PGECons fixed-point observation over client counts, repeats and versions. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Run one script at each client count on each target (e.g. --pg-version 16,17), every cell repeated, in random "
                + "order, by rounds or sequentially (--order). Before each trial: CHECKPOINT and pg_prewarm of pgbench_accounts and its indexes (after a rebuild with "
                + "--reinit-each-trial). During each trial: pg_stat_activity wait events every 100 ms (--wait-sample-ms), pg_stat_database deltas, "
                + "and for a server on this host the CPU split per core and memory. summary.csv: median, min, max per cell.",
                "Study 001 (read):",
                "  bench pgbench sweep -b pgecons-read --clients 1,4,8,16,32,64,128,256 \\",
                "      --threads clients/2 --repeat 3 --order rounds -T 300 -n -s 2000 \\",
                "      --pg-version 16.6,17.2 --set max_connections=2000 ...",
                "Study 004 (2005 article):",
                "  bench pgbench sweep -S --clients 1,2,4,8,16,32,64,128,256,512 --threads 1 \\",
                "      --engine wire --repeat 3 -T 60 -s 1 --set max_connections=1000 \\",
                "      --set shared_buffers=100000",
                "Every study's full command, its postgresql.conf as --set: README.md, 'bench pgbench'."})
final class PgbenchSweepCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;
    @Mixin ScriptOptions scripts;

    @Option(names = "--clients", split = ",", required = true, paramLabel = "N", description = "Client counts, e.g. 1,4,16,32,48,64,80,96.")
    List<Integer> clients = new ArrayList<>();
    @Option(names = "--threads", defaultValue = "clients/2", paramLabel = "EXPR",
            description = "pgbench threads per trial: a number, clients, or clients/N, clients*N, clients-N, clients+N; at least 1 (default ${DEFAULT-VALUE}).")
    String threads;
    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "Trials per cell (default ${DEFAULT-VALUE}).")
    int repeat;
    @Option(names = "--order", paramLabel = "random|rounds|sequential", defaultValue = "random", description = "random (all trials shuffled), rounds (every cell once per round, each round shuffled: the 2024 study's "
            + "\"random order, 3 times\") or sequential (default ${DEFAULT-VALUE}).")
    TrialMatrix.Order order;
    @Option(names = "--seed", paramLabel = "SEED",
            description = "Seed of the random trial order, for --order random or rounds (default: time-based, printed before the first trial and recorded in run.json; --resume takes the run's).")
    Long seed;
    @Option(names = {"--duration", "-T", "--time"}, defaultValue = "60", paramLabel = "SEC", description = "Seconds per trial (default ${DEFAULT-VALUE}).")
    int duration;
    @Option(names = {"-M", "--protocol"}, defaultValue = "simple", paramLabel = "MODE", description = "simple, extended or prepared (default ${DEFAULT-VALUE}, as pgbench; the studies' read scripts only run in simple mode).")
    String mode;
    @Option(names = {"-R", "--rate"}, paramLabel = "TPS", description = "Target rate of every trial in transactions per second over all its clients "
            + "(Poisson schedule, as pgbench -R; lag is recorded); recorded as a parameter of the run and of each trial.")
    String rate;
    @Option(names = {"-L", "--latency-limit"}, paramLabel = "MS", description = "Every trial counts transactions above this "
            + "latency, with -R skipping those already late (as pgbench -L); recorded as a parameter of the run and of each trial.")
    String latencyLimit;
    @Option(names = {"-s", "--scale"}, paramLabel = "SCALE", description = "Initialise every target at this scale first, as pgbench init: the four pgbench_* tables "
            + "are dropped and made anew, whoever made them (default: use the tables already there); also the :scale of custom scripts.")
    Integer scale;
    @Option(names = {"-F", "--fillfactor"}, paramLabel = "PERCENT", description = "Fillfactor of the tables -s makes (10..100; "
            + "the studies' update sweeps: 80); needs -s.")
    Integer fillfactor;
    @Option(names = "--reinit-each-trial", description = "Rebuild the tables before every trial (the studies do for update scripts); needs -s.")
    boolean reinit;
    @Option(names = "--no-prewarm", description = "Skip pg_prewarm of pgbench_accounts and its indexes before each trial.")
    boolean noPrewarm;
    @Option(names = "--wait-sample-ms", paramLabel = "MS",
            description = "Sample the client backends' wait events every MS ms during a trial (default: 100, or a resumed run's own);"
                    + " 0 samples none. A sample takes the server a moment: on a saturated host it shows in p99.9.")
    Integer waitSampleMs;
    @Option(names = {"-n", "--no-vacuum"}, description = "Skip pgbench's vacuum before each trial.")
    boolean noVacuum;
    @Option(names = "--warmup", paramLabel = "N",
            description = "Before each trial's clock, its clients together run N warm-up transactions, as pgbench run --warmup; "
                    + "0 runs none, exactly as pgbench (default " + PgbenchRun.DEFAULT_WARMUP + ", or the resumed run's).")
    Integer warmup;
    @Option(names = {"-D", "--define"}, paramLabel = "NAME=VALUE", description = "Script variable of every trial (repeatable).")
    List<String> defines = new ArrayList<>();
    @Option(names = "--max-tries", paramLabel = "N", defaultValue = "1",
            description = "Tries per transaction on serialization or deadlock failure, in every trial (0: unlimited within -T).")
    int maxTries;
    @Option(names = "--random-seed", paramLabel = "SEED", defaultValue = "${env:PGBENCH_RANDOM_SEED}",
            description = "Every trial's seed: an unsigned integer (each trial then draws the same values per client), 'time' or 'rand'; "
                    + "without it, PGBENCH_RANDOM_SEED's value, as pgbench, else each trial's own, kept in the trial.")
    String randomSeed;
    @Option(names = {"-P", "--progress"}, paramLabel = "SEC",
            description = "A progress line every SEC seconds of each trial, as pgbench -P (a study's trials run for minutes).")
    Integer progress;
    @Mixin
    EngineOption engine;

    @Override
    public Integer call() throws Exception {
        if (scripts.specs.contains("-blist")) {
            PgbenchRunCommand.showScript("list");   // as pgbench -b list, and bench pgbench run: no target is opened
            return 0;
        }
        try {
            return sweep();
        } catch (KenshoException e) {
            // the library speaks of its builder methods and Java calls; here the user typed options
            throw dev.kensho.pgbench.run.ClientLimits.onCommandLine(e.namingBack(ClientSweep.BUILDER_NAMES), "--clients");
        }
    }

    private Integer sweep() throws Exception {
        QueryMode m;
        try {
            m = QueryMode.parse(mode);
        } catch (IllegalArgumentException e) {
            throw KenshoException.usage(e.getMessage());
        }
        // a fixed default would give every sweep the same order: the random order would guard against nothing
        Long orderSeed = results.recorded("order_seed") instanceof Number n ? Long.valueOf(n.longValue()) : null;
        if (order != TrialMatrix.Order.SEQUENTIAL) {
            orderSeed = seed != null ? seed : orderSeed != null ? orderSeed : Long.valueOf(System.nanoTime());
        } else if (seed != null) {
            // recorded, it would have refused a resume with another --seed of a run whose order no seed decides
            System.err.println(TrialMatrix.SEED_UNUSED);
        }
        ClientSweep sweep = new ClientSweep().clients(clients).threads(threads).repeats(repeat).order(order)
                .seconds(duration).mode(m).scale(scale).reinitEachTrial(reinit).fillfactor(fillfactor).prewarm(!noPrewarm).waitSampleMillis(waitSampleMs != null ? waitSampleMs
                        : results.recorded("wait_sample_ms") instanceof Number n ? n.intValue() : dev.kensho.pgbench.sweep.TrialSampler.DEFAULT_PERIOD_MS).noVacuum(noVacuum).engine(engine.engine()).log(System.err);
        sweep.warmup(warmup != null ? warmup
                : results.recorded("warmup") instanceof Number n ? n.intValue() : PgbenchRun.DEFAULT_WARMUP);
        if (orderSeed != null) sweep.orderSeed(orderSeed);
        sweep.maxTries(maxTries).randomSeed(randomSeed).progress(progress);
        for (String d : defines) sweep.define(d);
        if (rate != null) sweep.rate(RunConfig.parseRate(rate));
        if (latencyLimit != null) sweep.latencyLimitMs(RunConfig.parseLatencyLimit(latencyLimit));
        for (String s : scripts.specs) {
            if (s.startsWith("-b")) sweep.builtin(s.substring(2));
            else sweep.file(s.substring(2));
        }
        List<TargetSpec> specs = target.specs();
        sweep.validate(specs);   // options, scripts and targets before a run directory or any target
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("targets", specs.stream().map(TargetSpec::label).toList());
        params.put("engine", engine.engine().optionName());
        // the servers' --set: a resume without them (or with others) made one cell of trials at two settings
        params.put("settings", target.settings());
        params.putAll(sweep.parameters());   // recorded before the first trial, and what --resume compares
        try (RunDirectory dir = results.open(ClientSweep.COMMAND, params, System.err)) {
            sweep.run(specs, dir);
            System.out.println("summary: " + dir.path().resolve(RunDirectory.SUMMARY));
            return ResultOptions.exitStatus(dir, System.err);
        }
    }
}
