package dev.kensho.scan;

import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import dev.kensho.core.measure.Prewarm;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.Json;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.ServerVersion;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.WorkerSlots;
import dev.kensho.scan.storage.SequentialRead;
import dev.kensho.scan.sweep.Cell;
import dev.kensho.scan.sweep.CrossoverFinder;
import dev.kensho.scan.sweep.ScanQuery;
import dev.kensho.scan.sweep.SelectivitySweep;
import dev.kensho.scan.sweep.SelectivitySweep.Timing;
import dev.kensho.core.run.StudyLock;
import dev.kensho.scan.table.ScanTable;
import dev.kensho.scan.table.Tablespace;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Index scan vs full scan by selectivity and clustering, as PGECons measured it in 2019
 * (インデックススキャン vs テーブルフルスキャン): builds the study's table in a high- and a
 * low-clustering layout, times both scans at every selectivity from cold or warm caches, verifies
 * every plan, and reports where the index scan becomes slower.
 *
 * <pre>
 * try (Target pg = new TargetSpec().open()) {
 *     ScanCrossover.Result r = ScanCrossover.run(pg, ScanCrossover.Options.builder().rows(200_000).step(10).build(),
 *             Path.of("results"), List.of("bench", "scan"), System.err);
 *     r.crossovers().forEach(System.out::println);
 * }
 * </pre>
 */
public final class ScanCrossover {
    public static final String COMMAND = "scan";
    private static final List<String> SUMMARY_METRICS = List.of("time_ms", "rows");
    private static final long MB = 1L << 20;

    private ScanCrossover() {}

