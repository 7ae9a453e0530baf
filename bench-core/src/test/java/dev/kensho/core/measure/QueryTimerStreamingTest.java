package dev.kensho.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import java.sql.Connection;
import org.junit.jupiter.api.Test;

/**
 * Runs in its own JVM with -Xmx256m (see the streaming execution in bench-core/pom.xml): 5 million
 * rows of ~110 bytes are about 550 MB of text, so buffering the result would fail.
 */
@KenshoTarget
class QueryTimerStreamingTest {

    @Test
    void streamsFiveMillionRowsInA256MbHeap(Target pg) throws Exception {
        long max = Runtime.getRuntime().maxMemory();
        assertTrue(max <= 256L * 1024 * 1024 + (16L << 20), "this test must run with -Xmx256m, has " + (max >> 20) + " MB");
        try (Connection c = pg.connect()) {
            // streamed as COPY (the default), then through a cursor
            for (int fetchSize : new int[] {QueryTimer.DEFAULT_FETCH_SIZE, 10_000}) {
                QueryTimer.Timing t = QueryTimer.time(c, "SELECT g, repeat('x', 100) FROM generate_series(1, 5000000) g", fetchSize);
                assertEquals(5_000_000, t.rows(), "fetch size " + fetchSize);
                assertTrue(t.bytes() > 500_000_000L, "bytes " + t.bytes());
                assertTrue(t.firstRowNanos() <= t.elapsedNanos());
            }
        }
    }
}
