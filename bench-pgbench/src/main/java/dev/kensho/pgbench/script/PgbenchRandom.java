package dev.kensho.pgbench.script;

/**
 * pgbench's pseudo-random generator: xoroshiro128** seeded through splitmix64 (PostgreSQL's
 * {@code src/common/pg_prng.c}), with pgbench's derived distributions. Bit-exact with PostgreSQL 15+,
 * so {@code --random-seed} reproduces pgbench's values. Not thread-safe: one instance per client or thread,
 * as pgbench keeps one state per client ({@code cs_func_rs}) and three per thread.
 */
public final class PgbenchRandom {
    private long s0;
    private long s1;

    /** A state seeded with {@code pg_prng_seed(seed)}. */
    public PgbenchRandom(long seed) {
        reseed(seed);
    }

    private PgbenchRandom(long s0, long s1) {
        this.s0 = s0;
        this.s1 = s1;
    }

    /** pg_prng_seed: two splitmix64 steps; the all-zero state is replaced as PostgreSQL does. */
    public void reseed(long seed) {
        long[] sm = {seed};
        s0 = splitmix64(sm);
        s1 = splitmix64(sm);
        if (s0 == 0 && s1 == 0) {
            s0 = 0x5851F42D4C957F2DL;
            s1 = 0x14057B7EF767814FL;
        }
    }

    private static long splitmix64(long[] state) {
        long val = (state[0] += 0x9E3779B97F4A7C15L);
        val = (val ^ (val >>> 30)) * 0xBF58476D1CE4E5B9L;
        val = (val ^ (val >>> 27)) * 0x94D049BB133111EBL;
        return val ^ (val >>> 31);
    }

    /** pg_prng_uint64: the next 64 random bits (xoroshiro128**). */
    public long nextLong() {
        long a = s0;
        long sx = s1 ^ a;
        long val = Long.rotateLeft(a * 5, 7) * 9;
        s0 = Long.rotateLeft(a, 24) ^ sx ^ (sx << 16);
        s1 = Long.rotateLeft(sx, 37);
        return val;
    }

    /** A new generator seeded from this one's next value (pgbench's initRandomState). */
    public PgbenchRandom derive() {
        return new PgbenchRandom(nextLong());
    }

    /** pg_prng_uint64_range: uniform in [rmin, rmax], unsigned, by rejection of the top bits. */
    public long nextUnsignedInRange(long rmin, long rmax) {
        long val = 0;
        if (Long.compareUnsigned(rmax, rmin) > 0) {
            long range = rmax - rmin;
            int rshift = Long.numberOfLeadingZeros(range);
            do {
                val = nextLong() >>> rshift;
            } while (Long.compareUnsigned(val, range) > 0);
        }
        return rmin + val;
    }

    /** pgbench getrand: uniform integer in [min, max]; the caller guarantees max - min + 1 fits. */
    public long nextInRange(long min, long max) {
        return min + nextUnsignedInRange(0, max - min);
    }

    /** pg_prng_double: 52 random bits in [0, 1) (PostgreSQL assumes 52 mantissa bits; the lowest 12 are dropped). */
    public double nextDouble() {
        return (nextLong() >>> 12) * 0x1.0p-52;
    }

    /** pgbench getExponentialRand (parameter > 0 is checked by the caller). */
    public long nextExponential(long min, long max, double parameter) {
        double cut = Math.exp(-parameter);
        double uniform = 1.0 - nextDouble();
        double rand = -Math.log(cut + (1.0 - cut) * uniform) / parameter;
        return min + int64((max - min + 1) * rand);
    }

    /** pgbench getGaussianRand: Box-Muller on two values in (0, 1], rejecting results outside [-parameter, parameter). */
    public long nextGaussian(long min, long max, double parameter) {
        double stdev;
        do {
            double rand1 = 1.0 - nextDouble();
            double rand2 = 1.0 - nextDouble();
            stdev = Math.sqrt(-2.0 * Math.log(rand1)) * Math.sin(2.0 * Math.PI * rand2);
        } while (stdev < -parameter || stdev >= parameter);
        double rand = (stdev + parameter) / (parameter * 2.0);
        return min + int64((max - min + 1) * rand);
    }

    /**
     * C's {@code (int64)} of a double as x86-64 computes it (cvttsd2si): NaN and values beyond the range give
     * INT64_MIN where Java's cast gives 0 or saturates. A NaN or infinite gaussian/exponential parameter passes
     * pgbench's checks and makes rand NaN, so pgbench 15 returns min + INT64_MIN; so does this.
     */
    static long int64(double d) {
        return Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63 ? Long.MIN_VALUE : (long) d;
    }

    /** pgbench getZipfianRand: the iterative rejection method (s in [1.001, 1000] checked by the caller). */
    public long nextZipfian(long min, long max, double s) {
        long n = max - min + 1;
        return min - 1 + iterativeZipfian(n, s);
    }