    /**
     * What to run.
     *
     * @param rows            rows per table (keys 1..rows); the study used 10 000 000
     * @param layouts         which physical orders to build and measure
     * @param from            lowest selectivity, percent of the rows fetched
     * @param to              highest selectivity, percent
     * @param step            selectivity step, percent (the study: 1)
     * @param caches          cold and/or warm cells; cold needs a server Kensho may restart
     * @param sharedBuffers   one sweep per value: "large" (holds every measured table and index, the
     *                        study's setting), "small" (a tenth of one layout, at least 16MB, the study's small-cache case),
     *                        a size such as "256MB", or "server" (leave as is); empty = "large" on managed
     *                        servers, "server" elsewhere
     * @param tablespaceDir   managed servers: create the tables in a tablespace under this directory
     * @param tablespace      an existing tablespace to create the tables in (remote servers)
     * @param repeat          repeats per cell; the median is reported
     * @param timing          SERVER (EXPLAIN (ANALYZE, TIMING OFF) execution time: the scans alone, the default) or
     *                        CLIENT (every row received by the client, as psql's SELECT would; adds the transfer,
     *                        which is the same for both scans and flattens the curves)
     * @param parallelWorkers max_parallel_workers_per_gather for both queries; null keeps the server's.
     *                        Default 0: one process per scan, so the curves compare access methods and not
     *                        parallelism
     * @param throughputMb    size of the sequential-read probe of the storage, 0 to skip
     * @param dropOsCache     drop the OS page cache for cold cells where permitted
     * @param rebuild         rebuild the tables even when a matching one exists
     */
    public record Options(long rows, List<Layout> layouts, double from, double to, double step, List<CacheState> caches,
                          List<String> sharedBuffers, Path tablespaceDir, String tablespace, int repeat, Timing timing,
                          Integer parallelWorkers, int throughputMb, boolean dropOsCache, boolean rebuild) {

        private static String plain(double v) {
            return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
        }

        /** Cells per layout, cache and buffer size: far more than a crossover needs (the study: 100). */
        public static final int MAX_SELECTIVITIES = 10_000;

        /**
         * The command line's options as this builder's methods: a harness that called rows(10) is told rows(), not --rows,
         * which it never typed. bench scan turns them back.
         */
        public static final Map<String, String> BUILDER_NAMES = Map.ofEntries(Map.entry("--rows", "rows()"),
                Map.entry("--from", "from()"), Map.entry("--to", "to()"), Map.entry("--step", "step()"),
                Map.entry("--repeat", "repeat()"), Map.entry("--throughput-mb", "throughputMb()"), Map.entry("--layout", "layouts()"),
                Map.entry("--cache", "caches()"), Map.entry("--tablespace-dir", "tablespaceDir()"),
                Map.entry("--tablespace", "tablespace()"), Map.entry("--parallel-workers", "parallelWorkers()"),
                Map.entry("--shared-buffers", "sharedBuffers()"));

        /** The command's defaults; each builder method is the option of the same name. */
        public static Builder builder() {
            return new Builder();
        }

        /**
         * The selectivities of the sweep, in percent, from..to by step, and to itself where the step does not land on it
         * (1..100 by 10 had stopped at 91: the highest selectivity asked for went unmeasured), unless it selects the same
         * rows as the last step.
         */
        public List<Double> selectivities() {
            List<Double> out = new ArrayList<>();
            BigDecimal s = BigDecimal.valueOf(step);
            BigDecimal end = BigDecimal.valueOf(to);
            BigDecimal p = BigDecimal.valueOf(from);
            for (; p.compareTo(end) <= 0; p = p.add(s)) out.add(p.doubleValue());
            double last = out.get(out.size() - 1);
            if (last < to && ScanQuery.upperKey(rows, last) != ScanQuery.upperKey(rows, to)) out.add(to);
            return out;
        }

        void validate() {
            if (rows < 100) throw KenshoException.usage("--rows must be at least 100");
            if (!(from > 0) || !(to <= 100) || from > to) throw KenshoException.usage("--from and --to must satisfy 0 < from <= to <= 100");
            if (!(step > 0) || !Double.isFinite(step)) throw KenshoException.usage("--step must be a positive number");
            // checked before selectivities() lists them: --step 1e-8 ran out of heap making the list
            double points = Math.floor((to - from) / step) + 1;
            if (points > MAX_SELECTIVITIES) {
                throw KenshoException.usage(String.format(java.util.Locale.ROOT, "--step %s gives %.0f selectivities from %s to %s: at most %d",
                        plain(step), points, plain(from),
                        plain(to), MAX_SELECTIVITIES));
            }
            // two selectivities of one row count are one query under two labels, and a crossover interpolated between them
            List<Double> pcts = selectivities();
            for (int i = 1; i < pcts.size(); i++) {
                long a = ScanQuery.upperKey(rows, pcts.get(i - 1));
                if (a == ScanQuery.upperKey(rows, pcts.get(i))) {
                    throw KenshoException.usage(String.format(java.util.Locale.ROOT, "--step %s: %s %% and %s %% of %d rows both select %d row%s; "
                            + "a larger --step or more --rows", plain(step), plain(pcts.get(i - 1)), plain(pcts.get(i)), rows, a, a == 1 ? "" : "s"));
                }
            }
            if (repeat < 1) throw KenshoException.usage("--repeat must be at least 1");
            if (throughputMb < 0) throw KenshoException.usage("--throughput-mb must be >= 0 (0 skips the probe)");
            if (layouts.isEmpty()) throw KenshoException.usage("--layout: choose high, low or both");
            if (caches.isEmpty()) throw KenshoException.usage("--cache: choose cold, warm or both");
            if (tablespaceDir != null && tablespace != null) throw KenshoException.usage("choose one of --tablespace-dir and --tablespace");
            if (parallelWorkers != null && parallelWorkers < 0) throw KenshoException.usage("--parallel-workers must be >= 0");
            for (String sb : sharedBuffers) {
                // units as PostgreSQL spells them (it refuses 256mb), and none for blocks, as it reads a bare number
                if (!sb.matches("(?i:small|large|server)|\\s*\\d+\\s*(B|kB|MB|GB|TB)?\\s*")) {
                    throw KenshoException.usage("--shared-buffers " + sb + ": expected small, large, server or a size as PostgreSQL "
                            + "writes it (256MB, 1GB; a bare number is in blocks, 8kB on most builds, as the server reads it)");
                }
                if (sb.strip().matches("\\d+") && new BigDecimal(sb.strip()).compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
                    throw KenshoException.usage("--shared-buffers " + sb.strip() + ": a bare number is in blocks, at most " + Integer.MAX_VALUE);
                }
            }
        }

        /** Mutable defaults: 1 000 000 rows, both layouts, 1..100 % by 1, warm, one repeat, server timing. */
        public static final class Builder {
            private long rows = 1_000_000;
            private List<Layout> layouts = List.of(Layout.HIGH, Layout.LOW);
            private double from = 1;
            private double to = 100;
            private double step = 1;
            private List<CacheState> caches = List.of(CacheState.WARM);
            private List<String> sharedBuffers = List.of();
            private Path tablespaceDir;
            private String tablespace;
            private int repeat = 1;
            private Timing timing = Timing.SERVER;
            private Integer parallelWorkers = 0;
            private int throughputMb = 256;
            private boolean dropOsCache = true;
            private boolean rebuild;

            public Builder rows(long v) { rows = v; return this; }
            public Builder layouts(List<Layout> v) { layouts = List.copyOf(v); return this; }
            public Builder from(double v) { from = v; return this; }
            public Builder to(double v) { to = v; return this; }
            public Builder step(double v) { step = v; return this; }
            public Builder caches(List<CacheState> v) { caches = List.copyOf(v); return this; }
            public Builder sharedBuffers(List<String> v) { sharedBuffers = List.copyOf(v); return this; }
            public Builder tablespaceDir(Path v) { tablespaceDir = v; return this; }
            public Builder tablespace(String v) { tablespace = v; return this; }
            public Builder repeat(int v) { repeat = v; return this; }
            public Builder timing(Timing v) { timing = v; return this; }
            public Builder parallelWorkers(Integer v) { parallelWorkers = v; return this; }
            public Builder throughputMb(int v) { throughputMb = v; return this; }
            public Builder dropOsCache(boolean v) { dropOsCache = v; return this; }
            public Builder rebuild(boolean v) { rebuild = v; return this; }

            /** @throws KenshoException a usage one naming the builder method whose value is out of range */
            public Options build() {
                Options o = new Options(rows, layouts, from, to, step, caches, sharedBuffers, tablespaceDir, tablespace,
                        repeat, timing, parallelWorkers, throughputMb, dropOsCache, rebuild);
                try {
                    o.validate();
                } catch (KenshoException e) {
                    throw e.naming(BUILDER_NAMES);
                }
                return o;
            }
        }
    }

