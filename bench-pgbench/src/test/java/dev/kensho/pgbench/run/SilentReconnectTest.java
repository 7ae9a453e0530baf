package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.RunReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client whose connection was lost reconnects until -T's end (or 60 s): an attempt the host never answered (its new
 * connections held, as by a firewall dropping them) waited for ever, and the run with it, where pgbench's client aborts.
 */
class SilentReconnectTest {

    /** Forwards connections to a server until told to hold new ones: accepted, never answered. */
    static final class Proxy implements AutoCloseable {
        final ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final List<Socket> sockets = new CopyOnWriteArrayList<>();
        final List<Socket> held = new java.util.ArrayList<>();
        final int serverPort;
        volatile boolean hold;

        /** Forwards the connections held so far, and new ones. */
        synchronized void release() throws IOException {
            hold = false;
            for (Socket in : held) forward(in);
            held.clear();
        }

        private synchronized void accepted(Socket in) throws IOException {
            if (hold) held.add(in);
            else forward(in);
        }

        /** Connections forwarded so far. */
        final java.util.concurrent.atomic.AtomicInteger forwarded = new java.util.concurrent.atomic.AtomicInteger();

        private void forward(Socket in) throws IOException {
            forwarded.incrementAndGet();
            Socket out = new Socket(InetAddress.getLoopbackAddress(), serverPort);
            sockets.add(out);
            pipe(in.getInputStream(), out.getOutputStream());
            pipe(out.getInputStream(), in.getOutputStream());
        }

        Proxy(int serverPort) throws IOException {
            this.serverPort = serverPort;
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        Socket in = listening.accept();
                        sockets.add(in);
                        accepted(in);
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "test-proxy");
            t.setDaemon(true);
            t.start();
        }

        private static void pipe(InputStream from, OutputStream to) {
            Thread t = new Thread(() -> {
                try {
                    from.transferTo(to);
                } catch (IOException ended) {
                    // either side closed
                } finally {
                    try {
                        to.close();
                    } catch (IOException ignored) {
                        // closed already
                    }
                }
            }, "test-proxy-pipe");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            listening.close();
            for (Socket s : sockets) s.close();
        }
    }

    interface ThroughProxy {
        void run(Target server, Proxy proxy, Target through, PrintStream sink) throws Exception;
    }

    /** A server of the test's own with pgbench's tables, and a target that reaches it through a proxy. */
    private static void throughProxy(ThroughProxy test) throws Exception {
        try (Target server = new TargetSpec().open(); Proxy proxy = new Proxy(server.port())) {
            new PgbenchInit().scale(1).log(null).run(server);
            try (Target through = new TargetSpec().url("jdbc:postgresql://127.0.0.1:" + proxy.listening.getLocalPort() + "/kensho")
                    .user("postgres").open()) {
                test.run(server, proxy, through, new PrintStream(java.io.OutputStream.nullOutputStream()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aReconnectionNobodyAnswersEndsWithTheRun(Engine engine) throws Exception {
        throughProxy((server, proxy, through, sink) -> {
            Thread terminator = new Thread(() -> {
                try {
                    // once both clients run their transactions (not at a fixed time: a loaded machine's run starts late)
                    awaitQuerying(server, 2);
                    proxy.hold = true;
                    try (Connection c = server.connect(); Statement s = c.createStatement()) {
                        s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                                + " AND pid <> pg_backend_pid()");
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            terminator.start();
            RunReport r = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> new PgbenchRun().selectOnly().clients(2)
                    .seconds(4).warmup(0).noVacuum(true).engine(engine).output(sink, sink).run(through));
            terminator.join();
            assertTrue(r.aborted() && String.valueOf(r.abortReason()).contains("could not reconnect before the run's end"), r.toString());
        });
    }

    /** Waits (up to 30 s) until this many backends run or last ran a statement on pgbench_accounts. */
    private static void awaitQuerying(Target server, int n) throws Exception {
        long giveUp = System.nanoTime() + 30_000_000_000L;
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            while (System.nanoTime() < giveUp) {
                try (java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                        + " AND query ILIKE '%pgbench_accounts%'")) {
                    rs.next();
                    if (rs.getInt(1) >= n) return;
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * Under -C a login begun before -T's end and answered after it is the transaction's, which runs (as pgbench's), and the
     * run lasts until it ends: the pgjdbc engine stopped there, left the login's seconds out of the run and reported a
     * tps several times the wire engine's and pgbench's.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aLateLoginUnderConnectPerTransactionCountsInTheRun(Engine engine) throws Exception {
        throughProxy((server, proxy, through, sink) -> {
            int before = proxy.forwarded.get();
            Thread stall = new Thread(() -> {
                try {
                    // once the run's clock runs (its -C logins come one a transaction), logins wait 4.5 s, past -T 3
                    long giveUp = System.nanoTime() + 30_000_000_000L;
                    while (proxy.forwarded.get() < before + 20 && System.nanoTime() < giveUp) Thread.sleep(5);
                    proxy.hold = true;
                    Thread.sleep(4500);
                    proxy.release();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            stall.start();
            RunReport r = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> new PgbenchRun().selectOnly().clients(1)
                    .seconds(3).connectPerTransaction(true).noVacuum(true).engine(engine).output(sink, sink).run(through));
            stall.join();
            assertTrue(!r.aborted() && r.benchSeconds() > 4.5, "the run lasts until the late login's transaction ends: " + r);
        });
    }
}
