package dev.kensho.scan;

/**
 * The two physical orders of the same rows that the study compares (クラスタ化率 高 / 低).
 * Keys are 1..N, stored zero-padded in col01; the table is filled in one INSERT … SELECT whose
 * row order is the physical order, and the index is built afterwards.
 */
public enum Layout {
    /** Inserted in key order: consecutive keys share a page (pg_stats.correlation ≈ 1). */
    HIGH("high"),
    /**
     * Inserted in the order of the multiplicative permutation i → (i·p mod N) + 1 for i = 0..N-1,
     * with p the integer nearest N·(√5−1)/2 that is coprime to N. Consecutive positions hold keys
     * about 0.618·N apart, so consecutive keys land on pages far apart and a range of keys touches
     * about one page per row (correlation ≈ 0). Deterministic: the same N gives the same table.
     */
    LOW("low");

    private final String label;

    Layout(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static Layout parse(String s) {
        for (Layout l : values()) if (l.label.equalsIgnoreCase(s.trim())) return l;
        throw new IllegalArgumentException("unknown layout '" + s + "' (high or low)");
    }
}
