package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PgReleaseTest {
    @Test
    void theStudiesVersionsAsTheyNameThem() {
        assertEquals(new PgRelease("17", -1), PgRelease.parse("17"));
        assertEquals(new PgRelease("16", 6), PgRelease.parse("16.6"));
        assertEquals(new PgRelease("9.6", -1), PgRelease.parse("9.6"));
        assertEquals(new PgRelease("9.6", 24), PgRelease.parse("9.6.24"));
        assertEquals(new PgRelease("10", 6), PgRelease.parse(" 10.6 "));
        assertEquals("11.1", PgRelease.parse("11.1").toString());
        assertEquals("9.6", PgRelease.parse("9.6").toString());
        assertTrue(PgRelease.parse("16.6").exact());
        assertFalse(PgRelease.parse("16").exact());
    }

    @Test
    void anythingElseIsAUsageErrorSayingWhatIsTaken() {
        for (String bad : List.of("", "abc", "9", "16.", "16.6.0", "100", "v17", "17,18", "9.6.24.1")) {
            KenshoException e = assertThrows(KenshoException.class, () -> PgRelease.parse(bad), bad);
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("--pg-version " + bad + ": a PostgreSQL major (17, 9.6) or minor release (16.6, 9.6.24)", e.getMessage());
        }
    }

    @Test
    void zonkysArtifactVersionsNameTheReleaseTheyPackage() {
        assertEquals(PgRelease.parse("16.6"), PgRelease.ofZonky("16.6.0"));
        assertEquals(PgRelease.parse("11.22"), PgRelease.ofZonky("11.22.1"));
        assertEquals(PgRelease.parse("10.5"), PgRelease.ofZonky("10.5.0-1"));
        assertEquals(PgRelease.parse("9.6.24"), PgRelease.ofZonky("9.6.24"));
        // before 10 the third number is PostgreSQL's own; from 10 on one is zonky's and must be there
        assertNull(PgRelease.ofZonky("9.6.24.0"));
        assertNull(PgRelease.ofZonky("16.6"));
        assertNull(PgRelease.ofZonky("16.6.0-SNAPSHOT"));
    }

    @Test
    void releasesOrderAcrossTheChangeOfNumberingAtTen() {
        List<String> sorted = Stream.of("10.23", "9.6.24", "17.2", "9.6.10", "16.6", "10.6", "11.1")
                .map(PgRelease::parse).sorted().map(PgRelease::toString).toList();
        assertEquals(List.of("9.6.10", "9.6.24", "10.6", "10.23", "11.1", "16.6", "17.2"), sorted);
    }

    @Test
    void aMajorMatchesEachOfItsReleasesAMinorOnlyItself() {
        assertTrue(PgRelease.parse("16").matches(PgRelease.parse("16.6")));
        assertTrue(PgRelease.parse("16.6").matches(PgRelease.parse("16.6")));
        assertFalse(PgRelease.parse("16.6").matches(PgRelease.parse("16.15")));
        assertFalse(PgRelease.parse("1.6").matches(PgRelease.parse("16.6")));
        assertFalse(PgRelease.parse("9.6").matches(PgRelease.parse("9.5.25")));
    }
}
