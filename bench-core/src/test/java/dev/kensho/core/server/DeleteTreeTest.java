package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's instance directory is removed while files come and go in it (pg_ctl's output file of a close() that runs
 * beside the Ctrl-C hook): the removal must not stop at the first file that vanished under it, leaving the data behind.
 */
class DeleteTreeTest {
    @TempDir Path work;

    @Test
    void goesOnPastFilesThatVanishMeanwhile() throws Exception {
        AtomicBoolean churning = new AtomicBoolean(true);
        for (int round = 0; round < 30; round++) {
            Path instance = work.resolve("pg" + round);
            Path data = instance.resolve("data");
            for (String sub : new String[] {"base", "global", "pg_wal"}) {
                Files.createDirectories(data.resolve(sub));
                for (int i = 0; i < 50; i++) Files.writeString(data.resolve(sub).resolve("f" + i), "x");
            }
            churning.set(true);
            Thread churn = new Thread(() -> {
                while (churning.get()) {
                    try {
                        Files.delete(Files.createTempFile(instance, "exec", ".out"));
                    } catch (java.io.IOException gone) {
                        return;   // the directory went
                    }
                }
            });
            churn.start();
            InstanceDirectory.deleteTree(instance);
            churning.set(false);
            churn.join();
            assertFalse(Files.exists(data), "round " + round + ": " + data + " left behind");
            InstanceDirectory.deleteTree(instance);
        }
    }
}
