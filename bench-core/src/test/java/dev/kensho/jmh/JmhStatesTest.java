package dev.kensho.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

class JmhStatesTest {

    @Test
    void benchmarkRunsAgainstAnEmbeddedServer() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(SumBenchmark.class.getName())
                .forks(0) // in this JVM: the server is started by the state's @Setup
                .warmupIterations(1).warmupTime(TimeValue.milliseconds(300))
                .measurementIterations(2).measurementTime(TimeValue.milliseconds(500))
                .timeUnit(TimeUnit.MILLISECONDS)
                .build()).run();
        assertEquals(1, results.size());
        double score = results.iterator().next().getPrimaryResult().getScore();
        assertTrue(score > 0, "throughput " + score);
    }

    @Test
    void systemPropertiesChooseTheTarget() {
        var p = new java.util.Properties();
        p.setProperty("kensho.url", "jdbc:postgresql://db.example:5432/x");
        p.setProperty("kensho.user", "bench");
        p.setProperty("kensho.set.jit", "off");
        var spec = TargetState.spec(p);
        assertEquals("jdbc:postgresql://db.example:5432/x", spec.url());
        assertEquals("off", spec.settings().get("jit"));
    }
}
