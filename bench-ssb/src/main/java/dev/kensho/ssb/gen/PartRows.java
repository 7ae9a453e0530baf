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
        long sName = skip(Lcg.P_NAME, COLORS * from);
        long sMfg = skip(Lcg.P_MFG, from);
        long sCat = skip(Lcg.P_CAT, from);
        long sBrand = skip(Lcg.P_BRND, from);
        long sType = skip(Lcg.P_TYPE, from);
        long sSize = skip(Lcg.P_SIZE, from);
        long sCntr = skip(Lcg.P_CNTR, from);
        int[] perm = new int[COLORS];
        for (long r = from; r < to; r++) {
            for (int i = 0; i < COLORS; i++) {
                perm[i] = i;
            }
            for (int i = 0; i < COLORS; i++) {
                sName = next(sName);
                int s = unifInt(sName, 0, COLORS - 1);
                int t = perm[i];
                perm[i] = perm[s];
                perm[s] = t;
            }
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

            out.ensure(RowBuffer.MAX_ROW);
            out.field(r + 1);
            out.raw(Distributions.COLORS[perm[1]]);
            out.rawByte(' ');
            out.field(Distributions.COLORS[perm[2]]);
            out.raw(MFGR);
            out.field(m);
            out.raw(MFGR);
            out.putInt(m);
            out.field(c);
            out.raw(MFGR);
            out.putInt(m);
            out.putInt(c);
            out.field(brand);
            out.field(Distributions.COLORS[perm[0]]);
            out.field(Distributions.TYPES[type]);
            out.field(size);
            out.field(Distributions.CONTAINERS[cntr]);
            out.endRow();
        }
    }
}
