package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JIT matrix against the machine's PostgreSQL 15 (built with LLVM), and the refusal on embedded. */
@KenshoTarget
class JitMatrixTest {

    @Test
    void embeddedServerIsRefusedWithAOneLineHint(Target pg) {
        KenshoException e = assertThrows(KenshoException.class, () -> JitMatrix.requireJit(pg));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertFalse(e.getMessage().contains("\n"));
        assertTrue(e.getMessage().contains("pg_jit_available() is false"), e.getMessage());
        assertTrue(e.getMessage().contains("--pg-bin") && e.getMessage().contains("--url"), e.getMessage());
    }

    @Test
    void badQueriesAndCostsAreRefusedWhenTheOptionsAreMadeBeforeAnyServerStarts() {
        assertUsage("unknown SSB query q9.9", () -> new JitMatrix.Options(List.of(3), 1, List.of("q9.9"), Map.of(), 10));
        assertUsage("--query selects queries of verification 3, which --verification 1,2 leaves out",
                () -> new JitMatrix.Options(List.of(1, 2), 1, List.of("q1.1"), Map.of(), 10));
        for (String bad : List.of("abc", "-2", "1e", "Infinity", "10d")) {
            assertUsage("--jit-above-cost " + bad + ": expected a number >= -1",
                    () -> new JitMatrix.Options(List.of(1), 1, List.of(), Map.of("jit_above_cost", bad), 10));
        }
        for (String good : List.of("0", "-1", "1e5", "100000.5")) {
            new JitMatrix.Options(List.of(1), 1, List.of(), Map.of("jit_inline_above_cost", good), 10);
        }
    }

    private static void assertUsage(String start, org.junit.jupiter.api.function.Executable x) {
        KenshoException e = assertThrows(KenshoException.class, x);
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
    }

    @Test
    void jitOffAndOnWithReductionRatesAndJitTimings(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        // per JVM: other runs (CI, colleagues) may use the same server at the same time
        SsbDatabase db = new SsbDatabase(pg, "kensho_ssb_test_" + ProcessHandle.current().pid());
        db.drop();
        try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb jit", List.of("test"), Map.of()))) {
            ParallelSweep.ensureLoaded(db, new SsbDatabase.LoadOptions(0.1, 2, false, false), dir, "15", System.err);
            // SF 0.1 costs less than the default thresholds: JIT everything, as the study's big tables did.
            Map<String, String> costs = Map.of("jit_above_cost", "0", "jit_inline_above_cost", "0", "jit_optimize_above_cost", "0");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JitMatrix m = new JitMatrix(new JitMatrix.Options(List.of(1, 2, 3), 1, List.of("q1.1", "q2.1", "q4.3"), costs, 10_000),
                    new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            m.run(db, dir);
            List<List<Object>> rows = m.finish(dir);
            assertEquals(9 + 4 + 3, rows.size());
            for (List<Object> r : rows) {
                assertNotNull(r.get(2), "off time " + r);
                assertNotNull(r.get(3), "on time " + r);
                assertNotNull(r.get(4), "reduction rate " + r);
                assertTrue((Double) r.get(5) >= 1, "JIT functions with jit=on: " + r);
                assertTrue((Double) r.get(9) > 0, "emission time: " + r);
            }
            long lineorderRows = db.rowCounts().get("lineorder");
            for (Trial t : dir.trials()) {
                if (!t.params().containsKey("jit")) continue;
                assertTrue(t.ok(), t.cell() + " " + t.extra());
                if (t.params().get("jit").equals("off")) assertEquals(0.0, t.metric("jit_functions"), t.cell());
                // the two verification-1 queries returning every row were streamed in full
                if (List.of("multiply", "subtract").contains(t.params().get("query"))) {
                    assertEquals((double) lineorderRows, t.metric("rows"), t.cell());
                }
            }
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("double precision"));
        } finally {
            db.drop();
        }
    }
}