    /**
     * What a run found.
     *
     * @param directory   the results directory (run.json, trials.jsonl, summary.csv, crossover.json)
     * @param layouts     the tables measured
     * @param crossovers  one per (shared_buffers, cache, layout)
     * @param checks      the study's expectations against the crossovers
     * @param cells       cells × repeats with a trial
     * @param invalid     trials whose plan (or row count) was not the intended one
     * @param failed      trials that failed (an error while measuring)
     * @param skipped     trials skipped, with the reason (cold cells on a server Kensho may not restart, a refused shared_buffers)
     * @param osCache     null when cold cells dropped the OS cache, else why they are "server-cold only"
     * @param storage     the sequential-read probe of the tables' storage
     * @param partlyWarm  shared_buffers values whose warm cells could not hold a layout's table and index, with the
     *                    sizes (empty when every warm cell was wholly in shared buffers)
     */
    public record Result(Path directory, List<LayoutFacts> layouts, List<Crossover> crossovers, List<Check> checks,
                         int cells, int invalid, int failed, int skipped, String osCache, Map<String, Object> storage,
                         double from, double to, Map<String, String> partlyWarm) {

        /** Lines for the console: layouts, crossovers, checks. */
        public List<String> report() {
            List<String> out = new ArrayList<>();
            for (LayoutFacts f : layouts) {
                out.add(String.format(Locale.ROOT, "layout %-4s %s: %d rows, correlation %.3f, table %s (%d pages, %.1f rows/page), index %s%s",
                        f.layout().label(), f.table(), f.rows(), f.correlation(), size(f.tableBytes()), f.pages(), f.rowsPerPage(),
                        size(f.indexBytes()), f.reused() ? ", reused" : String.format(Locale.ROOT, ", loaded in %.1f s", f.loadSeconds())));
            }
            if (storage.containsKey("mb_per_s")) {
                out.add(String.format(Locale.ROOT, "storage %s: sequential read %.1f MB/s (dd's MB, 10^6 bytes, as the study's figures)%s", storage.get("directory"),
                        ((Number) storage.get("mb_per_s")).doubleValue(), Boolean.TRUE.equals(storage.get("direct_io")) ? " (O_DIRECT)" : ""));
            } else if (storage.containsKey("directory")) {
                // a probe that was asked for and not made (too little space, an I/O error) says so, not nothing
                out.add("storage " + storage.get("directory") + ": " + storage.getOrDefault("error", storage.get("note")));
            }
            if (osCache != null && crossovers.stream().anyMatch(c -> c.cache() == CacheState.COLD)) {
                out.add("cold cells are server-cold only: " + osCache);
            }
            partlyWarm.forEach((sb, detail) -> out.add(partlyWarmLine(sb, detail)));
            for (Crossover c : crossovers) {
                out.add(String.format(Locale.ROOT, "crossover %-4s %-4s shared_buffers %-8s %s%s", c.layout().label(), c.cache().label(),
                        c.sharedBuffers(), c.describe(from, to), c.caveat()));
            }
            for (Check k : checks) out.add("check " + k.verdict() + ": " + k.name() + " — " + k.detail());
            out.add(cells + " trials, " + invalid + " with an unintended plan, " + failed + " failed, " + skipped + " skipped; results in " + directory);
            return out;
        }
    }

