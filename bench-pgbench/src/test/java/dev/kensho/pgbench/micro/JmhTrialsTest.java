package dev.kensho.pgbench.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

/** How a benchmark that measured nothing is recorded: with the reason JMH's output gives, not a generic one. */
class JmhTrialsTest {
    @TempDir Path root;

    /** JMH 1.37's lines for a fork that died at start (here: an agent given twice), as it printed them in such a run. */
    @Test
    void aForkThatDiedAtStartIsRecordedWithItsExitCodeAndItsError() throws Exception {
        Trial t = failedTrial(List.of("# Fork: 1 of 1", "<forked VM failed with exit code 134>", "<stdout last='20 lines'>",
                "FATAL ERROR in native method: processing of -javaagent failed, processJavaStart failed",
                "V  [libjvm.so+0x8b0022]  jni_FatalError+0xb2", "</stdout>", "<stderr last='20 lines'>",
                "Picked up JAVA_TOOL_OPTIONS: -javaagent:/x.jar", "\tat java.base/java.lang.ClassLoader.defineClass0(Native Method)",
                "</stderr>", ""));
        assertEquals("the JMH fork failed (exit code 134): FATAL ERROR in native method: processing of -javaagent failed, "
                + "processJavaStart failed", reason(t));
    }

    @Test
    void aForkWithoutATellingLineSaysWhereToLook() throws Exception {
        Trial t = failedTrial(List.of("<forked VM failed with exit code 1>", "<stdout last='20 lines'>", "</stdout>",
                "<stderr last='20 lines'>", "Picked up JAVA_TOOL_OPTIONS: -Dx=1", "</stderr>"));
        assertEquals("the JMH fork failed (exit code 1); --verbose shows its output", reason(t));
    }

    @Test
    void aBenchmarkThatThrewKeepsTheExceptionsFirstLine() throws Exception {
        Trial t = failedTrial(List.of("<failure>", "", "org.openjdk.jmh.runner.BenchmarkException: java.sql.SQLException: boom",
                "\tat x.y(Z.java:1)"));
        assertEquals("boom", reason(t), "the server's words, as the other commands give them");
    }

    /**
     * JMH stops a benchmark at its first exception, after the iterations that finished: those stay repeats, and the
     * cell also gets a failed trial with the reason, so the run counts it as failed (exit 1) and summary.csv says why.
     */
    @Test
    void aBenchmarkThatThrewAfterSomeIterationsKeepsThemAndIsAFailedCell() throws Exception {
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("micro", List.of("micro"), Map.of()))) {
            JmhTrials trials = new JmhTrials(dir, p -> new JmhTrials.Cell("benchmark=x", Map.of("benchmark", "x"), new HashMap<>()),
                    null, false, 5);
            BenchmarkParams bp = params();
            IterationParams ip = new IterationParams(IterationType.MEASUREMENT, 5, TimeValue.milliseconds(200), 1);
            trials.startBenchmark(bp);
            for (int i = 1; i <= 2; i++) {
                IterationResult r = new IterationResult(bp, ip, null);
                r.addResult(new AverageTimeResult(ResultRole.PRIMARY, "x", 1, 1_000_000L * i, TimeUnit.MILLISECONDS));
                trials.iterationResult(bp, ip, i, r);
            }
            List.of("<failure>", "", "org.openjdk.jmh.runner.BenchmarkException: org.postgresql.util.PSQLException: "
                    + "This connection has been closed.", "\tat x.y(Z.java:1)").forEach(trials::println);
            trials.endBenchmark(null);
            List<Trial> all = dir.trials();
            assertEquals(List.of("ok", "ok", "failed"), all.stream().map(Trial::status).toList(), all.toString());
            assertEquals(List.of(0, 1, 2), all.stream().map(Trial::repeat).toList());
            assertEquals("This connection has been closed.", reason(all.get(2)));
            assertEquals(1, trials.failures());
        }
    }

    /** A cell resumed after Ctrl-C kept its one iteration and JMH ran all five again: six repeats of a five-repeat cell. */
    @Test
    void aResumedCellKeepsOnlyTheRepeatsItLacked() throws Exception {
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("micro", List.of("micro"), Map.of()))) {
            dir.append(Trial.of("benchmark=x", 0).params(Map.of("benchmark", "x")).metric("ms", 2.18).build());
            JmhTrials trials = new JmhTrials(dir, p -> new JmhTrials.Cell("benchmark=x", Map.of("benchmark", "x"), new HashMap<>()),
                    null, false, 5);
            BenchmarkParams bp = params();
            IterationParams ip = new IterationParams(IterationType.MEASUREMENT, 5, TimeValue.milliseconds(200), 1);
            trials.startBenchmark(bp);
            for (int i = 1; i <= 5; i++) {
                IterationResult r = new IterationResult(bp, ip, null);
                r.addResult(new AverageTimeResult(ResultRole.PRIMARY, "x", 1, 1_000_000L * i, TimeUnit.MILLISECONDS));
                trials.iterationResult(bp, ip, i, r);
            }
            trials.endBenchmark(null);
            List<Trial> all = dir.trials();
            assertEquals(5, all.size(), all.toString());
            assertEquals(List.of(0, 1, 2, 3, 4), all.stream().map(Trial::repeat).toList());
            // the kept repeat, then JMH's first four iterations (1..4 ms an operation), in the benchmark's unit
            assertEquals(List.of(2.18, 1.0, 2.0, 3.0, 4.0), all.stream().map(t -> t.metric("ms")).toList());
            assertEquals(0, trials.failures());
        }
    }

    private Trial failedTrial(List<String> lines) throws Exception {
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("micro", List.of("micro"), Map.of()))) {
            JmhTrials trials = new JmhTrials(dir, p -> new JmhTrials.Cell("benchmark=x", Map.of("benchmark", "x"), new HashMap<>()),
                    null, false);
            trials.startBenchmark(params());
            lines.forEach(trials::println);
            trials.endBenchmark(null);
            assertEquals(1, trials.failures());
            List<Trial> all = dir.trials();
            assertEquals(1, all.size(), all.toString());
            return all.get(0);
        }
    }

    private static String reason(Trial t) {
        return String.valueOf(t.extra().get("reason"));
    }

    private static BenchmarkParams params() {
        IterationParams it = new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.milliseconds(200), 1);
        return new BenchmarkParams("dev.kensho.pgbench.micro.JoinGroupCount.joinGroupCount", "generated", false, 1, new int[] {1},
                List.of(), 1, 0, it, it, Mode.AverageTime, new WorkloadParams(), TimeUnit.MILLISECONDS, 1, "java", List.of(),
                "17", "vm", "17", "1.37", TimeValue.minutes(10));
    }
}
