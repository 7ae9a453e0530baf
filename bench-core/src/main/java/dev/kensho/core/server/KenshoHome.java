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
}
