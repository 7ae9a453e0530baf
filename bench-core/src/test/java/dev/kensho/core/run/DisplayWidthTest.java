package dev.kensho.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Console tables pad by terminal columns: a Japanese database name had shifted its row right of the header. */
class DisplayWidthTest {
    @Test
    void wideCharactersTakeTwoColumns() {
        assertEquals(4, DisplayWidth.of("cell"));
        assertEquals(6, DisplayWidth.of("日本語"));
        assertEquals(12, DisplayWidth.of("kx_日本語 db"));
        assertEquals(10, DisplayWidth.of("ﾃｽﾄ ｶﾀｶﾅ／"), "half-width kana one column, the full-width solidus two");
        assertEquals(1, DisplayWidth.of("e\u0301\u200b"), "a combining accent and a zero-width space take none");
        assertEquals("日本 |", DisplayWidth.padRight("日本", 5) + "|");
        assertEquals("日本語", DisplayWidth.padRight("日本語", 4));
    }
}
