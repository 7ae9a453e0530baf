package dev.kensho.cli.ssb;

import dev.kensho.cli.ResultOptions;
import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.ssb.ParallelSweep;
import dev.kensho.ssb.SsbCache;
import dev.kensho.ssb.SsbDatabase;
import dev.kensho.ssb.SsbStudy;
import java.util.List;
import picocli.CommandLine.Option;

/** Which SSB data a command uses and how to load them when missing (a picocli mixin). */
public final class DataOptions {
    @Option(names = {"-s", "--scale"}, defaultValue = "1", paramLabel = "SF",
            description = "SSB scale factor as dbgen's -s (default ${DEFAULT-VALUE}: lineorder has 6,001,173 rows; "
                    + "below 1 the date table shrinks too, so most queries return nothing).")
    double scale;

    @Option(names = "--schema", defaultValue = "public", paramLabel = "NAME",
            description = "Schema holding the SSB tables (default ${DEFAULT-VALUE}), the name as written (S6 is \"S6\", not s6); created when missing.")
    String schema;

    @Option(names = "--jobs", paramLabel = "N",
            description = "Parallel COPY connections (and generator threads) when loading (default: number of cores; above 1, lineorder's chunks go in by concurrent COPYs whose pages interleave, 1 keeps dbgen's order on disk).")
    Integer jobs;

    @Option(names = "--no-keys", description = "Load without the primary keys of the SSB schema.")
    boolean noKeys;

    @Option(names = "--no-analyze", description = "Skip VACUUM (ANALYZE) after loading (to time the bare load against other tools).")
    boolean noAnalyze;

    @Option(names = "--reload", description = "Replace SSB data Kensho loaded before (tables Kensho did not create are never dropped).")
    boolean reload;

    @Option(names = "--fresh", description = "Embedded server: discard the cached database for this version and scale, and reload.")
    boolean fresh;

    @Option(names = "--no-cache", description = "Embedded server: do not keep the loaded database in the cache, KENSHO_HOME/ssb-cache "
                    + "(KENSHO_HOME: ~/.cache/kensho, as root /var/cache/kensho).")
    boolean noCache;

    /**
     * Refuses --fresh where no target has the embedded server's cache: a --fresh meant to reload a remote server's data
     * left them as they were. (--no-cache, which asks that nothing be kept, holds everywhere.)
     */
    void refuseCacheOptionsWithout(List<TargetSpec> specs) {
        if (!fresh || specs.stream().anyMatch(SsbCache::embedded)) return;
        TargetSpec s = specs.get(0);
        String kept = ": --reload replaces the SSB data Kensho loaded there";
        String why = s.keepData() != null ? "not to --keep-data's server" + kept : switch (s.kind()) {
            case REMOTE -> "not to a --url server" + kept;
            case LOCAL_BINARIES -> "a --pg-bin server is loaded anew each run";
            case TESTCONTAINERS -> "a --testcontainers server is loaded anew each run";
            case EMBEDDED -> "";
        };
        throw KenshoException.usage("--fresh applies to the embedded server's SSB cache; " + why);
    }

    SsbDatabase.LoadOptions load() {
        int j = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
        if (j < 1) throw KenshoException.usage("--jobs must be at least 1, got " + j);
        try {
            return new SsbDatabase.LoadOptions(scale, j, !noKeys, reload, !noAnalyze);
        } catch (KenshoException e) {
            throw e.namingBack(SsbDatabase.LoadOptions.COMPONENT_NAMES);   // the record speaks of its components; here the user typed options
        }
    }

    /**
     * A finished run's --resume of study: says so, writes its summary again and returns the exit status, before any
     * server is started, loaded or set; null when the run has trials left.
     */
    static Integer resumedFinished(SsbStudy study, RunDirectory dir) {
        if (!study.finishedIn(dir)) return null;
        System.err.println(study.command() + ": every trial is already in " + dir.path() + "; nothing left to resume");
        return summarised(study, dir);
    }

    /** Loads (or reuses) the data on the cache's server, then runs study in dir. */
    int runLoaded(SsbStudy study, SsbDatabase.LoadOptions lo, SsbCache cache, RunDirectory dir) throws InterruptedException {
        String version = ParallelSweep.versionLabel(cache.target());
        dir.environment(version, Environment.capture(cache.target()));
        SsbDatabase db = new SsbDatabase(cache.target(), schema);
        study.prepare(dir);
        ParallelSweep.ensureLoaded(db, lo, dir, version, System.err);
        study.run(db, dir);
        return summarised(study, dir);
    }

    private static int summarised(SsbStudy study, RunDirectory dir) {
        study.finish(dir);
        System.err.println("results: " + dir.path());
        return ResultOptions.exitStatus(dir, System.err);
    }
}