    /** Bytes with one decimal in pg_size_pretty's units (1024-based): "3.9 MB", "448.0 kB", "812 bytes". */
    static String size(long bytes) {
        if (bytes < 1024) return bytes + " bytes";
        String[] units = {"kB", "MB", "GB", "TB", "PB"};
        double v = bytes / 1024.0;
        int u = 0;
        // switch units where the rounded value would print as 1024.0
        while (v >= 1024 - 0.05 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /**
     * Creates a run directory under resultsRoot (named after {@link #COMMAND}), runs, and closes it.
     *
     * @param commandLine recorded in run.json as what was run
     * @param progress    progress lines; null for none
     * @return the crossovers and checks found, and the run directory's path
     * @throws InterruptedException the calling thread was interrupted; the trials so far stay in the directory
     */
    public static Result run(Target target, Options options, Path resultsRoot, List<String> commandLine, PrintStream progress)
            throws InterruptedException {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("options", options);
        try (RunDirectory dir = RunDirectory.create(resultsRoot, RunInfo.of(COMMAND, commandLine, params))) {
            return run(target, options, dir, progress);
        }
    }

    /** Continues an interrupted run with the options stored in its run.json. */
    public static Result resume(Target target, Path runDirectory, PrintStream progress) throws InterruptedException {
        try (RunDirectory dir = RunDirectory.resume(runDirectory)) {
            return run(target, storedOptions(dir), dir, progress);
        }
    }

    /** The options a run directory was started with. */
    public static Options storedOptions(RunDirectory dir) {
        Object o = dir.info().parameters().get("options");
        if (o == null) throw KenshoException.usage("--resume " + dir.path() + ": not a bench scan run");
        Options opts = Json.MAPPER.convertValue(o, Options.class);
        opts.validate();
        return opts;
    }

    /** Runs into an open directory (new or resumed); the options are recorded in its run.json. */
    public static Result run(Target target, Options options, RunDirectory dir, PrintStream progress) throws InterruptedException {
        options.validate();
        dir.parameter("options", options);
        // before the tables are checked, rebuilt (--rebuild) or the extension and tablespace made: nothing is left to run
        Optional<Result> done = finished(dir, options);
        if (done.isPresent()) {
            say(progress, "scan: every trial is already in " + dir.path() + "; nothing left to resume");
            return done.get();
        }
        checkTarget(target, options);
        try (StudyLock lock = StudyLock.take(target, StudyLock.SCAN, "scan", "it would rebuild this one's tables and share its reads")) {
            return run(target, options, dir, progress, lock);
        }
    }

    private static Result run(Target target, Options options, RunDirectory dir, PrintStream progress, StudyLock lock)
            throws InterruptedException {
        // a user's table of a scan table's name refuses the run before the extension goes into their database
        try (Connection c = target.connect()) {
            ScanTable.checkNoForeignTable(c, options.layouts());
        } catch (SQLException e) {
            throw KenshoException.target("cannot read the scan tables' comments: " + KenshoException.firstLine(e), e);
        }
        if (options.caches().contains(CacheState.WARM)) requirePrewarm(target, dir);
        boolean coldRuns = options.caches().contains(CacheState.COLD) && target.control().canRestart();
        if (options.caches().contains(CacheState.COLD) && !coldRuns) {
            dir.noteOnce("cold cells skipped: Kensho may not restart " + target.describe() + " (no --restart-command)");
            say(progress, "cold cells skipped: " + SelectivitySweep.NO_RESTART);
        }
        List<String> sbWanted = options.sharedBuffers().isEmpty()
                ? List.of(target.kind().managed() ? "large" : SelectivitySweep.SERVER_VALUE) : options.sharedBuffers();

        String tablespace = options.tablespace();
        Optional<Path> storageDir;
        if (options.tablespaceDir() != null) {
            tablespace = Tablespace.create(target, options.tablespaceDir());
            try (Connection c = target.connect()) {
                storageDir = Tablespace.location(c, tablespace);
            } catch (SQLException e) {
                throw KenshoException.target("cannot read the tablespace location: " + e.getMessage(), e);
            }
        } else if (tablespace != null) {
            storageDir = Tablespace.require(target, tablespace);
        } else {
            storageDir = target.control().dataDirectory().map(Path::getParent);
        }

        try {
            return measure(target, options, dir, progress, coldRuns, sbWanted, tablespace, storageDir, lock);
        } finally {
            if (options.tablespaceDir() != null) {
                Tablespace.dropWithThrowAwayServer(target, options.layouts().stream().map(ScanTable::name).toList());
            }
        }
    }

    /**
     * A resumed run that holds every trial of its cells, as the run found it: its layouts, storage and findings from
     * run.json and its trials, and summary.csv written again; empty when a trial is left (or the run never resolved its
     * shared_buffers, so never began its cells).
     */
    public static Optional<Result> finished(RunDirectory dir, Options options) {
        Object resolved = dir.info().parameters().get(SHARED_BUFFERS_RESOLVED);
        Object layouts = dir.info().environment().get("layouts");
        if (!(resolved instanceof List<?> sbs) || sbs.isEmpty() || layouts == null) return Optional.empty();
        for (Object sb : sbs) {
            for (CacheState cache : options.caches()) {
                for (Layout l : options.layouts()) {
                    for (double pct : options.selectivities()) {
                        for (Scan scan : Scan.values()) {
                            String key = new Cell(String.valueOf(sb), cache, l, pct, scan).key();
                            for (int r = 0; r < options.repeat(); r++) if (!dir.isFinished(key, r)) return Optional.empty();
                        }
                    }
                }
            }
        }
        List<LayoutFacts> facts = Json.MAPPER.convertValue(layouts,
                Json.MAPPER.getTypeFactory().constructCollectionType(List.class, LayoutFacts.class));
        Map<String, Object> storage = new LinkedHashMap<>();
        if (dir.info().environment().get("storage") instanceof Map<?, ?> m) m.forEach((k, v) -> storage.put(String.valueOf(k), v));
        String osCache = dir.info().environment().get("os_cache_drop") instanceof String drop && drop.startsWith(NO_OS_CACHE_DROP)
                ? drop.substring(NO_OS_CACHE_DROP.length()) : null;
        // written again: a run killed after its last trial and before its findings has them now
        CellSummary.write(dir, SUMMARY_METRICS);
        return Optional.of(findings(dir, options, facts, storage, osCache));
    }

    /**
     * A server on this host that Kensho does not manage: its data directory, where the role may read the setting (a
     * superuser, pg_read_all_settings); else empty. Only for the room check: its files are not Kensho's to probe.
     */
    private static Optional<Path> dataDirectoryHere(Target target, Connection c) {
        if (!target.sameHost()) return Optional.empty();
        try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_setting('data_directory')")) {
            if (!rs.next()) return Optional.empty();
            Path p = Path.of(rs.getString(1));
            return java.nio.file.Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
        } catch (SQLException | RuntimeException e) {
            return Optional.empty();   // not readable for this role: unchecked, as before
        }
    }

    /** The crossovers and checks of the run's trials, recorded in crossover.json and run.json. */
    private static Result findings(RunDirectory dir, Options options, List<LayoutFacts> facts, Map<String, Object> storage, String osCache) {
        // a failed repeat a resume ran again with success is behind the run: counted, it made every later resume exit 1
        List<Trial> trials = Trial.standing(dir.trials());
        List<Crossover> crossovers = CrossoverFinder.find(CellSummary.of(trials));
        List<Check> checks = CrossoverFinder.check(crossovers, options.from(), options.to());
        Map<String, String> partlyWarm = partlyWarm(trials);
        partlyWarm.forEach((sb, detail) -> dir.noteOnce("scan: " + partlyWarmLine(sb, detail)));
        Result r = new Result(dir.path(), facts, crossovers, checks, trials.size(), count(trials, "invalid"), count(trials, "failed"),
                count(trials, "skipped"), osCache, storage, options.from(), options.to(), partlyWarm);
        try {
            dir.writeAtomically("crossover.json", FINDINGS.writerWithDefaultPrettyPrinter().writeValueAsString(
                    Map.of("crossovers", crossovers, "checks", checks, "layouts", facts, "partly_warm", partlyWarm)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new java.io.UncheckedIOException(e);
        }
        record(dir, crossovers, checks, options.from(), options.to(), partlyWarm);
        return r;
    }

    /**
     * crossover.json's writer: names and values as summary.csv and trials.jsonl have them (shared_buffers, layout "high",
     * cache "cold"), so the files join on them; the records' Java names (sharedBuffers, HIGH) did not.
     */
    private static final com.fasterxml.jackson.databind.ObjectMapper FINDINGS = Json.MASKING.copy()
            .setPropertyNamingStrategy(com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE)
            .registerModule(new com.fasterxml.jackson.databind.module.SimpleModule().addSerializer(Enum.class,
                    new com.fasterxml.jackson.databind.ser.std.StdSerializer<Enum>(Enum.class) {
                        @Override
                        public void serialize(Enum value, com.fasterxml.jackson.core.JsonGenerator gen,
                                              com.fasterxml.jackson.databind.SerializerProvider provider) throws java.io.IOException {
                            gen.writeString(value.name().toLowerCase(Locale.ROOT));
                        }
                    }));

    private static int count(List<Trial> trials, String status) {
        return (int) trials.stream().filter(t -> status.equals(t.status())).count();
    }

    /** run.json's os_cache_drop where cold cells could not drop the OS cache: this, then why. */
    private static final String NO_OS_CACHE_DROP = "not possible: ";

    /** The session settings as this server takes them, and the study's that it lacks (settings of later releases). */
    private static void recordSessionSettings(Target target, Options options, RunDirectory dir) {
        Map<String, String> study = ScanQuery.sessionSettings(options.parallelWorkers());
        Map<String, String> applied;
        try (Connection c = target.connect()) {
            applied = ScanQuery.sessionSettings(c, options.parallelWorkers());
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_settings: " + KenshoException.firstLine(e), e);
        }
        dir.parameter("session_settings", applied);
        if (applied.size() < study.size()) {
            List<String> absent = study.keySet().stream().filter(k -> !applied.containsKey(k)).toList();
            String note = "scan: PostgreSQL " + ServerVersion.of(target).release() + " has no " + String.join(", ", absent)
                    + " (settings of later releases, for plans it cannot make): not set";
            dir.noteOnce(note);
        }
    }

    /**
     * --parallel-workers beyond what the server can start (max_parallel_workers, max_worker_processes less the slots its
     * own background workers hold, such as the logical replication launcher): every cell planned with more is invalid,
     * each with its reason, and the sweep ended with no crossover and no word before it.
     */
    private static void checkWorkerSlots(Target target, Options options, RunDirectory dir, PrintStream progress) {
        Integer asked = options.parallelWorkers();
        if (asked == null || asked == 0) return;
        WorkerSlots slots;
        try (Connection c = target.connect()) {
            slots = WorkerSlots.of(c);
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_settings: " + KenshoException.firstLine(e), e);
        }
        List<String> limitsShort = slots.shortFor(asked);
        if (limitsShort.isEmpty()) return;
        String note = "scan: --parallel-workers " + asked + ": more than can start (" + String.join("; ", limitsShort) + "): a cell planned"
                + " with more workers than start is invalid; on a server Kensho manages, --set " + String.join(" --set ", slots.raiseFor(asked))
                + ", or ask for fewer";
        dir.noteOnce(note);
        say(progress, note);
    }

    private static Result measure(Target target, Options options, RunDirectory dir, PrintStream progress, boolean coldRuns,
                                  List<String> sbWanted, String tablespace, Optional<Path> storageDir, StudyLock lock)
            throws InterruptedException {
        List<LayoutFacts> facts = new ArrayList<>();
        try (Connection c = target.connect()) {
            ScanTable.checkNoForeignTable(c, options.layouts());
            // the directory the tables go to, for the room they need: a remote server on this host says where its data are
            Optional<Path> room = storageDir.isPresent() || tablespace != null ? storageDir : dataDirectoryHere(target, c);
            ScanTable.checkRoom(c, options.layouts(), options.rows(), room);
            for (Layout l : options.layouts()) {
                say(progress, String.format(Locale.ROOT, "preparing %s (%d rows, about %s, %s clustering)…", ScanTable.name(l), options.rows(),
                        size(ScanTable.estimatedBytes(options.rows())), l.label()));
                facts.add(ScanTable.prepare(c, l, options.rows(), tablespace, options.rebuild(), room, progress));
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot build the scan tables: " + KenshoException.firstLine(e), e);
        }
        dir.environment("layouts", facts);

        Map<String, Object> storage = new LinkedHashMap<>();
        if (options.throughputMb() <= 0) {
            storage.put("note", "not measured (throughput probe disabled)");
        } else if (!target.sameHost()) {
            storage.put("note", "not measured: the tables' directory is not on this host");
        } else if (storageDir.isEmpty()) {
            // a server Kensho does not manage: its files are not Kensho's to write a probe beside
            storage.put("note", "not measured: the server is not Kensho's, nor its data directory to write a probe in "
                    + "(--tablespace NAME, a tablespace of this host, is measured in its directory)");
        } else {
            say(progress, "measuring sequential read throughput of " + storageDir.get() + "…");
            storage = SequentialRead.measure(storageDir.get(), options.throughputMb(), options.dropOsCache());
        }
        storage.put("tablespace", tablespace == null ? "pg_default" : tablespace);
        dir.environment("storage", storage);

        // "large" depends on the server's current value: a resumed run keeps what it resolved, the keys of its cells
        List<String> sbs = new ArrayList<>();
        Object resolved = dir.info().parameters().get(SHARED_BUFFERS_RESOLVED);
        if (resolved instanceof List<?> l && l.size() == sbWanted.size()) {
            l.forEach(v -> sbs.add(String.valueOf(v)));
        } else {
            for (String s : sbWanted) sbs.add(resolveSharedBuffers(target, s, facts));
        }
        dir.parameter(SHARED_BUFFERS_RESOLVED, sbs);
        recordSessionSettings(target, options, dir);
        checkWorkerSlots(target, options, dir, progress);

        SelectivitySweep sweep = new SelectivitySweep(target, options.rows(), options.timing(), options.parallelWorkers(), options.dropOsCache())
                .holding(lock);
        String osCache = coldRuns ? sweep.osCacheStatus() : null;
        if (coldRuns) {
            dir.environment("os_cache_drop", osCache == null ? "dropped before every cold cell" : NO_OS_CACHE_DROP + osCache);
            if (osCache != null) say(progress, "cold cells will be server-cold only: " + osCache);
        }

        List<Cell> cells = new ArrayList<>();
        // "server" is the size the server has now, before any cell changes it: "server" and "large" of 128MB were two sweeps
        String serverSize = sizeLabel(currentSharedBuffers(target));
        List<String> sizes = sbs.stream().map(s -> s.equals(SelectivitySweep.SERVER_VALUE) ? serverSize : s).toList();
        for (int i = 0; i < sbs.size(); i++) {
            String sb = sbs.get(i);
            int first = sizes.indexOf(sizes.get(i));
            if (first < i) {
                // two values of one size are one sweep: their cells had the same keys and were merged without a word
                String same = "--shared-buffers " + sbWanted.get(i) + " is " + sizes.get(i) + ", as " + sbWanted.get(first) + " is: measured once";
                dir.noteOnce("scan: " + same);
                say(progress, "scan: " + same);
                continue;
            }
            // cold cells the server may not be restarted for are recorded as skipped by the sweep
            for (CacheState cache : options.caches()) {
                for (Layout l : options.layouts()) {
                    for (double pct : options.selectivities()) {
                        for (Scan scan : Scan.values()) cells.add(new Cell(sb, cache, l, pct, scan));
                    }
                }
            }
        }
        dir.summarizeAfterEachTrial(d -> CellSummary.write(d, SUMMARY_METRICS));
        try {
            sweep.run(dir, cells, options.repeat(), progress);
        } finally {
            dir.environment("target", Environment.capture(target));
            CellSummary.write(dir, SUMMARY_METRICS);
        }

        return findings(dir, options, facts, storage, osCache);
    }

    /** Per shared_buffers value, the largest table and index its warm cells could not hold (see SelectivitySweep.PARTLY_WARM). */
    static Map<String, String> partlyWarm(List<Trial> trials) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Trial t : trials) {
            Object detail = t.extra().get(SelectivitySweep.PARTLY_WARM);
            if (detail != null) out.merge(String.valueOf(t.params().get("shared_buffers")), String.valueOf(detail), (a, b) -> a);
        }
        return out;
    }

    private static String partlyWarmLine(String sb, String detail) {
        return "warm cells with shared_buffers " + sb + " are partly cold: " + detail + ", so pg_prewarm cannot hold them and "
                + "part of every scan reads from outside shared buffers (the study sized shared_buffers to hold the table)";
    }

    /** run.json parameter: the shared_buffers of each sweep, as "large"/"small" resolved when the run began. */
    static final String SHARED_BUFFERS_RESOLVED = "shared_buffers_resolved";

    /** run.json parameters holding the findings (see {@link #record}). */
    public static final String CROSSOVERS = "crossovers";
    public static final String CHECKS = "checks";

    /**
     * The crossovers and checks in run.json as the console words them: the report reads run.json and the trials only,
     * and its own interpolation knows neither the fitted lines nor the study's expectations.
     */
    static void record(RunDirectory dir, List<Crossover> crossovers, List<Check> checks, double from, double to,
                       Map<String, String> partlyWarm) {
        List<Map<String, Object>> xs = new ArrayList<>();
        for (Crossover c : crossovers) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("shared_buffers", c.sharedBuffers());
            m.put("cache", c.cache().label());
            m.put("layout", c.layout().label());
            String partly = c.cache() == CacheState.WARM && partlyWarm.containsKey(c.sharedBuffers())
                    ? " (warm cells partly cold: " + partlyWarm.get(c.sharedBuffers()) + ")" : "";
            m.put("crossover", c.describe(from, to) + c.caveat() + partly);
            xs.add(m);
        }
        List<Map<String, Object>> ks = new ArrayList<>();
        for (Check k : checks) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("verdict", k.verdict());
            m.put("expectation", k.name());
            m.put("detail", k.detail());
            ks.add(m);
        }
        dir.parameter(CROSSOVERS, xs);
        dir.parameter(CHECKS, ks);
    }

