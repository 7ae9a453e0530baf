package dev.kensho.core.result;

import java.time.Instant;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How far the wall clock moved against the monotonic one since the last look: an NTP step, a VM resumed or a host
 * suspended. Durations are timed on the monotonic clock, but a trial's started and finished are wall-clock times (to
 * cut a server's log by): across a step one trial finished an hour before it started, another took three hours for
 * its five seconds, and nothing said why. A run directory looks at each trial it appends, and the trial records the
 * step ({@code wall_clock_step_s}).
 */
final class WallClockStep {
    /** Below this, the two clocks' drift and the reading's own jitter: no step. */
    private static final long THRESHOLD_NANOS = 1_000_000_000L;

    private final LongSupplier monotonic;
    private final Supplier<Instant> wall;
    private long offset;

    WallClockStep(LongSupplier monotonic, Supplier<Instant> wall) {
        this.monotonic = monotonic;
        this.wall = wall;
        this.offset = offset();
    }

    /** The system's clocks, from now. */
    static WallClockStep ofSystem() {
        return new WallClockStep(System::nanoTime, Instant::now);
    }

    /** The step since the previous look (or since this was made), in seconds; 0 where the clocks kept together. */
    synchronized double look() {
        long now = offset(), moved = now - offset;
        offset = now;
        return Math.abs(moved) >= THRESHOLD_NANOS ? Math.round(moved / 1e6) / 1e3 : 0;
    }

    private long offset() {
        Instant w = wall.get();
        return w.getEpochSecond() * 1_000_000_000L + w.getNano() - monotonic.getAsLong();
    }
}