    private long iterativeZipfian(long n, double s) {
        double b = Math.pow(2.0, s - 1.0);
        if (n <= 1) {
            return 1;
        }
        double x;
        while (true) {
            double u = nextDouble();
            double v = nextDouble();
            x = Math.floor(Math.pow(u, -1.0 / (s - 1.0)));
            double t = Math.pow(1.0 + 1.0 / x, s - 1.0);
            if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n) {
                break;
            }
        }
        return (long) x;
    }

    /** pgbench getPoissonRand (used for -R throttling), center in microseconds. */
    public long nextPoisson(double center) {
        double uniform = 1.0 - nextDouble();
        return (long) (-Math.log(uniform) * center + 0.5);
    }

    /** Saved state, to retry a transaction with the same random values (pgbench's random_state). */
    public record State(long s0, long s1) {
    }

    public State state() {
        return new State(s0, s1);
    }

    public void restore(State state) {
        s0 = state.s0();
        s1 = state.s1();
    }

    public PgbenchRandom copy() {
        return new PgbenchRandom(s0, s1);
    }

    /**
     * pgbench's startup seeding, in its order: the base sequence is seeded from --random-seed; each client's
     * function state (cs_func_rs) is drawn in client order; then {@code :default_seed}; then per thread, in
     * thread order, ts_choose_rs, ts_throttle_rs, ts_sample_rs.
     */
    public record Seeds(long randomSeed, PgbenchRandom[] clients, long defaultSeed,
                        PgbenchRandom[] choose, PgbenchRandom[] throttle, PgbenchRandom[] sample) {

        public static Seeds of(long randomSeed, int clients, int threads) {
            return of(randomSeed, clients, threads, true);
        }

        /**
         * @param drawDefaultSeed false when -D defines default_seed: pgbench then draws no value for it, so
         *                        the threads' states that follow come one value earlier in the base sequence
         */
        public static Seeds of(long randomSeed, int clients, int threads, boolean drawDefaultSeed) {
            PgbenchRandom base = new PgbenchRandom(randomSeed);
            PgbenchRandom[] cs = new PgbenchRandom[clients];
            for (int i = 0; i < clients; i++) {
                cs[i] = base.derive();
            }
            long defaultSeed = drawDefaultSeed ? base.nextLong() : 0;
            PgbenchRandom[] ch = new PgbenchRandom[threads];
            PgbenchRandom[] th = new PgbenchRandom[threads];
            PgbenchRandom[] sa = new PgbenchRandom[threads];
            for (int t = 0; t < threads; t++) {
                ch[t] = base.derive();
                th[t] = base.derive();
                sa[t] = base.derive();
            }
            return new Seeds(randomSeed, cs, defaultSeed, ch, th, sa);
        }

        /** Clients of thread {@code t} as pgbench deals them: consecutive, [first, first + count). */
        public static int[] clientsOfThread(int clients, int threads, int t) {
            int dealt = 0;
            for (int i = 0; i < threads; i++) {
                int n = (clients - dealt + threads - i - 1) / (threads - i);
                if (i == t) {
                    return new int[] {dealt, n};
                }
                dealt += n;
            }
            throw new IllegalArgumentException("thread " + t + " of " + threads);
        }
    }

    /**
     * --random-seed as pgbench parses it: an unsigned 64-bit integer, "time" (microseconds of the clock)
     * or "rand" (a strong random value); null means "time" (pgbench's default without PGBENCH_RANDOM_SEED).
     * The integer is read as pgbench's {@code sscanf("%lu%c")}: leading white space and a sign are allowed,
     * "-1" wraps to 2^64 - 1, a value past 2^64 - 1 saturates to it, nothing may follow the digits.
     */
    public static long parseSeed(String option) {
        if (option == null || option.equals("time")) {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        }
        if (option.equals("rand")) {
            return new java.security.SecureRandom().nextLong();
        }
        int n = option.length();
        int i = 0;
        while (i < n && " \t\n\u000b\f\r".indexOf(option.charAt(i)) >= 0) {
            i++;
        }
        boolean negative = i < n && option.charAt(i) == '-';
        if (i < n && (option.charAt(i) == '-' || option.charAt(i) == '+')) {
            i++;
        }
        int digits = i;
        while (i < n && option.charAt(i) >= '0' && option.charAt(i) <= '9') {
            i++;
        }
        if (i == digits || i < n) {
            throw new IllegalArgumentException("unrecognized random seed option \"" + option
                    + "\": expecting an unsigned integer, \"time\" or \"rand\"");
        }
        java.math.BigInteger v = new java.math.BigInteger(option.substring(digits, i));
        if (v.bitLength() > 64) {
            return -1L; // strtoul's ULONG_MAX, whatever the sign
        }
        return negative ? -v.longValue() : v.longValue();
    }
}
