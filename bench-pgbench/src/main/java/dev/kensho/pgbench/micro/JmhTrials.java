package dev.kensho.pgbench.micro;

import dev.kensho.core.Credentials;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH's output, turned into Kensho trials as it happens: every measured iteration is appended to the
 * run directory the moment JMH reports it (one repeat per iteration, so an interrupted run keeps what
 * finished), and a benchmark that threw becomes a failed trial with the exception's first line.
 * JMH's own text goes to the log only when verbose.
 */
final class JmhTrials implements OutputFormat {
    private final RunDirectory dir;
    private final Function<BenchmarkParams, Cell> cell;
    private final PrintStream log;
    private final boolean verbose;

    private BenchmarkParams current;
    private Cell currentCell;
    private int firstRepeat;
    /** Repeats a cell is to have (iterations × forks) and how many it had before this run: a resumed cell stops there. */
    private final int planned;
    private int okBefore;
    private int measured;
    private boolean failing;
    private boolean settled;
    private String failure;
    private int failures;
    /** A fork that died before it could report (a bad JVM option, an agent): its exit code and telling lines. */
    private String forkExit;
    private String forkBlock;
    private final List<String> forkLines = new ArrayList<>();

    /** A benchmark under one combination of its parameters: its trials' cell key, params and extra facts. */
    record Cell(String key, Map<String, Object> params, Map<String, Object> extra) { }

    JmhTrials(RunDirectory dir, Function<BenchmarkParams, Cell> cell, PrintStream log, boolean verbose) {
        this(dir, cell, log, verbose, Integer.MAX_VALUE);
    }

    /** @param planned the repeats a cell is to have: a cell resumed with some of them keeps only what it lacks */
    JmhTrials(RunDirectory dir, Function<BenchmarkParams, Cell> cell, PrintStream log, boolean verbose, int planned) {
        this.planned = planned;
        this.dir = dir;
        this.cell = cell;
        this.log = log;
        this.verbose = verbose;
    }

    int failures() {
        return failures;
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        settle();
        current = params;
        currentCell = cell.apply(params);
        // a cell resumed after an interruption keeps its earlier repeats and adds to them
        firstRepeat = (int) dir.trials().stream().filter(t -> t.cell().equals(currentCell.key())).count();
        okBefore = (int) dir.trials().stream().filter(t -> t.cell().equals(currentCell.key()) && t.ok()).count();
        measured = 0;
        settled = false;
        failing = false;
        failure = null;
        forkExit = null;
        forkBlock = null;
        forkLines.clear();
        if (log != null) log.println("  " + describe(params));
    }

    @Override
    public void startRun() { }

    @Override
    public void iteration(BenchmarkParams params, IterationParams ip, int iteration) { }

    @Override
    public void iterationResult(BenchmarkParams params, IterationParams ip, int iteration, IterationResult r) {
        if (ip.getType() != IterationType.MEASUREMENT) return;
        double score = r.getPrimaryResult().getScore();
        if (okBefore + measured >= planned) {
            // a resumed cell runs JMH's whole count again; what it already had stays, and only what it lacked is added
            if (log != null) log.printf(Locale.ROOT, "    iteration %d: %.3f %s (not kept: the cell has its %d repeats)%n", iteration, score,
                    r.getScoreUnit(), planned);
            return;
        }
        // repeats count on across forks (JMH numbers each fork's iterations from 1)
        Trial.Builder b = Trial.of(currentCell.key(), firstRepeat + measured).params(currentCell.params())
                .metric(unitMetric(params), score)
                .extra("iteration_seconds", ip.getTime().convertTo(java.util.concurrent.TimeUnit.MILLISECONDS) / 1000.0);
        currentCell.extra().forEach(b::extra);
        dir.append(b.build());
        measured++;
        if (log != null) log.printf(Locale.ROOT, "    iteration %d: %.3f %s%n", iteration, score, r.getScoreUnit());
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        settle();
        current = null;
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        settle();
        current = null;
    }

