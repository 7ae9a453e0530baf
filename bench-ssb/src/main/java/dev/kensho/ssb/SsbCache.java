package dev.kensho.ssb;

import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import dev.kensho.core.server.EmbeddedBinaries;
import dev.kensho.core.server.KenshoHome;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetKind;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.ssb.load.CopyJobs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Opens the server an SSB command measures. On the embedded default the data directory lives in
 * KenshoHome/ssb-cache/pg&lt;version&gt;-sf&lt;N&gt;-&lt;generator&gt;/ and is reused by the next run (so a
 * second {@code bench ssb} starts measuring within seconds); a file lock keeps two processes from
 * sharing one, the second then gets a throw-away server. Other targets open as given.
 */
public final class SsbCache implements AutoCloseable {
    private final Target target;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Path dir;
    private final PrintStream err;
    /** Whether the cached database held a complete load when opened: a first one is said, with its size, at close. */
    private final boolean heldData;

    private SsbCache(Target target, FileChannel ch, FileLock lock, Path dir, PrintStream err) {
        this.target = target;
        this.lockChannel = ch;
        this.lock = lock;
        this.dir = dir;
        this.err = err;
        this.heldData = dir != null && Boolean.TRUE.equals(holdsCompleteLoad(target));
    }

    public Target target() {
        return target;
    }

    /** The cache directory in use, or null when the target is not cached. */
    public Path directory() {
        return dir;
    }

    /** True for the embedded default (no --url, --pg-bin or --testcontainers) when the user chose no --keep-data of their own. */
    public static boolean embedded(TargetSpec spec) {
        return spec.kind() == TargetKind.EMBEDDED && spec.keepData() == null;
    }

    /** KenshoHome/ssb-cache/pg18.6.0-sf1-ssb-dbgen-ae1e254-schema1 for this spec and scale, with the primary keys. */
    public static Path directory(TargetSpec spec, double scale) {
        return directory(spec, scale, true);
    }

    /**
     * The same, and pg18.6.0-sf1-nokeys-ssb-dbgen-ae1e254-schema1 without the keys: a --no-keys run (the JIT study's) and
     * a run with them each keep their own database instead of one reusing the other's tables.
     */
    public static Path directory(TargetSpec spec, double scale, boolean keys) {
        String full = spec.embeddedBuild();
        String key = ("pg" + full + "-sf" + SsbDatabase.fmt(scale) + (keys ? "" : "-nokeys") + "-" + SsbDatabase.GENERATOR_VERSION)
                .replaceAll("[^A-Za-z0-9._-]+", "-");
        return KenshoHome.dir().resolve("ssb-cache").resolve(key);
    }

    /**
     * @param settings extra server settings for managed servers (applied at start, so no restart),
     *                 each only when the user did not --set it
     * @param useCache false to ignore the cache (e.g. with an explicit --keep-data)
     * @param fresh    delete the cached database first (--fresh)
     */
    public static SsbCache open(TargetSpec spec, double scale, Map<String, String> settings, boolean useCache, boolean fresh,
                                PrintStream err) {
        return open(spec, scale, true, settings, useCache, fresh, err);
    }

