package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The foundation's user-facing promises: help, version, one-line errors with documented exit codes. */
class CommandLineIT {
    @TempDir Path work;

    @Test
    void helpListsCommandsAndEveryCommandHasHelp() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("Commands:"), r.out());
        // a CI job's LANG=C: Java's charset there is ASCII, where the name's kanji and the dashes came out as "?"
        BenchJar.Result c = BenchJar.run(work.resolve("c"), java.util.Map.of("LANG", "C", "LC_ALL", "C"), "--help");
        assertEquals(r.out(), c.out());
        assertTrue(c.out().contains("Kensho (検証): ") && c.out().contains("min–max") && !c.out().contains("?"), c.out());
        // a Japanese locale's encoding is kept, as psql keeps it: in UTF-8, its terminal showed every kanji garbled
        Process euc = BenchJar.start(work.resolve("euc"), java.util.Map.of("JAVA_TOOL_OPTIONS",
                "-Dfile.encoding=EUC-JP -Dsun.stdout.encoding=EUC-JP -Dstdout.encoding=EUC-JP"), "--help");
        assertTrue(euc.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, euc.exitValue());
        String inEuc = new String(Files.readAllBytes(work.resolve("euc/stdout.txt")), java.nio.charset.Charset.forName("EUC-JP"));
        assertTrue(inEuc.contains("Kensho (検証): "), inEuc);
        for (String line : r.out().split("\n")) {
            String t = line.strip();
            if (!line.startsWith("  ") || line.startsWith("   ") || t.startsWith("-") || t.isEmpty()) continue;
            String cmd = t.split("\\s+")[0];
            BenchJar.Result h = BenchJar.run(work.resolve(cmd), cmd, "--help");
            assertEquals(0, h.exitCode(), cmd + " --help: " + h.all());
            assertTrue(h.out().startsWith("Usage: bench " + cmd), h.out());
        }
    }

    /**
     * Under LANG=C the JVM reads a kanji in an argument as U+FFFD: query measured "SELECT '���'" and recorded it so. The
     * bytes are made by the shell, since this JVM (in CI, under LANG=C too) would write "?" for them itself.
     */
    @Test
    void anArgumentTheLocaleCannotReadIsRefused() throws Exception {
        String[] out = underLangC("exec \"$0\" -jar \"$1\" query -c \"SELECT '$(printf '\\xe6\\xa4\\x9c')'\"");
        assertEquals("2", out[0], out[1]);
        assertEquals("bench: argument 3 holds characters the locale's encoding (ANSI_X3.4-1968, LC_ALL=C) cannot read, and Java would pass"
                + " on others in their place: run with a UTF-8 locale (LC_ALL=C.UTF-8, for one)", out[1]);
        // libpq's variables too: PGDATABASE's kanji had named another database ("kx_���" does not exist)
        String[] env = underLangC("PGDATABASE=\"db_$(printf '\\xe6\\xa4\\x9c')\" exec \"$0\" -jar \"$1\" env --url jdbc:postgresql://127.0.0.1:1/");
        assertEquals("2", env[0], env[1]);
        assertTrue(env[1].startsWith("bench: environment variable PGDATABASE holds characters"), env[1]);
        // where nothing reads it, it is no reason to refuse (--version, report, an embedded target)
        String[] version = underLangC("PGDATABASE=\"db_$(printf '\\xe6\\xa4\\x9c')\" exec \"$0\" -jar \"$1\" --version");
        assertEquals("0", version[0], version[1]);
    }

    /** {exit code, output} of bench.jar started by a bash line ($0 java, $1 the jar) under LANG=C. */
    private String[] underLangC(String bashLine) throws Exception {
        java.nio.file.Files.createDirectories(work);
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", bashLine, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                BenchJar.JAR.toString()).directory(work.toFile()).redirectErrorStream(true);
        pb.environment().put("LANG", "C");
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        return new String[] {String.valueOf(p.exitValue()), BenchJar.withoutJvmNotes(out).strip()};
    }

    @Test
    void envPrintsWhatARunRecordsAsJson() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "env", "--pg-version", "16");
        assertEquals(0, r.exitCode(), r.all());
        var env = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertEquals("embedded", env.get("target_kind").asText(), r.out());
        assertEquals(16, env.get("server").get("server_version_num").asInt() / 10000, r.out());
        // zonky's binaries are built without LLVM: the reason ssb jit needs --pg-bin or --url
        assertFalse(env.get("server").get("jit_available").asBoolean(), r.out());
    }

    /**
     * Output that cannot be written (a full disk: /dev/full) is an error, as psql's "could not print result table": a
     * PrintStream swallows it, and bench compare A B > file left an empty file and exit 0. A reader that went away (| head)
     * is not: nothing said, exit 0.
     */
    @Test
    void outputThatCannotBeWrittenIsAnErrorAndAClosedPipeIsNot() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        java.io.File full = new java.io.File("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(full.exists(), "no /dev/full here");
        for (String lang : new String[] {"C", "C.UTF-8"}) {
            ProcessBuilder pb = new ProcessBuilder(java, "-jar", BenchJar.JAR.toString(), "--version").redirectOutput(full)
                    .redirectError(work.resolve("err-" + lang).toFile());
            pb.environment().put("LANG", lang);
            pb.environment().remove("LC_ALL");
            Process p = pb.start();
            assertEquals(1, p.waitFor(), lang);
            assertEquals("bench: cannot write to standard output: No space left on device",
                    BenchJar.withoutJvmNotes(Files.readString(work.resolve("err-" + lang))).strip(), lang);
        }
        // whatever the language of the system's error words ("Broken pipe", "パイプが切断されました")
        ProcessBuilder pipe = new ProcessBuilder(java, "-jar", BenchJar.JAR.toString(), "--help").redirectError(work.resolve("err-pipe").toFile());
        pipe.environment().put("LANG", "ja_JP.UTF-8");
        pipe.environment().put("LC_ALL", "ja_JP.UTF-8");
        Process p = pipe.start();
        p.getInputStream().close();
        assertEquals(0, p.waitFor());
        assertEquals("", BenchJar.withoutJvmNotes(Files.readString(work.resolve("err-pipe"))));
    }

    /** A java.io.tmpdir that does not exist is said as such, a usage error (it read "cannot chown ...", exit 3, as root). */
    @Test
    void aMissingTemporaryDirectoryIsSaidAsSuch() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "only root's server start runs commands through a temporary file");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=/nonexistent-kensho-tmp",
                "-jar", BenchJar.JAR.toString(), "env").redirectOutput(work.resolve("out").toFile()).redirectError(work.resolve("err").toFile());
        Process p = pb.start();
        assertEquals(2, p.waitFor());
        String err = BenchJar.withoutJvmNotes(Files.readString(work.resolve("err")));
        assertTrue(err.strip().endsWith("bench: cannot create a temporary file in /nonexistent-kensho-tmp (java.io.tmpdir): no such file or directory"), err);
    }

    @Test
    void versionNamesToolAndEmbeddedPostgres() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "--version");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().startsWith("Kensho "), r.out());
        // the commit the jar was built from: a clean clone's is its HEAD's
        String head;
        try {
            String[] dirs = new String(new ProcessBuilder("git", "rev-parse", "--git-dir", "--git-common-dir").start().getInputStream()
                    .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip().split("\n");
            // a linked worktree's build records the main checkout's commit (the plugin's way), which this HEAD need not be
            head = dirs.length == 2 && !dirs[0].equals(dirs[1]) ? "" : new String(new ProcessBuilder("git", "rev-parse", "--short=7", "HEAD")
                    .start().getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        } catch (java.io.IOException noGit) {
            head = "";   // a machine without git: the format alone is checked
        }
        assertTrue(r.out().lines().findFirst().orElse("").matches("Kensho \\S+ \\(commit ([0-9a-f]{7,}(\\+changes)?|unknown)\\)"), r.out());
        if (head.matches("[0-9a-f]{7}")) assertTrue(r.out().contains("(commit " + head), head + " vs " + r.out());
        for (String v : new String[] {"16", "17", "18"}) assertTrue(r.out().contains("embedded PostgreSQL " + v), r.out());
        BenchJar.Result sub = BenchJar.run(work.resolve("sub"), "pgbench", "run", "-V");
        assertEquals(r.out(), sub.out(), "a subcommand's -V says the same");
    }

    @Test
    void aPasswordInTheUrlsUserinfoIsNeverPrinted() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "env", "--url", "jdbc:postgresql://postgres:hunter2@127.0.0.1:1/none?connectTimeout=3", "--verbose");
        assertEquals(3, r.exitCode(), r.all());
        assertFalse(r.all().contains("hunter2"), r.all());
        assertTrue(r.err().contains("cannot connect to 127.0.0.1:1/none"), r.err());
    }

    /**
     * A managed server keeps the environment it was started with, and any user of the machine may log in to it as
     * superuser: the server's own program (COPY FROM PROGRAM 'env') found KENSHO_MAVEN_REPOSITORY's and KENSHO_TEST_URL's
     * passwords there. The query fails, naming the variable, if the server has any of them.
     */
    @Test
    void aManagedServerIsNotGivenTheCredentialsInKenshosEnvironment() throws Exception {
        java.util.Map<String, String> env = java.util.Map.of(
                "KENSHO_MAVEN_REPOSITORY", "https://bob:kxCanary1@127.0.0.1:1/repo",
                "KENSHO_TEST_URL", "jdbc:postgresql://bob:kxCanary2@127.0.0.1:1/x",
                "PGPASSWORD", "kxCanary3");
        String check = "DO $$ BEGIN CREATE TEMP TABLE server_env(line text); COPY server_env FROM PROGRAM 'env';"
                + " IF EXISTS (SELECT 1 FROM server_env WHERE line LIKE '%kxCanary%') THEN RAISE EXCEPTION 'in the server''s environment: %',"
                + " (SELECT string_agg(split_part(line, '=', 1), ',') FROM server_env WHERE line LIKE '%kxCanary%'); END IF;"
                + " IF NOT EXISTS (SELECT 1 FROM server_env WHERE line LIKE 'PATH=%') THEN RAISE EXCEPTION 'no environment read'; END IF; END $$";
        BenchJar.Result r = BenchJar.run(work, env, "query", "-c", check, "--repeat", "1", "--warmup", "0", "--results", work.resolve("r").toString());
        assertEquals(0, r.exitCode(), r.all());
        assertFalse(r.all().contains("kxCanary"), r.all());
    }

    @Test
    void wrongOptionIsOneLineExitTwo() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "query", "--no-such-option");
        assertEquals(2, r.exitCode());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
        assertTrue(r.err().contains("--no-such-option"));
        assertFalse(r.err().contains("\tat "), "no stack trace");
    }

    @Test
    void unreachableUrlIsOneLineExitThree() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "env", "--url", "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=3", "--user", "x");
        assertEquals(3, r.exitCode(), r.all());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
        assertTrue(r.err().contains("cannot connect to 127.0.0.1:1/none"), r.err());
    }

    @Test
    void wrongPasswordIsOneLineExitThreeAndNeverPrinted() throws Exception {
        // A managed server with a password-protected role: trust for postgres, scram for the test role.
        try (Target pg = new TargetSpec().open(); Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("SET password_encryption = 'scram-sha-256'");
            s.execute("CREATE ROLE pwuser LOGIN PASSWORD 'right-secret-1'");
            Path hba = pg.control().dataDirectory().orElseThrow().resolve("pg_hba.conf");
            Files.writeString(hba, "host all pwuser 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
            dev.kensho.core.server.ConfReload.reloadAndWait(pg);
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";

            Path wrong = work.resolve("wrong.pw");
            Files.writeString(wrong, "wrong-secret-2\n");
            Files.setPosixFilePermissions(wrong, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            BenchJar.Result bad = BenchJar.run(work.resolve("bad"), "env", "--url", url, "--user", "pwuser", "--password-file", wrong.toString());
            assertEquals(3, bad.exitCode(), bad.all());
            assertEquals(1, bad.err().strip().split("\n").length, bad.err());
            assertTrue(bad.err().contains("authentication failed for user \"pwuser\""), bad.err());
            assertFalse(bad.all().contains("wrong-secret-2"));
            // one others may read is used, as asked for by name, with libpq's warning for a ~/.pgpass
            Files.setPosixFilePermissions(wrong, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            BenchJar.Result readable = BenchJar.run(work.resolve("readable"), "env", "--url", url, "--user", "pwuser", "--password-file", wrong.toString());
            assertTrue(readable.err().startsWith("warning: --password-file " + wrong + " has group or world access (rw-r--r--)"), readable.err());

            // ~/.pgpass as libpq reads it: a file others may read is ignored with libpq's warning (pgjdbc alone would
            // have used it), a localhost line is not for 127.0.0.1, a line for 127.0.0.1 is
            Path pgpass = work.resolve("pgpass");
            Files.writeString(pgpass, "127.0.0.1:" + pg.port() + ":kensho:pwuser:right-secret-1\n");
            Files.setPosixFilePermissions(pgpass, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            java.util.Map<String, String> env = java.util.Map.of("PGPASSFILE", pgpass.toString());
            BenchJar.Result open = BenchJar.run(work.resolve("open"), env, "env", "--url", url, "--user", "pwuser");
            assertEquals(3, open.exitCode(), open.all());
            assertEquals("WARNING: password file \"" + pgpass + "\" has group or world access; permissions should be u=rw (0600) or less\n"
                    + "bench: authentication failed for user \"pwuser\" at 127.0.0.1:" + pg.port() + "/kensho (no password: none in the URL, "
                    + "--password-file, PGPASSWORD or ~/.pgpass)", open.err().strip());
            Files.setPosixFilePermissions(pgpass, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            BenchJar.Result own = BenchJar.run(work.resolve("own"), env, "env", "--url", url, "--user", "pwuser");
            assertEquals(0, own.exitCode(), own.all());
            Files.writeString(pgpass, "localhost:" + pg.port() + ":kensho:pwuser:right-secret-1\n");
            BenchJar.Result localhost = BenchJar.run(work.resolve("localhost"), env, "env", "--url", url, "--user", "pwuser");
            assertEquals(3, localhost.exitCode(), localhost.all());
            assertFalse(open.all().contains("right-secret-1") || own.all().contains("right-secret-1"));

            Path right = work.resolve("right.pw");
            Files.writeString(right, "right-secret-1\n");
            BenchJar.Result ok = BenchJar.run(work.resolve("ok"), "query", "--url", url + "?password=right-secret-1", "--user", "pwuser",
                    "-c", "SELECT 1", "--repeat", "1");
            assertEquals(0, ok.exitCode(), ok.all());
            assertFalse(ok.all().contains("right-secret-1"), ok.all());
            Path runDir;
            try (var dirs = Files.list(work.resolve("ok/results"))) {
                runDir = dirs.findFirst().orElseThrow();
            }
            for (String f : new String[] {"run.json", "trials.jsonl", "summary.csv"}) {
                assertFalse(Files.readString(runDir.resolve(f)).contains("right-secret-1"), f + " leaks the password");
            }
        }
    }

    @Test
    void testcontainersWithoutDockerSaysSo() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "env", "--testcontainers");
        if (r.exitCode() == 0) {
            System.err.println("Docker engine present: --testcontainers started a server");
            assertTrue(r.out().contains("testcontainers"));
            return;
        }
        System.err.println("SKIPPED (Testcontainers path): no Docker engine here; checked the one-line refusal instead");
        assertEquals(3, r.exitCode(), r.all());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
        assertTrue(r.err().contains("Docker"), r.err());
    }
}
