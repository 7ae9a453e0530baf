package dev.kensho.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.Trial;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CellsTest {
    static Trial ok(String cell, int repeat, Map<String, Object> params) {
        return new Trial(cell, repeat, params, Map.of("tps", 1.0), Map.of(), "ok", null, null);
    }

    /**
     * Clients measured in random order still read 1, 4, 16, 64; a trial that failed before measuring, with no
     * parameters, takes them from its cell key and is no ok cell.
     */
    @Test
    void valuesInNumericOrderAndParametersFromTheKey() {
        Cells cells = new Cells(List.of(
                ok("clients=16;version=17", 0, Map.of("clients", 16, "version", "17")),
                ok("clients=1;version=17", 0, Map.of("clients", 1, "version", "17")),
                new Trial("clients=64;version=17", 0, Map.of(), Map.of(), Map.of("reason", "too many clients"), "failed", null, null),
                ok("clients=4;version=17", 0, Map.of("clients", 4, "version", "17"))));
        assertEquals(List.of(1L, 4L, 16L, 64L), cells.values("clients"));
        assertEquals(List.of(17L), cells.values("version"));
        assertEquals(List.of("clients"), cells.varying());
        assertEquals(List.of("clients=16;version=17", "clients=1;version=17", "clients=4;version=17"),
                cells.ok().stream().map(CellSummary::cell).toList());
        CellSummary failed = cells.summaries().stream().filter(c -> c.n() == 0).findFirst().orElseThrow();
        assertEquals(Map.of("clients", "64", "version", "17"), failed.params());
        assertEquals("too many clients", failed.reason());
    }

    /**
     * Named values in the order the command gave them (run.json's planned cells), shuffled or not: --matrix jit=on,off
     * read off, on; numbers stay numeric whatever their order given.
     */
    @Test
    void namedValuesInTheOrderGiven() {
        List<Trial> shuffled = List.of(ok("jit=off;work_mem=64MB;clients=4", 0, Map.of("jit", "off", "work_mem", "64MB", "clients", 4)),
                ok("jit=on;work_mem=4MB;clients=1", 0, Map.of("jit", "on", "work_mem", "4MB", "clients", 1)),
                ok("jit=on;work_mem=64MB;clients=4", 0, Map.of("jit", "on", "work_mem", "64MB", "clients", 4)),
                ok("jit=off;work_mem=4MB;clients=1", 0, Map.of("jit", "off", "work_mem", "4MB", "clients", 1)));
        List<String> planned = List.of("jit=on;work_mem=64MB;clients=4", "jit=on;work_mem=4MB;clients=1", "jit=off;work_mem=64MB;clients=4",
                "jit=off;work_mem=4MB;clients=1");
        Cells cells = new Cells(shuffled, planned);
        assertEquals(List.of("on", "off"), cells.values("jit"));
        assertEquals(List.of("64MB", "4MB"), cells.values("work_mem"));
        assertEquals(List.of(1L, 4L), cells.values("clients"));
        assertEquals(List.of("off", "on"), new Cells(shuffled).values("jit"), "no order recorded: natural");
    }

    /** A small value in plain digits, as the commands print it (SF 0.00001 was 1.00000e-05 in compare's notes). */
    @Test
    void smallValuesArePlainDigits() {
        assertEquals("0.00001", Cells.text(1e-5));
        assertEquals("0.01", Cells.text(0.01));
        assertEquals("0.000123457", Cells.text(0.0001234567));
        assertEquals("1234.57", Cells.text(1234.5678));
    }

    /** Queries keep the order they were run in (the study's list), unless the run was shuffled: then natural order. */
    @Test
    void queriesInRunOrderUnlessShuffled() {
        List<Trial> inOrder = List.of(ok("q=Q2.1", 0, Map.of("query", "Q2.1")), ok("q=Q1.10", 0, Map.of("query", "Q1.10")),
                ok("q=Q1.2", 0, Map.of("query", "Q1.2")), ok("q=Q2.1", 1, Map.of("query", "Q2.1")));
        assertEquals(List.of("Q2.1", "Q1.10", "Q1.2"), new Cells(inOrder).values("query"));
        List<Trial> shuffled = List.of(ok("q=Q2.1", 1, Map.of("query", "Q2.1")), ok("q=Q1.10", 0, Map.of("query", "Q1.10")),
                ok("q=Q1.2", 0, Map.of("query", "Q1.2")), ok("q=Q2.1", 0, Map.of("query", "Q2.1")));
        assertEquals(List.of("Q1.2", "Q1.10", "Q2.1"), new Cells(shuffled).values("query"));
    }
}
