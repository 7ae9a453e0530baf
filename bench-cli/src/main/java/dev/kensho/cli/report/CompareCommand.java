package dev.kensho.cli.report;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunResults;
import dev.kensho.report.RunComparison;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** bench compare: ratios and significance between runs or versions. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare runs: cells are matched by their parameters without the compared dimension (--by), "
                + "and each group's median is divided by the first group's (the studies' ratio to the previous version).",
                "Statistics over the repeats: Welch's t-test and Mann–Whitney per cell; for sweeps a two-way ANOVA "
                        + "group × swept parameter (also on aligned ranks, as study 001), Levene (median-centred, "
                        + "Brown–Forsythe) and Bartlett variance tests, pairwise contrasts per level (cell means, Holm-adjusted; "
                        + "study 001's ART-C on ranks, Tukey-adjusted).",
                "Prints a table and writes compare.html and compare.csv.",
                "One DIR compares the versions inside it (a sweep over --pg-version 16,17); several DIRs compare the runs."})
public final class CompareCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Results directories; the first is the baseline.")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--by", paramLabel = "PARAM",
            description = "The compared parameter (default: the first of version, pg_version, target, server_version that "
                    + "the trials have; without one, each DIR is a group, named by its server version where every DIR has another, else lettered A, B, … "
                    + "with a legend; runs are never pooled into one group). "
                    + "Cells without it (an SSB run's load) are left out.")
    String by;

    @Option(names = "--baseline", paramLabel = "VALUE",
            description = "The --by value the other groups are compared with (default: the first run's first value), e.g. "
                    + "--by client_encoding --baseline none for study 002's conversion cost against no conversion.")
    String baseline;

    @Option(names = "--metric", split = ",", paramLabel = "NAME",
            description = "Metrics to compare and analyse (default: the charted ones: tps and latency for pgbench, with a sweep's CPU share, "
                    + "memory in use and driver CPU (no better direction), the time for ssb, scan, query and micro).")
    List<String> metrics = new ArrayList<>();

    @Option(names = "--all-metrics", description = "Ratios for every metric the groups share but those 0 in every cell "
            + "(the ANOVA stays on the charted ones).")
    boolean allMetrics;

    @Option(names = "--fail-if-worse",
            description = "For a CI gate: exit 1 when a cell of a compared metric is worse than the baseline (the verdict "
                    + "'worse': Welch's t, Holm-adjusted, at α = 0.05), or when no cell could be tested (one repeat a side). "
                    + "The table and files are written first.")
    boolean failIfWorse;

    @Option(names = "--tolerance", paramLabel = "PCT", defaultValue = "0",
            description = "With --fail-if-worse: a worsening of PCT percent or less passes, significant or not "
                    + "(--tolerance 5: a TPS ratio down to 0.95, a latency ratio up to 1.05).")
    double tolerance;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", defaultValue = ".",
            description = "Directory for compare.html and compare.csv (default: the current directory).")
    Path out;

    @Override
    public Integer call() {
        // RunComparison takes --metric's list as it is: --all-metrics beside it was ignored without a word
        if (allMetrics && !metrics.isEmpty()) {
            throw KenshoException.usage("--metric and --all-metrics: give one (--metric names the metrics to compare, --all-metrics takes every one)");
        }
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) throw KenshoException.usage("--tolerance " + tolerance + ": expected a percentage, 0 or more");
        if (tolerance > 0 && !failIfWorse) throw KenshoException.usage("--tolerance is --fail-if-worse's: give both");
        List<RunResults> runs = new ArrayList<>();
        for (Path d : dirs) runs.add(ReportCommand.RunDirs.read(d));
        java.util.Set<String> known = new java.util.TreeSet<>();
        runs.forEach(r -> r.trials().forEach(t -> known.addAll(t.metrics().keySet())));
        for (String m : metrics) {
            if (!known.contains(m)) throw KenshoException.usage("--metric " + m + ": no trial has it (they have " + String.join(", ", known) + ")");
        }
        RunComparison cmp = RunComparison.of(runs, new RunComparison.Options(by, metrics, allMetrics, baseline));
        // before the table: an -o that cannot be written failed after it, as if the comparison had
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw KenshoException.usage("-o " + out + ": not a directory (compare writes compare.html and compare.csv into it)");
        }
        try {
            Files.createDirectories(out);
        } catch (java.io.IOException e) {
            throw KenshoException.usage("-o " + out + ": cannot create it (" + KenshoException.ioReason(e) + ")");
        }
        if (!Files.isWritable(out)) throw KenshoException.usage("-o " + out + ": not writable");
        System.out.print(cmp.text());
        for (Path p : cmp.write(out)) System.out.println("wrote " + p.toAbsolutePath().normalize());
        // a CI step comparing against a baseline must not pass on a comparison that compared nothing (the gate's first
        // rule, and an error without --fail-if-worse too); the reason on stderr too: a CI log of stderr alone lacked it
        if (cmp.rows().isEmpty()) throw new KenshoException(1, cmp.gateFailure(0).orElseThrow());
        if (failIfWorse) {
            java.util.Optional<String> failed = cmp.gateFailure(tolerance);
            if (failed.isPresent()) throw new KenshoException(1, failed.get());
        }
        return 0;
    }
}
