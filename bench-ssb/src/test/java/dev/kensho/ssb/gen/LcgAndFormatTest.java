package dev.kensho.ssb.gen;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The branch-free modular arithmetic and the SWAR decimal formatter against plain reference computations. */
class LcgAndFormatTest {
    private static final BigInteger M = BigInteger.valueOf(Lcg.M);

    @Test
    void stepMultiplyAndSkipAgreeWithBigInteger() {
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            long a = 1 + r.nextLong(Lcg.M - 1);
            long b = 1 + r.nextLong(Lcg.M - 1);
            assertEquals(a * 16807 % Lcg.M, Lcg.next(a), "next(" + a + ")");
            assertEquals(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).mod(M).longValue(), Lcg.mulMod(a, b),
                a + " * " + b);
        }
        // Extremes of the residue range.
        assertEquals(BigInteger.valueOf(Lcg.M - 1).pow(2).mod(M).longValue(), Lcg.mulMod(Lcg.M - 1, Lcg.M - 1));
        assertEquals(16807L * (Lcg.M - 1) % Lcg.M, Lcg.next(Lcg.M - 1));
        // skip(n) = n single steps.
        long s = Lcg.L_PKEY;
        for (int n = 0; n < 5000; n++) {
            assertEquals(s, Lcg.skip(Lcg.L_PKEY, n), "skip " + n);
            s = Lcg.next(s);
        }
        long far = 7L * 1_234_567_890L;
        assertEquals(BigInteger.valueOf(16807).modPow(BigInteger.valueOf(far), M).multiply(BigInteger.valueOf(Lcg.O_CKEY))
            .mod(M).longValue(), Lcg.skip(Lcg.O_CKEY, far));
    }

    @Test
    void decimalFormattingMatchesToString() {
        byte[] a = new byte[64];
        SplittableRandom r = new SplittableRandom(7);
        long[] edges = {0, 9, 10, 99, 100, 9999, 10000, 99_999_999, 100_000_000, Integer.MAX_VALUE,
            Integer.MAX_VALUE + 1L, 6_000_000_000L, Long.MAX_VALUE, -1, -123_456_789_012L};
        for (long v : edges) {
            assertFormats(a, v);
        }
        for (int i = 0; i < 300_000; i++) {
            assertFormats(a, r.nextInt(1 + r.nextInt(Integer.MAX_VALUE)));
        }
        for (long v = 1; v <= Integer.MAX_VALUE; v *= 10) {
            for (long w : new long[] {v - 1, v, v + 1, 2 * v - 1}) {
                if (w <= Integer.MAX_VALUE) {
                    assertEquals(Long.toString(w).length(), RowBuffer.digits((int) w), "digits(" + w + ")");
                }
            }
        }
        assertEquals(10, RowBuffer.digits(Integer.MAX_VALUE));
        RowBuffer buf = new RowBuffer(RowFormat.TBL, null, 64);
        buf.putPadded(42, 9);
        buf.sep();
        buf.putPadded(1_234_567_890L, 9);
        assertEquals("000000042|1234567890", new String(buf.array(), 0, buf.length(), StandardCharsets.US_ASCII));
    }

    private static void assertFormats(byte[] a, long v) {
        Arrays.fill(a, (byte) 'x');
        int end = RowBuffer.putLong(a, 5, v);
        assertEquals(Long.toString(v), new String(a, 5, end - 5, StandardCharsets.US_ASCII));
        assertEquals('x', a[4], "wrote before the position for " + v);
    }
}
