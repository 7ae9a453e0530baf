package dev.kensho.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

class SkipReasonsTest {

    /** Run only through the launcher below: surefire leaves nested classes out. */
    @KenshoTarget
    static class Skipping {
        @Test
        void passes() {}

        @Test
        void needsSomething() {
            Assumptions.assumeTrue(false, "no such thing here");
        }

        @ParameterizedTest
        @ValueSource(strings = {"wire"})
        void perEngine(String engine) {
            Assumptions.assumeTrue(false, "no " + engine + " here");
        }

        @Test
        @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "kensho.no.such.property", matches = "true",
                disabledReason = "opt-in")
        void optIn() {}

        @Test
        void needsAServer(@LocalPostgres(url = KenshoTargetExtensionTest.CLOSED) dev.kensho.core.server.Target pg) {}
    }

    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "kensho.no.such.property", matches = "true",
            disabledReason = "opt-in class")
    static class OptInClass {
        @Test
        void slow() {}
    }

    /** The listener's registration itself (META-INF/services) is what puts these lines into the build's log. */
    @Test
    void eachSkippedTestIsPrintedOnceWithItsReason() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream was = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            LauncherFactory.create(LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build()).execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Skipping.class), selectClass(OptInClass.class)).build(), new SkipReasons());
        } finally {
            System.setErr(was);
        }
        // the extension's own line for needsAServer, and not a second one
        assertEquals(List.of("SKIPPED: SkipReasonsTest$OptInClass: System property [kensho.no.such.property] does not exist ==> opt-in class",
                        "SKIPPED: SkipReasonsTest$Skipping.needsSomething: Assumption failed: no such thing here",
                        "SKIPPED: SkipReasonsTest$Skipping.optIn: System property [kensho.no.such.property] does not exist ==> opt-in",
                        "SKIPPED: SkipReasonsTest$Skipping.perEngine [1] wire: Assumption failed: no wire here",
                        "SKIPPED: no PostgreSQL at " + KenshoTargetExtensionTest.CLOSED
                                + " (cannot connect to 127.0.0.1:1/test: Connection refused): test skipped"),
                err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("SKIPPED: ")).sorted().toList());
    }
}
