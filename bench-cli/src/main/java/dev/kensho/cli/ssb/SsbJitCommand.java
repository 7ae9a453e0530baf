package dev.kensho.cli.ssb;

import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.run.QueryMatrix;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.ssb.JitMatrix;
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

/** bench ssb jit: the JIT study's three verifications with jit=off and jit=on. */
@Command(name = "jit", mixinStandardHelpOptions = true,
        description = {"JIT compilation study (PGECons 2018, chapter 6): each query with jit=off and jit=on "
                + "(max_parallel_workers_per_gather=0), after a warm-up run, off or on first by turns; reduction rate "
                + "100*(t_off-t_on)/t_off (none where JIT was not triggered) and JIT timings from EXPLAIN (ANALYZE).",
                "Needs a server built with LLVM (the embedded binaries are not): --pg-bin DIR or --url JDBC_URL."})
final class SsbJitCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;
    @Mixin DataOptions data;

    @Option(names = "--verification", split = ",", defaultValue = "1,2,3", paramLabel = "N",
            description = "1 single operations, 2 data types (lineorder_n/_r/_d created on demand), 3 the 13 SSB queries (default ${DEFAULT-VALUE}).")
    List<Integer> verifications = new ArrayList<>();

    @Option(names = "--repeat", defaultValue = "3", paramLabel = "N", description = "Timed runs per query and jit value (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--query", split = ",", paramLabel = "ID", description = "Verification 3: only these SSB queries.")
    List<String> queries = new ArrayList<>();

    @Option(names = "--jit-above-cost", paramLabel = "COST", description = "jit_above_cost (default: the server's).")
    String jitAboveCost;

    @Option(names = "--jit-inline-above-cost", paramLabel = "COST", description = "jit_inline_above_cost (default: the server's).")
    String jitInlineAboveCost;

    @Option(names = "--jit-optimize-above-cost", paramLabel = "COST", description = "jit_optimize_above_cost (default: the server's).")
    String jitOptimizeAboveCost;

    @Option(names = "--matrix", paramLabel = "NAME=V1,V2",
            description = "Run everything under each combination of these settings' values (repeatable; the first varies slowest), "
                    + "as study 6.6.3.3 varied work_mem 1,2,4GB x maintenance_work_mem 8,16,32GB. A value a server refuses skips its cells.")
    List<String> matrix = new ArrayList<>();

    @Option(names = "--fetch-size", defaultValue = "0", paramLabel = "ROWS",
            description = "Rows per fetch through a cursor; 0 (the default) runs each query in one execution, its result streamed as COPY: a cursor makes PostgreSQL run the plan without parallel workers.")
    int fetchSize;

    @Override
    public Integer call() throws Exception {
        Map<String, String> costs = new LinkedHashMap<>();
        if (jitAboveCost != null) costs.put("jit_above_cost", jitAboveCost);
        if (jitInlineAboveCost != null) costs.put("jit_inline_above_cost", jitInlineAboveCost);
        if (jitOptimizeAboveCost != null) costs.put("jit_optimize_above_cost", jitOptimizeAboveCost);
        Map<String, List<String>> varied = QueryMatrix.settings(matrix);
        Map<String, String> own = new LinkedHashMap<>();
        own.put("jit", "(off and on in every cell)");
        own.put("max_parallel_workers_per_gather", "(0 in every cell, as the study)");
        costs.keySet().forEach(n -> own.put(n, "from --" + n.replace('_', '-')));
        varied.keySet().forEach(n -> own.put(n.strip().toLowerCase(java.util.Locale.ROOT), "from --matrix " + n));
        target.refuseOwnSettings("ssb jit", own);
        JitMatrix.Options o;
        try {
            o = new JitMatrix.Options(verifications, repeat, queries, costs, fetchSize, varied);
        } catch (KenshoException e) {
            throw e.namingBack(JitMatrix.Options.COMPONENT_NAMES);   // the record speaks of its components; here the user typed options
        }
        JitMatrix m = new JitMatrix(o, System.out, System.err);
        SsbDatabase.LoadOptions lo = data.load();
        TargetSpec spec = target.single();
        data.refuseCacheOptionsWithout(List.of(spec));
        if (spec.kind() == dev.kensho.core.server.TargetKind.EMBEDDED) throw KenshoException.usage(JitMatrix.NO_EMBEDDED_JIT);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("scale", lo.scale());
        params.put("verifications", verifications);
        params.put("repeat", repeat);
        params.put("costs", costs);
        params.put("queries", queries.isEmpty() ? "all" : queries);   // verification 3's: others would be other cells
        if (!varied.isEmpty()) params.put("matrix", varied);
        params.put("target", spec.label());
        params.put("settings", target.settings());
        params.put("schema", data.schema);
        params.put("fetch_size", fetchSize);   // 0: one execution (parallel workers as planned); N: a cursor (none)
        if (results.resuming()) {
            // the run before the server: a finished run has nothing to load, set or run, and its server is not started
            try (RunDirectory dir = results.open(JitMatrix.COMMAND, params, System.err)) {
                Integer done = DataOptions.resumedFinished(m, dir);
                if (done != null) return done;
                try (SsbCache cache = SsbCache.open(spec, lo.scale(), lo.keys(), ParallelSweep.managedDefaults(0), !data.noCache, data.fresh, System.err)) {
                    JitMatrix.requireJit(cache.target());
                    return data.runLoaded(m, lo, cache, dir);
                }
            }
        }
        try (SsbCache cache = SsbCache.open(spec, lo.scale(), lo.keys(), ParallelSweep.managedDefaults(0), !data.noCache, data.fresh, System.err)) {
            JitMatrix.requireJit(cache.target()); // before loading anything, and before a run directory exists
            try (RunDirectory dir = results.open(JitMatrix.COMMAND, params, System.err)) {
                return data.runLoaded(m, lo, cache, dir);
            }
        }
    }
}
