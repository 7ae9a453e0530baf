package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query × scale sweep of versions 16 and 17 (pool constant), written 17 first: which group is the baseline, which
 * parameter the ANOVA sweeps and which it is scoped by, and a cell whose median is 0. Expected from R 4.2.2: ratios
 * median(v17) / median(v16) = 0.8, 0.8, 0, 1.025, 0.8333, 0.8333, exp(mean(log(r[r > 0]))) = 0.854492528029; query a:
 * anova(lm(seconds ~ version * factor(scale))) F 48, 2602.7107438, 32.132231405, p 0.000121040205555, 2.41388188119e-11,
 * 0.000471200513541.
 */
class RunComparisonDesignTest {
    static final String[] QUERIES = {"a", "b", "c"};
    static final int[] SCALES = {1, 10};
    /** query → scale → {16, 17} → repeats */
    static final double[][][][] SECONDS = {
        {{{1.0, 1.1, 0.9}, {0.8, 0.85, 0.75}}, {{10, 10.5, 9.5}, {8, 8.2, 7.8}}},
        {{{2.0, 2.1, 1.9}, {0, 0, 0}}, {{20, 21, 19}, {20.5, 21.5, 19.5}}},
        {{{3.0, 3.1, 2.9}, {2.5, 2.6, 2.4}}, {{30, 31, 29}, {25, 26, 24}}}};

    @TempDir
    Path tmp;

    RunComparison compare() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("ssb", List.of("x"), Map.of()))) {
            for (int v = 1; v >= 0; v--) {
                for (int q = 0; q < QUERIES.length; q++) {
                    for (int s = 0; s < SCALES.length; s++) {
                        for (int r = 0; r < 3; r++) {
                            Trial.Builder t = Trial.of("query=" + QUERIES[q] + ";scale=" + SCALES[s] + ";version=" + (16 + v), r)
                                    .param("query", QUERIES[q]).param("scale", SCALES[s]).param("pool", "x")
                                    .param("version", String.valueOf(16 + v)).metric("seconds", SECONDS[q][s][v][r]);
                            // only 16 planned: a metric one group lacks is named, not compared
                            if (v == 0) t.metric("plan_ms", 1.0);
                            rd.append(t.build());
                        }
                    }
                }
            }
            run = RunDirectory.read(rd.path());
        }
        return RunComparison.of(List.of(run), new RunComparison.Options("version", List.of("seconds", "plan_ms")));
    }

    @Test
    void baselineIsTheFirstVersionNotTheFirstWritten() {
        RunComparison cmp = compare();
        assertEquals(List.of("16", "17"), cmp.groups().stream().map(RunComparison.Group::label).toList());
        List<RunComparison.Row> rows = cmp.rows().stream().filter(r -> r.metric().equals("seconds")).toList();
        // the constant pool is no part of a cell's name
        assertEquals(List.of("query=a, scale=1", "query=a, scale=10", "query=b, scale=1", "query=b, scale=10", "query=c, scale=1",
                "query=c, scale=10"), rows.stream().map(RunComparison.Row::cell).toList());
        double[] ratio = {0.8, 0.8, 0, 1.025, 2.5 / 3, 25.0 / 30};
        for (int i = 0; i < ratio.length; i++) assertEquals(ratio[i], rows.get(i).ratio(), 1e-12, rows.get(i).cell());
    }

    @Test
    void aMedianOfZeroIsLeftOutOfTheGeometricMean() {
        RunComparison cmp = compare();
        assertEquals(0.854492528029, cmp.geometricMeanRatios().get("seconds").get("17"), 1e-11);
        assertTrue(cmp.text().contains("geometric mean ratio seconds 17: 0.854 (") && cmp.text().contains(
                " of 6 cells; the mean is over 5 of them, the others have a median of 0 in 17 or 16)"), cmp.text());
    }

    /** The numeric scale is swept (query has more values, but names), one ANOVA per query. */
    @Test
    void sweptParameterAndScopes() {
        RunComparison cmp = compare();
        List<RunComparison.Analysis> seconds = cmp.analyses().stream().filter(a -> a.metric().equals("seconds")).toList();
        assertEquals(List.of("query=a", "query=b", "query=c"), seconds.stream().map(RunComparison.Analysis::scope).toList());
        RunComparison.Analysis a = seconds.get(0);
        assertEquals("scale", a.factor());
        assertEquals(48, a.anova().term("group").f(), 1e-9);
        assertEquals(2602.7107438, a.anova().term("scale").f(), 1e-6);
        assertEquals(32.132231405, a.anova().term("group:scale").f(), 1e-8);
        assertEquals(0.000121040205555, a.anova().term("group").p(), 1e-14);
        assertEquals(0.000471200513541, a.anova().term("group:scale").p(), 1e-14);
        assertTrue(cmp.text().contains("Two-way ANOVA of seconds: group × scale (query=a)"), cmp.text());
    }

    @Test
    void aMetricOneGroupLacksIsAWarning() {
        RunComparison cmp = compare();
        // naming the group; and the cells, which do match, are not said to match none (they were, the metric lacking)
        assertTrue(cmp.warnings().contains("metric plan_ms is in no trial of 17"), cmp.warnings().toString());
        assertTrue(cmp.warnings().stream().noneMatch(w -> w.contains("has no cell that matches")), cmp.warnings().toString());
        assertTrue(cmp.text().contains("warning: metric plan_ms is in no trial of 17\n"), cmp.text());
        assertTrue(cmp.html().contains("<li>metric plan_ms is in no trial of 17</li>"), "warnings in the report");
    }
}
