package dev.kensho.ssb.gen;

/**
 * Row counts and key ranges dbgen derives from {@code -s}: at SF >= 1 the integer part scales supplier, customer and
 * orders, part grows with log2 and the partkey range of lineorder with ln; below 1 every base count (date and orders
 * included) is multiplied by the fraction and truncated, at least 1.
 */
final class Scale {
    static final long PART_BASE = 200_000;
    static final long SUPPLIER_BASE = 2_000;
    static final long CUSTOMER_BASE = 30_000;
    static final long DATE_BASE = 2_557;
    static final long ORDER_BASE = 1_500_000;
    /** dbgen's MAX_SCALE: above it dbgen warns that the data "MAY NOT BE COMPLIANT"; Kensho refuses instead. */
    static final double MAX = 100_000;

    final double sf;
    final long parts;
    final long suppliers;
    final long customers;
    final long dates;
    final long orders;
    /** Upper bound of lo_partkey (dbgen's L_PKEY_MAX). */
    final long partKeyMax;

    Scale(double sf) {
        if (Double.isNaN(sf) || Double.isInfinite(sf)) {
            throw new IllegalArgumentException("scale factor must be a finite number, got " + sf);
        }
        if (sf <= 0) {
            throw new IllegalArgumentException("scale factor must be > 0 (dbgen would silently write one row per table), got " + sf);
        }
        if (sf > MAX) {
            throw new IllegalArgumentException("scale factor must be <= " + (long) MAX + " (dbgen's MAX_SCALE), got " + sf);
        }
        this.sf = sf;
        if (sf < 1) {
            parts = fraction(PART_BASE, sf);
            suppliers = fraction(SUPPLIER_BASE, sf);
            customers = fraction(CUSTOMER_BASE, sf);
            dates = fraction(DATE_BASE, sf);
            orders = fraction(ORDER_BASE, sf);
            partKeyMax = parts;
        } else {
            long scale = (long) sf; // dbgen truncates: -s 1.5 is -s 1
            parts = PART_BASE * (64 - Long.numberOfLeadingZeros(scale));
            suppliers = SUPPLIER_BASE * scale;
            customers = CUSTOMER_BASE * scale;
            dates = DATE_BASE;
            orders = ORDER_BASE * scale;
            partKeyMax = PART_BASE * ((long) Math.floor(Math.log(scale)) + 1);
        }
    }

    private static long fraction(long base, double sf) {
        return Math.max(1, (long) (base * sf));
    }
}
