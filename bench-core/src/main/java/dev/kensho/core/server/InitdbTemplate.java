package dev.kensho.core.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A data directory initdb made once per PostgreSQL build, copied for each new server of that build. initdb's
 * bootstrap is most of a managed start's CPU (about 1.5 s of a 2-core machine's, against 0.2 s for the copy), and a
 * sweep or a test suite starts servers by the dozen. The copy is the same cluster initdb would make, with one
 * difference: copies share the template's system identifier (nothing of Kensho's names a cluster by it; see
 * Tablespace). Every failure here is a reason to run initdb instead, never a failed start.
 */
final class InitdbTemplate {
    private static final String DIR = "templates";

    private final Path dir;

    private InitdbTemplate(Path dir) {
        this.dir = dir;
    }

    /**
     * The template of the build in bin, under KENSHO_HOME/templates/. Its name holds everything initdb's output depends
     * on besides its fixed arguments: the build (postgres' path, size and time: a reinstalled minor release is another
     * build), the time zone initdb writes into postgresql.conf (TZ, else /etc/localtime), and the user (the copies keep
     * the template's owner, who must be the one the server runs as).
     */
    static InitdbTemplate of(Path bin) {
        Path postgres = bin.resolve("postgres");
        String build, zone;
        try {
            BasicFileAttributes a = Files.readAttributes(postgres.toRealPath(), BasicFileAttributes.class);
            build = postgres.toRealPath() + "\n" + a.size() + "\n" + a.lastModifiedTime().toMillis() + "\n" + System.getProperty("user.name");
        } catch (IOException e) {
            build = bin.toAbsolutePath() + "\n" + System.getProperty("user.name");
        }
        try {
            Path localtime = Path.of("/etc/localtime");
            zone = System.getenv("TZ") + "\n" + (Files.isSymbolicLink(localtime) ? Files.readSymbolicLink(localtime) : "");
        } catch (IOException e) {
            zone = String.valueOf(System.getenv("TZ"));
        }
        return new InitdbTemplate(KenshoHome.trusted().resolve(DIR).resolve(digest(bin.toAbsolutePath().normalize().toString())
                + "-" + digest(build + "\n" + zone)));
    }

    /** The templates made of the build in bin (one, unless partial copies are left), for the notice of unused builds. */
    static List<Path> templatesOf(Path bin) {
        Path root = KenshoHome.dir().resolve(DIR);
        String prefix = digest(bin.toAbsolutePath().normalize().toString()) + "-";
        if (!Files.isDirectory(root)) return List.of();
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Where the template is (a directory holding data/), for the run log. */
    Path dir() {
        return dir;
    }

    /**
     * Copies the template into data (which must not exist), owners and modes kept; false when there is no template
     * or the copy failed (what was copied is removed): the caller runs initdb.
     */
    boolean copyTo(Path data) {
        Path source = dir.resolve("data");
        if (!Files.isRegularFile(source.resolve("PG_VERSION"))) {
            // renamed into place only once whole, so a template without it was damaged since: made again
            if (Files.exists(dir)) InstanceDirectory.deleteTree(dir);
            return false;
        }
        try {
            copyTree(source, data);
            return true;
        } catch (IOException | RuntimeException e) {
            InstanceDirectory.deleteTree(data);
            return false;
        }
    }

    /**
     * Keeps a copy of data, just made by initdb, as the template. Another process making the same template at the
     * same time is fine: the first whole copy is renamed into place, the others are dropped. Templates of earlier
     * builds in the same bin directory go (a reinstalled release leaves nothing behind).
     */
    void keep(Path data) {
        Path parent = dir.getParent();
        Path partial = parent.resolve(dir.getFileName() + ".partial-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        try {
            // not the umask's: under umask 000 another user could put a template of theirs in its place
            KenshoHome.makeDirectories(partial);
            copyTree(data, partial.resolve("data"));
            Files.writeString(partial.resolve("made-by"), "initdb of " + data + ", copied at " + java.time.Instant.now() + "\n",
                    StandardCharsets.UTF_8);
            try {
                Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException alreadyThere) {
                InstanceDirectory.deleteTree(partial);
            }
            dropOthers(parent);
        } catch (IOException | RuntimeException e) {
            InstanceDirectory.deleteTree(partial);   // no template: the next start runs initdb again
        }
    }

    /** Other builds' templates of this bin directory, and partial copies whose process has ended. */
    private void dropOthers(Path parent) throws IOException {
        String name = dir.getFileName().toString(), binPart = name.substring(0, name.indexOf('-') + 1);
        try (Stream<Path> s = Files.list(parent)) {
            for (Path p : s.toList()) {
                String n = p.getFileName().toString();
                int at = n.indexOf(".partial-");
                if (at >= 0) {
                    long pid = Long.parseLong(n.substring(at + ".partial-".length()).split("-")[0]);
                    if (ProcessHandle.of(pid).isEmpty()) InstanceDirectory.deleteTree(p);
                } else if (n.startsWith(binPart) && !n.equals(name)) {
                    InstanceDirectory.deleteTree(p);
                }
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                Files.copy(d, to.resolve(from.relativize(d).toString()), StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                Files.copy(f, to.resolve(from.relativize(f).toString()), StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static String digest(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
