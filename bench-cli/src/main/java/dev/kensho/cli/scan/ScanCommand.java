package dev.kensho.cli.scan;

import java.util.Locale;
import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.scan.CacheState;
import dev.kensho.scan.Layout;
import dev.kensho.scan.ScanCrossover;
import dev.kensho.scan.sweep.SelectivitySweep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench scan: index scan vs full scan by selectivity and clustering (PGECons 2019). */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = {"Index scan vs full scan by selectivity, for a high- and a low-clustering copy of the study's table "
                + "(PGECons 2019): times both scans at every selectivity, verifies each plan and reports the crossover.",
                "Example:",
                "  bench scan --rows 1000000 --step 1 --cache warm",
                "Study setting:",
                "  bench scan --rows 10000000 --cache cold --tablespace-dir /mnt/ssd/kensho",
                "Exit status 1 when a cell ran another plan than the intended one or failed (see summary.csv, status invalid "
                        + "or failed); skipped cells (cold ones on a server Kensho may not restart) are reported, not an error, unless every cell was."})
public final class ScanCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "1000000",
            description = "Rows per table, keys 1..N (default ${DEFAULT-VALUE}; the study: 10000000).")
    long rows;

    @Option(names = "--layout", paramLabel = "high|low|both", defaultValue = "both",
            description = "high (inserted in key order), low (keys scattered by i -> i*p mod N) or both (default ${DEFAULT-VALUE}).")
    String layout;

    @Option(names = "--from", paramLabel = "PERCENT", defaultValue = "1", description = "Lowest selectivity in percent (default ${DEFAULT-VALUE}).")
    double from;

    @Option(names = "--to", paramLabel = "PERCENT", defaultValue = "100", description = "Highest selectivity in percent (default ${DEFAULT-VALUE}).")
    double to;

    @Option(names = "--step", paramLabel = "PERCENT", defaultValue = "1", description = "Selectivity step in percent (default ${DEFAULT-VALUE}, as the study).")
    double step;

    @Option(names = "--cache", paramLabel = "cold|warm|both", defaultValue = "warm",
            description = "cold (restart PostgreSQL and drop the OS page cache before every cell, as the study; needs a managed "
                    + "server or --restart-command), warm (pg_prewarm first) or both (default ${DEFAULT-VALUE}).")
    String cache;

    @Option(names = "--shared-buffers", split = ",", paramLabel = "SIZE",
            description = "One sweep per value: large (holds every table and index, the study's setting), small (a tenth of a "
                    + "table with its index, at least 16MB: the study's small-cache case), a size such as 256MB (a bare number is in 8kB blocks, as PostgreSQL reads it), "
                    + "or server (the server's own value, as the run found it). Values of one size are measured once. "
                    + "Default: large on managed servers, server elsewhere.")
    List<String> sharedBuffers = new ArrayList<>();

    @Option(names = "--tablespace-dir", paramLabel = "DIR",
            description = "Managed servers: put the tables in a tablespace under DIR, an existing directory on the medium to compare (its new subdirectory kensho-N is given to the server's OS user).")
    Path tablespaceDir;

    @Option(names = "--tablespace", paramLabel = "NAME", description = "Put the tables in this existing tablespace (remote servers).")
    String tablespace;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1", description = "Repeats per cell; the median is reported (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--timing", paramLabel = "server|client", defaultValue = "server",
            description = "server: EXPLAIN (ANALYZE, TIMING OFF) execution time, the scans alone; client: every row fetched "
                    + "as psql would (default ${DEFAULT-VALUE}).")
    String timing;

    @Option(names = "--parallel-workers", defaultValue = "0", paramLabel = "N|server",
            description = "max_parallel_workers_per_gather for both queries (default ${DEFAULT-VALUE}: one process per scan; "
                    + "server keeps the server's value).")
    String parallelWorkers;

    @Option(names = "--throughput-mb", paramLabel = "MB", defaultValue = "256",
            description = "Size of the sequential-read probe of the tables' storage, like the study's dd figure (0 skips; default ${DEFAULT-VALUE}).")
    int throughputMb;

    @Option(names = "--no-drop-os-cache", description = "Never drop the OS page cache: cold cells restart PostgreSQL only (recorded as server-cold only), and the "
            + "--throughput-mb probe reads its file back without a drop (where it has no O_DIRECT, possibly from the cache).")
    boolean noDropOsCache;

    @Option(names = "--rebuild", description = "Rebuild the tables even when matching ones from an earlier run exist.")
    boolean rebuild;

    @Override
    public Integer call() throws Exception {
        ScanCrossover.Options options = options();
        refuseOwnSettings(target.settings(), options.parallelWorkers());
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("options", options);
        TargetSpec spec = target.single();
        params.put("target", spec.label());
        params.put("settings", target.settings());
        if (!results.resuming()) {
            try (Target t = spec.open()) {
                // Refuse before a results directory exists: a usage error leaves nothing behind.
                ScanCrossover.checkTarget(t, options);
                try (RunDirectory dir = results.open(ScanCrossover.COMMAND, params, System.err)) {
                    return run(t, options, dir);
                }
            }
        }
        // the run before the target: a finished run has nothing to run, and its server is not started or touched
        try (RunDirectory dir = results.open(ScanCrossover.COMMAND, params, System.err)) {
            ScanCrossover.Options stored = ScanCrossover.storedOptions(dir);
            Optional<ScanCrossover.Result> done = ScanCrossover.finished(dir, stored);
            if (done.isPresent()) {
                System.err.println("scan: every trial is already in " + dir.path() + "; nothing left to resume");
                return report(done.get());
            }
            System.err.println("resuming with the run's own options (rows " + stored.rows() + ", " + stored.from() + ".."
                    + stored.to() + " % by " + stored.step() + ")");
            try (Target t = spec.open()) {
                return run(t, stored, dir);
            }
        }
    }

    /**
     * A --set of a setting scan SETs in every session was overridden there, while run.json recorded it among the run's
     * settings (enable_seqscan=on beside session_settings' off): refused.
     */
    static void refuseOwnSettings(Map<String, String> settings, Integer parallelWorkers) {
        Map<String, String> own = dev.kensho.scan.sweep.ScanQuery.sessionSettings(parallelWorkers);
        for (String name : settings.keySet()) {
            String n = name.strip().toLowerCase(java.util.Locale.ROOT);
            if (!own.containsKey(n)) continue;
            String why = n.equals("max_parallel_workers_per_gather") ? "from --parallel-workers; give its value there"
                    : n.equals("jit") ? "(off: on a JIT build the full scan's time would include its compilation); it cannot be changed"
                    : "(" + own.get(n) + ", one of the study's planner settings that make each query run its intended plan); it cannot be changed";
            throw KenshoException.usage("--set " + name.strip() + ": bench scan sets it itself " + why);
        }
    }

    private static int run(Target t, ScanCrossover.Options options, RunDirectory dir) throws InterruptedException {
        System.err.println("target: " + t.describe());
        return report(ScanCrossover.run(t, options, dir, System.err));
    }

    private static int report(ScanCrossover.Result r) {
        r.report().forEach(System.out::println);
        if (r.cells() > 0 && r.skipped() == r.cells()) {
            System.err.println(ResultOptions.everySkipped(r.cells(), "trial"));
            return 1;
        }
        return r.invalid() > 0 || r.failed() > 0 ? 1 : 0;
    }

    ScanCrossover.Options options() {
        List<Layout> layouts = switch (layout.trim().toLowerCase(Locale.ROOT)) {
            case "both" -> List.of(Layout.HIGH, Layout.LOW);
            case "high" -> List.of(Layout.HIGH);
            case "low" -> List.of(Layout.LOW);
            default -> throw KenshoException.usage("--layout " + layout + ": expected high, low or both");
        };
        List<CacheState> caches = switch (cache.trim().toLowerCase(Locale.ROOT)) {
            case "both" -> List.of(CacheState.COLD, CacheState.WARM);
            case "cold" -> List.of(CacheState.COLD);
            case "warm" -> List.of(CacheState.WARM);
            default -> throw KenshoException.usage("--cache " + cache + ": expected cold, warm or both");
        };
        SelectivitySweep.Timing tm = switch (timing.trim().toLowerCase(Locale.ROOT)) {
            case "server" -> SelectivitySweep.Timing.SERVER;
            case "client" -> SelectivitySweep.Timing.CLIENT;
            default -> throw KenshoException.usage("--timing " + timing + ": expected server or client");
        };
        // the directory names the medium to measure: a mistyped one must not be created on whatever disk holds its parent
        if (tablespaceDir != null && !Files.isDirectory(tablespaceDir)) {
            throw KenshoException.usage("--tablespace-dir " + tablespaceDir + ": "
                    + (Files.exists(tablespaceDir) ? "is a file, not a directory" : "no such directory"));
        }
        // before a server starts and a run directory is made for nothing
        if (tablespaceDir != null && !Files.isWritable(tablespaceDir)) {
            throw KenshoException.usage("--tablespace-dir " + tablespaceDir + ": cannot use it (" + System.getProperty("user.name")
                    + " may not write there)");
        }
        Integer workers;
        if (parallelWorkers.equalsIgnoreCase("server")) {
            workers = null;
        } else {
            try {
                workers = Integer.parseInt(parallelWorkers.trim());
            } catch (NumberFormatException e) {
                throw KenshoException.usage("--parallel-workers " + parallelWorkers + ": expected a number or server");
            }
        }
        try {
            return ScanCrossover.Options.builder().rows(rows).layouts(layouts).from(from).to(to).step(step).caches(caches)
                    .sharedBuffers(sharedBuffers).tablespaceDir(tablespaceDir).tablespace(tablespace).repeat(repeat).timing(tm)
                    .parallelWorkers(workers).throughputMb(throughputMb).dropOsCache(!noDropOsCache).rebuild(rebuild).build();
        } catch (KenshoException e) {
            throw e.namingBack(ScanCrossover.Options.BUILDER_NAMES);   // the builder speaks of its methods; here the user typed options
        }
    }
}
