package dev.kensho.core.server;

import java.util.Map;

/**
 * Child JVM of RemoteServerTest: changes a postmaster-level setting on the server at args[0] with --restart-command
 * args[1] (to each value after it in turn), says "applied" each time, then waits to be signalled; its exit hook puts
 * the setting back with that command again.
 */
public final class HangsInARestoresRestart {
    /** Strongly held: RemoteServer's own set of open targets holds them weakly, and the hook must find this one. */
    private static RemoteServer server;

    private HangsInARestoresRestart() {}

    public static void main(String[] args) throws InterruptedException {
        server = RemoteServer.fromUrl(args[0], "postgres", null, args[1], Map.of()).verify();
        // max_worker_processes=11, or each value given after the command in turn
        for (String value : args.length > 2 ? java.util.Arrays.copyOfRange(args, 2, args.length) : new String[] {"11"}) {
            System.out.println("applied " + server.apply(Map.of("max_worker_processes", value)).applied());
        }
        Thread.sleep(600_000);   // the test's SIGTERM ends the JVM long before
    }
}
