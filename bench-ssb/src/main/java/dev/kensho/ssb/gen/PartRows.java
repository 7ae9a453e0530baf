package dev.kensho.ssb.gen;

import java.io.IOException;

import static dev.kensho.ssb.gen.Lcg.next;
import static dev.kensho.ssb.gen.Lcg.skip;
import static dev.kensho.ssb.gen.Lcg.unifInt;

/**
 * part: a 92-swap permutation of the colors (first word = p_color, next two = p_name), then manufacturer, category,
 * brand (not zero padded), type, size and container, each on its own stream, one draw per row
 * (92 for the permutation).
 */
final class PartRows implements TableRows {
    private static final byte[] MFGR = Distributions.ascii("MFGR#");
    private static final int COLORS = Distributions.COLORS.length;

    @Override
    public void write(long from, long to, RowBuffer out) throws IOException {
        Cursor c = new Cursor(from);
        for (long r = from; r < to; r++) {
            out.ensure(RowBuffer.MAX_ROW);
            c.row(r, out);
        }
    }

    /** Streams positioned at one row; one row per call, so the JIT compiles it normally (see LineorderRows). */
    private static final class Cursor {
        private long sName;
        private long sMfg;
        private long sCat;
        private long sBrand;
        private long sType;
        private long sSize;
        private long sCntr;
        private final int[] perm = new int[COLORS];

        Cursor(long from) {
            sName = skip(Lcg.P_NAME, COLORS * from);
            sMfg = skip(Lcg.P_MFG, from);
            sCat = skip(Lcg.P_CAT, from);
            sBrand = skip(Lcg.P_BRND, from);
            sType = skip(Lcg.P_TYPE, from);
            sSize = skip(Lcg.P_SIZE, from);
            sCntr = skip(Lcg.P_CNTR, from);
        }

        void row(long r, RowBuffer out) {
            int[] pm = perm;
            for (int i = 0; i < COLORS; i++) {
                pm[i] = i;
            }
            long s = sName;
            for (int i = 0; i < COLORS; i++) {
                s = next(s);
                int k = unifInt(s, 0, COLORS - 1);
                int t = pm[i];
                pm[i] = pm[k];
                pm[k] = t;
            }
            sName = s;
            sMfg = next(sMfg);
            int m = unifInt(sMfg, 1, 5);
            sCat = next(sCat);
            int c = unifInt(sCat, 1, 5);
            sBrand = next(sBrand);
            int brand = unifInt(sBrand, 1, 40);
            sType = next(sType);
            int type = unifInt(sType, 1, Distributions.TYPES.length) - 1;
            sSize = next(sSize);
            int size = unifInt(sSize, 1, 50);
            sCntr = next(sCntr);
            int cntr = unifInt(sCntr, 1, Distributions.CONTAINERS.length) - 1;

            out.field(r + 1);
            out.raw(Distributions.COLORS[pm[1]]);
            out.rawByte(' ');
            out.field(Distributions.COLORS[pm[2]]);
            out.raw(MFGR);
            out.field(m);
            out.raw(MFGR);
            out.putInt(m);
            out.field(c);
            out.raw(MFGR);
            out.putInt(m);
            out.putInt(c);
            out.field(brand);
            out.field(Distributions.COLORS[pm[0]]);
            out.field(Distributions.TYPES[type]);
            out.field(size);
            out.field(Distributions.CONTAINERS[cntr]);
            out.endRow();
        }
    }
}
