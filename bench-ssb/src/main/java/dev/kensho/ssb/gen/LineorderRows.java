package dev.kensho.ssb.gen;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import static dev.kensho.ssb.gen.Lcg.next;
import static dev.kensho.ssb.gen.Lcg.skip;
import static dev.kensho.ssb.gen.Lcg.unifInt;

/**
 * lineorder, one generation unit per order. Each order draws once on each order stream (date, customer, priority,
 * clerk, line count) and exactly 7 times on each line stream (one per line present, topped up to 7), so order i
 * starts at order-stream position (i + dateRows) and line-stream position 7i: that is the exact jump-ahead.
 */
final class LineorderRows implements TableRows {
    static final int MAX_LINES = 7;
    /** Order dates span 2406 days from 1992-01-01 (dbgen: 92001..94406); commit dates add 30..90 days. */
    private static final int ORDER_DAYS = 2406;
    private static final byte[][] DATEKEYS = DateRows.datekeys(ORDER_DAYS + 90);
    /** {@code 16807^k}: tops a line stream up from {@code 7-k} used draws to 7. */
    private static final long[] TOP_UP = new long[MAX_LINES + 1];

    static {
        for (int k = 0; k <= MAX_LINES; k++) {
            TOP_UP[k] = Lcg.pow(k);
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** DATEKEYS and ship modes as little-endian 8-byte words, for single-store copies. */
    private static final long[] DATE_LONGS = new long[DATEKEYS.length];
    private static final long[] MODE_LONGS = new long[Distributions.SHIP_MODES.length];
    private static final int[] MODE_LENGTHS = new int[Distributions.SHIP_MODES.length];

    static {
        for (int i = 0; i < DATEKEYS.length; i++) {
            DATE_LONGS[i] = (long) LONGS.get(DATEKEYS[i], 0);
        }
        for (int i = 0; i < MODE_LONGS.length; i++) {
            byte[] padded = java.util.Arrays.copyOf(Distributions.SHIP_MODES[i], 8);
            MODE_LONGS[i] = (long) LONGS.get(padded, 0);
            MODE_LENGTHS[i] = Distributions.SHIP_MODES[i].length;
        }
    }

    private final Scale scale;
    /** Draws taken from the order streams before order 0: one per date row in a one-process dbgen run. */
    private final long orderStreamOffset;

    LineorderRows(Scale scale, long orderStreamOffset) {
        this.scale = scale;
        this.orderStreamOffset = orderStreamOffset;
    }

    /** Lines of orders [from, to): one pass over the line-count stream only (about 3 ns per order). */
    long lines(long from, long to) {
        long s = skip(Lcg.O_LCNT, orderStreamOffset + from);
        long n = 0;
        for (long i = from; i < to; i++) {
            s = next(s);
            n += unifInt(s, 1, MAX_LINES);
        }
        return n;
    }

    @Override
    public void write(long from, long to, RowBuffer out) throws IOException {
        Cursor c = new Cursor(scale, orderStreamOffset, from, out.copyFormat());
        for (long i = from; i < to; i++) {
            out.ensure(MAX_LINES * RowBuffer.MAX_ROW);
            out.length(c.order(i, out.array(), out.length()));
        }
    }

    /**
     * The streams positioned at one order and the per-order scratch. One order per call keeps the hot code in a
     * method the JIT compiles once, normally, instead of as large on-stack-replacement compiles of a long loop
     * (which on 2 cores cost more than the whole generation at SF 1).
     */
    private static final class Cursor {
        private long sDate;
        private long sCust;
        private long sPrio;
        private long sCount;
        private long sPart;
        private long sSupp;
        private long sQty;
        private long sDisc;
        private long sTax;
        private long sCommit;
        private long sMode;

        private final long cmax;
        private final double cRange;
        private final double pRange;
        private final double sRange;
        private final boolean copyFormat;

        private final long[] partkey = new long[MAX_LINES];
        private final long[] suppkey = new long[MAX_LINES];
        private final int[] qty = new int[MAX_LINES];
        private final int[] disc = new int[MAX_LINES];
        private final int[] tax = new int[MAX_LINES];
        private final int[] commit = new int[MAX_LINES];
        private final int[] mode = new int[MAX_LINES];
        private final long[] ext = new long[MAX_LINES];
        private final long[] revenue = new long[MAX_LINES];
        private final long[] supplycost = new long[MAX_LINES];
        /** "orderkey|custkey|orderdate|priority|0|ordtotalprice|" of the current order, with 8 bytes of slack. */
        private final byte[] seg = new byte[128];

        Cursor(Scale scale, long orderStreamOffset, long from, boolean copyFormat) {
            long o = orderStreamOffset + from;
            sDate = skip(Lcg.O_ODATE, o);
            sCust = skip(Lcg.O_CKEY, o);
            sPrio = skip(Lcg.O_PRIO, o);
            sCount = skip(Lcg.O_LCNT, o);
            long l = MAX_LINES * from;
            sPart = skip(Lcg.L_PKEY, l);
            sSupp = skip(Lcg.L_SKEY, l);
            sQty = skip(Lcg.L_QTY, l);
            sDisc = skip(Lcg.L_DCNT, l);
            sTax = skip(Lcg.L_TAX, l);
            sCommit = skip(Lcg.L_CDTE, l);
            sMode = skip(Lcg.L_SMODE, l);
            cmax = scale.customers;
            cRange = (double) scale.customers;
            pRange = (double) scale.partKeyMax;
            sRange = (double) scale.suppliers;
            this.copyFormat = copyFormat;
        }

        /** Formats the lines of order index i (0-based) at a[p] and returns the end; a has room for 7 rows. */
        int order(long i, byte[] a, int p) {
            long order = i + 1;
            long s = next(sDate);
            sDate = s;
            int day = unifInt(s, 0, ORDER_DAYS - 1);
            s = next(sCust);
            sCust = s;
            long ck = 1 + (long) ((double) s / 2147483647.0 * cRange);
            long delta = 1;
            while (ck % 3 == 0) { // dbgen skips every third customer
                ck = Math.min(ck + delta, cmax);
                delta = -delta;
            }
            s = next(sPrio);
            sPrio = s;
            byte[] prio = Distributions.PRIORITIES[unifInt(s, 1, 5) - 1];
            s = next(sCount);
            sCount = s;
            int lines = unifInt(s, 1, MAX_LINES);

            long part = sPart;
            long supp = sSupp;
            long qt = sQty;
            long dc = sDisc;
            long tx = sTax;
            long cd = sCommit;
            long md = sMode;
            long total = 0;
            for (int j = 0; j < lines; j++) {
                part = next(part);
                long pk = 1 + (long) ((double) part / 2147483647.0 * pRange);
                supp = next(supp);
                suppkey[j] = 1 + (long) ((double) supp / 2147483647.0 * sRange);
                qt = next(qt);
                int q = unifInt(qt, 1, 50);
                dc = next(dc);
                int d = unifInt(dc, 0, 10);
                tx = next(tx);
                int t = unifInt(tx, 0, 8);
                cd = next(cd);
                commit[j] = unifInt(cd, 30, 90);
                md = next(md);
                mode[j] = unifInt(md, 1, 7) - 1;

                long rprice = 90000 + ((pk / 10) % 20001) + (pk % 1000) * 100;
                long e = rprice * q;
                long rev = e * (100 - d) / 100;
                partkey[j] = pk;
                qty[j] = q;
                disc[j] = d;
                tax[j] = t;
                ext[j] = e;
                revenue[j] = rev;
                supplycost[j] = 6 * rprice / 10;
                total += rev * (100 + t) / 100;
            }
            // Each line stream is topped up to 7 draws per order.
            long up = TOP_UP[MAX_LINES - lines];
            sPart = Lcg.mulMod(part, up);
            sSupp = Lcg.mulMod(supp, up);
            sQty = Lcg.mulMod(qt, up);
            sDisc = Lcg.mulMod(dc, up);
            sTax = Lcg.mulMod(tx, up);
            sCommit = Lcg.mulMod(cd, up);
            sMode = Lcg.mulMod(md, up);

            // Fields that repeat on every line of the order are formatted once: "orderkey|", "custkey|",
            // "orderdate|priority|0|" and "ordtotalprice|".
            byte[] sg = seg;
            int keyEnd = putField(sg, 0, ((order >>> 3) << 5) + (order & 7));
            int custEnd = putField(sg, keyEnd, ck);
            LONGS.set(sg, custEnd, DATE_LONGS[day]);
            sg[custEnd + 8] = '|';
            int midEnd = RowBuffer.putField(sg, custEnd + 9, prio);
            sg[midEnd++] = '0';
            sg[midEnd++] = '|';
            int totalEnd = putField(sg, midEnd, total);

            for (int j = 0; j < lines; j++) {
                p = copy(sg, 0, keyEnd, a, p);
                a[p++] = (byte) ('1' + j);
                a[p++] = '|';
                p = copy(sg, keyEnd, custEnd, a, p);
                p = putField(a, p, partkey[j]);
                p = putField(a, p, suppkey[j]);
                p = copy(sg, custEnd, midEnd, a, p);
                p = putField(a, p, qty[j]);
                p = putField(a, p, ext[j]);
                p = copy(sg, midEnd, totalEnd, a, p);
                p = putField(a, p, disc[j]);
                p = putField(a, p, revenue[j]);
                p = putField(a, p, supplycost[j]);
                p = putField(a, p, tax[j]);
                LONGS.set(a, p, DATE_LONGS[day + commit[j]]); // 8 ASCII digits in one store
                a[p + 8] = '|';
                p += 9;
                LONGS.set(a, p, MODE_LONGS[mode[j]]); // at most 7 letters; the slack byte is overwritten
                p += MODE_LENGTHS[mode[j]];
                a[p++] = '|';
                if (copyFormat) {
                    a[p - 1] = '\n';
                } else {
                    a[p++] = '\n';
                }
            }
            return p;
        }
    }

    private static int putField(byte[] a, int p, long v) {
        p = RowBuffer.putLong(a, p, v);
        a[p] = '|';
        return p + 1;
    }

    /**
     * Copies src[from, to) to a[p...] eight bytes at a time; may write up to 7 bytes past the end (later
     * overwritten; the caller reserved a whole row of slack). src must extend 7 bytes past {@code to}.
     */
    private static int copy(byte[] src, int from, int to, byte[] a, int p) {
        int n = to - from;
        for (int i = 0; i < n; i += 8) {
            LONGS.set(a, p + i, (long) LONGS.get(src, from + i));
        }
        return p + n;
    }
}
