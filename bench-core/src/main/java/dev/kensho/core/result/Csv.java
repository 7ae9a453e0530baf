package dev.kensho.core.result;

import java.util.List;

/** RFC 4180 output (summary.csv), and the measured numbers of every CSV Kensho writes (compare.csv's too). */
public final class Csv {
    private Csv() {}

    /**
     * A data file's number: every digit the double holds (its shortest exact form), in plain notation ("" for NaN and
     * the infinities). Six significant digits made the median of 1234562 and 1234563 "1234560", below the minimum
     * beside it; Double.toString's "6.53947E-4" is a form some readers take as text.
     */
    public static String number(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? "" : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d)
                : new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
    }

    static String format(List<String> header, List<List<Object>> rows) {
        StringBuilder sb = new StringBuilder();
        line(sb, header);
        for (List<Object> r : rows) line(sb, r);
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<?> values) {
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(cell(values.get(i)));
        }
        sb.append('\n');
    }

    private static String cell(Object v) {
        if (v == null) return "";
        String s;
        if (v instanceof Double d) {
            s = number(d);
        } else {
            s = v.toString();
        }
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }
}
