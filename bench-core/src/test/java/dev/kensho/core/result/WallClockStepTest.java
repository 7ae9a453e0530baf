package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WallClockStepTest {
    /** A 5 s trial during which NTP stepped the wall clock back an hour, then one without a step. */
    @Test
    void aStepIsSaidOnceAndTheClocksDriftIsNoStep() {
        AtomicLong mono = new AtomicLong(1_000);
        AtomicReference<Instant> wall = new AtomicReference<>(Instant.parse("2026-11-30T21:00:00Z"));
        WallClockStep c = new WallClockStep(mono::get, wall::get);
        mono.addAndGet(5_000_000_000L);
        wall.set(Instant.parse("2026-11-30T21:00:05Z").minusSeconds(3600));
        assertEquals(-3600.0, c.look(), 1e-9);
        // the next trial: 5 s on both clocks, the wall's 300 ms ahead (drift, jitter)
        mono.addAndGet(5_000_000_000L);
        wall.set(wall.get().plusMillis(5_300));
        assertEquals(0.0, c.look());
        // a VM resumed: the wall clock 2 h ahead, the monotonic one 1 s on
        mono.addAndGet(1_000_000_000L);
        wall.set(wall.get().plusSeconds(7201));
        assertEquals(7200.0, c.look(), 1e-9);
    }

    /** The run directory looks as each trial is appended: the trial after the step records it, the next one not. */
    @Test
    void theTrialAppendedAfterAStepRecordsIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        AtomicLong mono = new AtomicLong(1_000);
        AtomicReference<Instant> wall = new AtomicReference<>(Instant.parse("2026-11-30T21:00:00Z"));
        try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("test", java.util.List.of(), null))) {
            java.lang.reflect.Field clock = RunDirectory.class.getDeclaredField("wallClock");
            clock.setAccessible(true);
            clock.set(dir, new WallClockStep(mono::get, wall::get));
            dir.append(Trial.of("c", 0).metric("tps", 1.0).started(Instant.now()).build());
            mono.addAndGet(5_000_000_000L);
            wall.set(wall.get().plusSeconds(5).minusSeconds(3600));
            dir.append(Trial.of("c", 1).metric("tps", 1.0).started(Instant.now()).build());
            mono.addAndGet(5_000_000_000L);
            wall.set(wall.get().plusSeconds(5));
            dir.append(Trial.of("c", 2).metric("tps", 1.0).started(Instant.now()).build());
            // a skipped trial, without times, leaves the step to the next timed one
            mono.addAndGet(1_000_000_000L);
            wall.set(wall.get().plusSeconds(61));
            dir.append(Trial.of("c", 3).skipped("not here").build());
            dir.append(Trial.of("c", 4).metric("tps", 1.0).started(Instant.now()).build());
            java.util.List<Trial> kept = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
            assertEquals(java.util.Arrays.asList(null, -3600.0, null, null, 60.0),
                    kept.stream().map(t -> (Object) (t.extra().get(Trial.WALL_CLOCK_STEP) == null ? null
                            : ((Number) t.extra().get(Trial.WALL_CLOCK_STEP)).doubleValue())).toList());
        }
    }
}
