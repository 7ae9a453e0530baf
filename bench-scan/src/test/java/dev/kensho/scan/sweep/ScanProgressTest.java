package dev.kensho.scan.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.scan.CacheState;
import dev.kensho.scan.Layout;
import dev.kensho.scan.Scan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress bar redraws one line on a terminal and prints plain lines, now and then, elsewhere. */
class ScanProgressTest {

    private static String run(boolean terminal, int total) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), terminal);
        for (int i = 1; i <= total; i++) {
            Cell c = new Cell("server", i <= 5 ? CacheState.COLD : CacheState.WARM, Layout.HIGH, i, Scan.FULL);
            var p = new TrialMatrix.Planned<>(c, c.key(), 0);
            bar.starting(p, i, total);
            Trial.Builder t = Trial.of(c.key(), 0);
            bar.finished(p, (i <= 5 ? t.skipped("cold: no restart") : t).build(), i, total);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void plainLinesWhereStderrIsNoTerminal() {
        String out = run(false, 25);
        assertFalse(out.contains("\r"), out);
        String[] lines = out.split("\n");
        // after the first cell, at each tenth (25 cells: 10 more), nothing in between
        assertEquals(11, lines.length, out);
        assertTrue(lines[0].startsWith("scan [#...") && lines[0].contains(" 1/25 "), lines[0]);
        assertTrue(lines[10].contains("25/25") && lines[10].contains("skipped=5"), lines[10]);
    }

    @Test
    void oneRedrawnLineOnATerminal() {
        String out = run(true, 4);
        assertEquals(8, out.chars().filter(ch -> ch == '\r').count(), out);
        assertEquals(1, out.chars().filter(ch -> ch == '\n').count(), out);
    }
}
