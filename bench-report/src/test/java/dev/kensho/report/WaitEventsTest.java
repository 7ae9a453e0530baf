package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.Trial;
import java.awt.Paint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.plot.CategoryPlot;
import org.junit.jupiter.api.Test;

/** Wait-event charts of two versions read side by side: one name and one colour per event. */
class WaitEventsTest {

    @Test
    void eventsRenamedByCaseAreOneAndKeepTheirColourAcrossCharts() {
        List<Trial> trials = new ArrayList<>();
        // 17 spells IO:WALSync as IO:WalSync; and each version has its own busiest event
        for (int clients : new int[] {1, 4}) {
            trials.add(trial("16", clients, Map.of("IO:WALSync", 55.0, "Client:ClientRead", 35.0, "CPU", 10.0)));
            trials.add(trial("17", clients, Map.of("Client:ClientRead", 50.0, "CPU", 30.0, "IO:WalSync", 20.0)));
        }
        List<Figure> figures = WaitEvents.figures(trials, List.of());
        assertEquals(2, figures.size());
        Map<String, Paint> colour = new LinkedHashMap<>();
        for (Figure f : figures) {
            CategoryPlot plot = f.chart().getCategoryPlot();
            List<?> events = plot.getDataset().getRowKeys();
            // the spelling most cells used, here a tie: the first in order, in both charts
            assertEquals(List.of("Client:ClientRead", "IO:WALSync", "CPU"), events, f.title());
            for (int i = 0; i < events.size(); i++) {
                Paint p = plot.getRenderer().getSeriesPaint(i);
                Paint before = colour.putIfAbsent((String) events.get(i), p);
                if (before != null) assertEquals(before, p, events.get(i) + " in " + f.title());
            }
            assertTrue(f.notes().contains("IO:WALSync includes IO:WalSync: one wait event, its name spelled otherwise in another "
                    + "PostgreSQL version"), f.notes().toString());
            assertFalse(String.join(" ", f.notes()).contains("IO:WalSync "), f.notes().toString());
        }
        assertTrue(figures.get(1).notes().get(0).contains("IO:WALSync 20.0 %"), figures.get(1).notes().toString());
        assertEquals(3, colour.values().stream().distinct().count(), "three events, three colours");
    }

    /**
     * Study 001's versions as their servers name one wait: 16.6's LWLock:WALWrite is 17.2's LWLock:WALWriteLock (an
     * individual LWLock with its "Lock" suffix, 18 again without), so the chart of a -N sweep over 16.6 and 17.2 showed
     * two events where there is one. Tranches whose names merely end in "Lock" in one version alone stay as they are.
     */
    @Test
    void lwLocksNamedWithTheirLockSuffixAreOne() {
        List<Trial> trials = new ArrayList<>();
        for (int clients : new int[] {1, 3}) {
            trials.add(trial("16.6", clients, Map.of("LWLock:WALWrite", 45.0, "IO:WALSync", 28.3, "CPU", 26.7)));
            trials.add(trial("17.2", clients, Map.of("LWLock:WALWriteLock", 44.3, "IO:WalSync", 27.9, "CPU", 27.8)));
        }
        trials.add(trial("17.2", 8, Map.of("LWLock:LockManager", 60.0, "LWLock:PredicateLock", 40.0)));
        List<Figure> figures = WaitEvents.figures(trials, List.of());
        for (Figure f : figures) {
            List<?> events = f.chart().getCategoryPlot().getDataset().getRowKeys();
            assertFalse(events.contains("LWLock:WALWriteLock"), f.title() + ": " + events);
            assertTrue(f.notes().contains("LWLock:WALWrite includes LWLock:WALWriteLock: one wait event, its name spelled otherwise in "
                    + "another PostgreSQL version"), f.notes().toString());
        }
        assertTrue(figures.get(1).notes().get(0).contains("LWLock:WALWrite 44.3 %"), figures.get(1).notes().toString());
        assertTrue(String.join(" ", figures.get(1).notes()).contains("LWLock:PredicateLock 40.0 %"), figures.get(1).notes().toString());
    }

    /** The report says the interval the trials were sampled at (--wait-sample-ms); an older Kensho's trials are 100 ms. */
    @Test
    void theIntervalsSaidAreTheTrials() {
        Trial old = trial("16", 1, Map.of("CPU", 100.0));
        Trial at20 = Trial.of("clients=4;version=16", 0).param("version", "16").param("clients", 4).metric("tps", 100.0)
                .extra(WaitEvents.KEY, Map.of("samples", 50, "interval_ms", 20, "percent", Map.of("CPU", 100.0))).build();
        Trial off = Trial.of("clients=8;version=16", 0).param("version", "16").param("clients", 8).metric("tps", 100.0)
                .extra(WaitEvents.KEY, Map.of("samples", 0, "interval_ms", 0, "percent", Map.of())).build();
        assertEquals("100 ms", WaitEvents.intervals(List.of(old, off)));
        assertEquals("20 ms, 100 ms", WaitEvents.intervals(List.of(old, at20, off)));
    }

    private static Trial trial(String version, int clients, Map<String, Double> percent) {
        return Trial.of("clients=" + clients + ";version=" + version, 0).param("version", version).param("clients", clients).metric("tps", 100.0)
                .extra(WaitEvents.KEY, Map.of("samples", 20, "percent", percent)).build();
    }
}
