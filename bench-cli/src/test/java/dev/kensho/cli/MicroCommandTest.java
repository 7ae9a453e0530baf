package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.micro.MicroBenchmarks.Benchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@KenshoTarget
class MicroCommandTest {
    /**
     * A password in --url: the run falls back to this JVM (no forks) and its benchmarks log in with the
     * password, which appears nowhere: not in output, not in results, not in the cell's target label.
     */
    @Test
    void aPasswordInTheUrlReachesTheBenchmarksAndNothingElse(Target pg, @TempDir Path tmp) throws Exception {
        String role = "kensho_micro_pw";
        String secret = "mIcro-secret-9";
        Path hba = pg.control().dataDirectory().orElseThrow().resolve("pg_hba.conf");
        String hbaBefore = Files.readString(hba);
        try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("drop database if exists " + role + " with (force)");
            s.execute("drop role if exists " + role);
            s.execute("set password_encryption = 'scram-sha-256'");
            s.execute("create role " + role + " login password '" + secret + "'");
            s.execute("create database " + role + " owner " + role);
            Files.writeString(hba, "host all " + role + " 127.0.0.1/32 scram-sha-256\n" + hbaBefore);
        }
        dev.kensho.core.server.ConfReload.reloadAndWait(pg);
        String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + role;
        try {
            assertThrows(KenshoException.class, () -> new TargetSpec().url(url).user(role).open().close(), "the role needs its password");
            CommandRun r = CommandRun.of("micro", "--url", url + "?password=" + secret, "--user", role,
                    "--benchmarks", "trailing-columns", "--wide-rows", "2000", "--warmup-iterations", "0", "--iterations", "1",
                    "--iteration-time", "100ms", "--results", tmp.toString());
            assertEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.err().contains("benchmarks run in this JVM"), r.err());
            String cell = "target=remote 127.0.0.1:" + pg.port() + "/" + role + ";benchmark=trailing-columns ";
            assertTrue(r.out().contains(cell), r.out());
            assertFalse(r.out().contains("password"), r.out());
            assertFalse((r.out() + r.err()).contains(secret), r.out() + r.err());
            try (Stream<Path> files = Files.walk(tmp)) {
                List<Path> written = files.filter(Files::isRegularFile).toList();
                assertTrue(written.stream().map(f -> f.getFileName().toString()).toList().containsAll(List.of("run.json", "trials.jsonl")),
                        "the results the password must not be in: " + written);
                for (Path f : written) {
                    assertFalse(Files.readString(f).contains(secret), f + " holds the password");
                }
            }
            Path run;
            try (Stream<Path> dirs = Files.list(tmp)) {
                run = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
            }
            // a remote database is measured as it is: --database-encoding's EUC_JP described nothing that happened
            assertFalse(Files.readString(run.resolve("run.json")).contains("database_encoding"), Files.readString(run.resolve("run.json")));
            // a finished run resumed: nothing to connect to or make, where it set up its tables again for nothing
            CommandRun again = CommandRun.of("micro", "--url", url + "?password=" + secret, "--user", role,
                    "--benchmarks", "trailing-columns", "--wide-rows", "2000", "--warmup-iterations", "0", "--iterations", "1",
                    "--iteration-time", "100ms", "--resume", run.toString());
            assertEquals(0, again.exit(), again.out() + again.err());
            assertTrue(again.err().contains("every cell is already in " + run + "; nothing left to resume there"), again.err());
            assertFalse(again.err().contains("target: "), again.err());
        } finally {
            Files.writeString(hba, hbaBefore);
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("select pg_reload_conf()");
                s.execute("drop database if exists " + role + " with (force)");
                s.execute("drop role if exists " + role);
            }
        }
    }

    /**
     * A cell whose second iteration failed (its connection terminated), resumed: the rerun's iterations are numbered from
     * the failed one, which no longer stands (numbered after it, "1 of 4 repeats failed" stayed with every repeat ok).
     */
    @Test
    void aResumedCellsRerunReplacesItsFailedRepeat(Target pg, @TempDir Path tmp) throws Exception {
        var o = new dev.kensho.pgbench.micro.MicroBenchmarks.Options(List.of(Benchmark.TRAILING_COLUMNS), 1, 1000, false, List.of(99),
                List.of("none"), "EUC_JP", 0, 2, Duration.ofMillis(100), 0, false);
        Path run;
        try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of(
                dev.kensho.pgbench.micro.MicroBenchmarks.COMMAND, List.of(), java.util.Map.of()))) {
            dev.kensho.pgbench.micro.MicroBenchmarks.run(new TargetSpec(), pg, "embedded", o, dir, null);
            run = dir.path();
        }
        Path trials = run.resolve(dev.kensho.core.result.RunDirectory.TRIALS);
        List<String> lines = Files.readAllLines(trials);
        assertEquals(2, lines.size());
        Files.write(trials, List.of(lines.get(0), lines.get(1).replace("\"status\":\"ok\"", "\"status\":\"failed\"")));
        try (var dir = dev.kensho.core.result.RunDirectory.resume(run)) {
            dev.kensho.pgbench.micro.MicroBenchmarks.run(new TargetSpec(), pg, "embedded", o, dir, null);
            List<dev.kensho.core.result.Trial> all = dir.trials();
            assertEquals(List.of(0, 1, 1), all.stream().map(dev.kensho.core.result.Trial::repeat).toList());
            var cells = dev.kensho.core.result.CellSummary.of(all);
            assertEquals("ok", cells.get(0).status());
            assertEquals("", cells.get(0).reason(), "the failed repeat was run again");
        }
    }

    /**
     * From Java, MicroBenchmarks.run records what bench micro does around it: the target's environment and summary.csv.
     * A harness's run directory had neither, and its report no Environment section.
     */
    @Test
    void aHarnessRunWritesTheSummaryAndEnvironmentTheCommandWrites(Target pg, @TempDir Path tmp) throws Exception {
        var o = new dev.kensho.pgbench.micro.MicroBenchmarks.Options(List.of(Benchmark.TRAILING_COLUMNS), 1, 1000, false, List.of(99),
                List.of("none"), "EUC_JP", 0, 1, Duration.ofMillis(100), 0, false);
        try (var dir = dev.kensho.core.result.RunDirectory.create(tmp, dev.kensho.core.result.RunInfo.of(
                dev.kensho.pgbench.micro.MicroBenchmarks.COMMAND, List.of(), java.util.Map.of()))) {
            var r = dev.kensho.pgbench.micro.MicroBenchmarks.run(new TargetSpec(), pg, "embedded", o, dir, null);
            assertEquals(0, r.failed());
            assertTrue(dir.info().environment().containsKey("embedded"), dir.info().environment().keySet().toString());
            List<String> csv = Files.readAllLines(dir.path().resolve(dev.kensho.core.result.RunDirectory.SUMMARY));
            assertTrue(csv.size() == 2 && csv.get(1).startsWith("embedded,"), String.join("\n", csv));
        }
    }

    /**
     * A piped --password-file (each JMH fork reads it again, and a pipe has nothing left for the second reader) is
     * refused before anything: it was refused at the first fork, after a run directory, a server's start and the tables.
     */
    @Test
    void aPipedPasswordFileIsRefusedBeforeAnything(@TempDir Path tmp) throws Exception {
        Path fifo = tmp.resolve("pw");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(fifo, "s3cret\n");   // blocks until the command opens the pipe to read it
            } catch (java.io.IOException ignored) {
                // the command did not read it: the assertions say so
            }
        });
        writer.setDaemon(true);
        writer.start();
        Path results = tmp.resolve("results");
        // a server nobody listens on: reached at all, the run fails otherwise (exit 3), after making its run directory
        CommandRun r = CommandRun.of("micro", "--url", "jdbc:postgresql://127.0.0.1:1/micro?user=u", "--password-file", fifo.toString(),
                "--results", results.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--password-file " + fifo + " is no regular file, and each of micro's JMH forks reads it again"), r.err());
        assertFalse(Files.exists(results), "no run directory");
        assertFalse(r.err().contains("s3cret") || r.out().contains("s3cret"));
    }

    /** "--benchmarks ," named none and ran all of them (about 20 minutes). */
    @Test
    void anEmptyBenchmarkListIsRefused(@TempDir Path tmp) {
        CommandRun r = CommandRun.of("micro", "--benchmarks", ",", "--url", "jdbc:postgresql://127.0.0.1:1/x?user=u", "--results", tmp.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: --benchmarks names no benchmark; leave it out for all of them\n", r.err());
    }

    @Test
    void columnsAreListsOrRangesThatAlwaysReachTheirEnd() {
        assertEquals(List.of(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 99), MicroCommand.columns("0..99/10"));
        assertEquals(List.of(0, 49, 99), MicroCommand.columns("0, 49,99"));
        assertEquals(List.of(95, 96, 97, 98, 99, 0), MicroCommand.columns("95..99,0,99"));
        assertEquals(100, MicroCommand.columns("0..99").size());
        assertThrows(KenshoException.class, () -> MicroCommand.columns("9..0"));
        assertThrows(KenshoException.class, () -> MicroCommand.columns("0..99/0"));
        assertThrows(KenshoException.class, () -> MicroCommand.columns("a"));
    }

    @Test
    void defaultsAreTheStudy() {
        MicroCommand c = new MicroCommand();
        new CommandLine(c).parseArgs();
        var o = c.options();
        assertEquals(List.of(Benchmark.values()), o.benchmarks());
        assertEquals(10, o.scale());
        assertEquals(100_000, o.wideRows());
        assertEquals(100, o.columns().size());
        assertEquals(List.of("none", "SJIS"), o.clientEncodings());
        assertEquals("EUC_JP", o.databaseEncoding());
        assertEquals(Duration.ofSeconds(1), o.iterationTime());
        assertEquals(1, o.forks());
        // the study's 204 cells of 1 warm-up + 3 iterations of 1 s and a fork's two seconds
        assertEquals("about 20 min", MicroCommand.about(o.estimate()));
        new CommandLine(c = new MicroCommand()).parseArgs("--benchmarks", "encoding,trailing-columns", "--iterations", "2", "--iteration-time", "200ms");
        assertEquals("about 8 s", MicroCommand.about(c.options().estimate()), "3 cells of 3 × 0.2 s and a fork's 2 s, not 'about 1 min'");
    }

    @Test
    void durationsAndBenchmarkNames() {
        assertEquals(Duration.ofMillis(250), MicroCommand.duration("250ms"));
        assertEquals(Duration.ofMinutes(2), MicroCommand.duration("2m"));
        assertEquals(Duration.ofSeconds(1), MicroCommand.duration("1"), "a bare number is seconds, as JMH's -r 1");
        assertEquals(Duration.ofHours(1), MicroCommand.duration("1hr"));
        assertThrows(KenshoException.class, () -> MicroCommand.duration("2h"));
        assertThrows(KenshoException.class, () -> MicroCommand.duration("soon"));
        MicroCommand c = new MicroCommand();
        new CommandLine(c).parseArgs("--benchmarks", "encoding,encoding,one-column");
        assertEquals(List.of(Benchmark.ENCODING, Benchmark.ONE_COLUMN), c.options().benchmarks());
    }

    /** PostgreSQL's encoding names are checked before a server starts: no CREATE DATABASE failing (exit 3), no failed cell. */
    /** --columns (or --client-encodings) for a run of benchmarks that never read it was dropped unsaid; refused before any server. */
    @Test
    void anOptionNoChosenBenchmarkReadsIsRefused(@TempDir Path tmp) throws Exception {
        CommandRun columns = CommandRun.of("micro", "--benchmarks", "join-group-count,encoding", "--columns", "0..9", "--results", tmp.toString());
        assertEquals(2, columns.exit(), columns.err());
        assertEquals("bench: --columns is read by one-column and leading-columns, which --benchmarks join-group-count,encoding does not run\n",
                columns.err());
        CommandRun encodings = CommandRun.of("micro", "--benchmarks", "one-column", "--client-encodings", "UTF8", "--results", tmp.toString());
        assertEquals(2, encodings.exit(), encodings.err());
        assertEquals("bench: --client-encodings is read by encoding, which --benchmarks one-column does not run\n", encodings.err());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "no run directory");
        }
    }

    @Test
    void encodingNamesAreUsageErrorsBeforeAnyServer(@TempDir Path tmp) throws Exception {
        String[][] cases = {
            {"--database-encoding FOO: not a PostgreSQL encoding", "--database-encoding", "FOO"},
            {"--database-encoding SJIS: SJIS is a client-only encoding", "--database-encoding", "SJIS"},
            {"--client-encodings FOO: not a PostgreSQL encoding", "--client-encodings", "none,FOO"},
        };
        for (String[] c : cases) {
            String[] args = {"micro", "--benchmarks", "encoding", "--results", tmp.toString(), c[1], c[2]};
            CommandRun r = CommandRun.of(args);
            assertEquals(2, r.exit(), r.err());
            List<String> errors = r.err().lines().filter(l -> l.startsWith("bench:")).toList();
            assertEquals(1, errors.size(), r.err());
            assertTrue(errors.get(0).startsWith("bench: " + c[0]), r.err());
            assertFalse(r.err().contains("target:"), r.err());
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "no run directory");
        }
        // the server's aliases are taken, under its own names (cell keys, the existing database's encoding)
        MicroCommand m = new MicroCommand();
        new CommandLine(m).parseArgs("--client-encodings", "none,Shift_JIS,utf-8", "--database-encoding", "euc-jp");
        assertEquals(List.of("none", "SJIS", "UTF8"), m.options().clientEncodings());
        assertEquals("EUC_JP", m.options().databaseEncoding());
    }

    /**
     * JMH runs one benchmark run at a time on a machine (a lock on java.io.tmpdir/jmh.lock), and a micro run met another's
     * lock only at its first benchmark, after its tables were made in the database the other may be timing: it is now
     * refused in one line before any run directory, server or table.
     */
    @Test
    void anotherJmhRunIsFoundBeforeAnyTableIsMade(Target pg, @TempDir Path tmp) throws Exception {
        String database = "kensho_micro_lock";
        try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("drop database if exists " + database + " with (force)");
            s.execute("create database " + database);
        }
        Path locks = Files.createDirectories(tmp.resolve("tmpdir"));
        Path jmhLock = locks.resolve("jmh.lock");
        Process other = holdLock(jmhLock, tmp);
        // the build's tests ignore JMH's lock (jmh.ignoreLock, see the pom); this one looks at a lock of its own
        String tmpdir = System.getProperty("java.io.tmpdir");
        String ignore = System.getProperty("jmh.ignoreLock");
        System.setProperty("java.io.tmpdir", locks.toString());
        System.setProperty("jmh.ignoreLock", "false");
        try {
            CommandRun r = CommandRun.of("micro", "--url", "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + database,
                    "--user", pg.user(), "--benchmarks", "join-group-count", "--scale", "1", "--warmup-iterations", "0",
                    "--iterations", "1", "--iteration-time", "100ms", "--forks", "0", "--results", tmp.resolve("results").toString());
            assertEquals(2, r.exit(), r.out() + r.err());
            List<String> errors = r.err().lines().filter(l -> l.startsWith("bench:")).toList();
            assertEquals(List.of("bench: another JMH run holds " + jmhLock + " (JMH runs one benchmark run at a time on a machine, "
                    + "and would refuse this one only after its tables were made); wait for it to end"), errors, r.err());
            assertFalse(r.err().contains("target:"), r.err());
            assertFalse(Files.exists(tmp.resolve("results")), "no run directory");
            try (Connection c = pg.connect(database); Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("select count(*) from pg_class where relname like 'pgbench%'")) {
                rs.next();
                assertEquals(0, rs.getLong(1), "no table was made");
            }
        } finally {
            System.setProperty("java.io.tmpdir", tmpdir);
            if (ignore == null) System.clearProperty("jmh.ignoreLock");
            else System.setProperty("jmh.ignoreLock", ignore);
            other.getOutputStream().close();
            if (!other.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) other.destroyForcibly();
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("drop database if exists " + database + " with (force)");
            }
        }
    }

    /** Another process holding file as JMH holds its lock (FileChannel.tryLock, a POSIX record lock) until its stdin closes. */
    private static Process holdLock(Path file, Path tmp) throws Exception {
        Path source = Files.writeString(tmp.resolve("Hold.java"), """
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                public class Hold {
                    public static void main(String[] a) throws Exception {
                        FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        ch.lock();
                        System.out.println("locked");
                        System.in.read();
                    }
                }
                """);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), source.toString(), file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        var r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals("locked", r.readLine(), "the holder took its lock");
        return p;
    }
}