    /**
     * Fails with a usage error when the options need what the target does not allow: cold cells only
     * (a restart), or a shared_buffers change, on a server Kensho may not restart. Call it before
     * creating a results directory.
     */
    public static void checkTarget(Target target, Options options) {
        if (target.control().canRestart()) return;
        if (options.caches().equals(List.of(CacheState.COLD))) {
            throw KenshoException.usage("--cache cold restarts the server: use a managed server, or give --restart-command");
        }
        // a size the server has already needs no restart (it was refused as one, 128MB on a server of 128MB); large
        // depends on the tables, built later: a large the server lacks has its cells skipped with the reason
        for (String s : options.sharedBuffers()) {
            String w = s.strip();
            if (w.equalsIgnoreCase(SelectivitySweep.SERVER_VALUE) || w.equalsIgnoreCase("large")) continue;
            if (w.equalsIgnoreCase("small") || sizeBytes(target, w) != currentSharedBuffers(target)) {
                throw KenshoException.usage("--shared-buffers " + w + " needs a restart: use a managed server, or give --restart-command");
            }
        }
    }

    /** A size as postgresql.conf takes it, in bytes (a bare number is blocks). */
    private static long sizeBytes(Target target, String value) {
        String v = value.replace(" ", "");
        if (v.matches("\\d+")) return Long.parseLong(v) * blockSize(target);
        try (Connection c = target.connect(); PreparedStatement ps = c.prepareStatement("SELECT pg_size_bytes(?)")) {
            ps.setString(1, v);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw KenshoException.target("cannot read the size " + v + ": " + KenshoException.firstLine(e), e);
        }
    }

