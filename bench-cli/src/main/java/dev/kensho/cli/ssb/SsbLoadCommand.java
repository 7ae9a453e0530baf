package dev.kensho.cli.ssb;

import java.util.Locale;
import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.env.Environment;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.ssb.JitMatrix;
import dev.kensho.ssb.ParallelSweep;
import dev.kensho.ssb.SsbCache;
import dev.kensho.ssb.SsbDatabase;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench ssb load: generate and COPY in parallel, keys, VACUUM (ANALYZE), recorded as a trial. */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Load the SSB tables: rows generated in parallel (identical to ssb-dbgen) and streamed straight into "
                + "COPY over several connections, then primary keys and VACUUM (ANALYZE), with a progress bar.",
                "Refuses to load twice without --reload; never drops tables Kensho did not create."})
final class SsbLoadCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;
    @Mixin DataOptions data;

    @Option(names = "--variants", description = "Also create the JIT study's lineorder_n, lineorder_r, lineorder_d.")
    boolean variants;

    @Override
    public Integer call() throws Exception {
        SsbDatabase.LoadOptions lo = data.load();
        TargetSpec spec = target.single();
        data.refuseCacheOptionsWithout(List.of(spec));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("scale", lo.scale());
        params.put("jobs", lo.jobs());
        params.put("keys", lo.keys());
        params.put("analyze", lo.analyze());
        params.put("variants", variants);
        params.put("target", spec.label());
        params.put("schema", data.schema);
        try (RunDirectory dir = results.open("ssb load", params, System.err)) {
            // with its trial: a kill between the two left a run without summary.csv, which a resume, finding the trial, never wrote
            dir.summarizeAfterEachTrial(d -> CellSummary.write(d, List.of()));
            if (ParallelSweep.loadedIn(dir)) {
                // the load's trial is recorded before the variants are built: a run killed while it built them left
                // them missing, and the resume said "nothing left"; the missing ones are built now (each whole or not at all)
                if (variants) {
                    try (SsbCache cache = SsbCache.open(spec, lo.scale(), lo.keys(), ParallelSweep.managedDefaults(0), !data.noCache, false, System.err)) {
                        buildVariants(new SsbDatabase(cache.target(), data.schema));
                    }
                }
                CellSummary.write(dir, List.of());
                // a load records its trial when it finished: another would replace the data (or, without --reload, be
                // refused as a load twice) and add a second trial of the same cell
                System.err.println("ssb load: its trial is already in " + dir.path() + "; nothing left to resume");
                return 0;
            }
            return load(dir, spec, lo);
        }
    }

    private int load(RunDirectory dir, TargetSpec spec, SsbDatabase.LoadOptions lo) throws Exception {
        try (SsbCache cache = SsbCache.open(spec, lo.scale(), lo.keys(), ParallelSweep.managedDefaults(0), !data.noCache, data.fresh, System.err)) {
            // the server's major as version, the target beside it, as ssb, jit and index-build record theirs (the
            // target's label stood in version, and summary.csv's version column read "remote 127.0.0.1:5432/bench")
            String version = ParallelSweep.versionLabel(cache.target());
            dir.environment(version, Environment.capture(cache.target()));
            SsbDatabase db = new SsbDatabase(cache.target(), data.schema);
            java.time.Instant began = java.time.Instant.now();
            SsbDatabase.LoadReport r = db.load(lo, System.err);
            dir.append(ParallelSweep.loadTrial(r, version, spec.label(), dir).startedAt(began));
            if (variants) buildVariants(db);
            CellSummary.write(dir, List.of());
            System.out.printf(Locale.ROOT, "loaded SSB SF %s into %s: %,d rows; generate %.1f s CPU, COPY %.1f s (%,.0f rows/s, %d jobs), "
                            + "%s, total %.1f s%n", fmt(r.scale()), data.schema, r.rows(),
                    r.generateCpuSeconds(), r.copySeconds(), r.rowsPerSecond(), r.jobs(), ParallelSweep.afterCopy(r, lo), r.totalSeconds());
            if (cache.directory() != null) System.err.println("cached: " + cache.directory());
        }
        return 0;
    }

    private static void buildVariants(SsbDatabase db) {
        long v0 = System.nanoTime();
        for (String v : JitMatrix.VARIANTS) db.ensureVariant(v);
        System.err.printf(Locale.ROOT, "variants lineorder_n/_r/_d: %.1f s%n", (System.nanoTime() - v0) / 1e9);
    }

    static String fmt(double d) {
        // plain digits: SF 0.00001 printed as 1.0E-5, in the cache directory's name too
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
