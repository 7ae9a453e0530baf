package dev.kensho.report.stats;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact-fit guard of TwoWayAnova at the scales metrics have, and on all-zero data (a failure count). */
class ExactFitScaleTest {

    private static List<TwoWayAnova.Observation> additive(double scale) {
        double[] a = {0.1, 0.7, 1.3};
        double[] b = {0.3, 1.1, 2.9, 5.3};
        List<TwoWayAnova.Observation> obs = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < b.length; j++) {
                obs.add(new TwoWayAnova.Observation("v" + i, (double) j, scale * (a[i] + b[j] + 0.123456789)));
            }
        }
        return obs;
    }

    /** One value per cell, y = a + b exactly, in bytes or rows (1e7 to 1e9): rounding noise is no residual. */
    @Test
    void exactFitOfLargeValuesIsNotTested() {
        for (double scale : new double[] {1, 1e7, 1e9}) {
            TwoWayAnova.Table t = TwoWayAnova.fit("version", "clients", additive(scale));
            assertTrue(t.terms().isEmpty(), scale + ": " + t);
        }
    }

    /** Zero failures in every cell and repeat: no F of 0/0 with p NaN, the table says there is nothing to test. */
    @Test
    void allZeroResponseIsNotTested() {
        List<TwoWayAnova.Observation> obs = new ArrayList<>();
        for (String v : new String[] {"15", "16"}) {
            for (double c : new double[] {1, 2, 4}) {
                for (int r = 0; r < 3; r++) {
                    obs.add(new TwoWayAnova.Observation(v, c, 0.0));
                }
            }
        }
        TwoWayAnova.Table t = TwoWayAnova.fit("version", "clients", obs);
        assertTrue(t.terms().isEmpty(), t.toString());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("nothing to test")), t.warnings().toString());
    }
}
