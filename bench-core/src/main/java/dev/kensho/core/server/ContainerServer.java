package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts a throw-away PostgreSQL container (--testcontainers[=image]). Testcontainers' module
 * starts the server with fsync=off, which would flatter every write benchmark: Kensho replaces the
 * command so fsync stays on, and passes --set values as -c flags.
 */
final class ContainerServer {
    static final String DEFAULT_IMAGE = "postgres:17";

    private ContainerServer() {}

    /** Why containers cannot run here, or null when a Docker engine answers. */
    static String unavailableReason() {
        try {
            Class.forName("org.testcontainers.DockerClientFactory");
        } catch (ClassNotFoundException e) {
            return "Testcontainers is not on the classpath (add org.testcontainers:postgresql to the test dependencies)";
        }
        try {
            if (!org.testcontainers.DockerClientFactory.instance().isDockerAvailable()) {
                return "no Docker engine is running (Testcontainers found none to talk to)";
            }
        } catch (Throwable t) {
            return "no Docker engine is running (" + KenshoException.firstLine(t) + ")";
        }
        return null;
    }

    @SuppressWarnings("resource")
    static RemoteServer start(String image, Map<String, String> settings) {
        String reason = unavailableReason();
        if (reason != null) throw KenshoException.target("--testcontainers: " + reason, null);
        var container = new org.testcontainers.containers.PostgreSQLContainer<>(
                org.testcontainers.utility.DockerImageName.parse(image == null || image.isBlank() ? DEFAULT_IMAGE : image)
                        .asCompatibleSubstituteFor("postgres"));
        List<String> command = new ArrayList<>(List.of("postgres", "-c", "fsync=on"));
        settings.forEach((k, v) -> {
            command.add("-c");
            command.add(k + "=" + v);
        });
        container.setCommand(command.toArray(String[]::new));
        container.start();
        RemoteServer server = new RemoteServer(TargetKind.TESTCONTAINERS, container.getHost(), container.getFirstMappedPort(),
                container.getDatabaseName(), container.getUsername(), container.getPassword(), Map.of(), null, container::stop);
        try {
            return server.verify();
        } catch (RuntimeException e) {
            // a container that will not take the login must not run on until the JVM's end (Ryuk's cleanup)
            server.close();
            throw e;
        }
    }
}
