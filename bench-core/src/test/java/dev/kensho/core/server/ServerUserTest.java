package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kensho.core.KenshoException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command Kensho runs for the server (--restart-command) gets no password of the run's: a server it restarted kept
 * PGPASSWORD in its environment, which a superuser reads with COPY FROM PROGRAM 'env'. What a restart may need stays.
 */
class ServerUserTest {

    @Test
    void theCommandsEnvironmentHoldsNoPassword() {
        Map<String, String> env = new HashMap<>(Map.of("PGPASSWORD", "Hunter2pw", "PGDATA", "/var/lib/postgresql/15/main",
                "PATH", "/usr/bin:/bin", "KENSHO_MAVEN_REPOSITORY", "https://bob:S3cretPW@repo.example/maven2",
                "DB_CONNINFO", "host=h password=Zz9pass", "KENSHO_HOME", "/var/cache/kensho"));
        ServerUser.withoutPasswords(env);
        assertEquals(Map.of("PGDATA", "/var/lib/postgresql/15/main", "PATH", "/usr/bin:/bin", "KENSHO_HOME", "/var/cache/kensho"), env);
    }

    /** A command past its time is stopped with everything it started: the shell's children had gone on running. */
    @Test
    void aCommandPastItsTimeIsStoppedWithWhatItStarted(@TempDir Path dir) throws Exception {
        Path pid = dir.resolve("child.pid");
        Duration before = ServerUser.commandTimeout;
        ServerUser.commandTimeout = Duration.ofSeconds(2);
        long child = -1;
        try {
            KenshoException e = assertThrows(KenshoException.class, () -> ServerUser.run(
                    List.of("sh", "-c", "sleep 600 & echo $! > " + pid + "; wait"), "run --restart-command"));
            assertEquals("cannot run --restart-command: still running after 2 s; stopped it and what it started", e.getMessage());
            child = Long.parseLong(Files.readString(pid).trim());
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (alive(child) && System.nanoTime() < deadline) Thread.sleep(50);
            assertFalse(alive(child), "the command's child (sleep 600) is stopped too");
        } finally {
            ServerUser.commandTimeout = before;
            if (child > 0) ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
