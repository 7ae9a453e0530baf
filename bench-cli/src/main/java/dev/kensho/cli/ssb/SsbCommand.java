package dev.kensho.cli.ssb;

import java.util.Locale;
import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.ssb.ParallelSweep;
import dev.kensho.ssb.SsbDatabase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench ssb: the 13 SSB queries over versions × worker pools × workers (the parallel query study). */
@Command(name = "ssb", mixinStandardHelpOptions = true,
        subcommands = {SsbLoadCommand.class, SsbGenCommand.class, SsbJitCommand.class, SsbIndexBuildCommand.class, SsbDropCommand.class},
        description = {"Star Schema Benchmark: load (or reuse) the data, prewarm, run Q1.1-Q4.3 with their full results streamed, "
                + "and record Workers Planned/Launched of every Gather (PGECons 2018, chapter 7).",
                "Example:",
                "  bench ssb --workers 0,2,4,6,8,10 --worker-pool gather,gather*4 \\",
                "      --pg-version 16,17,18"})
public final class SsbCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;
    @Mixin DataOptions data;

    @Option(names = "--workers", split = ",", defaultValue = "2", paramLabel = "N",
            description = "max_parallel_workers_per_gather value(s) to sweep (default ${DEFAULT-VALUE}); managed servers also get "
                    + "max_worker_processes/max_parallel_workers large enough unless --worker-pool says otherwise.")
    List<Integer> workers = new ArrayList<>();

    @Option(names = "--worker-pool", split = ",", paramLabel = "PATTERN",
            description = "The study's patterns: gather (max_worker_processes = max_parallel_workers = N) and/or gather*4 (= 4N); "
                    + "managed servers restart per cell, remote ones run only where the current max_worker_processes matches.")
    List<String> pools = new ArrayList<>();

    @Option(names = "--repeat", defaultValue = "3", paramLabel = "N", description = "Timed runs per query and cell; the median is reported (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--query", split = ",", paramLabel = "ID", description = "Only these queries (e.g. q1.1,q4.3; default all 13).")
    List<String> queries = new ArrayList<>();

    @Option(names = "--fetch-size", defaultValue = "0", paramLabel = "ROWS",
            description = "Rows per fetch through a cursor; 0 (the default) runs each query in one execution, its result streamed as COPY: a cursor makes PostgreSQL run the plan without parallel workers.")
    int fetchSize;

    @Override
    public Integer call() throws Exception {
        List<ParallelSweep.Pool> p = new ArrayList<>();
        for (String s : pools) p.add(ParallelSweep.Pool.parse(s));
        Map<String, String> own = new LinkedHashMap<>();
        own.put("max_parallel_workers_per_gather", "from --workers");
        if (p.stream().anyMatch(x -> x != ParallelSweep.Pool.ENOUGH)) {
            own.put("max_worker_processes", "from --workers and --worker-pool");
            own.put("max_parallel_workers", "from --workers and --worker-pool");
        }
        target.refuseOwnSettings("bench ssb", own);
        SsbDatabase.LoadOptions load = data.load();
        ParallelSweep.Options o;
        try {
            o = new ParallelSweep.Options(data.scale, workers, p, repeat, queries, data.schema, load, !data.noCache, data.fresh, fetchSize);
        } catch (KenshoException e) {
            throw e.namingBack(ParallelSweep.Options.COMPONENT_NAMES);   // the record speaks of its components; here the user typed options
        }
        var specs = target.specs();
        data.refuseCacheOptionsWithout(specs);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("scale", data.scale);
        params.put("workers", workers);
        params.put("worker_pool", o.pools().stream().map(ParallelSweep.Pool::label).toList());
        params.put("repeat", repeat);
        params.put("queries", queries.isEmpty() ? "all" : queries);
        params.put("targets", specs.stream().map(s -> s.label()).toList());
        params.put("settings", target.settings());
        params.put("schema", data.schema);
        params.put("fetch_size", fetchSize);   // 0: one execution (parallel workers as planned); N: a cursor (none)
        long t0 = System.nanoTime();
        try (RunDirectory dir = results.open(ParallelSweep.COMMAND, params, System.err)) {
            new ParallelSweep(o, System.out, System.err).run(specs, dir);
            System.err.printf(Locale.ROOT, "results: %s (%.1f s)%n", dir.path(), (System.nanoTime() - t0) / 1e9);
            return ResultOptions.exitStatus(dir, System.err);
        }
    }

}
