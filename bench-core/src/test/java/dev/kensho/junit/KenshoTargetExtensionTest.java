package dev.kensho.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.kensho.core.server.Target;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** What a user's suite reports when a target cannot be had: skipped with the reason, never an error. */
@KenshoTarget
class KenshoTargetExtensionTest {
    /** Nothing listens on port 1. */
    static final String CLOSED = "jdbc:postgresql://127.0.0.1:1/test";

    @KenshoTarget
    static class AsksForAbsentServer {
        @Test
        void needsIt(@LocalPostgres(url = CLOSED) Target pg) {
            fail("ran without its server");
        }

        @Test
        void doesNotNeedIt() {
        }
    }

    @KenshoTarget
    static class ConstructorAsksForAbsentServer {
        ConstructorAsksForAbsentServer(@LocalPostgres(url = CLOSED) Target pg) {
        }

        @Test
        void anything() {
            fail("ran without its server");
        }
    }

    private static EngineExecutionResults run(Class<?> c) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(c)).execute();
    }

    private static String skipReason(Events events) {
        List<Event> skipped = events.skipped().list();
        assertEquals(1, skipped.size(), skipped.toString());
        Optional<String> reason = skipped.get(0).getPayload(String.class);
        return reason.orElse("");
    }

    @Test
    void aTestAskingForAnAbsentServerIsSkippedWithTheReason() {
        EngineExecutionResults r = run(AsksForAbsentServer.class);
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals(1, r.testEvents().succeeded().count());
        String reason = skipReason(r.testEvents());
        assertTrue(reason.startsWith("no PostgreSQL at " + CLOSED), reason);
        assertTrue(reason.contains("Connection refused"), reason);
    }

    @Test
    void aConstructorAskingForAnAbsentServerSkipsTheClass() {
        EngineExecutionResults r = run(ConstructorAsksForAbsentServer.class);
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals(0, r.testEvents().started().count());
        assertTrue(skipReason(r.containerEvents()).startsWith("no PostgreSQL at " + CLOSED));
    }

    /** KENSHO_TEST_TESTCONTAINERS=1 or =true is a switch (the default image), anything else an image. */
    @Test
    void aContainerSwitchIsNotTakenForAnImage() {
        for (String on : new String[] {"", " ", "1", "true", "TRUE", "yes", "on"}) {
            assertEquals(null, KenshoTargetExtension.containerImage(on), on);
        }
        assertEquals("postgres:16", KenshoTargetExtension.containerImage("postgres:16"));
        assertEquals("registry.acme.com/pg:17", KenshoTargetExtension.containerImage(" registry.acme.com/pg:17 "));
    }

    @Test
    void theDefaultAndTheNewestVersionAreOneServer(Target byDefault, @PgVersion(18) Target newest) {
        assertSame(byDefault, newest);
    }
}
