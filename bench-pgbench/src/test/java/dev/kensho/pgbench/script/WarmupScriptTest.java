package dev.kensho.pgbench.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.run.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warm-up imitates the run's scripts without touching a table. */
@KenshoTarget
class WarmupScriptTest {

    @Test
    void keepsMetaCommandsAndTransactionControlAndReplacesTableAccess() throws Exception {
        Script tpcb = Script.builtin("tpcb-like");
        Script w = WarmupScript.of(tpcb, c -> c.paramNames().isEmpty() ? List.of() : c.paramNames().stream().map(n -> "int4").toList());
        assertEquals(tpcb.commands().size(), w.commands().size());
        for (int i = 0; i < tpcb.commands().size(); i++) {
            Command real = tpcb.commands().get(i), twin = w.commands().get(i);
            assertEquals(real.kind(), twin.kind());
            if (real.kind() != Command.Kind.SQL) {
                assertSame(real, twin, "meta-commands are the run's own");
            } else if (real.sql().startsWith("BEGIN") || real.sql().startsWith("END")) {
                assertSame(real, twin, "transaction control touches no table");
            } else {
                assertTrue(twin.sql().startsWith("SELECT ") && !twin.sql().contains("pgbench_"), twin.sql());
                assertEquals(real.paramNames(), twin.paramNames());
                assertTrue(twin.parameterizedSql().contains("?::int4"), twin.parameterizedSql());
            }
        }
        List<Script> next = WarmupScript.generation(List.of(w), 7);
        assertTrue(next.get(0).commands().get(5).sql().endsWith("/* kensho warm-up 7 */"), next.get(0).commands().get(5).sql());

        // a script that stores results cannot be imitated without its tables
        Script gset = Script.parse("g.sql", "SELECT abalance AS b FROM pgbench_accounts WHERE aid = 1 \\gset\n\\set x :b + 1\n");
        assertSame(WarmupScript.GENERIC, WarmupScript.of(gset, c -> null));
    }

    /** Runs the warm-up twins of every builtin in each mode on a database without the pgbench tables. */
    @Test
    void twinsOfTheBuiltinsRunWhereNoPgbenchTableExists(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
        }
        for (QueryMode mode : QueryMode.values()) {
            for (String name : Script.BUILTINS) {
                Script w = WarmupScript.of(Script.builtin(name), c -> null);
                Variables v = new Variables();
                v.standard(1, 0, 5432, 5432);
                ClientScriptRunner r = new ClientScriptRunner(List.of(w), 0, v, new PgbenchRandom(1), mode,
                        ClientScriptRunner.Options.defaults());
                try (Connection c = pg.connect()) {
                    TransactionOutcome out = r.runScript(c, 0);
                    assertTrue(out.ok(), name + " " + mode + ": " + out.message());
                    r.releaseStatements();
                }
            }
        }
    }

    /** A run of one tpcb-like transaction after 2 000 warm-up transactions leaves exactly one history row. */
    @Test
    void warmupLeavesTheTablesAsTheyWere(Target pg) throws Exception {
        new PgbenchInit().scale(1).log(null).run(pg);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(out, true, StandardCharsets.UTF_8);
        RunReport r = new PgbenchRun().builtin("tpcb-like").clients(2).transactions(1).mode(QueryMode.PREPARED).warmup(2000)
                .output(sink, sink).run(pg);
        assertEquals(2, r.processed(), out.toString(StandardCharsets.UTF_8));
        assertEquals(1000, r.warmupPerClient());
        assertTrue(String.join("\n", r.lines()).contains("each client ran 1000 warm-up transactions"), String.join("\n", r.lines()));
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from pgbench_history")) {
            rs.next();
            assertEquals(2, rs.getLong(1));
        }
        // the JIT watcher of the warm-up does not outlive the run (a test harness keeps its JVM)
        long until = System.nanoTime() + 2_000_000_000L;
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("kensho-jit-watch") && t.isAlive())) {
            assertTrue(System.nanoTime() < until, "kensho-jit-watch still running after the run");
            Thread.sleep(20);
        }
    }
}
