package dev.kensho.cli.ssb;

import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.ssb.IndexBuild;
import dev.kensho.ssb.ParallelSweep;
import dev.kensho.ssb.SsbCache;
import dev.kensho.ssb.SsbDatabase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench ssb index-build: parallel CREATE INDEX on lineorder (the study's verification C). */
@Command(name = "index-build", mixinStandardHelpOptions = true,
        description = "Time CREATE INDEX of a composite B-tree on lineorder over 1..4 columns (lo_orderkey, +lo_custkey, "
                + "+lo_partkey, +lo_suppkey) for each max_parallel_maintenance_workers, dropping it after each build, "
                + "with the number of distinct key combinations.")
final class SsbIndexBuildCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;
    @Mixin DataOptions data;

    @Option(names = "--maintenance-workers", split = ",", defaultValue = "0,2,4,6,8,10", paramLabel = "N",
            description = "max_parallel_maintenance_workers values (default ${DEFAULT-VALUE}).")
    List<Integer> workers = new ArrayList<>();

    @Option(names = "--columns", defaultValue = "4", paramLabel = "N", description = "Build the composites over 1..N columns (default ${DEFAULT-VALUE}).")
    int columns;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N", description = "Builds per cell (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--maintenance-work-mem", defaultValue = "1GB", paramLabel = "SIZE",
            description = "maintenance_work_mem for the builds (a parallel build needs 32MB per participant; default ${DEFAULT-VALUE}).")
    String maintenanceWorkMem;

    @Override
    public Integer call() throws Exception {
        IndexBuild.Options o;
        try {
            o = new IndexBuild.Options(workers, columns, repeat, maintenanceWorkMem);
        } catch (KenshoException e) {
            throw e.namingBack(IndexBuild.Options.COMPONENT_NAMES);   // the record speaks of its components; here the user typed options
        }
        IndexBuild ib = new IndexBuild(o, System.out, System.err);
        target.refuseOwnSettings("ssb index-build", Map.of(
                "max_parallel_maintenance_workers", "from --maintenance-workers",
                "maintenance_work_mem", "from --maintenance-work-mem (default 1GB)"));
        SsbDatabase.LoadOptions lo = data.load();
        TargetSpec spec = target.single();
        data.refuseCacheOptionsWithout(List.of(spec));
        int maxW = workers.stream().mapToInt(Integer::intValue).max().orElse(0);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("scale", lo.scale());
        params.put("maintenance_workers", workers);
        params.put("columns", columns);
        params.put("repeat", repeat);
        params.put("maintenance_work_mem", maintenanceWorkMem);
        params.put("target", spec.label());
        params.put("settings", target.settings());
        params.put("schema", data.schema);
        try (RunDirectory dir = results.open(IndexBuild.COMMAND, params, System.err)) {
            // before the server: a finished run's is not started, loaded or set once per worker count to skip each cell
            Integer done = results.resuming() ? DataOptions.resumedFinished(ib, dir) : null;
            if (done != null) return done;
            try (SsbCache cache = SsbCache.open(spec, lo.scale(), lo.keys(), ParallelSweep.managedDefaults(maxW), !data.noCache, data.fresh, System.err)) {
                return data.runLoaded(ib, lo, cache, dir);
            }
        }
    }
}
