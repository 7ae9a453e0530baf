package dev.kensho.core.server;

import java.util.Locale;

/** Where the measured server comes from; decides what Kensho may do to it. */
public enum TargetKind {
    /** zonky binaries carried in bench.jar, managed by Kensho. */
    EMBEDDED(true),
    /** An installed PostgreSQL (--pg-bin), managed by Kensho the same way. */
    LOCAL_BINARIES(true),
    /** Someone else's server (--url): session settings only, never restarted without permission. */
    REMOTE(false),
    /** A throw-away container (--testcontainers). */
    TESTCONTAINERS(false);

    private final boolean managed;

    TargetKind(boolean managed) {
        this.managed = managed;
    }

    /** Kensho owns the data directory and postgresql.conf. */
    public boolean managed() {
        return managed;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