    /**
     * A warm cell is one pg_prewarm filled shared buffers for: where the role may not create the extension (only a
     * superuser may) or the server lacks it, no warm cell can be measured, said once before any table is built.
     */
    private static void requirePrewarm(Target target, RunDirectory dir) {
        try (Connection c = target.connect()) {
            if (dev.kensho.core.server.OwnStatements.run(c, own -> Prewarm.ensureExtension(c))) {
                // a change to the user's database (a remote one too): it goes on record
                dir.note("created extension pg_prewarm in schema public of database " + target.database()
                        + " to prewarm the scan table (DROP EXTENSION pg_prewarm removes it)");
            }
        } catch (SQLException e) {
            throw KenshoException.target("the warm cells (--cache warm or both) prewarm the tables: " + KenshoException.firstLine(e), e);
        }
    }

    /** "large"/"small"/"server"/a size → the value the cells run with. */
    static String resolveSharedBuffers(Target target, String wanted, List<LayoutFacts> facts) {
        String w = wanted.trim();
        if (w.equalsIgnoreCase(SelectivitySweep.SERVER_VALUE)) return SelectivitySweep.SERVER_VALUE;
        long current = currentSharedBuffers(target);
        if (w.equalsIgnoreCase("large")) {
            long total = facts.stream().mapToLong(LayoutFacts::totalBytes).sum();
            long need = (long) Math.ceil((total * 1.25 + 64 * MB) / MB);
            return Math.max(need, current / MB) + "MB";
        }
        if (w.equalsIgnoreCase("small")) {
            long one = facts.stream().mapToLong(LayoutFacts::totalBytes).min().orElse(0);
            return Math.max(16, one / 10 / MB) + "MB";
        }
        w = w.replace(" ", "");
        // a bare number is blocks to the server, as in postgresql.conf: labelled with the size it is (16384 → 128MB)
        if (w.matches("\\d+")) return sizeLabel(Long.parseLong(w) * blockSize(target));
        return w;
    }

    /** Bytes as a setting's value: MB where whole, else kB (a block is a whole number of kB). */
    static String sizeLabel(long bytes) {
        return bytes % MB == 0 ? bytes / MB + "MB" : bytes / 1024 + "kB";
    }

    private static long blockSize(Target target) {
        try (Connection c = target.connect();
             PreparedStatement ps = c.prepareStatement("SELECT current_setting('block_size')::bigint");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw KenshoException.target("cannot read block_size: " + KenshoException.firstLine(e), e);
        }
    }

    private static long currentSharedBuffers(Target target) {
        try (Connection c = target.connect();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT setting::bigint * current_setting('block_size')::bigint FROM pg_settings WHERE name = 'shared_buffers'");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw KenshoException.target("cannot read shared_buffers: " + KenshoException.firstLine(e), e);
        }
    }

    private static void say(PrintStream out, String line) {
        if (out != null) out.println(line);
    }

}
