package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extraction into an empty KENSHO_HOME, as a CI machine's first build does it. */
class EmbeddedBinariesTest {
    @TempDir Path home;

    /**
     * As root the server runs as the user 'kensho': a KENSHO_HOME under a directory it cannot enter (/root, mode 700)
     * is refused before anything is extracted, naming KENSHO_HOME.
     */
    @Test
    void aKenshoHomeTheServerUserCannotReachIsRefusedBeforeExtracting() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(ServerUser.isRoot(), "not root: the server runs as this user, nothing to check");
        Path closed = Files.createDirectories(home.resolve("closed"));
        Files.setPosixFilePermissions(closed, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        String before = System.getProperty("kensho.home");
        System.setProperty("kensho.home", closed.resolve("not/yet/kensho").toString());
        try {
            dev.kensho.core.KenshoException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                    () -> EmbeddedBinaries.binDirectory(18));
            assertTrue(e.getMessage().contains("cannot enter " + closed + "; give KENSHO_HOME a directory outside it"), e.getMessage());
            assertFalse(Files.exists(closed.resolve("not")), "nothing made under it");
        } finally {
            if (before == null) System.clearProperty("kensho.home");
            else System.setProperty("kensho.home", before);
        }
    }

    /** Parallel JUnit tests asking for two majors at once in one JVM: each gets its binaries. */
    @Test
    void threadsOfOneJvmExtractAtTheSameTime() throws Exception {
        String before = System.getProperty("kensho.home");
        System.setProperty("kensho.home", home.toString());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            CyclicBarrier together = new CyclicBarrier(3);
            List<Future<Path>> bins = new ArrayList<>();
            for (int major : new int[] {16, 16, 17}) {
                Callable<Path> extract = () -> {
                    together.await();
                    return EmbeddedBinaries.binDirectory(major);
                };
                bins.add(pool.submit(extract));
            }
            for (Future<Path> f : bins) assertTrue(Files.isExecutable(f.get().resolve("postgres")), f.get().toString());
            assertEquals(bins.get(0).get(), bins.get(1).get());
        } finally {
            pool.shutdownNow();
            if (before == null) System.clearProperty("kensho.home"); else System.setProperty("kensho.home", before);
        }
    }

    /** A JVM killed while extracting leaves a half tree; the next extraction removes it. */
    @Test
    void aHalfExtractedTreeIsRemovedByTheNextExtraction() throws Exception {
        String before = System.getProperty("kensho.home");
        System.setProperty("kensho.home", home.toString());
        try {
            Path abandoned = Files.createDirectories(home.resolve("pg/16.0.0.tmp123/bin"));
            Files.writeString(abandoned.resolve("postgres"), "half");
            // and the jar a fetch of a release bench.jar does not carry had downloaded beside its tree
            Path jar = Files.writeString(home.resolve("pg/11.1.0.tmp456.jar"), "part of a download");
            Path bin = EmbeddedBinaries.binDirectory(16);
            assertTrue(Files.isExecutable(bin.resolve("postgres")));
            assertFalse(Files.exists(abandoned.getParent()), "abandoned extraction still there");
            assertFalse(Files.exists(jar), "abandoned download still there");
            try (Stream<Path> left = Files.list(home.resolve("pg"))) {
                assertEquals(List.of(bin.getParent().getFileName().toString()),
                        left.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList());
            }
        } finally {
            if (before == null) System.clearProperty("kensho.home"); else System.setProperty("kensho.home", before);
        }
    }
}
