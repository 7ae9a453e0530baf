package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.Version;
import dev.kensho.core.KenshoException;
import org.junit.jupiter.api.Test;

/**
 * A harness's platform BOM may pin Jackson below what Kensho needs: jackson-databind 2.10 and 2.11 serialize no
 * records ("No serializer found for class RunInfo"), 2.9 has no JsonMapper. The check names the version found and the
 * one needed, before the first run directory fails.
 */
class JsonVersionTest {
    @Test
    void olderJacksonIsRefusedNamingTheMinimum() {
        KenshoException e = assertThrows(KenshoException.class,
                () -> Json.requireJackson(new Version(2, 10, 5, null, "com.fasterxml.jackson.core", "jackson-databind")));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("jackson-databind 2.10.5 is on the classpath; Kensho needs 2.12 or later"), e.getMessage());
        assertThrows(KenshoException.class, () -> Json.requireJackson(new Version(2, 11, 4, null, null, null)));
        assertThrows(KenshoException.class, () -> Json.requireJackson(new Version(2, 9, 10, null, null, null)));
    }

    @Test
    void supportedJacksonPasses() {
        assertDoesNotThrow(() -> Json.requireJackson(new Version(2, 12, 7, null, null, null)));
        assertDoesNotThrow(() -> Json.requireJackson(new Version(2, 20, 2, null, null, null)));
        // the one on this build's classpath: Json loads
        assertDoesNotThrow(() -> Json.MAPPER.writeValueAsString(new Object[0]));
    }
}
