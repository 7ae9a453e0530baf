package dev.kensho.pgbench.script;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generator's bookkeeping; its values are checked against the C pgbench in PgbenchOracleTest and the TAP tests. */
class PgbenchRandomTest {

    @Test
    void tapSeedGivesTapValues() {
        PgbenchRandom.Seeds s = PgbenchRandom.Seeds.of(5432, 1, 1);
        PgbenchRandom r = s.clients()[0];
        assertEquals(17, r.nextInRange(10, 19));
        assertEquals(104, r.nextExponential(100, 199, 10.0));
        assertEquals(1498, r.nextGaussian(1000, 1999, 10.0));
        assertEquals(3, r.nextZipfian(1, 9, 1.3));
    }

    @Test
    void stateRestoresForRetries() {
        PgbenchRandom r = new PgbenchRandom(99);
        r.nextLong();
        PgbenchRandom.State st = r.state();
        long a = r.nextLong();
        long b = r.nextInRange(1, 1_000_000);
        r.restore(st);
        assertEquals(a, r.nextLong());
        assertEquals(b, r.nextInRange(1, 1_000_000));
        PgbenchRandom c = r.copy();
        assertEquals(r.nextLong(), c.nextLong());
    }

    @Test
    void singleValueRangesDrawNothing() {
        PgbenchRandom r = new PgbenchRandom(1);
        PgbenchRandom same = new PgbenchRandom(1);
        assertEquals(7, r.nextInRange(7, 7));
        assertEquals(same.nextLong(), r.nextLong());
    }

    @Test
    void clientsAreDealtToThreadsAsPgbenchDoes() {
        assertArrayEquals(new int[] {0, 2}, PgbenchRandom.Seeds.clientsOfThread(5, 3, 0));
        assertArrayEquals(new int[] {2, 2}, PgbenchRandom.Seeds.clientsOfThread(5, 3, 1));
        assertArrayEquals(new int[] {4, 1}, PgbenchRandom.Seeds.clientsOfThread(5, 3, 2));
        assertArrayEquals(new int[] {0, 1}, PgbenchRandom.Seeds.clientsOfThread(1, 1, 0));
        int total = 0;
        for (int t = 0; t < 7; t++) {
            total += PgbenchRandom.Seeds.clientsOfThread(1024, 7, t)[1];
        }
        assertEquals(1024, total);
    }

    @Test
    void seedsAreDrawnInPgbenchsOrder() {
        PgbenchRandom base = new PgbenchRandom(42);
        PgbenchRandom.Seeds s = PgbenchRandom.Seeds.of(42, 2, 2);
        assertEquals(base.derive().nextLong(), s.clients()[0].nextLong());
        assertEquals(base.derive().nextLong(), s.clients()[1].nextLong());
        assertEquals(base.nextLong(), s.defaultSeed());
        assertEquals(base.derive().nextLong(), s.choose()[0].nextLong());
        assertEquals(base.derive().nextLong(), s.throttle()[0].nextLong());
        assertEquals(base.derive().nextLong(), s.sample()[0].nextLong());
        assertEquals(base.derive().nextLong(), s.choose()[1].nextLong());
        assertNotEquals(PgbenchRandom.Seeds.of(42, 3, 2).defaultSeed(), s.defaultSeed(), "depends on the client count, as in pgbench");
    }

    @Test
    void seedOption() {
        assertEquals(5432, PgbenchRandom.parseSeed("5432"));
        assertEquals(-1L, PgbenchRandom.parseSeed("18446744073709551615"));
        long now = PgbenchRandom.parseSeed("time");
        assertTrue(now > 1_600_000_000_000_000L);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PgbenchRandom.parseSeed("one"));
        assertTrue(e.getMessage().contains("unrecognized random seed option \"one\""));
        // what pgbench 15's sscanf("%lu%c") made of these (its "setting random seed to N" line)
        assertEquals(-1L, PgbenchRandom.parseSeed("-1"));
        assertEquals(0L, PgbenchRandom.parseSeed("-0"));
        assertEquals(1L, PgbenchRandom.parseSeed("-18446744073709551615"));
        assertEquals(-1L, PgbenchRandom.parseSeed("-18446744073709551616"));
        assertEquals(-1L, PgbenchRandom.parseSeed("99999999999999999999999"));
        assertEquals(5L, PgbenchRandom.parseSeed("+5"));
        assertEquals(7L, PgbenchRandom.parseSeed("\t7"));
        assertEquals(7L, PgbenchRandom.parseSeed("007"));
        for (String rejected : new String[] {"5 ", "- 5", "+-5", "0x10", "1e3", "", "TIME"}) {
            assertThrows(IllegalArgumentException.class, () -> PgbenchRandom.parseSeed(rejected), rejected);
        }
    }

    @Test
    void doublesAreIn01AndPoissonIsNonNegative() {
        PgbenchRandom r = new PgbenchRandom(7);
        double sumD = 0, sumP = 0, sumP2 = 0;
        for (int i = 0; i < 10_000; i++) {
            double d = r.nextDouble();
            assertTrue(d >= 0 && d < 1);
            long p = r.nextPoisson(1000.0);
            assertTrue(p >= 0);
            sumD += d;
            sumP += p;
            sumP2 += (double) p * p;
        }
        // -R's schedule: pgbench's exponential delays (mean and standard deviation both the center), not a fixed step
        double meanP = sumP / 10_000, sdP = Math.sqrt(sumP2 / 10_000 - meanP * meanP);
        assertEquals(0.5, sumD / 10_000, 0.02);
        assertEquals(1000, meanP, 50);
        assertEquals(1000, sdP, 100);
    }
}
