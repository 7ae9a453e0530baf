package dev.kensho.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A body that gives up on an interrupt the way PgbenchRun does (restores the flag, throws KenshoException FAILURE
 * "pgbench run interrupted"): the matrix must stop with InterruptedException, record nothing for that trial, and
 * leave the run directory writable, not fail with "cannot append ... ClosedByInterruptException".
 */
class TrialMatrixInterruptTest {
    @TempDir Path root;

    @Test
    void anInterruptedTrialStopsTheMatrixAndIsNotRecorded() throws Exception {
        TrialMatrix<Integer> m = new TrialMatrix<>(List.of(1, 2), c -> "clients=" + c, 2, TrialMatrix.Order.SEQUENTIAL, 1);
        try (RunDirectory dir = RunDirectory.create(root, RunInfo.of("pgbench sweep", List.of("x"), Map.of()))) {
            int[] ran = {0};
            InterruptedException e = assertThrows(InterruptedException.class, () -> m.run(dir, p -> {
                if (++ran[0] == 2) {
                    Thread.currentThread().interrupt();
                    throw new KenshoException(KenshoException.FAILURE, "pgbench run interrupted");
                }
                return Trial.of(p.key(), p.repeat()).metric("tps", 1.0).build();
            }, new TrialMatrix.Listener<>() { }));
            assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
            assertFalse(Thread.currentThread().isInterrupted(), "InterruptedException thrown, flag cleared as the JDK's methods do");
            assertEquals(1, dir.trials().size(), "the finished trial kept, the interrupted one not recorded as failed");
            // the directory still takes trials (its channel was not closed by the interrupt)
            dir.append(Trial.of("clients=2", 0).metric("tps", 2.0).build());
            assertEquals(2, dir.trials().size());
        }
    }
}
