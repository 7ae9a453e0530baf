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
        long o = orderStreamOffset + from;
        long sDate = skip(Lcg.O_ODATE, o);
        long sCust = skip(Lcg.O_CKEY, o);
        long sPrio = skip(Lcg.O_PRIO, o);
        long sCount = skip(Lcg.O_LCNT, o);
        long l = MAX_LINES * from;
        long sPart = skip(Lcg.L_PKEY, l);
        long sSupp = skip(Lcg.L_SKEY, l);
        long sQty = skip(Lcg.L_QTY, l);
        long sDisc = skip(Lcg.L_DCNT, l);
        long sTax = skip(Lcg.L_TAX, l);
        long sCommit = skip(Lcg.L_CDTE, l);
        long sMode = skip(Lcg.L_SMODE, l);

        final long cmax = scale.customers;
        final long pmax = scale.partKeyMax;
        final long smax = scale.suppliers;
        final double cRange = (double) cmax;
        final double pRange = (double) pmax;
        final double sRange = (double) smax;

        long[] partkey = new long[MAX_LINES];
        long[] suppkey = new long[MAX_LINES];
        int[] qty = new int[MAX_LINES];
        int[] disc = new int[MAX_LINES];
        int[] tax = new int[MAX_LINES];
        int[] commit = new int[MAX_LINES];
        int[] mode = new int[MAX_LINES];
        long[] ext = new long[MAX_LINES];
        long[] revenue = new long[MAX_LINES];
        long[] supplycost = new long[MAX_LINES];
        byte[] seg = new byte[128];
        final boolean copyFormat = out.copyFormat();

        for (long i = from; i < to; i++) {
            long order = i + 1;
            sDate = next(sDate);
            int day = unifInt(sDate, 0, ORDER_DAYS - 1);
            sCust = next(sCust);
            long ck = 1 + (long) ((double) sCust / 2147483647.0 * cRange);
            long delta = 1;
            while (ck % 3 == 0) { // dbgen skips every third customer
                ck = Math.min(ck + delta, cmax);
                delta = -delta;
            }
            sPrio = next(sPrio);
            byte[] prio = Distributions.PRIORITIES[unifInt(sPrio, 1, 5) - 1];
            sCount = next(sCount);
            int lines = unifInt(sCount, 1, MAX_LINES);

            long total = 0;
            for (int j = 0; j < lines; j++) {
                sPart = next(sPart);
                long pk = 1 + (long) ((double) sPart / 2147483647.0 * pRange);
                sSupp = next(sSupp);
                suppkey[j] = 1 + (long) ((double) sSupp / 2147483647.0 * sRange);
                sQty = next(sQty);
                int q = unifInt(sQty, 1, 50);
                sDisc = next(sDisc);
                int d = unifInt(sDisc, 0, 10);
                sTax = next(sTax);
                int t = unifInt(sTax, 0, 8);
                sCommit = next(sCommit);
                commit[j] = unifInt(sCommit, 30, 90);
                sMode = next(sMode);
                mode[j] = unifInt(sMode, 1, 7) - 1;

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
            if (lines < MAX_LINES) {
                long up = TOP_UP[MAX_LINES - lines];
                sPart = Lcg.mulMod(sPart, up);
                sSupp = Lcg.mulMod(sSupp, up);
                sQty = Lcg.mulMod(sQty, up);
                sDisc = Lcg.mulMod(sDisc, up);
                sTax = Lcg.mulMod(sTax, up);
                sCommit = Lcg.mulMod(sCommit, up);
                sMode = Lcg.mulMod(sMode, up);
            }

            // Fields that repeat on every line of the order are formatted once: "orderkey|", "custkey|",
            // "orderdate|priority|0|" and "ordtotalprice|".
            long orderkey = ((order >>> 3) << 5) + (order & 7);
            int keyEnd = putField(seg, 0, orderkey);
            int custEnd = putField(seg, keyEnd, ck);
            int midEnd = RowBuffer.putField(seg, custEnd, DATEKEYS[day]);
            midEnd = RowBuffer.putField(seg, midEnd, prio);
            seg[midEnd++] = '0';
            seg[midEnd++] = '|';
            int totalEnd = putField(seg, midEnd, total);

            out.ensure(MAX_LINES * RowBuffer.MAX_ROW);
            byte[] a = out.array();
            int p = out.length();
            for (int j = 0; j < lines; j++) {
                p = copy(seg, 0, keyEnd, a, p);
                a[p++] = (byte) ('1' + j);
                a[p++] = '|';
                p = copy(seg, keyEnd, custEnd, a, p);
                p = putField(a, p, partkey[j]);
                p = putField(a, p, suppkey[j]);
                p = copy(seg, custEnd, midEnd, a, p);
                p = putField(a, p, qty[j]);
                p = putField(a, p, ext[j]);
                p = copy(seg, midEnd, totalEnd, a, p);
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
            out.length(p);
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
