package dev.kensho.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrossoverTest {
    static List<Point> line(double... ys) {
        List<Point> ps = new ArrayList<>();
        for (int i = 0; i < ys.length; i++) ps.add(new Point((long) (i + 1) * 10, ys[i], ys[i], ys[i], 1));
        return ps;
    }

    /** index 4, 8, 12 against full 10: crosses between 20 and 30, at 20 + 10·2/4 = 25, and back at 9. */
    @Test
    void interpolatesTheFirstCrossing() {
        Crossover.Result r = Crossover.find(line(4, 8, 12, 9), line(10, 10, 10, 10));
        assertEquals(25.0, r.x().orElseThrow(), 1e-12);
        assertEquals("crossover at 25 (curves cross 2 times)", r.text());
    }

    /** Noise that crosses back and forth: the first crossing, and how many there were. */
    @Test
    void countsEveryCrossing() {
        Crossover.Result r = Crossover.find(line(4, 12, 8, 12, 14), line(10, 10, 10, 10, 10), " %");
        assertEquals(17.5, r.x().orElseThrow(), 1e-12);
        assertEquals(3, r.crossings());
        assertEquals("crossover at 17.5 % (curves cross 3 times)", r.text());
    }

    @Test
    void indexSlowerFromTheStart() {
        Crossover.Result r = Crossover.find(line(11, 12), line(10, 10));
        assertTrue(r.x().isEmpty());
        assertEquals("index scan slower already at 10", r.text());
    }

    /** Equal at the first point and slower after: the crossing is that first point ("from ≤ 0 to > 0"), one crossing. */
    @Test
    void equalAtTheStartThenSlower() {
        Crossover.Result r = Crossover.find(line(10, 12), line(10, 10));
        assertEquals(10, r.x().orElseThrow(), 1e-12);
        assertEquals(1, r.crossings());
        assertEquals("crossover at 10", r.text());
    }

    @Test
    void indexFasterThroughout() {
        Crossover.Result r = Crossover.find(line(1, 2, 3), line(10, 10, 10));
        assertTrue(r.x().isEmpty());
        assertEquals("index scan faster throughout (up to 30)", r.text());
    }

    /** Only x values measured on both lines count (a cell with an unintended plan may be missing). */
    @Test
    void skipsPointsMissingOnOneSide() {
        List<Point> full = new ArrayList<>(line(10, 10, 10, 10));
        full.remove(2);
        Crossover.Result r = Crossover.find(line(4, 8, 12, 16), full);
        assertEquals(20 + 20 * 2.0 / 8, r.x().orElseThrow(), 1e-12);
    }

    @Test
    void naturalOrderOfParameterValues() {
        List<Object> v = new ArrayList<>(List.of("Q10.1", "Q2.1", "Q1.2", "Q1.1", 16L, 4L));
        v.sort(Cells.ORDER);
        assertEquals(List.of(4L, 16L, "Q1.1", "Q1.2", "Q2.1", "Q10.1"), v);
        assertEquals(16L, Cells.normal("16"));
        assertEquals(16L, Cells.normal(16.0));
        assertEquals("16.10", Cells.normal("16.10"), "a version string keeps its text");
        assertEquals(List.of("16.9", "16.10"), java.util.stream.Stream.of("16.10", "16.9").sorted(Cells.ORDER).toList());
    }
}
