package dev.kensho.ssb.gen;

/**
 * Park–Miller "minimal standard" streams as dbgen uses them: {@code x' = 16807 x mod (2^31-1)}, one independent seed
 * per column, and {@code UnifInt} mapping a seed to {@code [lo, hi]} through IEEE double arithmetic.
 */
final class Lcg {
    static final long M = 2147483647L;
    static final long A = 16807L;

    // Initial seeds of the streams SSB output depends on (dbgen's Seed[] table, by stream role).
    static final long P_MFG = 1L;
    static final long P_BRND = 46831694L;
    static final long P_TYPE = 1841581359L;
    static final long P_SIZE = 1193163244L;
    static final long P_CNTR = 727633698L;
    static final long P_NAME = 709314158L;
    static final long P_CAT = 637858759L;
    static final long S_ADDR = 706178559L;
    static final long S_NTRG = 110356601L;
    static final long C_ADDR = 881155353L;
    static final long C_NTRG = 1489529863L;
    static final long C_PHNE = 1521138112L;
    static final long C_MSEG = 1140279430L;
    static final long P_CITY = 1495190827L;
    static final long O_ODATE = 1066728069L;
    static final long O_CKEY = 851767375L;
    static final long O_PRIO = 591449447L;
    static final long O_LCNT = 1434868289L;
    static final long L_PKEY = 1808217256L;
    static final long L_SKEY = 2095021727L;
    static final long L_QTY = 209208115L;
    static final long L_DCNT = 554590007L;
    static final long L_TAX = 721958466L;
    static final long L_CDTE = 904914315L;
    static final long L_SMODE = 675466456L;

    private Lcg() {
    }

    /**
     * One step. {@code x mod (2^31-1)} by folding the high bits twice, branch-free (a rarely taken branch here made
     * the JIT deoptimise the hot loops). {@code x < 2^46}, so after two folds the value is below 2^31; it can never be M
     * itself because x is never a multiple of the prime M.
     */
    static long next(long seed) {
        long x = seed * A;
        long r = (x & M) + (x >>> 31);
        return (r & M) + (r >>> 31);
    }

    /** dbgen's UnifInt on an already advanced seed: division first, then multiply, truncation toward zero. */
    static long unif(long seed, long lo, long hi) {
        return lo + (long) ((double) seed / 2147483647.0 * (double) (hi - lo + 1));
    }

    /** Same as {@link #unif} for small ranges; int arithmetic keeps the hot loops cheaper. */
    static int unifInt(long seed, int lo, int hi) {
        return lo + (int) ((double) seed / 2147483647.0 * (double) (hi - lo + 1));
    }

    /** {@code seed * 16807^n mod (2^31-1)}: the seed after n steps (exact jump-ahead). */
    static long skip(long seed, long n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative skip " + n);
        }
        return mulMod(seed, pow(n));
    }

    /** {@code 16807^n mod (2^31-1)} by square and multiply; every product is below 2^62. */
    static long pow(long n) {
        long result = 1;
        long base = A;
        while (n > 0) {
            if ((n & 1) != 0) {
                result = result * base % M;
            }
            base = base * base % M;
            n >>>= 1;
        }
        return result;
    }

    /**
     * {@code a * b mod (2^31-1)} for a, b in 1..M-1 without a 64-bit division (it is on the per-order top-up path):
     * three folds take the product below 2^62 to its residue; the result is never M because M is prime.
     */
    static long mulMod(long a, long b) {
        long x = a * b;
        long r = (x & M) + (x >>> 31);
        r = (r & M) + (r >>> 31);
        return (r & M) + (r >>> 31);
    }
}
