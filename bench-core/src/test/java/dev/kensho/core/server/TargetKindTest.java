package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class TargetKindTest {
    /** A Turkish JVM recorded "local-bınarıes" in run.json: a filter on local-binaries missed its runs. */
    @Test
    void labelsAreTheSameInATurkishJvm() {
        Locale was = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            assertEquals("local-binaries", TargetKind.LOCAL_BINARIES.label());
            assertEquals("embedded", TargetKind.EMBEDDED.label());
        } finally {
            Locale.setDefault(was);
        }
    }
}
