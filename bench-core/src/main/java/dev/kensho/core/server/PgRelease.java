package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL release as {@code --pg-version} asks for it: a major ({@code 17}, {@code 9.6}), meaning its newest
 * release, or one minor release ({@code 16.6}, {@code 9.6.24}), as the studies name theirs (PGECons 2024 compared
 * 16.6 with 17.2). Majors before 10 have two numbers ({@code 9.6}), later ones one.
 *
 * @param major the major as PostgreSQL writes it: "9.6", "17"
 * @param minor the minor release, or -1 for the newest of the major
 */
public record PgRelease(String major, int minor) implements Comparable<PgRelease> {
    private static final Pattern TEXT = Pattern.compile("([1-9]\\.\\d|[1-9]\\d)(?:\\.(\\d+))?");
    /** zonky's artifact versions: the PostgreSQL version, then (from 10 on) a packaging revision, "-1" for a rebuild. */
    private static final Pattern ZONKY = Pattern.compile("([1-9]\\.\\d|[1-9]\\d)\\.(\\d+)(?:\\.(\\d+))?(?:-(\\d+))?");
    private static final Comparator<PgRelease> ORDER = Comparator
            .comparingInt((PgRelease r) -> r.majorNumber()).thenComparingInt(PgRelease::minor);

    /** The newest release of this major (a major from 10 on). */
    public static PgRelease major(int major) {
        return parse(Integer.toString(major));
    }

    /** "17", "16.6", "9.6", "9.6.24"; a usage error naming the option otherwise. */
    public static PgRelease parse(String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw KenshoException.usage("--pg-version " + text + ": a PostgreSQL major (17, 9.6) or minor release (16.6, 9.6.24)");
        }
        return new PgRelease(m.group(1), m.group(2) == null ? -1 : Integer.parseInt(m.group(2)));
    }

    /** The release a zonky artifact version ("16.6.0", "10.5.0-1", "9.6.24") packages, or null for another kind of version. */
    public static PgRelease ofZonky(String artifactVersion) {
        Matcher m = ZONKY.matcher(artifactVersion);
        if (!m.matches()) return null;
        boolean old = m.group(1).contains(".");
        // 9.6.24 is PostgreSQL 9.6.24; from 10 on the third number is zonky's revision, absent before 10
        if (old == (m.group(3) != null)) return null;
        return new PgRelease(m.group(1), Integer.parseInt(m.group(2)));
    }

    public boolean exact() {
        return minor >= 0;
    }

    /** 96 for 9.6, 170 for 17: one scale across the change of numbering at 10. */
    int majorNumber() {
        return major.contains(".") ? Integer.parseInt(major.replace(".", "")) : Integer.parseInt(major) * 10;
    }

    /** Whether a release (exact) is this one, or of this major when only the major was asked for. */
    public boolean matches(PgRelease release) {
        return major.equals(release.major) && (minor < 0 || minor == release.minor);
    }

    @Override
    public int compareTo(PgRelease o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return minor < 0 ? major : major + "." + minor;
    }
}
