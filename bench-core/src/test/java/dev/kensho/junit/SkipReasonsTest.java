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

    /** Run only through the launcher below (a nested class would run in the build's own suite too). */
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
    }

    /** The listener's registration itself (META-INF/services) is what puts these lines into the build's log. */
    @Test
    void eachAbortedTestIsPrintedWithItsReason() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream was = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            LauncherFactory.create(LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build()).execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Skipping.class)).build(), new SkipReasons());
        } finally {
            System.setErr(was);
        }
        assertEquals(List.of("SKIPPED: SkipReasonsTest$Skipping.needsSomething: Assumption failed: no such thing here",
                        "SKIPPED: SkipReasonsTest$Skipping.perEngine [1] wire: Assumption failed: no wire here"),
                err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("SKIPPED: ")).sorted().toList());
    }
}
