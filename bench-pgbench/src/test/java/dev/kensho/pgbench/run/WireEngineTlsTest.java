package dev.kensho.pgbench.run;

import static dev.kensho.pgbench.run.PgbenchRunTest.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.core.server.WireLogin;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import dev.kensho.pgbench.script.ClientScriptRunner;
import dev.kensho.pgbench.script.TransactionOutcome;
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
 * A server offering TLS (the embedded one with a keytool certificate): the wire engine speaks it with sslmode prefer and
 * require, as libpq does, and leaves the modes that verify the certificate to pgjdbc, saying so. Never a TLS server
 * measured in clear text.
 */
@KenshoTarget
class WireEngineTlsTest {

    @Test
    void theWireEngineSpeaksTlsAndLeavesVerificationToPgjdbc(Target pg, @TempDir Path tmp) throws Exception {
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
        }
        try {
            dev.kensho.core.server.ConfReload.reloadAndWait(pg);
            try (Connection c = pg.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT current_setting('ssl')")) {
                rs.next();
                assumeTrue(rs.getString(1).equals("on"), "the server did not take the test certificate (see its log)");
            }
            // prefer (the default): encrypted, as pg_stat_ssl says of the session; a result larger than the buffers
            // and a pipeline cross the TLS layer whole
            try (WireConnection w = WireConnection.open(pg.wireLogin(), QueryMode.EXTENDED)) {
                ClientScriptRunner r = WireConnectionTest.runner("select ssl::text as tls from pg_stat_ssl where pid = pg_backend_pid() \\gset\n"
                        + "select repeat('x', 300000) as big \\gset\n\\startpipeline\nselect 1;\nselect repeat('y', 100000);\n"
                        + "select 2;\n\\endpipeline\nselect 3 as three \\gset\n", QueryMode.EXTENDED);
                TransactionOutcome o = WireConnectionTest.run(w, r);
                assertTrue(o.ok(), o.message());
                assertEquals("true", r.variables().text("tls"));
                assertEquals(300000, r.variables().text("big").length());
                assertEquals("3", r.variables().text("three"));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            RunReport r = new PgbenchRun().warmup(0).engine(Engine.WIRE).selectOnly().mode(QueryMode.PREPARED).clients(2).threads(1).transactions(200)
                    .noVacuum(true).output(sink(out), sink(err)).run(pg);
            String errors = err.toString(StandardCharsets.UTF_8);
            assertEquals(Engine.WIRE, r.engine(), errors);
            assertFalse(errors.contains("warning"), errors);
            assertEquals(400, r.processed(), errors);

            // verify-full: checked by pgjdbc against the certificate; the wire engine says it does not and steps aside
            WireLogin l = pg.wireLogin();
            WireLogin verifying = new WireLogin(l.host(), l.port(), l.database(), l.user(), l.password(), l.startupParameters(), "verify-full");
            assertThrows(WireConnection.Unsupported.class, () -> WireConnection.open(verifying, QueryMode.EXTENDED).close());
            Path root = Files.writeString(tmp.resolve("root.crt"), Files.readString(cert));
            Target verified = new TargetSpec().url("jdbc:postgresql://localhost:" + pg.port() + "/" + pg.database()
                    + "?sslmode=verify-full&sslrootcert=" + root).user(pg.user()).open();
            try {
                ByteArrayOutputStream err2 = new ByteArrayOutputStream();
                RunReport v = new PgbenchRun().engine(Engine.WIRE).selectOnly().clients(2).threads(1).transactions(20).noVacuum(true)
                        .warmup(0).output(sink(new ByteArrayOutputStream()), sink(err2)).run(verified);
                String e2 = err2.toString(StandardCharsets.UTF_8);
                assertEquals(Engine.PGJDBC, v.engine(), e2);
                assertTrue(e2.contains("warning: --engine wire: sslmode=verify-full verifies the server's certificate, which Kensho's"
                        + " wire engine does not; this run uses the pgjdbc engine"), e2);
                assertEquals(40, v.processed());
            } finally {
                verified.close();
            }
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
