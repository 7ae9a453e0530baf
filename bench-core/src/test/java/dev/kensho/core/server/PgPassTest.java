package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ~/.pgpass as libpq reads it. Each row's outcome is what psql 15 did with the same file (PGPASSFILE, psql -w) against
 * a server asking a password of pwu on port 5499: a password found, or "fe_sendauth: no password supplied".
 */
class PgPassTest {
    @TempDir Path dir;

    @ParameterizedTest(name = "[{index}] {0} for host {1}")
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
            // a localhost line is for the name localhost and the default socket directory, not for 127.0.0.1
            "localhost:5499:*:pwu:sekret   | 127.0.0.1          | NONE",
            "localhost:5499:*:pwu:sekret   | localhost          | sekret",
            "localhost:5499:*:pwu:sekret   | /var/run/postgresql | sekret",
            "localhost:5499:*:pwu:sekret   | /tmp/pgpw          | NONE",
            "/tmp/pgpw:5499:*:pwu:sekret   | /tmp/pgpw          | sekret",
            "127.0.0.1:5499:*:pwu:sekret   | 127.0.0.1          | sekret",
            // escapes: '\\:' in the password is ':'; an escaped star is a literal star, not a wildcard
            "*:5499:*:pwu:sek\\:ret        | 127.0.0.1          | sek:ret",
            "\\*:5499:*:pwu:sekret         | 127.0.0.1          | NONE",
            // four fields are no entry; leading blanks are part of the host
            "127.0.0.1:5499:*:pwu          | 127.0.0.1          | NONE",
            "'  127.0.0.1:5499:*:pwu:sekret' | 127.0.0.1        | NONE",
            "*:5499:*:other:sekret         | 127.0.0.1          | NONE",
            "*:5432:*:pwu:sekret           | 127.0.0.1          | NONE",
    })
    void matchesAsLibpq(String line, String host, String expected) throws Exception {
        assertEquals(expected, lookup(line + "\n", host));
    }

    @Test
    void firstMatchingLineWinsEvenWithAnEmptyPassword() throws Exception {
        // psql: "no password supplied", although the second line has one
        assertNull(lookup("*:5499:*:pwu:\n*:5499:*:pwu:sekret\n", "127.0.0.1"));
        assertEquals("first", lookup("# comment:5499:*:pwu:x\n*:5499:*:pwu:first\n*:5499:*:pwu:second\n", "127.0.0.1"));
        assertEquals("sekret", lookup("127.0.0.1:5499:*:pwu:sekret\r\n", "127.0.0.1"), "a CRLF line");
    }

    @Test
    void aFileOthersMayReadIsIgnoredWithLibpqsWarning() throws Exception {
        Path f = write("*:*:*:pwu:sekret\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertNull(PgPass.lookup("127.0.0.1", 5499, "postgres", "pwu", Map.of("PGPASSFILE", f.toString()), dir,
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("WARNING: password file \"" + f + "\" has group or world access; permissions should be u=rw (0600) or less",
                err.toString(StandardCharsets.UTF_8).strip());
    }

    /** libpq on Windows reads %APPDATA%\postgresql\pgpass.conf, not ~/.pgpass, and its service file from there too. */
    @Test
    void onWindowsTheFilesAreInAppData() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(home.resolve(".pgpass"), "*:*:*:pwu:from-home\n");
        Path appData = Files.createDirectories(dir.resolve("AppData/Roaming/postgresql")).getParent();
        Files.setPosixFilePermissions(Files.writeString(appData.resolve("postgresql/pgpass.conf"), "*:*:*:pwu:from-appdata\r\n"),
                PosixFilePermissions.fromString("rw-------"));
        Files.writeString(appData.resolve("postgresql/.pg_service.conf"), "[svc]\r\nhost=db.example\r\n");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Map<String, String> env = Map.of("APPDATA", appData.toString());
        String os = System.getProperty("os.name");
        System.setProperty("os.name", "Windows 11");
        try {
            assertEquals("from-appdata", PgPass.lookup("db.example", 5432, "d", "pwu", env, home, quiet));
            assertEquals(Map.of("host", "db.example"), ServiceFile.lookup("svc", env, home));
        } finally {
            System.setProperty("os.name", os);
        }
        Files.setPosixFilePermissions(home.resolve(".pgpass"), PosixFilePermissions.fromString("rw-------"));
        assertEquals("from-home", PgPass.lookup("db.example", 5432, "d", "pwu", env, home, quiet), "APPDATA means nothing elsewhere");
    }

    @Test
    void pgpasswordComesFirstAndHomeIsTheDefault() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path f = Files.writeString(home.resolve(".pgpass"), "*:*:*:pwu:from-home\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals("from-home", PgPass.lookup("db.example", 5432, "d", "pwu", Map.of(), home, quiet));
        assertEquals("from-env", PgPass.lookup("db.example", 5432, "d", "pwu", Map.of("PGPASSWORD", "from-env"), home, quiet));
        assertNull(PgPass.lookup("db.example", 5432, "d", "pwu", Map.of("PGPASSFILE", dir.resolve("none").toString()), home, quiet));
    }

    /** libpq reads ~/.pgpass from $HOME (the JVM's user.home is the password database's entry), and holds ::1 unbracketed. */
    @Test
    void homeIsHomeAndAnIpv6HostMatchesUnbracketed() throws Exception {
        assertEquals(dir, PgPass.home(Map.of("HOME", dir.toString())));
        assertEquals(Path.of(System.getProperty("user.home")), PgPass.home(Map.of()));
        assertEquals("six", lookup("::1:5499:*:pwu:six\n", "[::1]"));
        assertEquals("six", lookup("\\:\\:1:5499:*:pwu:six\n", "[::1]"));
    }

    private String lookup(String content, String host) throws Exception {
        Path f = write(content);
        return PgPass.lookup(host, 5499, "postgres", "pwu", Map.of("PGPASSFILE", f.toString()), dir,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    private Path write(String content) throws Exception {
        Path f = Files.writeString(Files.createTempFile(dir, "pgpass", ""), content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }
}
