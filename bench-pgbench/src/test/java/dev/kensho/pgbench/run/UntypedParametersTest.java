package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import org.junit.jupiter.api.Test;

/**
 * The studies' read scripts under -M prepared: ":aid + :row_count" is two parameters of unknown type, which the server
 * cannot add. Every client aborted at its first transaction, and a sweep failed every trial after starting its servers
 * and building its tables; the run is refused before it starts, at the script's line.
 */
@KenshoTarget
class UntypedParametersTest {
    private static final String SCRIPT = "\\set a 1\nSELECT :a::int;\nSELECT :a + :a;\n";

    @Test
    void aCommandWhoseVariablesTheServerCannotTypeIsRefusedBeforeTheRun(Target pg) {
        for (QueryMode mode : new QueryMode[] {QueryMode.EXTENDED, QueryMode.PREPARED}) {
            KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchRun().script("sum", SCRIPT).mode(mode).transactions(3)
                    .warmup(0).output(null, null).run(pg));
            assertEquals("sum:3:1: under -M " + mode.pgbenchName() + " the server cannot type this command's variables (ERROR: operator is"
                    + " not unique: unknown + unknown); pgbench's clients abort on it too; -M simple sends them as text, or cast them"
                    + " (:aid::int)", e.getMessage());
            assertEquals(KenshoException.USAGE, e.exitCode());
        }
        assertEquals(3, new PgbenchRun().script("sum", SCRIPT).mode(QueryMode.SIMPLE).transactions(3).warmup(0).output(null, null)
                .run(pg).processed());
    }
}
