package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CellSummaryTest {
    @TempDir Path root;

    /**
     * Repeats that measured different metrics: each metric over the repeats that have it. By hand: tps of 100, 300, 200
     * → median 200, min 100, max 300; lat only in repeats 0 and 2, 2 and 4 → median 3.
     */
    /** A failed repeat a resume ran again: its cell keeps its place (it moved to the end, after the cells run after it). */
    @Test
    void aRerunRepeatsCellKeepsItsPlace() {
        List<CellSummary> s = CellSummary.of(List.of(
                Trial.of("a", 0).failed("canceled").build(),
                Trial.of("b", 0).metric("tps", 2.0).build(),
                Trial.of("c", 0).metric("tps", 3.0).build(),
                Trial.of("a", 0).metric("tps", 1.0).build()));
        assertEquals(List.of("a", "b", "c"), s.stream().map(CellSummary::cell).toList());
        assertEquals("ok", s.get(0).status());
        assertEquals(1, s.get(0).n());
    }

    @Test
    void aMetricMissingInARepeat() {
        List<CellSummary> s = CellSummary.of(List.of(
                Trial.of("c", 0).metric("tps", 100.0).metric("lat", 2.0).build(),
                Trial.of("c", 1).metric("tps", 300.0).build(),
                Trial.of("c", 2).metric("tps", 200.0).metric("lat", 4.0).build()));
        assertEquals(1, s.size());
        CellSummary c = s.get(0);
        assertEquals(3, c.n());
        assertEquals(Map.of("tps", 200.0, "lat", 3.0), c.median());
        assertEquals(Map.of("tps", 100.0, "lat", 2.0), c.min());
        assertEquals(Map.of("tps", 300.0, "lat", 4.0), c.max());
    }

    /** A cell no repeat of which finished: the last repeat's status and reason, no numbers. */
    /**
     * A metric that came out NaN or infinite in one repeat (a ratio over an empty interval): trials.jsonl keeps it as
     * the string "NaN", which reads back as no value, so the report had median 2 of 1 and 3 while summary.csv, made
     * from the trials in memory, had the same median beside a max of NaN (an empty cell). Both now leave it out.
     */
    @Test
    void aNonFiniteMetricCountsAsMissingAsItDoesOnceRead() throws Exception {
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dir.append(Trial.of("c", 0).metric("x", 1.0).build());
            dir.append(Trial.of("c", 1).metric("x", Double.NaN).build());
            dir.append(Trial.of("c", 2).metric("x", 3.0).build());
            dir.append(Trial.of("c", 3).metric("x", Double.POSITIVE_INFINITY).build());
            CellSummary inMemory = CellSummary.of(dir.trials()).get(0);
            CellSummary read = CellSummary.of(RunDirectory.read(dir.path()).trials()).get(0);
            assertEquals(Map.of("x", 2.0), inMemory.median());
            assertEquals(Map.of("x", 1.0), inMemory.min());
            assertEquals(Map.of("x", 3.0), inMemory.max());
            assertEquals(read.median(), inMemory.median());
            assertEquals(read.max(), inMemory.max());
        }
    }

    @Test
    void skippedCellSaysWhy() {
        List<CellSummary> s = CellSummary.of(List.of(
                Trial.of("c", 0).failed("connection refused").build(),
                Trial.of("c", 1).skipped("needs superuser").build()));
        CellSummary c = s.get(0);
        assertEquals(0, c.n());
        assertEquals("skipped", c.status());
        assertEquals("needs superuser", c.reason());
        assertEquals(Map.of(), c.median());
    }

    /** summary.csv carries the metrics asked for, in that order; none asked for: every metric, as first measured. */
    @Test
    void summaryColumnsFollowTheMetricsAskedFor() throws Exception {
        Path dirPath;
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("query", List.of("x"), Map.of()))) {
            dirPath = dir.path();
            dir.append(Trial.of("a", 0).param("q", 1).metric("ms", 2.0).metric("rows", 10L).build());
            dir.append(Trial.of("b", 0).param("q", 2).skipped("no index").build());
            CellSummary.write(dir, List.of("rows"));
            assertEquals(List.of("q,n,status,rows_median,rows_min,rows_max,reason", "1,1,ok,10,10,10,", "2,0,skipped,,,,no index"),
                    Files.readAllLines(dirPath.resolve(RunDirectory.SUMMARY)));
            CellSummary.write(dir, List.of());
            assertEquals("q,n,status,ms_median,ms_min,ms_max,rows_median,rows_min,rows_max,reason",
                    Files.readAllLines(dirPath.resolve(RunDirectory.SUMMARY)).get(0));
            CellSummary.write(dir, null);
            assertEquals("1,1,ok,2,2,2,10,10,10,", Files.readAllLines(dirPath.resolve(RunDirectory.SUMMARY)).get(1));
        }
    }

    /**
     * A random trial order (the 2024 study's) ran clients=16 first: summary.csv's rows still follow the cells as the
     * command planned them, and a cell no matrix planned comes after them.
     */
    @Test
    void rowsFollowThePlannedCellsNotTheOrderTheyRanIn() throws Exception {
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
            dir.plannedCells(List.of("clients=1", "clients=4", "clients=16"));
            dir.append(Trial.of("init", 0).param("step", "init").metric("seconds", 1.0).build());
            dir.append(Trial.of("clients=16", 0).param("clients", 16).metric("tps", 3.0).build());
            dir.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 1.0).build());
            dir.append(Trial.of("clients=4", 0).param("clients", 4).metric("tps", 2.0).build());
            CellSummary.write(dir, List.of("tps"));
            List<String> rows = Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY));
            // the planned cells' parameters are the first columns too
            assertEquals(List.of("clients,step,n,status,tps_median,tps_min,tps_max,reason", "1,,1,ok,1,1,1,", "4,,1,ok,2,2,2,",
                    "16,,1,ok,3,3,3,", ",init,1,ok,,,,"), rows);
        }
    }
}
