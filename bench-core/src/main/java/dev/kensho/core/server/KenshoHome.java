package dev.kensho.core.server;

import java.nio.file.Path;

/**
 * Where Kensho keeps extracted binaries, server instances and cached databases. As root the
 * server runs as an unprivileged user, which cannot enter /root, so root uses /var/cache/kensho.
 */
public final class KenshoHome {
    private KenshoHome() {}

    /**
     * How a tablespace location Kensho makes for a managed server begins (scan's --tablespace-dir: DIR/kensho-&lt;random&gt;);
     * such a location, once empty, is Kensho's to remove with its throw-away server.
     */
    public static final String OWN_TABLESPACE_PREFIX = "kensho-";

    /** How scan's throughput probe's file in a tablespace location begins (kensho-seqread….bin), which a kill leaves. */
    public static final String OWN_PROBE_PREFIX = "kensho-seqread";

    /** A location Kensho made (kensho- and the random digits Files.createTempDirectory adds), not a user's kensho-ssd. */
    public static boolean isOwnTablespaceLocation(Path location) {
        String name = location.getFileName() == null ? "" : location.getFileName().toString();
        return name.startsWith(OWN_TABLESPACE_PREFIX) && name.length() > OWN_TABLESPACE_PREFIX.length()
                && name.substring(OWN_TABLESPACE_PREFIX.length()).chars().allMatch(Character::isDigit);
    }

    public static Path dir() {
        String explicit = System.getProperty("kensho.home", System.getenv("KENSHO_HOME"));
        if (explicit != null && !explicit.isBlank()) return Path.of(explicit).toAbsolutePath();
        if (ServerUser.isRoot()) return Path.of("/var/cache/kensho");
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return cache.resolve("kensho");
    }

    /** What chose {@link #dir()}, for messages: a user who never set KENSHO_HOME learns it exists. */
    static String chosenBy() {
        if (System.getProperty("kensho.home") != null) return "-Dkensho.home";
        String env = System.getenv("KENSHO_HOME");
        if (env != null && !env.isBlank()) return "KENSHO_HOME";
        if (ServerUser.isRoot()) return "the default for root; set KENSHO_HOME to choose another";
        String xdg = System.getenv("XDG_CACHE_HOME");
        return (xdg != null && !xdg.isBlank() ? "XDG_CACHE_HOME" : "the default under the user's home") + "; set KENSHO_HOME to choose another";
    }

    /**
     * Makes dir and its missing parents rwxr-xr-x whatever the umask: under umask 000 Kensho's directories were
     * everyone's to write, and another user could put their own programs or data directories there.
     */
    public static Path makeDirectories(Path dir) throws java.io.IOException {
        java.util.Deque<Path> missing = new java.util.ArrayDeque<>();
        for (Path p = dir.toAbsolutePath(); p != null && !java.nio.file.Files.exists(p); p = p.getParent()) missing.push(p);
        java.nio.file.Files.createDirectories(dir);
        for (Path p : missing) {
            try {
                java.nio.file.Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            } catch (UnsupportedOperationException noModes) {
                // a file system without POSIX modes
            }
        }
        return dir;
    }

    private static final java.util.Set<Path> TRUSTED = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> OTHERS_WRITE = java.util.EnumSet.of(
            java.nio.file.attribute.PosixFilePermission.GROUP_WRITE, java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE);

    /**
     * {@link #dir()}, made where it is missing (rwxr-xr-x, whatever the umask) and refused where someone else could put
     * their own things into it: Kensho runs the PostgreSQL binaries it keeps in pg/, copies the data directories in
     * templates/, and deletes in instances/ (as root too). A KENSHO_HOME another user made (a shared /tmp/ci-cache), or
     * one group or others may write (a CI runner's umask 000), had a pg_ctl replaced by another user's program run as
     * the user running Kensho, and an instance planted whose tablespace links root deleted through. Checked once per JVM.
     */
    public static Path trusted() {
        Path home = dir();
        if (TRUSTED.contains(home)) return home;
        try {
            if (!java.nio.file.Files.exists(home)) makeDirectories(home);
            if (!java.nio.file.Files.isWritable(home)) {
                // root's /var/cache/kensho given to an ordinary user: "cannot create the server directory", exit 3
                throw dev.kensho.core.KenshoException.usage("cannot use " + home + " (" + chosenBy() + "): " + System.getProperty("user.name")
                        + " may not write there");
            }
            String me = System.getProperty("user.name");
            // what Kensho runs programs from, copies data directories from, or deletes under as root (instances/, whose
            // planted pg_tblspc links had root remove another cluster's tablespace directories)
            java.util.List<Path> checked = new java.util.ArrayList<>(java.util.List.of(home, home.resolve("pg"), home.resolve("templates"),
                    home.resolve("instances"), home.resolve("ssb-cache"), home.resolve("logs")));
            for (String sub : java.util.List.of("pg", "templates")) {
                if (!java.nio.file.Files.isDirectory(home.resolve(sub))) continue;
                try (var builds = java.nio.file.Files.list(home.resolve(sub))) {
                    for (Path b : (Iterable<Path>) builds::iterator) {
                        checked.add(b);
                        if (sub.equals("pg") && java.nio.file.Files.isDirectory(b.resolve("bin"))) {
                            checked.add(b.resolve("bin"));
                            try (var programs = java.nio.file.Files.list(b.resolve("bin"))) {
                                programs.forEach(checked::add);
                            }
                        }
                    }
                }
            }
            for (Path d : checked) {
                if (!java.nio.file.Files.exists(d)) continue;
                String owner = java.nio.file.Files.getOwner(d).getName();
                // as root, templates/ may be the server user's (its initdb made what is in it)
                boolean ours = owner.equals(me) || owner.equals("root") || ServerUser.isRoot() && owner.equals(ServerUser.NAME);
                if (!ours) {
                    throw dev.kensho.core.KenshoException.usage(d + " belongs to " + owner + ", not to " + me + " (" + home + " is "
                            + chosenBy() + "): Kensho runs the PostgreSQL programs it keeps in it, and deletes in it; give a directory of your own");
                }
                if (java.nio.file.Files.getPosixFilePermissions(d).stream().anyMatch(OTHERS_WRITE::contains)) {
                    throw dev.kensho.core.KenshoException.usage(d + " may be written by other users (" + home + " is " + chosenBy()
                            + "): Kensho runs the PostgreSQL programs it keeps in it, and deletes in it; remove their write permission (chmod go-w " + d + ")");
                }
            }
        } catch (java.nio.file.FileSystemException e) {
            throw dev.kensho.core.KenshoException.usage("cannot use " + home + " (" + chosenBy() + "): "
                    + dev.kensho.core.KenshoException.ioReason(e));
        } catch (java.io.IOException | UnsupportedOperationException cannotTell) {
            // a file system without owners or POSIX modes: as it is
        }
        TRUSTED.add(home);
        return home;
    }

    /** The bytes of the regular files under these directories. */
    public static long bytes(java.util.Collection<Path> dirs) throws java.io.IOException {
        long n = 0;
        for (Path d : dirs) {
            try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(d)) {
                n += walk.filter(java.nio.file.Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();   // a directory removed during the walk
            }
        }
        return n;
    }

    /** A size as the notices say it: "197 MB", "1.4 GB". */
    public static String size(long bytes) {
        return bytes >= 1e9 ? String.format(java.util.Locale.ROOT, "%.1f GB", bytes / 1e9) : Math.round(bytes / 1e6) + " MB";
    }
}
