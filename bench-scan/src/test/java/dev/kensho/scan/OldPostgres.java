package dev.kensho.scan;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.server.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Releases older than the embedded ones, for the tests of what Kensho does on them (the studies ran 9.6, 10 and 11):
 * zonky's binaries under /opt/zpg/RELEASE/bin, or the directory -Dkensho.oldPostgres names. Where they are absent the
 * test is skipped, saying which.
 */
public final class OldPostgres {
    private OldPostgres() {}

    /** The oldest release Kensho supports, and the first with declarative partitioning and max_parallel_workers. */
    public static final String PG96 = "9.6.24", PG10 = "10.23.0";

    public static TargetSpec spec(String release) {
        Path bin = Path.of(System.getProperty("kensho.oldPostgres", "/opt/zpg")).resolve(release).resolve("bin");
        assumeTrue(Files.isExecutable(bin.resolve("postgres")), "no PostgreSQL " + release + " binaries in " + bin);
        return new TargetSpec().pgBin(bin);
    }
}
