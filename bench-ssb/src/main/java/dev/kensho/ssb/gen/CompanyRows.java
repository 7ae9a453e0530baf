package dev.kensho.ssb.gen;

import java.io.IOException;

import static dev.kensho.ssb.gen.Lcg.next;
import static dev.kensho.ssb.gen.Lcg.skip;
import static dev.kensho.ssb.gen.Lcg.unifInt;

/**
 * supplier and customer, which dbgen builds alike: name, random address (9 draws per row), nation, city (nation
 * prefix plus one digit), phone (3 draws), and for customers the market segment. Supplier and customer share the
 * city stream and the customer phone stream, so in a one-process run customer starts where supplier left them.
 */
final class CompanyRows implements TableRows {
    private static final int ADDRESS_DRAWS = 9;
    private static final byte[] SUPPLIER = Distributions.ascii("Supplier#");
    private static final byte[] CUSTOMER = Distributions.ascii("Customer#");

    private final boolean customer;
    private final long addressSeed;
    private final long nationSeed;
    /** Rows of the other table consumed from the shared city/phone streams before row 0 of this one. */
    private final long sharedOffset;

    private CompanyRows(boolean customer, long sharedOffset) {
        this.customer = customer;
        this.addressSeed = customer ? Lcg.C_ADDR : Lcg.S_ADDR;
        this.nationSeed = customer ? Lcg.C_NTRG : Lcg.S_NTRG;
        this.sharedOffset = sharedOffset;
    }

    static CompanyRows supplier() {
        return new CompanyRows(false, 0);
    }

    /** @param suppliersBefore rows supplier drew from the shared streams first (0 = dbgen run with {@code -T c}) */
    static CompanyRows customer(long suppliersBefore) {
        return new CompanyRows(true, suppliersBefore);
    }

    @Override
    public void write(long from, long to, RowBuffer out) throws IOException {
        long sAddr = skip(addressSeed, ADDRESS_DRAWS * from);
        long sNation = skip(nationSeed, from);
        long sCity = skip(Lcg.P_CITY, sharedOffset + from);
        long sPhone = skip(Lcg.C_PHNE, 3 * (sharedOffset + from));
        long sSeg = skip(Lcg.C_MSEG, from);
        long[] topUp = new long[ADDRESS_DRAWS + 1];
        for (int i = 0; i <= ADDRESS_DRAWS; i++) {
            topUp[i] = Lcg.pow(i);
        }
        byte[] alphabet = Distributions.ADDRESS_ALPHABET;
        byte[] prefix = customer ? CUSTOMER : SUPPLIER;
        for (long r = from; r < to; r++) {
            out.ensure(RowBuffer.MAX_ROW);
            out.field(r + 1);
            out.raw(prefix);
            out.putPadded(r + 1, 9);
            out.sep();

            // Address: length, then one 31-bit draw per 5 characters, 6 bits each; topped up to 9 draws per row.
            sAddr = next(sAddr);
            int len = unifInt(sAddr, 6, 24);
            int used = 1;
            long v = 0;
            for (int i = 0; i < len; i++) {
                if (i % 5 == 0) {
                    sAddr = next(sAddr);
                    v = Lcg.unif(sAddr, 0, 2147483647L);
                    used++;
                }
                out.rawByte(alphabet[(int) (v & 63)]);
                v >>= 6;
            }
            out.sep();
            sAddr = Lcg.mulMod(sAddr, topUp[ADDRESS_DRAWS - used]);

            sNation = next(sNation);
            int n = unifInt(sNation, 0, 24);
            sCity = next(sCity);
            int cityDigit = unifInt(sCity, 0, 9);
            out.raw(Distributions.CITY_PREFIXES[n]);
            out.putInt(cityDigit);
            out.sep();
            out.field(Distributions.NATIONS[n]);
            out.field(Distributions.REGIONS[Distributions.NATION_REGION[n]]);

            sPhone = next(sPhone);
            int a = unifInt(sPhone, 100, 999);
            sPhone = next(sPhone);
            int e = unifInt(sPhone, 100, 999);
            sPhone = next(sPhone);
            int x = unifInt(sPhone, 1000, 9999);
            out.putInt(10 + n);
            out.rawByte('-');
            out.putInt(a);
            out.rawByte('-');
            out.putInt(e);
            out.rawByte('-');
            out.putInt(x);
            out.sep();

            if (customer) {
                sSeg = next(sSeg);
                out.field(Distributions.SEGMENTS[unifInt(sSeg, 1, 5) - 1]);
            }
            out.endRow();
        }
    }
}
