package dev.kensho.core.server;

import dev.kensho.core.JvmShutdown;
import java.util.Map;

/** A JVM whose remote target is first made while it ends: a --url parsed, then Ctrl-C before the target opens. */
public final class LoadsRemoteServerAtExit {
    private LoadsRemoteServerAtExit() {}

    public static void main(String[] args) {
        new TargetSpec().url("jdbc:postgresql://127.0.0.1:1/x");   // as the command line's options do, before any target
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                RemoteServer r = RemoteServer.fromUrl("jdbc:postgresql://127.0.0.1:1/x", "u", "pw", null, Map.of());
                System.out.println("made " + r.host() + ", ending " + JvmShutdown.begun());
            } catch (Throwable e) {
                System.out.println("failed: " + e);
            }
        }));
    }
}
