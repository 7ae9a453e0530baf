package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** summary.csv's cells by RFC 4180 (quote a field with a comma, quote or line break; double the quotes). */
class CsvTest {
    @Test
    void quotesWhatWouldSplitAField() {
        String csv = Csv.format(List.of("a", "b,c"), List.of(List.of(",x", "\"q\"", "\nx", "say \"hi\", then", "plain")));
        assertEquals("a,\"b,c\"\n\",x\",\"\"\"q\"\"\",\"\nx\",\"say \"\"hi\"\", then\",plain\n", csv);
    }

    /**
     * Whole numbers in full (1234567 transactions stay 1234567), other doubles to 6 significant digits
     * (1234567.5 → 1234570, π → 3.14159, 0.000123456789 → 0.000123457), no number at all for NaN and ±∞.
     */
    @Test
    void numbers() {
        List<Object> row = Arrays.asList(1234567.0, -2.0, 1234567.5, Math.PI, 0.000123456789, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, null, 42, 2e15 + 2);
        assertEquals("x\n1234567,-2,1234570,3.14159,0.000123457,,,,,42,2000000000000000\n", Csv.format(List.of("x"), List.of(row)));
    }
}
