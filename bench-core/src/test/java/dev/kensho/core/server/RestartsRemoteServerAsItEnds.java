package dev.kensho.core.server;

import dev.kensho.core.JvmShutdown;
import dev.kensho.core.KenshoException;
import java.util.Map;

/**
 * A JVM whose run asks for a restart of its remote server after a Ctrl-C (a cold cell's restart, its trial begun just
 * before): args are the server's URL and the --restart-command. The exit hook then puts back what the run changed.
 */
public final class RestartsRemoteServerAsItEnds {
    /** Strongly held: RemoteServer's own set of open targets holds them weakly, and the hook must find this one. */
    private static RemoteServer server;

    private RestartsRemoteServerAsItEnds() {}

    public static void main(String[] args) {
        server = RemoteServer.fromUrl(args[0], "postgres", null, args[1], Map.of()).verify();
        System.out.println("applied " + server.apply(Map.of("max_worker_processes", "11")).applied());
        JvmShutdown.begin();   // as the exit hook does first on a Ctrl-C; called here so that the restart below comes after it
        try {
            server.restart();
            System.out.println("restarted");
        } catch (KenshoException e) {
            System.out.println("restart: " + e.getMessage());
        }
        // main returns: the JVM ends, and RemoteServer's hook restores, with its own restart
    }
}
