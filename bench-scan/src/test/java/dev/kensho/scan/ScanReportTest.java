package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Sizes in the console report: one decimal, pg_size_pretty's units, never a truncated "0 MB". */
class ScanReportTest {

    @Test
    void sizesKeepOneDecimal() {
        assertEquals("3.9 MB", ScanCrossover.size(4_096_000));
        assertEquals("448.0 kB", ScanCrossover.size(448 * 1024));
        assertEquals("812 bytes", ScanCrossover.size(812));
        assertEquals("1.0 MB", ScanCrossover.size(1024 * 1024 - 1));
        assertEquals("1.5 GB", ScanCrossover.size(3L << 29));
    }
}
