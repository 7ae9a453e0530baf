package dev.kensho.cli;

import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.pgbench.micro.JmhLock;
import dev.kensho.pgbench.micro.MicroBenchmarks;
import dev.kensho.pgbench.micro.MicroBenchmarks.Benchmark;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** bench micro: study 002's micro query benchmarks, run by JMH. */
@Command(name = "micro", mixinStandardHelpOptions = true,
        description = {"Study 002's micro query benchmarks as JMH benchmarks: a join + group-by count over pgbench's tables, "
                + "select * with and without an EUC_JP -> SJIS conversion, and extracting columns of a 100-text-column table "
                + "by position. Every measured JMH iteration is a repeat; summary.csv has the median per cell.",
                "Example:",
                "  bench micro --pg-version 16,17 --benchmarks join-group-count,trailing-columns",
                "Study setting: bench micro (the default: all benchmarks, scale 10, 100 000 wide rows, every column)",
                "Exit status 1 when a benchmark failed (see summary.csv)."})
final class MicroCommand implements Callable<Integer> {
    private static final List<String> SUMMARY_METRICS = MicroBenchmarks.SUMMARY_METRICS;

    @Mixin TargetOptions target;
    @Mixin ResultOptions results;
    @Spec CommandSpec spec;

    @Option(names = "--benchmarks", split = ",", paramLabel = "NAME",
            description = "Which to run (default: all): join-group-count, encoding, trailing-columns, one-column (select colN, "
                    + "additional test 1), leading-columns (select col0..colN, additional test 2).")
    List<String> benchmarks;   // null: not given (all); given, it names at least one

    @Option(names = {"-s", "--scale"}, paramLabel = "N", defaultValue = "10", description = "pgbench scale of the tables join-group-count and encoding read (default ${DEFAULT-VALUE}, the study's).")
    int scale;

    @Option(names = "--reinit", description = "Re-create pgbench tables of another scale found in the database (they are dropped, as pgbench -i does).")
    boolean reinit;

    @Option(names = "--wide-rows", paramLabel = "N", defaultValue = "100000", description = "Rows of the 100-column table (default ${DEFAULT-VALUE}, the study's).")
    long wideRows;

    @Option(names = "--columns", defaultValue = "0..99", paramLabel = "LIST",
            description = "Positions N for one-column and leading-columns: a list (0,49,99) or a range FROM..TO[/STEP] "
                    + "(default ${DEFAULT-VALUE}: every column, as the study).")
    String columns;

    @Option(names = "--client-encodings", split = ",", defaultValue = "none,SJIS", paramLabel = "ENC",
            description = "client_encoding values for the encoding benchmark; none = the database's own, no conversion (default ${DEFAULT-VALUE}).")
    List<String> clientEncodings;

    @Option(names = "--database-encoding", paramLabel = "ENC", defaultValue = "EUC_JP",
            description = "Managed servers: encoding of the kensho_micro database the benchmarks run in (default ${DEFAULT-VALUE}, the study's). "
                    + "Remote servers: their database is used as it is.")
    String databaseEncoding;

