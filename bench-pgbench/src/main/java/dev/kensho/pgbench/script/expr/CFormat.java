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
