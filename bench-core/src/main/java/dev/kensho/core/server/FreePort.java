package dev.kensho.core.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** The port a managed server listens on: chosen by {@link #choose} before initdb, bound by the server after it. */
final class FreePort {
    private FreePort() {}

    /**
     * A free loopback port below the kernel's ephemeral range. A port from that range (what binding port 0 gives) is
     * free for any client connection's source port while the server is down for a restart, and a busy machine's
     * connections may take it: the restart then fails with "Address already in use" and leaves the server down (the
     * likely cause of a server found down after a full verify's restart test). No connection is given a port below
     * the range, so only another server could take it.
     */
    static int choose() {
        int below = ephemeralLow();
        int from = Math.max(1024, below - EPHEMERAL_FREE_SPAN);
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; below - from > 1 && attempt < 100; attempt++) {
            int port = random.nextInt(from, below);
            if (port == 5432) continue;   // PostgreSQL's own, taken or not: a server installed later expects it
            try (ServerSocket ss = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return ss.getLocalPort();
            } catch (IOException taken) {
                // another server's: the next
            }
        }
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return ss.getLocalPort();   // nothing free below the range: the kernel's choice, as before
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How far below the ephemeral range ports are chosen: clear of the well-known ones under 10000 where it can. */
    private static final int EPHEMERAL_FREE_SPAN = 12_000;

    /** The lowest port of Linux's ephemeral range; 32768 (its default, below macOS's and Windows' 49152) elsewhere. */
    static int ephemeralLow() {
        try {
            // read by lines: Files.readString trusts the size /proc gives (0) and returned "3" of "32768\t60999"
            String[] range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
