package dev.kensho.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.server.Target;
import org.junit.jupiter.api.Test;

/**
 * A harness asking for a major bench.jar does not carry gets it as --pg-version does: zonky's newest build of 10
 * (10.23, 10's last release), or of 9.6, which a number cannot name; both are in the local Maven repository, where
 * bench-core's build fetches them.
 */
@KenshoTarget
class OldMajorTest {
    @Test
    void pgVersionTenIsFetchedAndStarted(@PgVersion(10) Target pg) {
        assertEquals(10, pg.serverVersionNum() / 10000);
        assertEquals(100023, pg.serverVersionNum());
    }

    @Test
    void aReleaseBeforeTenIsAskedForByName(@PgVersion(release = "9.6") Target pg) {
        assertEquals(90624, pg.serverVersionNum());
    }
}
