package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.result.Json;
import dev.kensho.scan.sweep.SelectivitySweep;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --resume rebuilds the options from run.json: every field must survive the JSON round trip. */
class OptionsTest {

    @Test
    void optionsSurviveRunJson() throws Exception {
        ScanCrossover.Options o = ScanCrossover.Options.builder().rows(12_345).layouts(List.of(Layout.LOW)).from(2.5).to(97.5)
                .step(0.5).caches(List.of(CacheState.COLD, CacheState.WARM)).sharedBuffers(List.of("small", "1GB"))
                .tablespaceDir(Path.of("/var/tmp/ts")).repeat(3).timing(SelectivitySweep.Timing.CLIENT).parallelWorkers(null)
                .throughputMb(0).dropOsCache(false).rebuild(true).build();
        String json = Json.MAPPER.writeValueAsString(Map.of("options", o));
        Object back = Json.MAPPER.readValue(json, Map.class).get("options");
        assertEquals(o, Json.MAPPER.convertValue(back, ScanCrossover.Options.class));
        assertEquals(191, o.selectivities().size());
        assertEquals(97.5, o.selectivities().get(190));
    }

    @Test
    void aStepGivingTooManySelectivitiesIsAUsageErrorBeforeTheyAreListed() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> ScanCrossover.Options.builder().step(1e-8).build());
        assertEquals("step() 0.00000001 gives 9900000001 selectivities from 1 to 100: at most 10000", e.getMessage());
        assertEquals(9901, ScanCrossover.Options.builder().step(0.01).build().selectivities().size());   // allowed
    }

    /** Selectivities finer than a row were one query under several labels, and the crossover interpolated between them. */
    @Test
    void selectivitiesOfOneRowCountAreAUsageError() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> ScanCrossover.Options.builder().rows(100).from(0.1).to(0.9).step(0.4).build());
        assertEquals(dev.kensho.core.KenshoException.USAGE, e.exitCode());
        assertEquals("step() 0.4: 0.1 % and 0.5 % of 100 rows both select 1 row; a larger step() or more rows()", e.getMessage());
        var tens = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> ScanCrossover.Options.builder().rows(1000).from(10).to(10.04).step(0.01).build());
        assertEquals("step() 0.01: 10 % and 10.01 % of 1000 rows both select 100 rows; a larger step() or more rows()", tens.getMessage());
        assertEquals(100, ScanCrossover.Options.builder().rows(100).build().selectivities().size(), "1 % of 100 rows is a row: allowed");
    }

    /** 1..100 by 10 stopped at 91: the highest selectivity asked for went unmeasured. */
    @Test
    void theHighestSelectivityIsMeasuredWhereTheStepDoesNotLandOnIt() {
        assertEquals(List.of(1.0, 11.0, 21.0, 31.0, 41.0, 51.0, 61.0, 71.0, 81.0, 91.0, 100.0),
                ScanCrossover.Options.builder().step(10).build().selectivities());
        assertEquals(List.of(10.0, 20.0, 30.0), ScanCrossover.Options.builder().from(10).to(30).step(10).build().selectivities());
        // 99.5 % and 100 % of 100 rows are one query: not measured twice
        assertEquals(List.of(0.5, 99.5), ScanCrossover.Options.builder().rows(100).from(0.5).to(100).step(99).build().selectivities());
    }

    /** A harness built its options with the builder's methods and typed no option: the errors name the methods. */
    @Test
    void theBuildersErrorsNameItsMethods() {
        var rows = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> ScanCrossover.Options.builder().rows(10).build());
        assertEquals("rows() must be at least 100", rows.getMessage());
        assertEquals(dev.kensho.core.KenshoException.USAGE, rows.exitCode());
        var both = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> ScanCrossover.Options.builder().tablespaceDir(Path.of("/var/tmp")).tablespace("ts").build());
        assertEquals("choose one of tablespaceDir() and tablespace()", both.getMessage());
    }

    /** --to NaN and --step Infinity passed the range checks (every comparison with NaN is false) and failed after the load. */
    @Test
    void nonFiniteSelectivitiesAreUsageErrors() {
        for (var b : List.of(ScanCrossover.Options.builder().to(Double.NaN), ScanCrossover.Options.builder().step(Double.POSITIVE_INFINITY),
                ScanCrossover.Options.builder().from(Double.NaN), ScanCrossover.Options.builder().to(Double.POSITIVE_INFINITY))) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class, b::build);
            assertEquals(dev.kensho.core.KenshoException.USAGE, e.exitCode());
        }
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> ScanCrossover.Options.builder().throughputMb(-5).build());
        assertEquals("throughputMb() must be >= 0 (0 skips the probe)", e.getMessage());
    }
}
