package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same trials, written in another order (a run whose random order put the repeats otherwise, a resumed run, a
 * trials.jsonl sorted by a user's tool), give the same compare.csv, byte for byte: a CI job diffs it.
 */
class RunComparisonTrialOrderTest {
    @TempDir
    Path tmp;

    /** repeats in the order given by {@code order}: (0.1 + 0.2) + 0.3 is not (0.3 + 0.2) + 0.1 in doubles */
    private static RunResults sweep(Path root, int[] order) {
        double[][] v = {{0.1, 0.2, 0.3}, {0.7, 0.1, 0.45}};
        String[] versions = {"16", "17"};
        try (RunDirectory rd = RunDirectory.create(root, RunInfo.of("pgbench sweep",
                List.of("bench", "pgbench", "sweep", "--pg-version", "16,17", "--clients", "1", "--repeat", "3"), Map.of()))) {
            for (int r : order) {
                for (int g = 0; g < 2; g++) {
                    rd.append(Trial.of("clients=1;version=" + versions[g], r).param("version", versions[g]).param("clients", 1)
                            .param("script", "select-only").metric("tps", 1000.0 + r).metric("latency_avg_ms", v[g][r]).build());
                }
            }
            return RunDirectory.read(rd.path());
        }
    }

    @Test
    void compareCsvDoesNotDependOnTheOrderOfTheTrials() throws Exception {
        String a = Files.readString(RunComparison.of(List.of(sweep(tmp.resolve("a"), new int[] {0, 1, 2}))).write(tmp.resolve("oa")).get(1));
        String b = Files.readString(RunComparison.of(List.of(sweep(tmp.resolve("b"), new int[] {2, 1, 0}))).write(tmp.resolve("ob")).get(1));
        assertEquals(a, b);
    }
}
