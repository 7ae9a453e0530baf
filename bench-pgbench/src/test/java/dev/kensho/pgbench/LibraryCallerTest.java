package dev.kensho.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import java.util.Arrays;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What a harness meets that the command line never shows: null arguments, a script given as text, and an aborted run
 * read from the report alone. A null was taken and failed later as a NullPointerException, or as the server's fault
 * ("connection to the server failed for client 0: Cannot invoke ... because this.mode is null", exit code 3).
 */
@KenshoTarget
class LibraryCallerTest {

    @Test
    void aNullArgumentIsAUsageErrorNamingTheBuilderMethod() {
        assertUsage("mode() must not be null", () -> new PgbenchRun().mode(null));
        assertUsage("engine() must not be null", () -> new PgbenchRun().engine(null));
        assertUsage("script() must not be null", () -> new PgbenchRun().script(null));
        assertUsage("builtin() must not be null", () -> new PgbenchRun().builtin(null));
        assertUsage("file() must not be null", () -> new PgbenchRun().file(null));
        assertUsage("define() must not be null", () -> new PgbenchRun().define(null));
        assertUsage("script()'s text must not be null", () -> new PgbenchRun().script("inline", null));
        assertUsage("clients() must not be null", () -> new ClientSweep().clients(null));
        assertUsage("clients() must not hold null", () -> new ClientSweep().clients(Arrays.asList(1, null)));
        assertUsage("threads() must not be null", () -> new ClientSweep().threads(null));
        assertUsage("order() must not be null", () -> new ClientSweep().order(null));
        assertUsage("mode() must not be null", () -> new ClientSweep().mode(null));
        assertUsage("engine() must not be null", () -> new ClientSweep().engine(null));
        assertUsage("script() must not be null", () -> new ClientSweep().script(null));
    }

    /** Script.parse throws the checked ScriptException; the builder's text form gives the usage error a -f file gets. */
    @Test
    void aScriptGivenAsTextIsParsedWithItsNameInTheError() {
        assertUsage("inline:2:19: syntax error in command \"set\": expected ',' or ')' after argument 1 of random()",
                () -> new PgbenchRun().script("inline", "SELECT 1;\n\\set aid random(1 100)\n"));
        assertUsage("inline:2:19: syntax error in command \"set\": expected ',' or ')' after argument 1 of random()",
                () -> new ClientSweep().script("inline", "SELECT 1;\n\\set aid random(1 100)\n"));
        assertEquals("inline", new PgbenchRun().script("inline", "SELECT 1;\n").config().scripts().get(0).name());
    }

    /** The abort's reason was on the errors stream only: a harness that silenced it (output(null, null)) had "aborted" alone. */
    @Test
    void anAbortedRunsReportSaysWhy(Target pg) {
        RunReport r = new PgbenchRun().script("divide", "SELECT 1;\nSELECT 1/0;\n").transactions(3).warmup(0).output(null, null).run(pg);
        assertTrue(r.aborted());
        assertEquals("client 0 script 0 aborted in command 1 query 0: ERROR:  division by zero", r.abortReason());
        assertEquals("run aborted: client 0 script 0 aborted in command 1 query 0: ERROR:  division by zero", r.unmeasured(null));

        RunReport fine = new PgbenchRun().script("fine", "SELECT 1;\n").transactions(3).warmup(0).output(null, null).run(pg);
        assertEquals(3, fine.processed());
        assertNull(fine.abortReason());
    }

    private static void assertUsage(String message, Supplier<?> call) {
        KenshoException e = assertThrows(KenshoException.class, call::get);
        assertEquals(message, e.getMessage());
        assertEquals(KenshoException.USAGE, e.exitCode());
    }

}
