package dev.kensho.core.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Releases older than the ones bench.jar carries, for the tests of what Kensho does on them (the studies ran 9.6, 10
 * and 11): zonky's builds, which bench-core's test dependencies put into the local Maven repository, where Kensho finds
 * them without a download. Where one is not there the test is skipped, saying so. Shared with the other modules' tests
 * through bench-core's test jar.
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
        ZonkyRepository repo = ZonkyRepository.standard();
        String build = EmbeddedBinaries.newest(repo.localVersions(), PgRelease.parse(release));
        assumeTrue(build != null, "no PostgreSQL " + release + " in the local Maven repository (the build's test dependency puts it there)");
    }
}
