package dev.kensho.ssb;

import java.util.Collection;
import java.util.Locale;

/**
 * A terminal table's column of seconds, shown in milliseconds where every value is under one: at a small scale a
 * query's 0.0004 s printed as 0.000, the same for every query and both JIT settings. The report's charts switch
 * likewise; summary.csv keeps seconds.
 */
final class SecondsColumn {
    private final boolean ms;

    private SecondsColumn(boolean ms) {
        this.ms = ms;
    }

    /** The unit the values call for: milliseconds when there is a value and none reaches one second. */
    static SecondsColumn of(Collection<?> values) {
        boolean any = false;
        for (Object v : values) {
            if (!(v instanceof Double d)) continue;
            if (d >= 1) return new SecondsColumn(false);
            any = true;
        }
        return new SecondsColumn(any);
    }

    /** The column's name: stem_ms or stem_s. */
    String header(String stem) {
        return stem + (ms ? "_ms" : "_s");
    }

    /** A value in the column's unit, three decimals; "" for what is not a number (a failed cell). */
    String cell(Object seconds) {
        return seconds instanceof Double d ? String.format(Locale.ROOT, "%.3f", ms ? d * 1000 : d) : "";
    }

    /** One time on a progress line, with its unit: "0.412 ms" under a second, "1.234 s" from one. */
    static String text(double seconds) {
        return seconds < 1 ? String.format(Locale.ROOT, "%.3f ms", seconds * 1000) : String.format(Locale.ROOT, "%.3f s", seconds);
    }
}
