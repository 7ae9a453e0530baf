package dev.kensho.pgbench.micro;

import dev.kensho.core.Credentials;
import dev.kensho.core.JvmShutdown;
import dev.kensho.core.result.Json;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
    /** When the current benchmark (a cell) and its latest iteration began: the trials' start. */
    private java.time.Instant benchmarkStarted, iterationStarted;
    private String failure;
    private int failures;
    /** A fork that died before it could report (a bad JVM option, an agent): its exit code and telling lines. */
    private String forkExit;
    private String forkBlock;
    private final List<String> forkLines = new ArrayList<>();
    /** The fork the current iterations come from, 1-based (this JVM's run, forks 0, is 1). */
    private int fork;

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

    /**
     * Whether to print: not once the JVM is ending (Ctrl-C), when the fork the stopped server broke "failed", JMH goes
     * on to the next value and no iteration is kept any more; the interrupt's line saying what was kept is the last.
     */
    private boolean saying() {
        return log != null && !JvmShutdown.begun();
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        settle();
        current = params;
        currentCell = cell.apply(params);
        // a cell resumed after an interruption keeps its earlier repeats and adds to them, from its first failed one on:
        // numbered after it, the rerun left that failure standing ("1 of 4 repeats failed" where every repeat asked was ok)
        List<Trial> before = Trial.standing(dir.trials()).stream().filter(t -> t.cell().equals(currentCell.key())).toList();
        firstRepeat = before.stream().filter(t -> !t.ok()).mapToInt(Trial::repeat).min().orElse(before.size());
        okBefore = (int) dir.trials().stream().filter(t -> t.cell().equals(currentCell.key()) && t.ok()).count();
        measured = 0;
        fork = 0;
        settled = false;
        failing = false;
        failure = null;
        forkExit = null;
        forkBlock = null;
        forkLines.clear();
        benchmarkStarted = java.time.Instant.now();
        if (saying()) log.println("  " + describe(params));
    }

    @Override
    public void startRun() { }

    @Override
    public void iteration(BenchmarkParams params, IterationParams ip, int iteration) {
        iterationStarted = java.time.Instant.now();   // JMH says so as the iteration begins, in the fork's order
        // every fork starts its iterations from 1, warm-up first (measurement first where there is no warm-up)
        if (iteration == 1 && (ip.getType() == IterationType.WARMUP || params.getWarmup().getCount() == 0)) {
            fork++;
            if (saying() && params.getForks() > 1) log.println("    fork " + fork + " of " + params.getForks());
        }
    }

    @Override
    public void iterationResult(BenchmarkParams params, IterationParams ip, int iteration, IterationResult r) {
        if (ip.getType() != IterationType.MEASUREMENT) return;
        double score = r.getPrimaryResult().getScore();
        if (okBefore + measured >= planned) {
            // a resumed cell runs JMH's whole count again; what it already had stays, and only what it lacked is added
            if (saying()) log.printf(Locale.ROOT, "    iteration %d: %.3f %s (not kept: the cell has its %d repeats)%n", iteration, score,
                    r.getScoreUnit(), planned);
            return;
        }
        // repeats count on across forks (JMH numbers each fork's iterations from 1)
        Trial.Builder b = Trial.of(currentCell.key(), firstRepeat + measured).params(currentCell.params())
                .started(iterationStarted).metric(unitMetric(params), score)
                .extra("iteration_seconds", ip.getTime().convertTo(java.util.concurrent.TimeUnit.MILLISECONDS) / 1000.0)
                .extra("fork", Math.max(1, fork)).extra("fork_iteration", iteration);
        currentCell.extra().forEach(b::extra);
        dir.append(b.build());
        measured++;
        if (saying()) log.printf(Locale.ROOT, "    iteration %d: %.3f %s%n", iteration, score, r.getScoreUnit());
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        settle();
        if (current != null) recordJmhResult(result);
        current = null;
    }

    /**
     * JMH's own result of the cell, as its console's "Result" line gives it (the mean of every measured iteration of
     * every fork, ± the half-width of its 99.9 % confidence interval), beside the repeats: the trials have each
     * iteration, and summary.csv their median, but nothing kept the score and error a JMH user reads. Kept in
     * {@value #RESULTS} by cell; a resumed cell's entry is its last JMH run's.
     */
    private void recordJmhResult(BenchmarkResult result) {
        if (result == null || result.getPrimaryResult() == null) return;
        var primary = result.getPrimaryResult();
        long n = primary.getStatistics().getN();
        if (n == 0) return;
        Map<String, Object> jmh = new java.util.LinkedHashMap<>();
        jmh.put("score", primary.getScore());
        double error = primary.getScoreError();
        jmh.put("error", Double.isNaN(error) ? null : error);   // JMH has none for a single iteration
        jmh.put("confidence", 0.999);
        jmh.put("unit", primary.getScoreUnit());
        jmh.put("mode", current.getMode().shortLabel());
        jmh.put("iterations", n);
        // as JMH counts them: 0 where the iterations ran in this JVM (--forks 0), which said 1, as if a fork had run
        jmh.put("forks", current.getForks() == 0 ? 0 : fork);
        jmh.put("min", primary.getStatistics().getMin());
        jmh.put("max", primary.getStatistics().getMax());
        jmh.put("stdev", n > 1 ? primary.getStatistics().getStandardDeviation() : null);
        synchronized (JmhTrials.class) {
            Map<String, Object> all = new java.util.LinkedHashMap<>();
            Path file = dir.path().resolve(RESULTS);
            if (Files.exists(file)) {
                try {
                    all.putAll(Json.MAPPER.readValue(file.toFile(), new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { }));
                } catch (IOException unreadable) {
                    // rewritten whole below: the trials are what a run keeps, this is JMH's view of them
                }
            }
            all.put(currentCell.key(), jmh);
            dir.writeJson(RESULTS, all);
        }
        if (saying()) {
            log.printf(Locale.ROOT, "    JMH: %.3f%s %s (mean of %d iteration%s%s)%n", primary.getScore(),
                    Double.isNaN(error) ? "" : String.format(Locale.ROOT, " ± %.3f", error), primary.getScoreUnit(), n, n == 1 ? "" : "s",
                    (Double.isNaN(error) ? "" : ", 99.9% CI") + (fork > 1 ? ", " + fork + " forks" : ""));
        }
    }

    /** JMH's result per cell: score, error, unit, iterations, forks. */
    static final String RESULTS = "jmh.json";

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
        Trial.Builder b = Trial.of(currentCell.key(), firstRepeat + measured).params(currentCell.params()).started(benchmarkStarted);
        currentCell.extra().forEach(b::extra);
        dir.append(b.failed(reason).build());
        failures++;
        if (saying()) log.println("    failed: " + reason);
    }

    /** Whether the current benchmark threw (JMH printed its failure). */
    boolean failing() {
        return current != null && failing;
    }

    @Override
    public void print(String s) {
        if (verbose && saying()) log.print(Credentials.mask(s));
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
            // the server's words alone for a server's error, as the other commands give them (not "org.postgresql.util.PSQLException: ...")
            failure = Credentials.mask(first.replaceFirst("^org\\.openjdk\\.jmh\\.runner\\.BenchmarkException: ", "")
                    .replaceFirst("^(org\\.postgresql\\.util\\.PSQLException|java\\.sql\\.SQL[A-Za-z]*Exception): ", ""));
        }
        if (verbose && saying()) log.println(Credentials.mask(s));
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
        if (verbose && saying()) log.println(Credentials.mask(s));
    }

    @Override
    public void write(int b) {
        if (verbose && saying()) log.write(b);
    }

    @Override
    public void write(byte[] b) {
        if (verbose && saying()) log.write(b, 0, b.length);
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
