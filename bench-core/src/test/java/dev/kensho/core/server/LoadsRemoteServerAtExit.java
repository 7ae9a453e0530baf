package dev.kensho.core.server;

import dev.kensho.core.JvmShutdown;
import dev.kensho.core.KenshoException;
import java.util.Map;

/**
 * A JVM whose remote target is first made while it ends: a --url parsed, then Ctrl-C before the target opens. No exit
 * hook cancels or restores a target made then (as one made after the hook took its list of open targets): it must
 * change nothing on the server, no settings and no restart.
 */
public final class LoadsRemoteServerAtExit {
    private LoadsRemoteServerAtExit() {}

    public static void main(String[] args) throws ReflectiveOperationException {
        new TargetSpec().url("jdbc:postgresql://127.0.0.1:1/x");   // as the command line's options do, before any target
        // Kensho's own JvmShutdown hook is registered long before (its class loaded in this JVM), and runs beside the one
        // below in no set order: it said "ending" itself, or, first loaded by RemoteServer's fallback, its class did. Taken
        // out (java --add-opens java.base/java.lang), only the fallback can say it, and a fallback without it is seen
        JvmShutdown.begun();
        Class<?> hooks = Class.forName("java.lang.ApplicationShutdownHooks");
        java.lang.reflect.Field registered = hooks.getDeclaredField("hooks");
        registered.setAccessible(true);
        synchronized (hooks) {
            ((Map<?, ?>) registered.get(null)).keySet().removeIf(t -> ((Thread) t).getName().equals("kensho-jvm-shutdown"));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                RemoteServer r = RemoteServer.fromUrl("jdbc:postgresql://127.0.0.1:1/x", "u", "pw", "exit 1", Map.of());
                System.out.println("made " + r.host() + ", ending " + JvmShutdown.begun());
                try {
                    r.apply(Map.of("work_mem", "4MB"));
                    System.out.println("applied");
                } catch (KenshoException e) {
                    System.out.println("apply: " + e.getMessage());
                }
                try {
                    r.restart();
                    System.out.println("restarted");
                } catch (KenshoException e) {
                    System.out.println("restart: " + e.getMessage());
                }
            } catch (Throwable e) {
                System.out.println("failed: " + e);
            }
        }));
    }
}
