package dev.kensho.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.kensho.core.server.Target;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Surefire with forkCount above 1 runs each test class as an execution request of its own in a reused fork: the shared
 * server lived in the request's root store, closed at the request's end, and was stopped and started again for every
 * class. It lives as long as the launcher session now: two requests in one session share one server.
 */
class LauncherSessionServerTest {
    static final List<String> STARTS = new CopyOnWriteArrayList<>();
    static volatile boolean managed;

    @KenshoTarget
    static class Probe {
        @Test
        void recordsItsServersStart(Target pg) throws Exception {
            managed = pg.kind().managed();
            try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT pg_postmaster_start_time()::text")) {
                rs.next();
                STARTS.add(rs.getString(1));
            }
        }
    }

    @Test
    void twoExecutionRequestsOfOneSessionShareTheServer() {
        STARTS.clear();
        try (LauncherSession session = LauncherFactory.openSession()) {
            for (int i = 0; i < 2; i++) {
                SummaryGeneratingListener summary = new SummaryGeneratingListener();
                session.getLauncher().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Probe.class)).build(), summary);
                assertEquals(1, summary.getSummary().getTestsSucceededCount(), summary.getSummary().getFailures().toString());
            }
        }
        assertEquals(2, STARTS.size(), STARTS.toString());
        // KENSHO_TEST_URL's remote server is the same for both whatever the store: nothing to tell apart
        org.junit.jupiter.api.Assumptions.assumeTrue(managed, "the tests' server is not Kensho's (KENSHO_TEST_URL)");
        assertEquals(STARTS.get(0), STARTS.get(1), "one server for both requests");
    }
}
