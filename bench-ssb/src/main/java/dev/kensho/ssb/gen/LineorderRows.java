package dev.kensho.ssb.gen;

import java.io.IOException;

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

            long orderkey = ((order >>> 3) << 5) + (order & 7);
            byte[] orderdate = DATEKEYS[day];
            out.ensure(MAX_LINES * RowBuffer.MAX_ROW);
            for (int j = 0; j < lines; j++) {
                out.field(orderkey);
                out.field(j + 1);
                out.field(ck);
                out.field(partkey[j]);
                out.field(suppkey[j]);
                out.field(orderdate);
                out.field(prio);
                out.field(0);
                out.field(qty[j]);
                out.field(ext[j]);
                out.field(total);
                out.field(disc[j]);
                out.field(revenue[j]);
                out.field(supplycost[j]);
                out.field(tax[j]);
                out.field(DATEKEYS[day + commit[j]]);
                out.field(Distributions.SHIP_MODES[mode[j]]);
                out.endRow();
            }
        }
    }
}
