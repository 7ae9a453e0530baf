package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