    @Option(names = "--warmup-iterations", paramLabel = "N", defaultValue = "1", description = "JMH warm-up iterations (default ${DEFAULT-VALUE}).")
    int warmupIterations;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "3", description = "JMH measured iterations per fork, each a repeat of the cell (default ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--iteration-time", defaultValue = "1s", paramLabel = "DURATION",
            description = "Length of one JMH iteration, read as JMH reads -r: 500ms, 2s, 1m, or 1 for a second (default ${DEFAULT-VALUE}).")
    String iterationTime;

    @Option(names = "--forks", paramLabel = "N", defaultValue = "1", description = "JMH forks per cell; 0 runs in this JVM (default ${DEFAULT-VALUE}).")
    int forks;

    @Override
    public Integer call() throws Exception {
        MicroBenchmarks.Options o = options();
        refuseUnread(o.benchmarks());
        // the encoding benchmark sets it per cell, and pgjdbc needs UTF8 for the others: a --set was overridden (or broke them)
        target.refuseOwnSettings("bench micro", Map.of("client_encoding", "from --client-encodings"));
        List<TargetSpec> specs = target.specs();
        specs.forEach(MicroBenchmarks::refuseUnrereadablePasswordFile);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("benchmarks", o.benchmarks().stream().map(b -> b.label).toList());
        params.put("scale", o.scale());
        params.put("wide_rows", o.wideRows());
        params.put("columns", o.columns());
        params.put("client_encodings", o.clientEncodings());
        // the database Kensho creates on a server it manages; a remote database is measured as it is (its own
        // encoding in each trial's server_encoding), and the option's EUC_JP there described nothing that happened
        if (specs.stream().anyMatch(sp -> sp.kind().managed())) params.put("database_encoding", o.databaseEncoding());
        params.put("targets", specs.stream().map(TargetSpec::label).toList());
        params.put("settings", target.settings());
        params.put("jmh", Map.of("warmup_iterations", o.warmupIterations(), "iterations", o.iterations(),
                "iteration_ms", o.iterationTime().toMillis(), "forks", o.forks()));
        int failed = 0;
        String pid = "process " + ProcessHandle.current().pid();
        // before any run directory, server or table: JMH's own lock would refuse this run only at its first benchmark
        try (JmhLock lock = JmhLock.acquire(pid)) {
            try (RunDirectory dir = results.open(MicroBenchmarks.COMMAND, params, System.err)) {
                // after open: a resume it refuses was told a whole run's estimate first
                System.err.println(about(o.estimate()) + (specs.size() > 1 ? " per target, " + specs.size() + " targets" : ""));
                lock.owner(pid + ", run " + dir.path().toAbsolutePath());
                dir.summarizeAfterEachTrial(d -> CellSummary.write(d, SUMMARY_METRICS));
                for (TargetSpec spec : specs) {
                    if (results.resuming() && MicroBenchmarks.finished(dir, spec.label(), o)) {
                        System.err.println(spec.label() + ": every cell is already in " + dir.path() + "; nothing left to resume there");
                        continue;
                    }
                    try (Target t = spec.open()) {
                        // one label per server across commands (a remote one as host:port/database), for bench compare --by target
                        String label = spec.label();
                        System.err.println("target: " + t.describe());
                        dir.environment(label, Environment.capture(t));
                        MicroBenchmarks.Result r = MicroBenchmarks.run(spec, t, label, o, dir, System.err);
                        failed += r.failed();
                    }
                }
                CellSummary.write(dir, SUMMARY_METRICS);
                MicroBenchmarks.report(dir.trials()).forEach(System.out::println);
                // a cell whose other repeats finished is "ok" in summary.csv, its failure in reason: "1 cell failed" contradicted it
                if (failed > 0) System.err.println(failed + (failed == 1 ? " cell has" : " cells have") + " a failed repeat; the reasons are in summary.csv");
                System.err.println("results: " + dir.path());
            }
        }
        return failed > 0 ? 1 : 0;
    }

    /**
     * An option only some benchmarks read, given to a run of none of them, was dropped unsaid
     * (--benchmarks join-group-count --columns 0..9 timed no column): refused, as ssb jit refuses --query without verification 3.
     */
    private void refuseUnread(List<Benchmark> chosen) {
        Map<String, List<Benchmark>> readers = new LinkedHashMap<>();
        readers.put("--columns", List.of(Benchmark.ONE_COLUMN, Benchmark.LEADING_COLUMNS));
        readers.put("--client-encodings", List.of(Benchmark.ENCODING));
        readers.forEach((option, by) -> {
            if (spec.commandLine().getParseResult().hasMatchedOption(option) && by.stream().noneMatch(chosen::contains)) {
                throw KenshoException.usage(option + " is read by " + String.join(" and ", by.stream().map(b -> b.label).toList())
                        + ", which --benchmarks " + String.join(",", chosen.stream().map(b -> b.label).toList()) + " does not run");
            }
        });
    }

    /** The estimate in words: a run of seconds said "about 1 min" (a 4 s run of 3 cells, a 10 s one of 8). */
    static String about(Duration d) {
        long s = Math.round(d.toMillis() / 1000.0);
        if (s < 60) return "about " + Math.max(1, s) + " s";
        return "about " + Math.round(s / 60.0) + " min";
    }

    MicroBenchmarks.Options options() {
        List<Benchmark> chosen = new ArrayList<>();
        if (benchmarks == null) {
            chosen.addAll(List.of(Benchmark.values()));
        } else if (benchmarks.stream().allMatch(String::isBlank)) {
            // "--benchmarks ," ran all of them, about 20 minutes
            throw KenshoException.usage("--benchmarks names no benchmark; leave it out for all of them");
        }
        for (String b : benchmarks == null ? List.<String>of() : benchmarks) {
            Benchmark parsed = Benchmark.parse(b);
            if (!chosen.contains(parsed)) chosen.add(parsed);
        }
        List<Integer> cols = columns(columns);
        Duration time = duration(iterationTime);
        try {
            return new MicroBenchmarks.Options(chosen, scale, wideRows, reinit, cols, clientEncodings.stream().map(String::trim).toList(),
                    databaseEncoding.trim(), warmupIterations, iterations, time, forks, Kensho.verbose);
        } catch (KenshoException e) {
            throw e.namingBack(MicroBenchmarks.Options.COMPONENT_NAMES);   // the record speaks of its components; here the user typed options
        }
    }

    static List<Integer> columns(String spec) {
        List<Integer> out = new ArrayList<>();
        try {
            for (String part : spec.split(",")) {
                String p = part.trim();
                if (p.contains("..")) {
                    String[] stepSplit = p.split("/", 2);
                    String[] range = stepSplit[0].split("\\.\\.", 2);
                    int from = Integer.parseInt(range[0].trim());
                    int to = Integer.parseInt(range[1].trim());
                    int step = stepSplit.length > 1 ? Integer.parseInt(stepSplit[1].trim()) : 1;
                    if (step < 1 || to < from) throw KenshoException.usage("--columns " + spec + ": a range is FROM..TO[/STEP] with FROM <= TO and STEP >= 1");
                    for (int i = from; i <= to; i += step) out.add(i);
                    // the last column of a stepped range is always measured, so the curve reaches its end
                    if (out.get(out.size() - 1) != to) out.add(to);
                } else {
                    out.add(Integer.parseInt(p));
                }
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            throw KenshoException.usage("--columns " + spec + ": expected numbers, e.g. 0,49,99 or 0..99/10");
        }
        return out.stream().distinct().toList();
    }

    /** JMH's own reading of a time (-r 1 is a second; 500ms, 2s, 1m, 1hr), so that what works for -r works here. */
    static Duration duration(String s) {
        org.openjdk.jmh.runner.options.TimeValue t;
        try {
            t = org.openjdk.jmh.runner.options.TimeValue.fromString(s);
        } catch (IllegalArgumentException e) {
            throw KenshoException.usage("--iteration-time " + s + ": expected a duration such as 500ms, 2s, 1m or 1 (seconds, as JMH's -r)");
        }
        return Duration.ofNanos(t.convertTo(java.util.concurrent.TimeUnit.NANOSECONDS));
    }
}