    /**
     * A benchmark that threw, whose fork died, or that ended without a measured iteration failed: record why. JMH
     * stops a benchmark at its first exception, so the iterations before it stay repeats and the failure follows them.
     */
    private void settle() {
        if (current == null || settled) return;
        settled = true;
        boolean broke = failing || forkExit != null;
        if (measured > 0 && !broke) return;
        String reason = failure != null ? failure
                : forkExit != null ? "the JMH fork failed (exit code " + forkExit + ")" + forkDetail()
                : broke ? "the benchmark failed; --verbose shows JMH's output"
                : "JMH reported no measured iteration";
        Trial.Builder b = Trial.of(currentCell.key(), firstRepeat + measured).params(currentCell.params());
        currentCell.extra().forEach(b::extra);
        dir.append(b.failed(reason).build());
        failures++;
        if (log != null) log.println("    failed: " + reason);
    }

    /** Whether the current benchmark threw (JMH printed its failure). */
    boolean failing() {
        return current != null && failing;
    }

    @Override
    public void print(String s) {
        if (verbose && log != null) log.print(Credentials.mask(s));
    }

    @Override
    public void println(String s) {
        if (s == null) return;
        // a fork that died: "<forked VM failed with exit code N>", then the tails of its stdout and stderr
        if (s.startsWith("<forked VM failed with exit code ")) {
            forkExit = s.substring("<forked VM failed with exit code ".length()).replace(">", "").strip();
        } else if (forkExit != null && (s.startsWith("<stdout last=") || s.startsWith("<stderr last="))) {
            forkBlock = s;
        } else if (forkExit != null && (s.equals("</stdout>") || s.equals("</stderr>"))) {
            forkBlock = null;
        } else if (forkBlock != null) {
            forkLines.addAll(s.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
        }
        // JMH prints "<failure>", a blank line, then the exception: its first line is the reason
        if (s.startsWith("<failure>")) {
            failing = true;
        } else if (failing && failure == null && !s.isBlank()) {
            String first = s.strip().split("\\R", 2)[0];
            failure = Credentials.mask(first.replaceFirst("^org\\.openjdk\\.jmh\\.runner\\.BenchmarkException: ", ""));
        }
        if (verbose && log != null) log.println(Credentials.mask(s));
    }

    /** The fork's first line that names an error (its stdout's tail comes first, as JMH prints them), or nothing. */
    private String forkDetail() {
        return forkLines.stream()
                .filter(l -> !l.startsWith("Picked up ") && !l.startsWith("NOTE: Picked up ") && !l.startsWith("at "))
                .filter(l -> l.matches("(?i).*(error|exception|fatal|could not|cannot|unrecognized).*"))
                .findFirst().map(l -> ": " + Credentials.mask(l)).orElse("; --verbose shows its output");
    }

    @Override
    public void flush() {
        if (log != null) log.flush();
    }

    @Override
    public void close() { }

    @Override
    public void verbosePrintln(String s) {
        if (verbose && log != null) log.println(Credentials.mask(s));
    }

    @Override
    public void write(int b) {
        if (verbose && log != null) log.write(b);
    }

    @Override
    public void write(byte[] b) {
        if (verbose && log != null) log.write(b, 0, b.length);
    }

    static String unitMetric(BenchmarkParams p) {
        return switch (p.getTimeUnit()) {
            case MILLISECONDS -> "ms";
            case MICROSECONDS -> "us";
            case NANOSECONDS -> "ns";
            case SECONDS -> "s";
            default -> p.getTimeUnit().name().toLowerCase(Locale.ROOT);
        };
    }

    private static String describe(BenchmarkParams p) {
        String name = p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.') + 1);
        StringBuilder sb = new StringBuilder(name);
        for (String k : p.getParamsKeys()) sb.append(' ').append(k).append('=').append(p.getParam(k));
        return sb.toString();
    }
}
