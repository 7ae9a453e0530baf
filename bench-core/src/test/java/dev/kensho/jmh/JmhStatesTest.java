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

@dev.kensho.junit.KenshoTarget
class JmhStatesTest {
    // JMH's machine-wide lock is ignored by bench-core's surefire configuration (jmh.ignoreLock)

    /** Numbers measured under other settings than asked for must not be reported: the trial fails. */
    @Test
    void aSettingTheRemoteServerRefusesFailsTheTrial(@dev.kensho.junit.LocalPostgres dev.kensho.core.server.Target local) {
        var p = new java.util.Properties();
        p.setProperty("kensho.url", local.jdbcUrl());
        p.setProperty("kensho.user", local.user());
        p.setProperty("kensho.set.work_mem", "8MB");
        p.setProperty("kensho.set.shared_buffers", "1GB");
        TargetState state = new TargetState();
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> state.open(p));
        // in the words of the properties the benchmark was given, which name no command-line option
        assertTrue(e.getMessage().startsWith("-Dkensho.set.shared_buffers: needs a postmaster-level change"), e.getMessage());
        assertTrue(e.getMessage().endsWith("without -Dkensho.restartCommand"), e.getMessage());
        assertEquals(null, state.target);

        p.remove("kensho.set.shared_buffers");
        state.open(p);
        try {
            assertEquals("8MB", state.target.control().applied().get("work_mem"));
        } finally {
            state.close();
        }
    }

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
    void aPropertyThatCannotBeUsedIsNamedAsGiven(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        var p = new java.util.Properties();
        p.setProperty("kensho.url", "jdbc:postgresql://127.0.0.1:1/x");
        p.setProperty("kensho.passwordFile", tmp.resolve("absent").toString());
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> new TargetState().open(p));
        assertEquals("-Dkensho.passwordFile " + tmp.resolve("absent") + ": cannot read (no such file or directory)", e.getMessage());
        p.remove("kensho.passwordFile");
        p.setProperty("kensho.pgBin", tmp.toString());
        e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> new TargetState().open(p));
        assertEquals("choose one of -Dkensho.url and -Dkensho.pgBin", e.getMessage());
        // Kensho's usage error, as the others: it was a bare IllegalArgumentException
        var bad = new java.util.Properties();
        bad.setProperty("kensho.pgVersion", "15x");
        e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, () -> TargetState.spec(bad));
        assertEquals("-Dkensho.pgVersion=15x: a major (17, 9.6) or minor release (16.6)", e.getMessage());
        assertEquals(dev.kensho.core.KenshoException.USAGE, e.exitCode());
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
