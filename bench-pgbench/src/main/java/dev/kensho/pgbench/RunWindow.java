package dev.kensho.pgbench;

/**
 * Told when a run's measured interval begins and ends, so an observer of the server (a sweep's
 * sampler) covers the run itself and not its connecting, vacuum or warm-up. Called on the thread
 * that runs the driver; the clients wait while {@link #opened} runs.
 */
public interface RunWindow {
    /** No one listens. */
    RunWindow NONE = new RunWindow() {};

    /**
     * Every client is connected and warmed up, and on PostgreSQL 15+ has flushed its statistics
     * (what the warm-up did shows in pg_stat_database before this, not in the run's deltas); the
     * clock starts when this returns.
     */
    default void opened() {}

    /**
     * Every client has finished and closed its connection; the server may still be ending their
     * backends (which is when they report their last statistics).
     */
    default void closed() {}
}
