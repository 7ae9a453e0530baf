package dev.kensho.pgbench.script;

import dev.kensho.pgbench.script.expr.EvalException;
import dev.kensho.pgbench.script.expr.ExprParser;
import dev.kensho.pgbench.script.expr.Value;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One client's variables, as pgbench keeps them: a value is stored either as text (from -D, \gset, \aset)
 * or typed (from \set), and converted lazily the way pgbench does (makeVariableValue: "null", boolean
 * prefixes like t/yes/of, integers, doubles; getVariable: NULL, true/false, %lld, %.15g).
 * Special variables the driver sets: {@code scale}, {@code client_id}, {@code random_seed},
 * {@code default_seed} (see {@link #standard}). Not thread-safe.
 */
public final class Variables {
    private static final class Var {
        String text;
        Value value;

        Var(String text, Value value) {
            this.text = text;
            this.value = value;
        }
    }

    private final Map<String, Var> vars = new LinkedHashMap<>();

    public Variables() {
    }

    /** A deep copy (pgbench copies the -D definitions to every client). */
    public Variables copy() {
        Variables c = new Variables();
        vars.forEach((k, v) -> c.vars.put(k, new Var(v.text, v.value)));
        return c;
    }

    /** pgbench's valid_variable_name: a letter, underscore or non-ASCII first, then also digits. */
    public static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80
                    || (i > 0 && c >= '0' && c <= '9');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses a {@code -D name=value} option as pgbench does.
     *
     * @throws IllegalArgumentException "invalid variable definition" or "invalid variable name"
     */
    public void define(String nameEqualsValue) {
        int eq = nameEqualsValue.indexOf('=');
        if (eq <= 0 || eq == nameEqualsValue.length() - 1) {
            throw new IllegalArgumentException("invalid variable definition: \"" + nameEqualsValue + "\"");
        }
        String name = nameEqualsValue.substring(0, eq);
        if (!putText(name, nameEqualsValue.substring(eq + 1))) {
            throw new IllegalArgumentException("invalid variable name: \"" + name + "\"");
        }
    }

    /** Stores a text value (like -D or \gset); false if the name is not a valid variable name. */
    public boolean putText(String name, String text) {
        Var v = vars.get(name);
        if (v == null) {
            if (!validName(name)) {
                return false;
            }
            vars.put(name, new Var(text, null));
        } else {
            v.text = text;
            v.value = null;
        }
        return true;
    }

    /** Stores a typed value (like \set); false if the name is not a valid variable name. */
    public boolean put(String name, Value value) {
        Var v = vars.get(name);
        if (v == null) {
            if (!validName(name)) {
                return false;
            }
            vars.put(name, new Var(null, value));
        } else {
            v.text = null;
            v.value = value;
        }
        return true;
    }

    public void putInt(String name, long value) {
        if (!put(name, Value.ofInt(value))) {
            throw new IllegalArgumentException("invalid variable name: \"" + name + "\"");
        }
    }

    public boolean contains(String name) {
        return vars.containsKey(name);
    }

    /**
     * Sets the automatic variables as pgbench's main() does, each only when not already defined (-D wins):
     * scale, client_id, default_seed, random_seed. The driver reads the scale from
     * pgbench_branches when -s is not given ({@code select count(*) from pgbench_branches}).
     */
    public void standard(long scale, int clientId, long randomSeed, long defaultSeed) {
        if (!contains("scale")) {
            putInt("scale", scale);
        }
        if (!contains("client_id")) {
            putInt("client_id", clientId);
        }
        if (!contains("default_seed")) {
            putInt("default_seed", defaultSeed);
        }
        if (!contains("random_seed")) {
            putInt("random_seed", randomSeed);
        }
    }

    /**
     * pgbench's scale detection: {@code select count(*) from pgbench_branches} on the run's connection.
     *
     * @throws java.sql.SQLException with pgbench's hint when the tables are missing
     */
    public static long readScale(java.sql.Connection c) throws java.sql.SQLException {
        try (java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("select count(*) from pgbench_branches")) {
            rs.next();
            long scale = rs.getLong(1);
            if (scale <= 0) {
                throw new java.sql.SQLException("invalid count(*) from pgbench_branches: \"" + scale + "\"");
            }
            return scale;
        } catch (java.sql.SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                throw new java.sql.SQLException("could not count number of branches: " + e.getMessage()
                        + "; perhaps you need to do initialization (\"bench pgbench init\" or \"pgbench -i\")",
                        e.getSQLState(), e);
            }
            throw e;
        }
    }

    /** getVariable: the text pgbench substitutes into SQL, or null when undefined. */
    public String text(String name) {
        Var v = vars.get(name);
        if (v == null) {
            return null;
        }
        if (v.text == null) {
            v.text = v.value.toString();
        }
        return v.text;
    }

    /** The typed value for an expression; pgbench's errors for undefined or malformed variables. */
    public Value value(String name) throws EvalException {
        Var v = vars.get(name);
        if (v == null) {
            throw new EvalException("undefined variable \"" + name + "\"");
        }
        if (v.value == null) {
            v.value = parse(name, v.text);
        }
        return v.value;
    }

    private static Value parse(String name, String s) throws EvalException {
        int len = s.length();
        if (len == 0) {
            // pgbench 15 aborts here without a word (its "what should it do on \"\"?"); said, with the likely cause
            throw new EvalException("malformed variable \"" + name + "\" value: \"\" (a \\gset or \\aset of NULL sets \"\")");
        }
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.equals("null")) {
            return Value.NULL;
        }
        if ("true".startsWith(lower) || "yes".startsWith(lower) || lower.equals("on")) {
            return Value.TRUE;
        }
        if ("false".startsWith(lower) || "no".startsWith(lower) || lower.equals("off") || lower.equals("of")) {
            return Value.FALSE;
        }
        if (isAnInt(s)) {
            if (s.strip().replaceFirst("^[+-]", "").isEmpty()) {
                // a sign or white space alone: pgbench's strtoint64 finds no digit
                throw new EvalException("invalid input syntax for type bigint: \"" + s + "\"");
            }
            try {
                return Value.ofInt(Long.parseLong(s.strip().replaceFirst("^\\+", "")));
            } catch (NumberFormatException e) {
                throw new EvalException("value \"" + s + "\" is out of range for type bigint");
            }
        }
        Double d = strtod(s);
        if (d == null) {
            throw new EvalException("malformed variable \"" + name + "\" value: \"" + s + "\"");
        }
        return Value.ofDouble(d);
    }

    private static boolean isAnInt(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && isSpace(s.charAt(i))) {
            i++;
        }
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        if (i < n && !Character.isDigit(s.charAt(i))) {
            return false;
        }
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i == n;
    }

    /** C strtod over the whole string, failing on trailing garbage and on overflow/underflow (ERANGE). */
    static Double strtod(String s) {
        int i = 0;
        while (i < s.length() && isSpace(s.charAt(i))) {
            i++;
        }
        String t = s.substring(i);
        String body = t.startsWith("+") || t.startsWith("-") ? t.substring(1) : t;
        double sign = t.startsWith("-") ? -1 : 1;
        String lb = body.toLowerCase(Locale.ROOT);
        if (lb.equals("inf") || lb.equals("infinity")) {
            return sign * Double.POSITIVE_INFINITY;
        }
        // C99 strtod also reads NAN(n-char-sequence), the sequence naming a payload glibc ignores
        if (lb.equals("nan") || body.matches("(?i)nan\\([0-9a-z_]*\\)")) {
            return Double.NaN;
        }
        double d;
        if (body.matches("0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)([pP][+-]?\\d+)?")) {
            d = Double.parseDouble(body.matches(".*[pP].*") ? body : body + "p0");
        } else if (body.matches("(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            d = Double.parseDouble(body);
        } else {
            return null;
        }
        if (outOfRange(d, body)) {
            return null;
        }
        return sign * d;
    }

    /**
     * C strtod's ERANGE: overflow, and underflow to zero or to a subnormal value, unless a hex spelling is
     * that subnormal exactly (glibc reports underflow only when it loses bits; a decimal subnormal always does).
     */
    static boolean outOfRange(double d, String digits) {
        if (Double.isInfinite(d)) {
            return true;
        }
        if (d == 0.0) {
            return digits.replaceFirst("[eEpP].*", "").matches(".*[1-9a-fA-F&&[^xX]].*");
        }
        if (Math.abs(d) < Double.MIN_NORMAL && digits.matches("0[xX].*")) {
            return !exactHex(d, digits);
        }
        return Math.abs(d) < Double.MIN_NORMAL
                || (d == Double.MIN_NORMAL && !digits.matches("0[xX].*") && ExprParser.tinyForStrtod(digits));
    }

    /** Whether the hex spelling (0x digits [. digits] [p exponent]) is exactly the double d. */
    private static boolean exactHex(double d, String hex) {
        String[] parts = hex.substring(2).split("[pP]");
        String mantissa = parts[0];
        int point = mantissa.indexOf('.');
        int fractionDigits = point < 0 ? 0 : mantissa.length() - point - 1;
        java.math.BigInteger m = new java.math.BigInteger(mantissa.replace(".", ""), 16);
        // the exponent is at most -1022 here less the digits after the point, so this int arithmetic holds
        int exponent = (parts.length > 1 ? Integer.parseInt(parts[1].replace("+", "")) : 0) - 4 * fractionDigits;
        java.math.BigDecimal exact = exponent >= 0 ? new java.math.BigDecimal(m.shiftLeft(exponent))
                : new java.math.BigDecimal(m).divide(new java.math.BigDecimal(java.math.BigInteger.ONE.shiftLeft(-exponent)));
        return exact.compareTo(new java.math.BigDecimal(Math.abs(d))) == 0;
    }

    /** C atoi, as pgbench's \sleep uses it: glibc's (int) strtol(s, NULL, 10). */
    static int atoi(String s) {
        return (int) strtol(s).value();
    }

    /** What C {@code strtol(s, &end, 10)} gives: the value, clamped to the long range, and end, 0 when no digit was read. */
    record CLong(long value, int end) {}

    /** C strtol in base 10: leading white space, a sign, digits; it stops at anything else. */
    static CLong strtol(String s) {
        int n = s.length();
        int i = 0;
        while (i < n && isSpace(s.charAt(i))) {
            i++;
        }
        boolean negative = i < n && s.charAt(i) == '-';
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int first = i;
        long v = 0;   // accumulated negatively: -9223372036854775808 fits, its positive does not
        boolean overflow = false;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            int d = s.charAt(i) - '0';
            if (overflow || v < (Long.MIN_VALUE + d) / 10) overflow = true;
            else v = v * 10 - d;
            i++;
        }
        if (i == first) return new CLong(0, 0);
        if (overflow) return new CLong(negative ? Long.MIN_VALUE : Long.MAX_VALUE, i);
        return new CLong(negative ? v : v == Long.MIN_VALUE ? Long.MAX_VALUE : -v, i);
    }

    /** C isspace in the C locale (the script lexer's blanks, and pgbench's around a number). */
    public static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        vars.forEach((k, v) -> sb.append(sb.length() > 1 ? ", " : "").append(k).append('=')
                .append(v.text != null ? v.text : v.value.toString()));
        return sb.append('}').toString();
    }
}
