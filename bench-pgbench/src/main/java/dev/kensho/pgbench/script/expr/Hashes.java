package dev.kensho.pgbench.script.expr;

import dev.kensho.pgbench.script.PgbenchRandom;

/** pgbench's hash functions and its pseudorandom permutation, bit-exact (unsigned 64-bit arithmetic). */
public final class Hashes {
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long MM2_MUL = 0xc6a4a7935bd1e995L;
    private static final long MM2_MUL_TIMES_8 = 0x35253c9ade8f4ca8L;
    private static final int MM2_ROT = 47;

    private Hashes() {
    }

    /** FNV-1a over the 8 bytes of val, low byte first. */
    public static long fnv1a(long val, long seed) {
        long result = FNV_OFFSET_BASIS ^ seed;
        for (int i = 0; i < 8; i++) {
            long octet = val & 0xff;
            val = val >> 8;
            result = (result ^ octet) * FNV_PRIME;
        }
        return result;
    }

    /** MurmurHash64A of one 64-bit value. */
    public static long murmur2(long val, long seed) {
        long result = seed ^ MM2_MUL_TIMES_8;
        long k = val * MM2_MUL;
        k ^= k >>> MM2_ROT;
        k *= MM2_MUL;
        result ^= k;
        result *= MM2_MUL;
        result ^= result >>> MM2_ROT;
        result *= MM2_MUL;
        result ^= result >>> MM2_ROT;
        return result;
    }

    /**
     * pgbench's permute(val, size, seed): six rounds of random odd multiply, xor and rotate over the lower and
     * upper power-of-two windows, plus a random offset, driven by a generator seeded with {@code seed}.
     */
    public static long permute(long val, long isize, long seed) {
        if (isize < 2) {
            return 0;
        }
        PgbenchRandom state = new PgbenchRandom(seed);
        long size = isize;
        long v = Long.remainderUnsigned(val, size);
        int masklen = 63 - Long.numberOfLeadingZeros(size);
        long mask = (1L << masklen) - 1;
        for (int i = 0; i < 6; i++) {
            long m = (state.nextLong() & mask) | 1;
            long r = state.nextLong() & mask;
            if (Long.compareUnsigned(v, mask) <= 0) {
                v = ((v * m) ^ r) & mask;
                v = ((v << 1) & mask) | (v >>> (masklen - 1));
            }
            m = (state.nextLong() & mask) | 1;
            r = state.nextLong() & mask;
            long t = size - 1 - v;
            if (Long.compareUnsigned(t, mask) <= 0) {
                t = ((t * m) ^ r) & mask;
                t = ((t << 1) & mask) | (t >>> (masklen - 1));
                v = size - 1 - t;
            }
            r = state.nextUnsignedInRange(0, size - 1);
            v = Long.remainderUnsigned(v + r, size);
        }
        return v;
    }
}
