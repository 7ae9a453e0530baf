package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Option values read the same in every JVM locale: Turkish lower-cases "I" to a dotless "ı". */
class JvmLocaleTest {
    @Test
    void scanTakesUpperCaseValuesInATurkishJvm() {
        Locale was = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            // before: "--layout HIGH: expected high, low or both" in Turkish only; the last option's error shows the
            // three before it were taken, with no server started
            CommandRun r = CommandRun.of("scan", "--layout", "HIGH", "--cache", "WARM", "--timing", "CLIENT", "--parallel-workers", "bogus");
            assertEquals(2, r.exit(), r.out() + r.err());
            assertTrue(r.err().contains("--parallel-workers bogus: expected a number or server"), r.err());
        } finally {
            Locale.setDefault(was);
        }
    }
}
