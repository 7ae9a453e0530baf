package dev.kensho.core.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Releases older than the ones bench.jar carries, for the tests of what Kensho does on them (the studies ran 9.6, 10
 * and 11): zonky's builds, which bench-core's build fetches into the local Maven repository (dependency:get), where
 * Kensho finds them without a download. Where one is not there the test is skipped, saying so. Shared with the other
 * modules' tests through bench-core's test jar.
 *
 * <p>A class that opens the server once in {@code @BeforeAll} opens it only where {@link #isLocal} and assumes it in
 * {@code @BeforeEach}: an assumption that fails in {@code @BeforeAll} skips the class, and surefire then reports
 * "Tests run: 0" and no reason, where each test should be reported skipped with one.
 */
public final class OldPostgres {
    private OldPostgres() {}

    /** The oldest release Kensho supports, and the first with declarative partitioning and max_parallel_workers. */
    public static final String PG96 = "9.6.24", PG10 = "10.23";

    /** An embedded target of the release, the test skipped where its build is not in the local Maven repository. */
    public static TargetSpec spec(String release) {
        assumeLocal(release);
        return new TargetSpec().pgVersion(release);
    }

    /** Skips the test where the release's build is not in the local Maven repository (nothing is downloaded in a test). */
    public static void assumeLocal(String release) {
        assumeTrue(isLocal(release), "no PostgreSQL " + release + " in the local Maven repository (bench-core's build fetches it there)");
    }

    /** Whether the release's build is in the local Maven repository. */
    public static boolean isLocal(String release) {
        return EmbeddedBinaries.newest(ZonkyRepository.standard().localVersions(), PgRelease.parse(release)) != null;
    }
}
