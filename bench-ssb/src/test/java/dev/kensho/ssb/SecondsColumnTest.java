package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecondsColumnTest {
    /** At a small scale every query takes under a millisecond or two: in seconds each printed as 0.000 or 0.001. */
    @Test
    void aColumnOfTimesUnderASecondIsInMilliseconds() {
        SecondsColumn small = SecondsColumn.of(Arrays.asList(0.0004123, 0.25, null, "failed"));
        assertEquals("median_ms", small.header("median"));
        assertEquals("0.412", small.cell(0.0004123));
        assertEquals("", small.cell(null), "a failed cell stays empty");
        SecondsColumn mixed = SecondsColumn.of(List.of(0.5, 1.0));
        assertEquals("median_s", mixed.header("median"));
        assertEquals("0.500", mixed.cell(0.5));
        assertEquals("median_s", SecondsColumn.of(List.of()).header("median"), "no value: the stored unit");
    }

    @Test
    void aProgressLineTimeCarriesItsUnit() {
        assertEquals("0.412 ms", SecondsColumn.text(0.0004123));
        assertEquals("1.234 s", SecondsColumn.text(1.2341));
    }
}
