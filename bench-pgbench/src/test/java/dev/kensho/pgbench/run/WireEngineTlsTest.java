package dev.kensho.pgbench.run;

import static dev.kensho.pgbench.run.PgbenchRunTest.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server offering TLS: the wire engine does not speak it, so the run says so and uses pgjdbc, which does (as pgbench's
 * libpq would, with sslmode=prefer). Never a TLS server measured in clear text.
 */
@KenshoTarget
class WireEngineTlsTest {

    @Test
    void aServerOfferingTlsIsMeasuredThroughPgjdbc(Target pg, @TempDir Path tmp) throws Exception {
        Path data = pg.control().dataDirectory().orElse(null);
        assumeTrue(data != null, "needs a managed server whose data directory Kensho writes: " + pg.describe());
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        assumeTrue(Files.isExecutable(keytool), "needs the JDK's keytool to make a certificate: " + keytool);
        Path store = tmp.resolve("server.p12");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String keytoolOut = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), keytoolOut);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(store.toFile())) {
            ks.load(in, "changeit".toCharArray());
        }
        Path cert = data.resolve("kensho-test-server.crt");
        Path key = data.resolve("kensho-test-server.key");
        Files.writeString(cert, pem("CERTIFICATE", ks.getCertificate("server").getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", ks.getKey("server", "changeit".toCharArray()).getEncoded()));
        // the server refuses a key others can read; it runs as the data directory's owner
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        Files.setOwner(key, Files.getOwner(data));
        Files.setOwner(cert, Files.getOwner(data));
        new PgbenchInit().scale(1).log(null).run(pg);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("ALTER SYSTEM SET ssl_cert_file = '" + cert + "'");
            s.execute("ALTER SYSTEM SET ssl_key_file = '" + key + "'");
            s.execute("ALTER SYSTEM SET ssl = on");
            s.execute("SELECT pg_reload_conf()");
        }
        try {
            Thread.sleep(300);
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT current_setting('ssl')")) {
                rs.next();
                assumeTrue(rs.getString(1).equals("on"), "the server did not take the test certificate (see its log)");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            RunReport r = new PgbenchRun().engine(Engine.WIRE).selectOnly().clients(2).threads(1).transactions(20).noVacuum(true)
                    .warmup(0).output(sink(out), sink(err)).run(pg);
            String errors = err.toString(StandardCharsets.UTF_8);
            assertEquals(Engine.PGJDBC, r.engine(), errors);
            assertTrue(errors.contains("warning: --engine wire: the server offers TLS (sslmode=prefer), which Kensho's wire engine"
                    + " does not speak; this run uses the pgjdbc engine"), errors);
            assertEquals(40, r.processed());
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("ALTER SYSTEM RESET ssl");
                s.execute("ALTER SYSTEM RESET ssl_cert_file");
                s.execute("ALTER SYSTEM RESET ssl_key_file");
                s.execute("SELECT pg_reload_conf()");
            }
            Files.deleteIfExists(cert);
            Files.deleteIfExists(key);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
