package dev.kensho.pgbench.script.expr;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** C printf formats pgbench uses for doubles, as PostgreSQL's own snprintf renders them. */
public final class CFormat {
    private CFormat() {
    }

    /** {@code %.15g} (DBL_DIG), with PostgreSQL's spelling of NaN and infinities. */
    public static String g15(double d) {
        return g(d, 15);
    }

    static String g(double d, int precision) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0" : "0";
        }
        BigDecimal bd = new BigDecimal(d).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        int exp = bd.precision() - bd.scale() - 1;
        String s;
        if (exp < -4 || exp >= precision) {
            BigDecimal mant = bd.movePointLeft(exp);
            String m = stripZeros(mant.abs().setScale(precision - 1, RoundingMode.HALF_EVEN).toPlainString());
            s = (bd.signum() < 0 ? "-" : "") + m + "e" + (exp < 0 ? "-" : "+")
                    + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
        } else {
            s = stripZeros(bd.setScale(Math.max(precision - 1 - exp, 0), RoundingMode.HALF_EVEN).toPlainString());
        }
        return s;
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    private static final java.util.regex.Pattern SPEC = java.util.regex.Pattern.compile("%([-#+ 0,(]*)(\\d+)?(\\.\\d+)?([a-zA-Z%])");

    /**
     * printf as pgbench's report, progress and log lines need it: Java's Formatter, but a double's {@code %f} (with
     * width and precision) rounded as C rounds it, the exact binary value to the nearest, ties to even. Java rounds
     * its shortest decimal digits half up: 6.25 became "6.3" where pgbench prints "6.2", 12.3455 (below the tie in
     * binary) "12.346" where pgbench prints "12.345".
     */
    public static String printf(String format, Object... args) {
        Object[] a = args.clone();
        StringBuilder f = new StringBuilder(format.length());
        java.util.regex.Matcher m = SPEC.matcher(format);
        int last = 0;
        int arg = 0;
        while (m.find()) {
            f.append(format, last, m.start());
            last = m.end();
            char conv = m.group(4).charAt(0);
            if (conv == '%' || conv == 'n') {
                f.append(m.group());
                continue;
            }
            String flags = m.group(1);
            if (conv == 'f' && a[arg] instanceof Double d && !d.isNaN() && !d.isInfinite() && (flags.isEmpty() || flags.equals("-"))) {
                int precision = m.group(3) == null ? 6 : Integer.parseInt(m.group(3).substring(1));
                String digits = new BigDecimal(d).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
                // C keeps the sign of a negative value that rounds to zero ("-0.000")
                a[arg] = d < 0 || (d == 0 && 1 / d < 0) ? (digits.startsWith("-") ? digits : "-" + digits) : digits;
                f.append('%').append(flags).append(m.group(2) == null ? "" : m.group(2)).append('s');
            } else {
                f.append(m.group());
            }
            arg++;
        }
        f.append(format, last, format.length());
        return String.format(java.util.Locale.ROOT, f.toString(), a);
    }

    /** {@code %f}: six decimals. */
    public static String fixed6(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        return new BigDecimal(d).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
    }
}
