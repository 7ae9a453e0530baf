package dev.kensho.pgbench.script.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * C's printf for pgbench's report lines, the expectations as glibc's printf (which pgbench's snprintf hands %f to)
 * writes them: the double's exact binary value rounded to the nearest, an exact tie to even.
 */
class CFormatTest {
    @Test
    void fixedPointRoundsAsC() {
        // exact ties: 6.25 and 0.0625 are exact doubles (a weight of 1 in 16, a failure in 1600), C rounds to even
        assertEquals("6.2", CFormat.printf("%.1f", 6.25));
        assertEquals("0.062", CFormat.printf("%.3f", 0.0625));
        assertEquals("6.8", CFormat.printf("%.1f", 6.75));
        // below the tie in binary (12.34549999...): Java's shortest digits "12.3455" rounded half up gave 12.346
        assertEquals("12.345", CFormat.printf("%.3f", 12.3455));
        assertEquals("1.000", CFormat.printf("%.3f", 1.0005));
        assertEquals("0.150", CFormat.printf("%.3f", 0.15));
        assertEquals("0.1", CFormat.printf("%.1f", 0.15));
        assertEquals("475.014250", CFormat.printf("%f", 475.01425));
        assertEquals("-0.000", CFormat.printf("%.3f", -0.0001));
    }

    @Test
    void widthsFlagsAndOtherConversionsAsJava() {
        assertEquals("   " + "      0.062" + "  " + "         3" + "  SELECT 1;",
                CFormat.printf("   %11.3f  %10d  %s", 0.0625, 3L, "SELECT 1;"));
        assertEquals("6.2  |", CFormat.printf("%-5.1f|", 6.25));
        assertEquals("number of failed transactions: 1 (0.062%)", CFormat.printf("number of failed transactions: %d (%.3f%%)", 1L, 0.0625));
        // 0/0 and the like as pgbench's snprintf spells them
        assertEquals(" - 0 (NaN%)", CFormat.printf(" - %d (%.3f%%)", 0L, 0.0 / 0));
        assertEquals("Infinity", CFormat.printf("%.1f", 1.0 / 0));
        assertEquals("progress: 4.0 s, 10.2 tps", CFormat.printf("progress: %s s, %.1f tps", CFormat.printf("%.1f", 4.0), 41 / 4.0));
    }
}
