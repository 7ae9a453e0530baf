package dev.kensho.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunInfoTest {

    /** A harness's run without parameters of its own: null reads as none, as run.json without them does. */
    @Test
    void noParametersAreNone(@TempDir Path root) {
        RunInfo info = RunInfo.of("pgbench run", List.of("harness"), null);
        assertTrue(info.parameters().isEmpty());
        try (RunDirectory dir = RunDirectory.create(root, info)) {
            assertEquals("pgbench run", RunDirectory.info(dir.path()).command());
        }
    }
}
