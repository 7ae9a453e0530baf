package dev.kensho.core.run;

/**
 * How many terminal columns a text takes: CJK ideographs, kana, Hangul and full-width forms take two (Unicode's East
 * Asian Wide and Fullwidth, as wcwidth counts them). Console tables padded by String.length() put a row with a Japanese
 * database name 3 to 10 columns right of its header.
 */
public final class DisplayWidth {
    private DisplayWidth() {}

    public static int of(String s) {
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT) continue;
            w += wide(cp) ? 2 : 1;
        }
        return w;
    }

    /** s followed by blanks up to width columns (nothing added where it is as wide or wider). */
    public static String padRight(String s, int width) {
        int w = of(s);
        return w >= width ? s : s + " ".repeat(width - w);
    }

    private static boolean wide(int cp) {
        return (cp >= 0x1100 && cp <= 0x115F)           // Hangul Jamo initials
                || (cp >= 0x2E80 && cp <= 0x303E)       // CJK radicals, Kangxi, CJK symbols and punctuation
                || (cp >= 0x3041 && cp <= 0x33FF)       // kana, Bopomofo, Hangul compatibility, CJK compatibility
                || (cp >= 0x3400 && cp <= 0x4DBF)       // CJK extension A
                || (cp >= 0x4E00 && cp <= 0x9FFF)       // CJK unified ideographs
                || (cp >= 0xA000 && cp <= 0xA4CF)       // Yi
                || (cp >= 0xAC00 && cp <= 0xD7A3)       // Hangul syllables
                || (cp >= 0xF900 && cp <= 0xFAFF)       // CJK compatibility ideographs
                || (cp >= 0xFE30 && cp <= 0xFE4F)       // CJK compatibility forms
                || (cp >= 0xFF00 && cp <= 0xFF60)       // full-width forms
                || (cp >= 0xFFE0 && cp <= 0xFFE6)
                || (cp >= 0x1F300 && cp <= 0x1F64F)     // pictographs, emoticons
                || (cp >= 0x1F900 && cp <= 0x1F9FF)
                || (cp >= 0x20000 && cp <= 0x3FFFD);    // CJK extensions B and later
    }
}
