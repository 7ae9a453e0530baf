package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.script.Script;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A harness interrupts the thread that runs PgbenchRun (a JUnit @Timeout, a cancelled Future): run() gives up, and
 * its clients stop with it. They went on loading the server to the end of -T, each with its connection, and the
 * ticker thread never ended: the harness's next test was measured against them.
 */
@KenshoTarget
class InterruptedRunTest {

    @ParameterizedTest(name = "{0} engine, warm-up {1}")
    @CsvSource({"PGJDBC, 0", "WIRE, 0", "PGJDBC, 20000"})
    void anInterruptedRunStopsItsClientsAndClosesTheirConnections(Engine engine, int warmup, Target pg) throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                new PgbenchRun().script(Script.parse("busy", "\\set x random(1, 1000)\nSELECT :x;\n")).clients(3).threads(2)
                        .engine(engine).seconds(60).warmup(warmup).output(null, null).run(pg);
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "harness-test");
        caller.start();
        Thread.sleep(1500);
        assertEquals(3, otherBackends(pg), "the run's clients are connected before the interrupt");
        caller.interrupt();
        caller.join(20_000);
        assertFalse(caller.isAlive(), "run() did not return within 20 s of the interrupt");
        KenshoException e = assertInstanceOf(KenshoException.class, thrown.get());
        assertEquals("pgbench run interrupted", e.getMessage());

        // run() returned only after its clients had: none is left, and the server sees their sessions end
        assertEquals(List.of(), runThreads(true));
        long until = System.nanoTime() + 5_000_000_000L;
        // twice none, a moment apart: a warm-up's fresh connection cut in its handshake has a backend that shows up in
        // pg_stat_activity after its client is gone (it finishes starting before it reads the closed socket), and ends
        while (System.nanoTime() < until && !(otherBackends(pg) == 0 && pause(300) && otherBackends(pg) == 0)) Thread.sleep(50);
        assertEquals(0, otherBackends(pg), "backends of the interrupted run's clients");
        while (!runThreads(false).isEmpty() && System.nanoTime() < until) Thread.sleep(50);
        assertEquals(List.of(), runThreads(false), "the ticker ends too");
    }

    /** Live threads of a run: its clients (pgjdbc engine) or their threads (wire), and with all its ticker. */
    private static List<String> runThreads(boolean clientsOnly) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("pgbench-client-") || n.startsWith("pgbench-thread-") || !clientsOnly && n.equals("pgbench-ticker"))
                .sorted().toList();
    }

    private static boolean pause(long ms) throws InterruptedException {
        Thread.sleep(ms);
        return true;
    }

    private static int otherBackends(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
