package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.KenshoException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kensho runs the PostgreSQL programs it keeps in KENSHO_HOME: a KENSHO_HOME another user made, or one others may
 * write (a CI runner's umask 000), had its pg_ctl replaced by another user's program, run as the user running Kensho.
 */
class KenshoHomeTest {
    @TempDir
    Path tmp;

    private static KenshoException refusedAt(Path home) {
        String was = System.getProperty("kensho.home");
        System.setProperty("kensho.home", home.toString());
        try {
            return assertThrows(KenshoException.class, KenshoHome::trusted);
        } finally {
            if (was == null) System.clearProperty("kensho.home"); else System.setProperty("kensho.home", was);
        }
    }

    @Test
    void aHomeOthersMayWriteIsRefused() throws Exception {
        Path open = Files.createDirectories(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        KenshoException e = refusedAt(open);
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith(open + " may be written by other users (" + open + " is -Dkensho.home)")
                && e.getMessage().endsWith("(chmod go-w " + open + ")"), e.getMessage());
        // its pg/ too, where the programs are
        Path ours = Files.createDirectories(tmp.resolve("ours"));
        Path pg = Files.createDirectories(ours.resolve("pg"));
        Files.setPosixFilePermissions(pg, PosixFilePermissions.fromString("rwxrwxr-x"));
        assertTrue(refusedAt(ours).getMessage().startsWith(pg + " may be written by other users"));
        // a build's program, and instances/, where root deleted what another user's planted links named
        Files.setPosixFilePermissions(pg, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path postgres = Files.createFile(Files.createDirectories(pg.resolve("18.6.0/bin")).resolve("postgres"));
        Files.setPosixFilePermissions(postgres, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertTrue(refusedAt(ours).getMessage().startsWith(postgres + " may be written by other users"));
        Files.setPosixFilePermissions(postgres, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path instances = Files.createDirectories(ours.resolve("instances"));
        Files.setPosixFilePermissions(instances, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertTrue(refusedAt(ours).getMessage().startsWith(instances + " may be written by other users"));
    }

    @Test
    void aHomeOfAnotherUserIsRefused() throws Exception {
        assumeTrue(ServerUser.isRoot(), "needs root to give a directory to another user");
        Path theirs = Files.createDirectories(tmp.resolve("theirs"));
        ServerUser.run(java.util.List.of("chown", "nobody", theirs.toString()), "chown");
        KenshoException e = refusedAt(theirs);
        assertTrue(e.getMessage().startsWith(theirs + " belongs to nobody, not to " + System.getProperty("user.name")), e.getMessage());
    }
}
