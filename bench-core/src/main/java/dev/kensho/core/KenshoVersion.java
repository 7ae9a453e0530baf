package dev.kensho.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.TreeMap;
import java.util.SortedMap;

/** The tool's version and the PostgreSQL binaries bench.jar carries, from the build. */
public final class KenshoVersion {
    private static final Properties PROPS = load();

    private KenshoVersion() {}

    public static String version() {
        return PROPS.getProperty("kensho.version", "unknown");
    }

    /**
     * The commit this build is of ("3ded56f", with "+changes" where the tree had uncommitted ones), or "unknown" (a
     * source tree without git): two builds of one version measure with different code.
     */
    public static String commit() {
        String c = PROPS.getProperty("kensho.commit", "");
        if (c.isEmpty() || c.startsWith("${")) return "unknown";
        return c + ("true".equals(PROPS.getProperty("kensho.dirty")) ? "+changes" : "");
    }

    /** Major version → full zonky binaries version (e.g. 17 → 17.6.0), newest last. */
    public static SortedMap<Integer, String> embeddedPostgres() {
        SortedMap<Integer, String> m = new TreeMap<>();
        for (String k : PROPS.stringPropertyNames()) {
            if (k.startsWith("pg.")) m.put(Integer.parseInt(k.substring(3)), PROPS.getProperty(k));
        }
        return m;
    }

    public static int newestEmbeddedMajor() {
        return embeddedPostgres().lastKey();
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = KenshoVersion.class.getResourceAsStream("/kensho/version.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
