package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** summary.csv's cells by RFC 4180 (quote a field with a comma, quote, line feed or carriage return; double the quotes). */
class CsvTest {
    @Test
    void quotesWhatWouldSplitAField() {
        String csv = Csv.format(List.of("a", "b,c"), List.of(List.of(",x", "\"q\"", "\nx", "say \"hi\", then", "plain", "cr\rname")));
        assertEquals("a,\"b,c\"\n\",x\",\"\"\"q\"\"\",\"\nx\",\"say \"\"hi\"\", then\",plain,\"cr\rname\"\n", csv);
    }

    /**
     * Every digit a double holds, in plain notation (1234567.5 stays 1234567.5: six significant digits made the median
     * of 1234562 and 1234563 "1234560", below their minimum), whole numbers as integers, no number for NaN and ±∞.
     */
    @Test
    void numbers() {
        List<Object> row = Arrays.asList(1234567.0, -2.0, 1234567.5, Math.PI, 0.000123456789, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, null, 42, 2e15 + 2, 1e-7);
        assertEquals("x\n1234567,-2,1234567.5,3.141592653589793,0.000123456789,,,,,42,2000000000000002,0.0000001\n",
                Csv.format(List.of("x"), List.of(row)));
    }
}