    /** @param keys the data are loaded with the primary keys (without --no-keys): part of the cache's key */
    public static SsbCache open(TargetSpec spec, double scale, boolean keys, Map<String, String> settings, boolean useCache,
                                boolean fresh, PrintStream err) {
        CopyJobs.warmUp(); // most SSB commands load next; the generator's classes load while the server opens
        TargetSpec s = spec.copy();
        if (!spec.isRemote()) {
            settings.forEach((k, v) -> {
                if (!spec.settings().containsKey(k)) s.set(k, v);
            });
        }
        if (!useCache || !embedded(spec)) return new SsbCache(s.open(), null, null, null, err);
        Path dir = directory(spec, scale, keys);
        FileChannel ch = null;
        FileLock lock = null;
        try {
            KenshoHome.makeDirectories(dir.getParent());
            ch = FileChannel.open(dir.resolveSibling(dir.getFileName() + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                ch.close();
                if (err != null) err.println("ssb: the cached database " + dir + " is in use by another run; using a temporary server");
                return new SsbCache(s.open(), null, null, null, err);
            }
            if (err != null) {
                // a build fetched for --pg-version 11.1 (extracted in KenshoHome/pg) is in use as much as a carried one
                List<String> builds = new ArrayList<>(KenshoVersion.embeddedPostgres().values());
                builds.addAll(EmbeddedBinaries.fetched());
                // this run's own (an earlier bench.jar's 18.0 that --pg-version 18.0 asks for) is in use now
                builds.add(spec.embeddedBuild());
                String stale = staleNotice(dir.getParent(), builds);
                if (stale != null) err.println(stale);
            }
            if (fresh && Files.exists(dir)) {
                if (err != null) err.println("ssb: --fresh: removing the cached database " + dir);
                deleteTree(dir);
            } else if (Files.exists(dir.resolve("data/PG_VERSION")) && err != null) {
                // the server, not necessarily its data: a run stopped before its load (a refused --set) leaves one
                // empty, and the next line says whether the data are there or loaded now
                err.println("ssb: reusing the cached server " + dir + " (--fresh starts anew)");
            }
            Target t;
            try {
                t = s.keepData(dir).open();
            } catch (KenshoException e) {
                // the cache is kept through --keep-data, which this command line never gave
                throw e.naming(Map.of("--keep-data", "the SSB cache"));
            }
            return new SsbCache(t, ch, lock, dir, err);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new KenshoException(KenshoException.FAILURE, "cannot use the SSB cache " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    /**
     * The cached databases under {@code root} this bench.jar never opens again: of a PostgreSQL build it no longer carries
     * (an upgrade of bench.jar leaves the old ones) or of another generator. Said, not removed: another bench.jar on this
     * machine may still use them.
     */
    static List<Path> stale(Path root, Collection<String> carriedVersions) throws IOException {
        String generator = "-" + SsbDatabase.GENERATOR_VERSION.replaceAll("[^A-Za-z0-9._-]+", "-");
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(root)) return out;
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs.sorted()::iterator) {
                String name = d.getFileName().toString();
                if (!Files.isDirectory(d) || !name.startsWith("pg")) continue;
                boolean current = name.endsWith(generator) && carriedVersions.stream().anyMatch(v -> name.startsWith("pg" + v + "-sf"));
                if (!current) out.add(d);
            }
        }
        return out;
    }

    /** One line naming the stale caches and their size, or null when there are none. */
    static String staleNotice(Path root, Collection<String> carriedVersions) throws IOException {
        List<Path> stale = stale(root, carriedVersions);
        if (stale.isEmpty()) return null;
        long bytes = 0;
        for (Path d : stale) bytes += bytes(d);
        String size = size(bytes);
        return "ssb: " + stale.size() + " cached database" + (stale.size() == 1 ? "" : "s") + " of PostgreSQL builds or generators "
                + "this bench.jar does not use take " + size + "; remove " + (stale.size() == 1 ? "it" : "them") + " to free the space: "
                + String.join(" ", stale.stream().map(Path::toString).toList());
    }

    private static long bytes(Path dir) throws IOException {
        return KenshoHome.bytes(List.of(dir));
    }

    private static String size(long bytes) {
        return KenshoHome.size(bytes);
    }

    /**
     * Whether a schema of the target's database holds a complete SSB load (its kensho_ssb_meta says so); null when the
     * server cannot be asked (stopped by a Ctrl-C, crashed), which tells nothing.
     */
    static Boolean holdsCompleteLoad(Target target) {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            List<String> schemas = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT quote_ident(n.nspname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    + "WHERE c.relname = '" + SsbDatabase.META + "' AND c.relkind = 'r'")) {
                while (rs.next()) schemas.add(rs.getString(1));
            }
            for (String schema : schemas) {
                try (ResultSet rs = s.executeQuery("SELECT coalesce(bool_or(complete), false) FROM " + schema + "." + SsbDatabase.META)) {
                    if (rs.next() && rs.getBoolean(1)) return true;
                }
            }
            return false;
        } catch (SQLException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The WAL a first load wrote (SF 1: 641 MB beside 887 MB of tables) stays in pg_wal, recycled up to max_wal_size,
     * in every cached database: a checkpoint under a small max_wal_size removes it. The next start sets the run's own.
     */
    private void trimWal() {
        try {
            String was;
            try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW max_wal_size")) {
                rs.next();
                was = rs.getString(1);
            }
            if (!target.control().apply(Map.of("max_wal_size", "96MB")).ok()) return;
            try (Connection c = target.connect()) {
                // without a --set statement_timeout, which is the queries' (see OwnStatements)
                dev.kensho.core.server.OwnStatements.run(c, own -> own.execute("CHECKPOINT"));
            } finally {
                // a failed checkpoint left the server at 96MB for the rest of the run
                target.control().apply(Map.of("max_wal_size", was));
            }
        } catch (SQLException | RuntimeException e) {
            // a smaller cache is all it was for
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            if (ch != null) ch.close();
        } catch (IOException ignored) {
            // releasing the lock is all that matters
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
        }
    }

    @Override
    public void close() {
        // not while the JVM ends (Ctrl-C): its halt could cut a removal short and leave half a data directory
        Boolean complete = dir == null || dev.kensho.core.JvmShutdown.begun() ? null : holdsCompleteLoad(target);
        if (Boolean.TRUE.equals(complete) && !heldData) trimWal();
        try {
            target.close();
            if (Boolean.FALSE.equals(complete)) {
                // a load that failed (a full disk) or never began leaves a database no run reuses as it is: hundreds of
                // megabytes, on the disk that may have just filled up; the next run makes its server anew in seconds
                long freed = bytes(dir);
                deleteTree(dir);
                if (err != null) err.println("ssb: removed the cached server " + dir + " (" + size(freed) + "): it held no complete SSB load");
            } else if (Boolean.TRUE.equals(complete) && !heldData && err != null) {
                err.println("ssb: the loaded database stays in " + dir + " for the next run (" + size(bytes(dir)) + "; --fresh reloads it, "
                        + "--no-cache keeps none; remove the directory to free the space)");
            }
        } catch (IOException e) {
            if (err != null) err.println("ssb: cannot remove the cached server " + dir + ": " + KenshoException.ioReason(e));
        } finally {
            try {
                if (lock != null) lock.release();
            } catch (IOException ignored) {
                // the channel close below releases it too
            }
            closeQuietly(lockChannel);
        }
    }
}
