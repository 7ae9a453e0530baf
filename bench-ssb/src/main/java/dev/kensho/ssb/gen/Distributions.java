package dev.kensho.ssb.gen;

import java.nio.charset.StandardCharsets;

/**
 * The value lists of the TPC-H/SSB specifications that SSB columns draw from, in specification order (the order is
 * what makes a drawn index map to the same word as dbgen). Kept as ASCII bytes because rows are written as bytes.
 * All lists used here have weight 1 per entry, so a draw {@code UnifInt(1, n)} selects entry {@code draw - 1}.
 */
final class Distributions {
    private Distributions() {
    }

    static final String[] NATION_NAMES = {
        "ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE", "GERMANY", "INDIA", "INDONESIA",
        "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA", "MOROCCO", "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA",
        "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES"};

    /** Region index of each nation (the specification's nation-to-region map). */
    static final int[] NATION_REGION = {
        0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1};

    static final String[] REGION_NAMES = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

    static final String[] COLOR_NAMES = {
        "almond", "antique", "aquamarine", "azure", "beige", "bisque", "black", "blanched", "blue", "blush",
        "brown", "burlywood", "burnished", "chartreuse", "chiffon", "chocolate", "coral", "cornflower", "cornsilk",
        "cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick", "floral", "forest", "frosted",
        "gainsboro", "ghost", "goldenrod", "green", "grey", "honeydew", "hot", "indian", "ivory", "khaki", "lace",
        "lavender", "lawn", "lemon", "light", "lime", "linen", "magenta", "maroon", "medium", "metallic", "midnight", "mint",
        "misty", "moccasin", "navajo", "navy", "olive", "orange", "orchid", "pale", "papaya", "peach", "peru",
        "pink", "plum", "powder", "puff", "purple", "red", "rose", "rosy", "royal", "saddle", "salmon", "sandy",
        "seashell", "sienna", "sky", "slate", "smoke", "snow", "spring", "steel", "tan", "thistle", "tomato",
        "turquoise", "violet", "wheat", "white", "yellow"};

    private static final String[] TYPE_SIZE = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
    private static final String[] TYPE_FINISH = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
    private static final String[] TYPE_METAL = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
    private static final String[] CONTAINER_SIZE = {"SM", "LG", "MED", "JUMBO", "WRAP"};
    private static final String[] CONTAINER_KIND = {"CASE", "BOX", "BAG", "JAR", "PACK", "PKG", "CAN", "DRUM"};

    static final String[] SEGMENT_NAMES = {"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"};
    static final String[] PRIORITY_NAMES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
    static final String[] SHIP_MODE_NAMES = {"REG AIR", "AIR", "RAIL", "TRUCK", "MAIL", "FOB", "SHIP"};

    /** Address alphabet of dbgen's random strings: digits, lower case, space, upper case, comma (64 characters). */
    static final byte[] ADDRESS_ALPHABET =
        ascii("0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,");

    static final byte[][] NATIONS = ascii(NATION_NAMES);
    static final byte[][] REGIONS = ascii(REGION_NAMES);
    static final byte[][] COLORS = ascii(COLOR_NAMES);
    static final byte[][] TYPES = ascii(product(product(TYPE_SIZE, TYPE_FINISH), TYPE_METAL));
    static final byte[][] CONTAINERS = ascii(product(CONTAINER_SIZE, CONTAINER_KIND));
    static final byte[][] SEGMENTS = ascii(SEGMENT_NAMES);
    static final byte[][] PRIORITIES = ascii(PRIORITY_NAMES);
    static final byte[][] SHIP_MODES = ascii(SHIP_MODE_NAMES);

    /** City prefix per nation: the first 9 characters of the name, right-padded with spaces to 9. */
    static final byte[][] CITY_PREFIXES = cityPrefixes();

    static {
        // Draw ranges depend on the list sizes; a missing word would silently shift every later row.
        check(NATION_NAMES.length == 25 && NATION_REGION.length == 25 && COLORS.length == 92 && TYPES.length == 150
            && CONTAINERS.length == 40 && SEGMENTS.length == 5 && PRIORITIES.length == 5 && SHIP_MODES.length == 7
            && ADDRESS_ALPHABET.length == 64);
    }

    private static void check(boolean sizesAsSpecified) {
        if (!sizesAsSpecified) {
            throw new AssertionError("SSB distribution list sizes differ from the specification");
        }
    }

    private static String[] product(String[] outer, String[] inner) {
        String[] out = new String[outer.length * inner.length];
        int k = 0;
        for (String a : outer) {
            for (String b : inner) {
                out[k++] = a + " " + b;
            }
        }
        return out;
    }

    private static byte[][] cityPrefixes() {
        byte[][] out = new byte[NATION_NAMES.length][];
        for (int i = 0; i < out.length; i++) {
            String n = NATION_NAMES[i];
            out[i] = ascii((n.length() >= 9 ? n.substring(0, 9) : n + " ".repeat(9 - n.length())));
        }
        return out;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[][] ascii(String[] s) {
        byte[][] out = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            out[i] = ascii(s[i]);
        }
        return out;
    }
}
