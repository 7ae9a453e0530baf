package dev.kensho.core.server;

import dev.kensho.core.JvmShutdown;
import dev.kensho.core.KenshoException;
import java.io.PrintStream;
import java.util.Map;

/**
 * A JVM that is told to end (Ctrl-C) inside apply(), after its ALTER SYSTEM and before the restart that setting needs:
 * args are the server's URL and the --restart-command. The exit hook then puts back what the run changed.
 */
public final class ChangesRemoteServerAsItEnds {
    /** Strongly held: RemoteServer's own set of open targets holds them weakly, and the hook must find this one. */
    private static RemoteServer server;

    private ChangesRemoteServerAsItEnds() {}

    public static void main(String[] args) {
        server = RemoteServer.fromUrl(args[0], "postgres", null, args[1], Map.of()).verify();
        PrintStream err = System.err;
        // apply() says its ALTER SYSTEM on stderr as it makes it, then restarts: the JVM begins to end right there
        System.setErr(new PrintStream(err, true) {
            @Override
            public void println(String line) {
                super.println(line);
                if (line.contains("ALTER SYSTEM SET max_worker_processes = 11")) JvmShutdown.begin();
            }
        });
        try {
            System.out.println("applied " + server.apply(Map.of("max_worker_processes", "11")).applied());
        } catch (KenshoException e) {
            System.out.println("apply: " + e.getMessage());
        }
        // main returns: the JVM ends, and RemoteServer's hook restores
    }
}
