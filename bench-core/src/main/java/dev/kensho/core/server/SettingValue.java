package dev.kensho.core.server;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A setting's value as PostgreSQL reads it, to tell whether two spellings mean the same (128MB, 16384, '131072kB'). */
public final class SettingValue {
    private static final Pattern NUMBER = Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([a-zA-Z]*)\\s*");
    /** PostgreSQL's memory units in bytes and time units in milliseconds (guc.c's tables). */
    private static final Map<String, Double> MEMORY = Map.of("B", 1.0, "kB", 1024.0, "MB", 1024.0 * 1024,
            "GB", 1024.0 * 1024 * 1024, "TB", 1024.0 * 1024 * 1024 * 1024);
    private static final Map<String, Double> TIME = Map.of("us", 0.001, "ms", 1.0, "s", 1000.0, "min", 60_000.0,
            "h", 3_600_000.0, "d", 86_400_000.0);

    private SettingValue() {}

    /**
     * The wanted settings under the names pg_settings spells them (Work_Mem is work_mem, timezone TimeZone), in their
     * order; names the server does not know stay as given. PostgreSQL takes a setting's name in any case, and a remote
     * --set Work_Mem=64MB was refused as an unknown setting where psql's SET takes it.
     */
    static Map<String, String> spelledAsServer(java.sql.Connection c, Map<String, String> wanted) throws java.sql.SQLException {
        Map<String, String> byLower = new java.util.HashMap<>();
        try (var ps = c.prepareStatement("SELECT name FROM pg_settings WHERE lower(name) = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("text", wanted.keySet().stream().map(n -> n.toLowerCase(java.util.Locale.ROOT)).toArray()));
            try (var rs = ps.executeQuery()) {
                while (rs.next()) byLower.put(rs.getString(1).toLowerCase(java.util.Locale.ROOT), rs.getString(1));
            }
        }
        Map<String, String> out = new java.util.LinkedHashMap<>();
        wanted.forEach((k, v) -> out.put(byLower.getOrDefault(k.toLowerCase(java.util.Locale.ROOT), k), v));
        return out;
    }

    /**
     * @param vartype pg_settings.vartype (bool, integer, real, enum, string)
     * @param setting pg_settings.setting, in pg_settings.unit
     * @param unit    pg_settings.unit, e.g. 8kB, kB, ms, s; null for none
     * @param wanted  the value as a user writes it in postgresql.conf
     */
    static boolean same(String vartype, String setting, String unit, String wanted) {
        String w = wanted.strip();
        switch (vartype) {
            case "bool" -> {
                String b = bool(w);
                return b != null && b.equals(setting);
            }
            case "integer", "real" -> {
                Double want = inBase(w, unit);
                Double have = inBase(setting, unit);
                return want != null && have != null && Math.abs(want - have) <= 1e-9 * Math.max(1, Math.abs(have));
            }
            case "enum" -> {
                return w.equalsIgnoreCase(setting);
            }
            default -> {
                return w.equals(setting);
            }
        }
    }

    /**
     * Whether two values with units name the same amount as PostgreSQL reads them: 1GB and 1024MB, 30s and 30000ms. Both
     * need a unit of one kind (a bare number's unit is the setting's, which a value alone does not tell).
     */
    public static boolean sameAmount(String a, String b) {
        Matcher x = NUMBER.matcher(a), y = NUMBER.matcher(b);
        if (!x.matches() || !y.matches()) return false;
        Map<String, Double> kind = MEMORY.containsKey(x.group(2)) ? MEMORY : TIME.containsKey(x.group(2)) ? TIME : null;
        if (kind == null || !kind.containsKey(y.group(2))) return false;
        double p = Double.parseDouble(x.group(1)) * kind.get(x.group(2)), q = Double.parseDouble(y.group(1)) * kind.get(y.group(2));
        return Math.abs(p - q) <= 1e-9 * Math.max(1, Math.abs(p));
    }

    /** on/off as PostgreSQL accepts booleans (any unique prefix of true/false/yes/no/on/off, 1, 0), else null. */
    private static String bool(String v) {
        String l = v.toLowerCase(Locale.ROOT);
        if (l.isEmpty()) return null;
        if ("true".startsWith(l) || "yes".startsWith(l) || l.equals("on") || l.equals("1")) return "on";
        if ("false".startsWith(l) || "no".startsWith(l) || (l.length() > 1 && "off".startsWith(l)) || l.equals("0")) return "off";
        return null;
    }

    /** A number with or without a unit in the setting's base unit (bytes or ms), or the bare number when it has none. */
    private static Double inBase(String v, String unit) {
        Matcher m = NUMBER.matcher(v);
        if (!m.matches()) return null;
        double n = Double.parseDouble(m.group(1));
        String given = m.group(2);
        if (unit == null || unit.isEmpty()) return given.isEmpty() ? n : null;
        double perUnit = scale(unit);
        if (Double.isNaN(perUnit)) return given.isEmpty() ? n : null;
        if (given.isEmpty()) return n * perUnit;
        Double g = MEMORY.containsKey(unit.replaceAll("^[0-9]+", "")) ? MEMORY.get(given) : TIME.get(given);
        return g == null ? null : n * g;
    }

    /** "8kB" → 8192 bytes, "ms" → 1, "min" → 60000; NaN for a unit this does not know. */
    private static double scale(String unit) {
        Matcher m = Pattern.compile("([0-9]*)([a-zA-Z]+)").matcher(unit);
        if (!m.matches()) return Double.NaN;
        double k = m.group(1).isEmpty() ? 1 : Double.parseDouble(m.group(1));
        Double base = MEMORY.containsKey(m.group(2)) ? MEMORY.get(m.group(2)) : TIME.get(m.group(2));
        return base == null ? Double.NaN : k * base;
    }
}
