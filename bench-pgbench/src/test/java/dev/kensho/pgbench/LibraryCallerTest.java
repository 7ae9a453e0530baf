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

    /** A report's toString (a harness's log line) masks a command's password as its lines do. */
    @Test
    void aReportsToStringMasksPasswords() {
        String s = new RunReport.CommandReport("ALTER ROLE app PASSWORD 'S3cretPW!';", 0.5, 0, 0).toString();
        assertTrue(!s.contains("S3cretPW") && s.contains("ALTER ROLE app PASSWORD"), s);
    }

    /** A Java sweep without threads() measures what the command line's would: --threads clients/2, not 1. */
    @Test
    void aSweepsThreadsDefaultAsTheCommandsDo() {
        assertEquals("clients/2", new ClientSweep().parameters().get("threads"));
    }

    /**
     * A sweep without scale() on servers Kensho makes anew: each was fetched and started before the sweep said it had
     * no tables to run on (minutes for a list of releases not yet fetched).
     */
    @Test
    void aSweepWithoutScaleOnNewServersIsRefusedBeforeAnyStarts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of("pgbench sweep",
                java.util.List.of(), java.util.Map.of()))) {
            var log = new java.io.ByteArrayOutputStream();
            KenshoException e = assertThrows(KenshoException.class, () -> new ClientSweep().clients(java.util.List.of(1)).repeats(1)
                    .seconds(1).log(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8))
                    .run(java.util.List.of(new dev.kensho.core.server.TargetSpec().pgVersion("10.6")), dir));
            assertEquals("embedded-10.6 is a new server with no pgbench tables, which the default -b tpcb-like reads: give -s SCALE to initialise them", e.getMessage());
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("", log.toString(java.nio.charset.StandardCharsets.UTF_8), "no target was started");
        }
    }

    /**
     * Custom scripts need no pgbench tables, also on a server Kensho makes anew: the sweep refused every such server
     * before starting it ("is a new server with no pgbench tables"), whatever the scripts read. Only relations that hold
     * whatever the machine's speed are asserted: every transaction sleeps 2 ms in the server, and the counts add up.
     */
    @Test
    void aSweepOfACustomScriptRunsOnANewServerWithoutScale(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path run;
        try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of("pgbench sweep",
                java.util.List.of(), java.util.Map.of()))) {
            new ClientSweep().clients(java.util.List.of(1)).repeats(1).seconds(1).script("sleep", "SELECT pg_sleep(0.002);\n")
                    .warmup(0).noVacuum(true).log(null).run(java.util.List.of(new dev.kensho.core.server.TargetSpec()), dir);
            run = dir.path();
        }
        var trials = dev.kensho.core.result.RunDirectory.readTrials(run.resolve(dev.kensho.core.result.RunDirectory.TRIALS));
        assertEquals(1, trials.size());
        var t = trials.get(0);
        assertTrue(t.ok() && t.metric("transactions") > 0, t.toString());
        assertTrue(t.metric("latency_avg_ms") >= 2.0 && t.metric("latency_p50_ms") >= 2.0, t.toString());
        assertTrue(t.metric("transactions") * 2.0 <= t.metric("seconds") * 1000, "1 client sleeping 2 ms a transaction: " + t);
        assertEquals("no pgbench_accounts", t.extra().get("prewarm_error"), t.extra().toString());
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

    /**
     * A client's abort quotes its statement as the server does (LINE 1: ...): a password in it reached stderr, the trial
     * (trials.jsonl), summary.csv and the report; -r's per-statement lines were masked, these were not.
     */
    @Test
    void anAbortQuotingAPasswordIsMaskedOnStderrAndInTheTrial(Target pg, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        for (Engine engine : Engine.values()) {
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            java.nio.file.Path run;
            try (dev.kensho.core.result.RunDirectory dir = dev.kensho.core.result.RunDirectory.create(tmp,
                    dev.kensho.core.result.RunInfo.of(PgbenchRun.COMMAND, java.util.List.of(), java.util.Map.of()))) {
                new PgbenchRun().script("role", "ALTER ROLE kensho_no_such_role PASSWORD 'Hunter2pw' BOGUS;\n").transactions(1)
                        .warmup(0).engine(engine).output(null, new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8))
                        .runAndRecord(pg, dir);
                run = dir.path();
            }
            String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(said.contains("LINE 1: ALTER ROLE kensho_no_such_role PASSWORD '****' BOGUS;"), engine + ": " + said);
            for (String f : java.util.List.of(dev.kensho.core.result.RunDirectory.TRIALS, dev.kensho.core.result.RunDirectory.SUMMARY)) {
                String stored = java.nio.file.Files.readString(run.resolve(f));
                assertTrue(stored.contains("PASSWORD '****'") && !stored.contains("Hunter2pw"), engine + " " + f + ": " + stored);
            }
            assertTrue(!said.contains("Hunter2pw"), said);
        }
    }

    private static void assertUsage(String message, Supplier<?> call) {
        KenshoException e = assertThrows(KenshoException.class, call::get);
        assertEquals(message, e.getMessage());
        assertEquals(KenshoException.USAGE, e.exitCode());
    }

}
