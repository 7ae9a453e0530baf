package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.TargetSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded cache: a second open reuses the loaded database; a concurrent open gets its own server. */
class SsbCacheTest {
    private static final double SF = 0.01; // its own cache key, so no real cache is touched

    @Test
    void secondOpenReusesTheLoadedDatabaseAndAConcurrentOneDoesNotShareIt() throws Exception {
        TargetSpec spec = new TargetSpec();
        Path dir = SsbCache.directory(spec, SF);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
        try {
            try (SsbCache c = SsbCache.open(spec, SF, Map.of(), true, true, err)) {
                assertEquals(dir, c.directory());
                SsbDatabase db = new SsbDatabase(c.target(), "public");
                db.load(new SsbDatabase.LoadOptions(SF, 2, true, false), null);
                // while this run holds the cache, another run must not share the data directory
                try (SsbCache other = SsbCache.open(spec, SF, Map.of(), true, false, err)) {
                    assertNull(other.directory());
                    assertTrue(!new SsbDatabase(other.target(), "public").status().present());
                }
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("in use by another run"));
            // the first load is said with where it stays and its size; the concurrent run's throw-away server, no cache, not
            assertEquals(1, log.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("ssb: the loaded database stays in " + dir
                    + " for the next run (") && l.endsWith("; --fresh reloads it, --no-cache keeps none; remove the directory to free the space)")).count(),
                    log.toString(StandardCharsets.UTF_8));
            try (SsbCache c = SsbCache.open(spec, SF, Map.of(), true, false, err)) {
                SsbDatabase.Status st = new SsbDatabase(c.target(), "public").status();
                assertTrue(st.usable(SF), st.describe());
                assertEquals(new dev.kensho.ssb.gen.SsbGenerator(SF).rowCount(dev.kensho.ssb.gen.SsbTable.LINEORDER),
                        new SsbDatabase(c.target(), "public").rowCounts().get("lineorder"));
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("reusing the cached server "));
            assertEquals(1, log.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("ssb: the loaded database stays")).count(),
                    "a reuse says nothing of it again");
        } finally {
            removeCache(dir);
        }
    }

    /**
     * A cached server that holds no complete load (a load that failed on a full disk, or a run refused before loading)
     * goes on close: it kept hundreds of megabytes on the disk that had just filled up, and no run reuses it as it is.
     */
    @Test
    void aCachedServerWithoutACompleteLoadIsRemoved() throws Exception {
        TargetSpec spec = new TargetSpec();
        double sf = 0.002;
        Path dir = SsbCache.directory(spec, sf);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
        try {
            try (SsbCache c = SsbCache.open(spec, sf, Map.of(), true, true, err); java.sql.Connection conn = c.target().connect()) {
                // a load cut short: Kensho's marker without complete = true
                conn.createStatement().execute("CREATE TABLE " + SsbDatabase.META + " (complete boolean); INSERT INTO " + SsbDatabase.META
                        + " VALUES (false)");
                assertTrue(Files.isDirectory(dir.resolve("data")));
            }
            assertFalse(Files.exists(dir), "removed");
            String said = log.toString(StandardCharsets.UTF_8);
            assertTrue(said.lines().anyMatch(l -> l.matches("ssb: removed the cached server " + java.util.regex.Pattern.quote(dir.toString())
                    + " \\(\\d+ MB\\): it held no complete SSB load")), said);
        } finally {
            removeCache(dir);
        }
    }

    /** A first load's WAL (SF 1: 641 MB beside 887 MB of tables) does not stay in the cached database. */
    @Test
    void aFirstLoadLeavesNoWalOfItInTheCache() throws Exception {
        TargetSpec spec = new TargetSpec();
        double sf = 0.3;
        Path dir = SsbCache.directory(spec, sf, false);
        try {
            long walDuringLoad;
            try (SsbCache c = SsbCache.open(spec, sf, false, ParallelSweep.managedDefaults(0), true, true, null)) {
                new SsbDatabase(c.target(), "public").load(new SsbDatabase.LoadOptions(sf, 2, false, false), null);
                walDuringLoad = bytes(dir.resolve("data/pg_wal"));
            }
            long walAfter = bytes(dir.resolve("data/pg_wal"));
            assertTrue(walDuringLoad > 144L << 20, "the load wrote WAL: " + walDuringLoad);
            assertTrue(walAfter <= 112L << 20, "left in the cache: " + walAfter + " bytes of WAL, " + walDuringLoad + " after the load");
            try (SsbCache c = SsbCache.open(spec, sf, false, ParallelSweep.managedDefaults(0), true, false, null);
                 java.sql.Connection conn = c.target().connect(); java.sql.ResultSet rs = conn.createStatement().executeQuery("SHOW max_wal_size")) {
                rs.next();
                assertEquals("4GB", rs.getString(1), "the run's own setting at the next start");
                assertTrue(new SsbDatabase(c.target(), "public").status().complete());
            }
        } finally {
            removeCache(dir);
        }
    }

    /** A cache directory this test made, and its lock file beside it. */
    private static void removeCache(Path dir) throws java.io.IOException {
        if (Files.exists(dir)) SsbCache.deleteTree(dir);
        Files.deleteIfExists(dir.resolveSibling(dir.getFileName() + ".lock"));
    }

    private static long bytes(Path dir) throws java.io.IOException {
        try (var walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    /** A --no-keys run's cached database is its own: it used to reuse the keyed one, whose plans took the keys' index scans. */
    @Test
    void dataWithoutKeysAreCachedApartFromDataWithKeys() {
        TargetSpec spec = new TargetSpec();
        assertEquals(SsbCache.directory(spec, 1), SsbCache.directory(spec, 1, true));
        assertEquals(SsbCache.directory(spec, 1).getFileName().toString().replace("-sf1-", "-sf1-nokeys-"),
                SsbCache.directory(spec, 1, false).getFileName().toString());
    }

    /** Caches of binaries a newer bench.jar no longer carries, or of another generator, are named with their size. */
    @Test
    void staleCachesAreNamedNotRemoved(@TempDir Path root) throws Exception {
        String gen = "ssb-dbgen-ae1e254-schema1";
        for (String d : List.of("pg18.6.0-sf1-" + gen, "pg18.6.0-sf1-nokeys-" + gen, "pg18.0.0-sf1-" + gen, "pg17.11.0-sf0.1-" + gen, "pg17.11.0-sf1-ssb-dbgen-old")) {
            Files.createDirectories(root.resolve(d).resolve("data"));
        }
        Files.write(root.resolve("pg18.0.0-sf1-" + gen + "/data/big"), new byte[2_000_000]);
        Files.createFile(root.resolve("pg18.0.0-sf1-" + gen + ".lock"));
        java.util.List<String> carried = List.of("16.15.0", "17.11.0", "18.6.0");
        assertEquals(List.of(root.resolve("pg17.11.0-sf1-ssb-dbgen-old"), root.resolve("pg18.0.0-sf1-" + gen)),
                SsbCache.stale(root, carried));
        assertEquals("ssb: 2 cached databases of PostgreSQL builds or generators this bench.jar does not use take 2 MB; "
                + "remove them to free the space: " + root.resolve("pg17.11.0-sf1-ssb-dbgen-old") + " " + root.resolve("pg18.0.0-sf1-" + gen),
                SsbCache.staleNotice(root, carried));
        assertTrue(Files.exists(root.resolve("pg18.0.0-sf1-" + gen)), "only named");
        assertNull(SsbCache.staleNotice(root.resolve("none"), carried));
        // with 18.0.0 carried too only the old generator's is stale
        assertEquals(List.of(root.resolve("pg17.11.0-sf1-ssb-dbgen-old")), SsbCache.stale(root, List.of("18.6.0", "18.0.0", "17.11.0")));
    }
}
