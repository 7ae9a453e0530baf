package dev.kensho.pgbench.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.jmh.TargetState;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.micro.MicroBenchmarks.Benchmark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Study 002's benchmarks on the embedded server, run by JMH in this JVM (the CLI's end-to-end test forks). */
@KenshoTarget
class MicroBenchmarksTest {
    static final int SCALE = 1;
    static final long WIDE_ROWS = 2_000;

    static MicroBenchmarks.Options small(List<Benchmark> benchmarks, List<String> encodings) {
        return new MicroBenchmarks.Options(benchmarks, SCALE, WIDE_ROWS, true, List.of(0, 99), encodings, "EUC_JP",
                0, 2, Duration.ofMillis(100), 0, false);
    }

    /**
     * Kensho's JMH list is not in bench-pgbench's main jar (a harness's own JMH run would run these benchmarks too),
     * so a run where it is missing stops before any table is made, naming the jar that holds it.
     */
    @Test
    void aBenchmarkJmhsListsDoNotNameIsAUsageErrorNamingTheMicroJar(@TempDir Path dir) throws Exception {
        ClassLoader here = MicroBenchmarks.class.getClassLoader();
        MicroBenchmarks.requireListed(List.of(Benchmark.values()), here);   // this module's classes carry the list
        // a classpath whose only list names one of them
        Path list = dir.resolve("META-INF/BenchmarkList");
        java.nio.file.Files.createDirectories(list.getParent());
        try (var in = here.getResourceAsStream("META-INF/BenchmarkList")) {
            String join = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> l.contains(" " + JoinGroupCount.class.getName() + " ")).collect(Collectors.joining("\n"));
            java.nio.file.Files.writeString(list, join + "\n");
        }
        try (var only = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()}, null)) {
            MicroBenchmarks.requireListed(List.of(Benchmark.JOIN_GROUP_COUNT), only);
            KenshoException e = assertThrows(KenshoException.class,
                    () -> MicroBenchmarks.requireListed(List.of(Benchmark.JOIN_GROUP_COUNT, Benchmark.ENCODING), only));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains(EncodingConversion.class.getName() + ".")
                    && e.getMessage().contains("dev.kensho:bench-pgbench:") && e.getMessage().endsWith(":micro (the list of Kensho's micro benchmarks)"),
                    e.getMessage());
        }
        try (var none = new java.net.URLClassLoader(new java.net.URL[0], null)) {
            assertThrows(KenshoException.class, () -> MicroBenchmarks.requireListed(List.of(Benchmark.TRAILING_COLUMNS), none));
        }
    }

    @Test
    void withoutJmhOnTheClasspathTheOptionsSayWhatToAdd() throws Exception {
        // this test's classpath without JMH, as a harness that depends on bench-pgbench alone has it (JMH is optional)
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<java.net.URL> urls = new java.util.ArrayList<>();
        for (String e : cp.split(java.io.File.pathSeparator)) {
            if (!e.contains("jmh")) urls.add(Path.of(e).toUri().toURL());
        }
        try (var noJmh = new java.net.URLClassLoader(urls.toArray(new java.net.URL[0]), ClassLoader.getPlatformClassLoader())) {
            assertEquals(null, noJmh.getResource("org/openjdk/jmh/runner/Runner.class"), "JMH left out");
            Class<?> options = noJmh.loadClass(MicroBenchmarks.Options.class.getName());
            Class<?> benchmark = noJmh.loadClass(Benchmark.class.getName());
            Object join = benchmark.getMethod("valueOf", String.class).invoke(null, "JOIN_GROUP_COUNT");
            var ctor = options.getConstructors()[0];
            var e = assertThrows(java.lang.reflect.InvocationTargetException.class, () -> ctor.newInstance(List.of(join), SCALE, WIDE_ROWS,
                    false, List.of(0), List.of("none"), "EUC_JP", 0, 1, Duration.ofMillis(100), 0, false));
            assertEquals(KenshoException.class.getName(), e.getCause().getClass().getName(), String.valueOf(e.getCause()));
            assertEquals("the micro benchmarks run on JMH, which is not on the classpath: add the dependency "
                    + "org.openjdk.jmh:jmh-core (Kensho declares it optional)", e.getCause().getMessage());
        }
        once(Benchmark.JOIN_GROUP_COUNT);   // with JMH the same options are made
    }

    /**
     * A secret in the URL keeps the benchmarks in this JVM: forks would get it masked. --password-file stands in for
     * the login password only; a TLS key's sslpassword has no such stand-in.
     */
    @Test
    void aUrlSecretForksCannotGetKeepsTheBenchmarksInThisJvm(@TempDir Path dir) {
        String base = "jdbc:postgresql://db.example:5432/bench";
        Path pw = dir.resolve("pw");
        assertEquals(null, MicroBenchmarks.urlSecretForksCannotGet(new TargetSpec().url(base + "?sslmode=require")));
        assertTrue(MicroBenchmarks.urlSecretForksCannotGet(new TargetSpec().url(base + "?password=s3cret")).contains("Use --password-file"));
        assertEquals(null, MicroBenchmarks.urlSecretForksCannotGet(new TargetSpec().url(base + "?password=s3cret").passwordFile(pw)));
        assertEquals(null, MicroBenchmarks.urlSecretForksCannotGet(new TargetSpec().url("jdbc:postgresql://u:s3cret@db.example/bench").passwordFile(pw)));
        String key = base + "?sslmode=verify-full&sslkey=/k.pk8&SSLPASSWORD=keypass";
        assertTrue(MicroBenchmarks.urlSecretForksCannotGet(new TargetSpec().url(key).passwordFile(pw)).contains("sslpassword"));
        assertTrue(MicroBenchmarks.urlSecretForksCannotGet(new TargetSpec().url(key)).contains("sslpassword"));
    }

    @Test
    void scaleAndWideRowsAreCheckedWithTheOptionsBeforeAnyServer() {
        assertEquals("MicroBenchmarks.Options scale must be at least 1", assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(
                List.of(Benchmark.JOIN_GROUP_COUNT), 0, WIDE_ROWS, false, List.of(0), List.of("none"), "EUC_JP", 0, 1, Duration.ofMillis(100), 0,
                false)).getMessage());
        assertEquals("MicroBenchmarks.Options wideRows must be at least 1", assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(
                List.of(Benchmark.ONE_COLUMN), SCALE, 0, false, List.of(0), List.of("none"), "EUC_JP", 0, 1, Duration.ofMillis(100), 0,
                false)).getMessage());
    }

    /** A harness typed no option: the record's errors name its components, and bench micro reads them back as its options. */
    @Test
    void theOptionsNameTheirComponentsToAHarness() {
        KenshoException iterations = assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(List.of(Benchmark.ONE_COLUMN),
                SCALE, WIDE_ROWS, false, List.of(0), List.of("none"), "EUC_JP", 0, 0, Duration.ofMillis(100), 0, false));
        assertEquals(KenshoException.USAGE, iterations.exitCode());
        assertEquals("MicroBenchmarks.Options iterations must be at least 1", iterations.getMessage());
        assertEquals("MicroBenchmarks.Options warmupIterations must not be negative", assertThrows(KenshoException.class,
                () -> new MicroBenchmarks.Options(List.of(Benchmark.ONE_COLUMN), SCALE, WIDE_ROWS, false, List.of(0), List.of("none"), "EUC_JP",
                        -1, 1, Duration.ofMillis(100), 0, false)).getMessage());
        assertEquals("MicroBenchmarks.Options iterationTime must be at least 1ms", assertThrows(KenshoException.class,
                () -> new MicroBenchmarks.Options(List.of(Benchmark.ONE_COLUMN), SCALE, WIDE_ROWS, false, List.of(0), List.of("none"), "EUC_JP",
                        0, 1, Duration.ZERO, 0, false)).getMessage());
        assertEquals("MicroBenchmarks.Options columns is empty", assertThrows(KenshoException.class,
                () -> new MicroBenchmarks.Options(List.of(Benchmark.ONE_COLUMN), SCALE, WIDE_ROWS, false, List.of(), List.of("none"), "EUC_JP",
                        0, 1, Duration.ofMillis(100), 0, false)).getMessage());
        assertTrue(assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(List.of(Benchmark.ENCODING), SCALE, WIDE_ROWS, false,
                List.of(0), List.of("none"), "SJIS", 0, 1, Duration.ofMillis(100), 0, false)).getMessage()
                .startsWith("MicroBenchmarks.Options databaseEncoding SJIS: SJIS is a client-only encoding"));
        for (String cli : List.of("--iterations must be at least 1", "--scale must be at least 1", "--wide-rows must be at least 1",
                "--warmup-iterations must not be negative", "--forks must not be negative", "--iteration-time must be at least 1ms",
                "--columns is empty", "--client-encodings is empty", "--client-encodings none,SJIS,SJIS: SJIS is given twice",
                "--database-encoding FOO: not a PostgreSQL encoding (e.g. SJIS, UTF8, EUC_JP, LATIN1)")) {
            KenshoException named = KenshoException.usage(cli).naming(MicroBenchmarks.Options.COMPONENT_NAMES);
            assertFalse(named.getMessage().contains("--"), named.getMessage());
            assertEquals(cli, named.namingBack(MicroBenchmarks.Options.COMPONENT_NAMES).getMessage());
        }
    }

    /** One benchmark, one short iteration, in this JVM; tables of another scale are refused, not re-created. */
    static MicroBenchmarks.Options once(Benchmark b) {
        return new MicroBenchmarks.Options(List.of(b), SCALE, WIDE_ROWS, false, List.of(0), List.of("none"), "EUC_JP",
                0, 1, Duration.ofMillis(100), 0, false);
    }

    static RunDirectory dir(Path tmp) {
        return RunDirectory.create(tmp, RunInfo.of("micro", List.of(), Map.of()));
    }

    @Test
    void everyBenchmarkRecordsItsIterationsAsRepeatsInAnEucJpDatabase(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = dir(tmp)) {
            MicroBenchmarks.Result r = MicroBenchmarks.run(new TargetSpec(), pg, "embedded", small(List.of(Benchmark.values()),
                    List.of("none", "SJIS")), dir, new PrintStream(log, true, StandardCharsets.UTF_8));
            assertEquals(0, r.failed(), log.toString(StandardCharsets.UTF_8));
            // a managed server gets the study's EUC_JP database; elsewhere (KENSHO_TEST_URL) the target's own is used
            assertEquals(pg.kind().managed() ? MicroBenchmarks.DATABASE : pg.database(), r.database());
            if (pg.kind().managed()) assertEquals("EUC_JP", r.facts().serverEncoding());
            Map<String, CellSummary> cells = CellSummary.of(dir.trials()).stream()
                    .collect(Collectors.toMap(CellSummary::cell, c -> c));
            // 1 + 2 encodings + 1 + 2 columns + 2 columns
            assertEquals(8, cells.size(), cells.keySet().toString());
            for (CellSummary c : cells.values()) {
                assertEquals("ok", c.status(), c.cell());
                assertEquals(2, c.n(), c.cell());
                assertTrue(c.median().get("ms") > 0, c.cell());
            }
            CellSummary sjis = cells.get("target=embedded;benchmark=encoding;client_encoding=SJIS");
            assertEquals(r.facts().serverEncoding(), sjis.params().get("server_encoding"));
            Map<String, String> sql = dir.trials().stream().collect(Collectors.toMap(Trial::cell,
                    t -> String.valueOf(t.extra().get("sql")), (a, b) -> a));
            assertEquals("select * from pgbench_accounts", sql.get("target=embedded;benchmark=encoding;client_encoding=SJIS"));
            assertEquals("select col95, col96, col97, col98, col99 from kensho_wide", sql.get("target=embedded;benchmark=trailing-columns"));
            assertEquals("select col99 from kensho_wide", sql.get("target=embedded;benchmark=one-column;column=99"));
            assertTrue(sql.get("target=embedded;benchmark=leading-columns;column=99").startsWith("select col0, col1, col2, "));
            assertTrue(sql.get("target=embedded;benchmark=leading-columns;column=99").endsWith(", col98, col99 from kensho_wide"));
        }
        try (Connection c = pg.connect(database(pg)); Statement s = c.createStatement()) {
            assertEquals(SCALE * 100_000L, count(s, "select count(*) from pgbench_accounts"));
            assertEquals(WIDE_ROWS, count(s, "select count(*) from kensho_wide"));
            assertEquals(100, count(s, "select count(*) from information_schema.columns where table_name = 'kensho_wide' and data_type = 'text'"));
            assertEquals(WIDE_ROWS, count(s, "select count(*) from kensho_wide where col99 = lpad(col0, 10, '0') and length(col50) = 10"));
        }
    }

    /**
     * JMH's own result of each cell, the score and error its console prints, was kept nowhere (the trials have each
     * iteration, summary.csv their median): jmh.json has it, and each trial names its fork and the fork's iteration.
     */
    @Test
    void jmhsScoreAndErrorAreKeptBesideTheRepeats(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = dir(tmp)) {
            MicroBenchmarks.Options o = new MicroBenchmarks.Options(List.of(Benchmark.TRAILING_COLUMNS, Benchmark.ONE_COLUMN), SCALE, WIDE_ROWS,
                    true, List.of(99), List.of("none"), "EUC_JP", 0, 3, Duration.ofMillis(100), 0, false);
            MicroBenchmarks.run(new TargetSpec(), pg, "embedded", o, dir, new PrintStream(log, true, StandardCharsets.UTF_8));
            Map<String, Object> jmh = dev.kensho.core.result.Json.MAPPER.readValue(dir.path().resolve("jmh.json").toFile(),
                    new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { });
            assertEquals(List.of("target=embedded;benchmark=trailing-columns", "target=embedded;benchmark=one-column;column=99"),
                    List.copyOf(jmh.keySet()));
            for (String cell : jmh.keySet()) {
                @SuppressWarnings("unchecked") Map<String, Object> r = (Map<String, Object>) jmh.get(cell);
                List<Trial> trials = dir.trials().stream().filter(t -> t.cell().equals(cell)).toList();
                double mean = trials.stream().mapToDouble(t -> t.metric("ms")).average().orElseThrow();
                // JMH's score is the mean of the iterations that are the cell's repeats
                assertEquals(mean, ((Number) r.get("score")).doubleValue(), mean * 1e-9, cell);
                assertTrue(((Number) r.get("error")).doubleValue() > 0, r.toString());
                assertEquals("ms/op", r.get("unit"));
                assertEquals(3, ((Number) r.get("iterations")).intValue());
                assertEquals(0, ((Number) r.get("forks")).intValue(), "--forks 0: run in this JVM, as JMH records it");
                assertEquals(List.of(1, 1, 1), trials.stream().map(t -> ((Number) t.extra().get("fork")).intValue()).toList());
                assertEquals(List.of(1, 2, 3), trials.stream().map(t -> ((Number) t.extra().get("fork_iteration")).intValue()).toList());
                // an iteration's trial began as JMH began it: the next one after it had finished
                for (int i = 0; i < trials.size(); i++) {
                    Trial t = trials.get(i);
                    assertTrue(t.started().isBefore(t.finished()), t.started() + " " + t.finished());
                    if (i > 0) assertFalse(t.started().isBefore(trials.get(i - 1).finished()), t.started() + " " + trials.get(i - 1).finished());
                }
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).lines().anyMatch(l -> l.matches("    JMH: \\d+\\.\\d{3} ± \\d+\\.\\d{3} ms/op "
                    + "\\(mean of 3 iterations, 99\\.9% CI\\)")), log.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void theEncodingBenchmarkReceivesEveryRowConvertedToTheClientEncoding(Target pg, @TempDir Path tmp) throws Exception {
        try (RunDirectory dir = dir(tmp)) {
            MicroBenchmarks.run(new TargetSpec(), pg, "embedded", small(List.of(Benchmark.TRAILING_COLUMNS), List.of("SJIS")), dir,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        // the benchmark's own connection, set up as in a JMH fork: TargetState over the URL of kensho_micro
        TargetState server = new TargetState();
        server.target = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + database(pg))
                .user(pg.user()).open();
        String serverEncoding;
        try (Connection c = server.target.connect()) {
            serverEncoding = MicroTables.setting(c, "server_encoding");
        }
        if (pg.kind().managed()) assertEquals("EUC_JP", serverEncoding);
        EncodingConversion b = new EncodingConversion();
        b.clientEncoding = "SJIS";
        b.open(server, new MicroTables.PgbenchReady());   // the tables exist: no need to prepare
        try {
            assertEquals(SCALE * 100_000L, b.selectAll());
            assertEquals("SJIS", clientEncoding(b));
        } finally {
            b.close();
        }
        b.clientEncoding = "none";
        b.open(server, new MicroTables.PgbenchReady());   // the tables exist: no need to prepare
        try {
            assertEquals(SCALE * 100_000L, b.selectAll());
            assertEquals(serverEncoding, clientEncoding(b));
        } finally {
            b.close();
            server.close();
        }
    }

    /**
     * Tables were reused by their scale (pgbench_branches' rows) or their comment alone: pgbench_accounts cut to 1 000
     * rows was measured as scale 1 (1.3 ms where 100 000 rows take 33), and so would a kensho_wide cut short. The
     * pgbench tables, maybe a user's, are now refused without --reinit; Kensho's own kensho_wide is made again.
     */
    @Test
    void tablesWhoseRowsWereChangedAreNotMeasuredAsTheirSize(Target pg) throws Exception {
        try (Connection c = pg.connect(database(pg)); Statement s = c.createStatement()) {
            MicroTables.prepare(c, EnumSet.allOf(MicroTables.Data.class), SCALE, WIDE_ROWS, true, null);
            long wideOid = count(s, "select 'kensho_wide'::regclass::oid");
            s.execute("delete from pgbench_accounts where aid > 1000");
            s.execute("delete from kensho_wide where col0 > '0000001000'");
            try {
                KenshoException e = assertThrows(KenshoException.class,
                        () -> MicroTables.prepare(c, EnumSet.of(MicroTables.Data.PGBENCH), SCALE, WIDE_ROWS, false, null));
                assertEquals(KenshoException.USAGE, e.exitCode());
                assertEquals("pgbench_accounts holds 1000 rows, not the 100000 of scale 1 (pgbench_branches'); give --reinit to re-create "
                        + "the pgbench tables", e.getMessage());
                MicroTables.Facts f = MicroTables.prepare(c, EnumSet.of(MicroTables.Data.WIDE), SCALE, WIDE_ROWS, false, null);
                assertEquals(false, f.wideReused());
                assertEquals(WIDE_ROWS, count(s, "select count(*) from kensho_wide"));
                assertTrue(count(s, "select 'kensho_wide'::regclass::oid") != wideOid, "made again");
            } finally {
                MicroTables.Facts f = MicroTables.prepare(c, EnumSet.of(MicroTables.Data.PGBENCH), SCALE, WIDE_ROWS, true, null);
                assertEquals(false, f.pgbenchReused());
            }
            assertEquals(SCALE * 100_000L, count(s, "select count(*) from pgbench_accounts"));
        }
    }

    @Test
    void theReadyStateOfAUsersOwnJmhRunReusesTablesOfItsSizesAndRefusesOthers(Target pg) throws Exception {
        long wideOid;
        try (Connection c = pg.connect(database(pg)); Statement s = c.createStatement()) {
            MicroTables.prepare(c, EnumSet.allOf(MicroTables.Data.class), SCALE, WIDE_ROWS, true, null);
            wideOid = count(s, "select 'kensho_wide'::regclass::oid");
        }
        TargetState server = new TargetState();
        server.target = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + database(pg))
                .user(pg.user()).open();
        try {
            // the defaults are the study's scale 10: pgbench tables of scale 1 are not silently replaced
            KenshoException e = assertThrows(KenshoException.class, () -> new MicroTables.PgbenchReady().prepare(server));
            assertTrue(e.getMessage().contains("pgbench tables of scale " + SCALE + " exist"), e.getMessage());
            // a JMH user set a property, not the parameter of MicroTables.prepare a harness calling it would read
            System.setProperty(MicroTables.SCALE_PROPERTY, "0");
            assertEquals("-Dkensho.micro.scale must be at least 1",
                    assertThrows(KenshoException.class, () -> new MicroTables.PgbenchReady().prepare(server)).getMessage());
            System.setProperty(MicroTables.WIDE_ROWS_PROPERTY, "0");
            assertEquals("-Dkensho.micro.wideRows must be at least 1",
                    assertThrows(KenshoException.class, () -> new MicroTables.WideReady().prepare(server)).getMessage());
            System.setProperty(MicroTables.SCALE_PROPERTY, String.valueOf(SCALE));
            System.setProperty(MicroTables.WIDE_ROWS_PROPERTY, String.valueOf(WIDE_ROWS));
            new MicroTables.PgbenchReady().prepare(server);
            new MicroTables.WideReady().prepare(server);
            try (Connection c = server.target.connect(); Statement s = c.createStatement()) {
                assertEquals(MicroTables.MARK + " rows=" + WIDE_ROWS, comment(s));
                assertEquals(wideOid, count(s, "select 'kensho_wide'::regclass::oid"), "the wide table was reused, not rebuilt");
            }
        } finally {
            System.clearProperty(MicroTables.SCALE_PROPERTY);
            System.clearProperty(MicroTables.WIDE_ROWS_PROPERTY);
            server.close();
        }
    }

    private static String comment(Statement s) throws Exception {
        try (ResultSet rs = s.executeQuery("select obj_description('kensho_wide'::regclass, 'pg_class')")) {
            rs.next();
            return rs.getString(1);
        }
    }

    // LATIN1: a real encoding (a misspelt one is refused up front) that the EUC_JP database has no conversion to
    @Test
    void aBenchmarkThatThrowsIsAFailedTrialWithItsReason(Target pg, @TempDir Path tmp) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = dir(tmp)) {
            MicroBenchmarks.Result r = MicroBenchmarks.run(new TargetSpec(), pg, "embedded",
                    small(List.of(Benchmark.ENCODING), List.of("LATIN1")), dir, new PrintStream(log, true, StandardCharsets.UTF_8));
            assertEquals(1, r.failed(), log.toString(StandardCharsets.UTF_8));
            List<Trial> trials = dir.trials();
            assertEquals(1, trials.size());
            assertEquals("failed", trials.get(0).status());
            String reason = String.valueOf(trials.get(0).extra().get("reason"));
            assertTrue(reason.contains("client_encoding") || reason.contains("LATIN1"), reason);
            assertFalse(reason.contains("\n"), reason);
        }
    }

    /**
     * The server ends the benchmark's connection after its first iteration: what finished stays, the cell failed, and
     * the next value still runs (in this JVM JMH itself trips over a benchmark that threw after an iteration).
     */
    @Test
    void aBenchmarkThatFailsMidRunIsAFailedCellKeepingItsFinishedIterations(Target pg, @TempDir Path tmp) throws Exception {
        MicroBenchmarks.Options o = new MicroBenchmarks.Options(List.of(Benchmark.ENCODING), SCALE, WIDE_ROWS, true, List.of(0),
                List.of("none", "SJIS"), "EUC_JP", 0, 60, Duration.ofMillis(100), 0, false);   // 6 s for the kill to land in
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RunDirectory dir = dir(tmp)) {
            Thread killer = new Thread(() -> {
                try {
                    while (dir.trials().isEmpty()) Thread.sleep(10);
                    // again until one is ended: as an iteration's trial is written its backend shows COMMIT, not the query
                    try (Connection c = pg.connect(database(pg)); Statement s = c.createStatement()) {
                        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
                        while (System.nanoTime() < deadline) {
                            try (java.sql.ResultSet rs = s.executeQuery("select count(*) filter (where pg_terminate_backend(pid)) from pg_stat_activity"
                                    + " where datname = current_database() and pid <> pg_backend_pid() and query = '" + EncodingConversion.SQL + "'")) {
                                rs.next();
                                if (rs.getLong(1) > 0) break;
                            }
                            Thread.sleep(5);
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            killer.setDaemon(true);
            killer.start();
            MicroBenchmarks.Result r = MicroBenchmarks.run(new TargetSpec(), pg, "embedded", o, dir,
                    new PrintStream(log, true, StandardCharsets.UTF_8));
            killer.join(10_000);
            assertEquals(1, r.failed(), log.toString(StandardCharsets.UTF_8));
            List<Trial> trials = dir.trials().stream().filter(t -> t.cell().endsWith("client_encoding=none")).toList();
            assertTrue(trials.size() < 60, "the cell stopped at the error: " + trials.size());
            Trial last = trials.get(trials.size() - 1);
            assertEquals("failed", last.status());
            assertTrue(trials.subList(0, trials.size() - 1).stream().allMatch(Trial::ok), trials.toString());
            String reason = String.valueOf(last.extra().get("reason"));
            assertFalse(reason.isBlank() || reason.contains("\n"), reason);
            CellSummary cell = CellSummary.of(trials).get(0);
            assertTrue(cell.reason().startsWith("1 of " + trials.size() + " repeats failed"), cell.reason());
            assertEquals(60, dir.trials().stream().filter(t -> t.cell().endsWith("client_encoding=SJIS") && t.ok()).count());
        }
    }

    @Test
    void aResumedRunSkipsFinishedCellsAndRetriesFailedOnes(Target pg, @TempDir Path tmp) {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        MicroBenchmarks.Options o = small(List.of(Benchmark.ENCODING), List.of("none", "LATIN1"));
        try (RunDirectory dir = dir(tmp)) {
            assertEquals(1, MicroBenchmarks.run(new TargetSpec(), pg, "embedded", o, dir, quiet).failed());
            assertEquals(3, dir.trials().size(), "2 repeats of none, 1 failed trial");
            assertEquals(1, MicroBenchmarks.run(new TargetSpec(), pg, "embedded", o, dir, quiet).failed());
            List<Trial> trials = dir.trials();
            assertEquals(4, trials.size(), "none was finished; the failed cell ran again");
            // the retry takes the failed repeat's number, so it stands in its place; both stay in trials.jsonl
            assertEquals(List.of(0, 0), trials.stream().filter(t -> t.cell().endsWith("client_encoding=LATIN1"))
                    .map(Trial::repeat).toList(), "the retry replaces the failed repeat");
            assertEquals("0 failed", CellSummary.of(trials).stream().filter(c -> c.cell().endsWith("client_encoding=LATIN1"))
                    .map(c -> c.n() + " " + c.status()).findFirst().orElseThrow());
        }
    }

    /** A SQL_ASCII database converts nothing: its encoding cells would time no conversion under a conversion's name. */
    @Test
    void aSqlAsciiDatabaseSkipsTheConversionCellsWithTheReason(Target pg, @TempDir Path tmp) throws Exception {
        String db = "kensho_micro_sql_ascii";
        try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("drop database if exists " + db + " with (force)");
            s.execute("create database " + db + " encoding 'SQL_ASCII' lc_collate 'C' lc_ctype 'C' template template0");
        }
        TargetSpec spec = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + db).user(pg.user());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (Target remote = spec.open(); RunDirectory dir = dir(tmp)) {
            MicroBenchmarks.Result r = MicroBenchmarks.run(spec, remote, "ascii", small(List.of(Benchmark.ENCODING), List.of("none", "SJIS")),
                    dir, new PrintStream(log, true, StandardCharsets.UTF_8));
            assertEquals(0, r.failed(), log.toString(StandardCharsets.UTF_8));
            Map<String, CellSummary> cells = CellSummary.of(dir.trials()).stream().collect(Collectors.toMap(CellSummary::cell, c -> c));
            assertEquals("ok", cells.get("target=ascii;benchmark=encoding;client_encoding=none").status());
            CellSummary sjis = cells.get("target=ascii;benchmark=encoding;client_encoding=SJIS");
            assertEquals("skipped", sjis.status());
            assertEquals("the database's encoding is SQL_ASCII: the server converts nothing to client_encoding SJIS", sjis.reason());
            assertEquals("SQL_ASCII", sjis.params().get("server_encoding"));
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("warning: encoding SJIS skipped: "), log.toString(StandardCharsets.UTF_8));
            // summary.csv in the order given, though the skipped cell's trial came first
            List<String> rows = java.nio.file.Files.readAllLines(dir.path().resolve(RunDirectory.SUMMARY));
            assertTrue(rows.get(1).contains(",none,") && rows.get(2).contains(",SJIS,"), String.join("\n", rows));
        } finally {
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("drop database if exists " + db + " with (force)");
            }
        }
    }

    /** A user's database (a remote target): only the tables the chosen benchmarks read are made or checked. */
    @Test
    void onlyTheTablesTheChosenBenchmarksReadAreMade(Target pg, @TempDir Path tmp) throws Exception {
        String db = "kensho_micro_only";
        try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("drop database if exists " + db + " with (force)");
            s.execute("create database " + db);
        }
        TargetSpec spec = new TargetSpec().url("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + db).user(pg.user());
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (Target remote = spec.open(); RunDirectory dir = dir(tmp);
             Connection c = remote.connect(); Statement s = c.createStatement()) {
            // pgbench tables of another scale than --scale, as a user's database may hold
            s.execute("create table pgbench_branches (bid int)");
            s.execute("insert into pgbench_branches values (1), (2)");
            s.execute("create table pgbench_accounts (aid int)");
            MicroBenchmarks.Result wide = MicroBenchmarks.run(spec, remote, "wide-only", once(Benchmark.ONE_COLUMN), dir, quiet);
            assertEquals(0, wide.failed(), dir.trials().toString());
            assertEquals(new MicroTables.Facts(null, null, WIDE_ROWS, false, wide.facts().serverEncoding()), wide.facts());
            assertEquals(2, count(s, "select count(*) from pgbench_branches"), "pgbench's tables were left alone");

            s.execute("drop table pgbench_branches, pgbench_accounts, kensho_wide");
            MicroBenchmarks.Result join = MicroBenchmarks.run(spec, remote, "pgbench-only", once(Benchmark.JOIN_GROUP_COUNT), dir, quiet);
            assertEquals(0, join.failed(), dir.trials().toString());
            assertEquals(new MicroTables.Facts(SCALE, false, null, null, join.facts().serverEncoding()), join.facts());
            assertEquals(0, count(s, "select count(*) from pg_class where relname = 'kensho_wide'"), "no wide table for join-group-count");
        } finally {
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("drop database if exists " + db + " with (force)");
            }
        }
    }

    /**
     * A harness calling run() directly took no lock: a second micro run went as far as its tables and met JMH's own lock
     * only at its first benchmark. run() takes it; here another thread's run holds it.
     */
    @Test
    void aLibraryRunIsRefusedWhileAnotherMicroRunHoldsTheLock(Target pg, @TempDir Path tmp) throws Exception {
        java.util.concurrent.atomic.AtomicReference<JmhLock> other = new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = new Thread(() -> other.set(JmhLock.acquire(tmp, "process 4242, run /r/other", false)));
        t.start();
        t.join();
        String ignore = System.getProperty("jmh.ignoreLock");
        System.clearProperty("jmh.ignoreLock");   // the build's tests set it, which turns the locks off
        try (RunDirectory dir = dir(tmp)) {
            KenshoException e = assertThrows(KenshoException.class, () -> MicroBenchmarks.run(new TargetSpec(), pg, "embedded",
                    small(List.of(Benchmark.ONE_COLUMN), List.of("none")), dir, null));
            assertTrue(e.getMessage().startsWith("another bench micro is running (process 4242, run /r/other)"), e.getMessage());
            assertEquals(0, dir.trials().size());
        } finally {
            if (ignore != null) System.setProperty("jmh.ignoreLock", ignore);
            other.get().close();
        }
    }

    @Test
    void aTableOfKenshosNameThatKenshoDidNotCreateIsRefusedAndKept(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_wide");
            s.execute("create table kensho_wide (mine int)");
            s.execute("insert into kensho_wide values (7)");
            KenshoException e = assertThrows(KenshoException.class, () -> MicroTables.prepare(c, EnumSet.of(MicroTables.Data.WIDE), 1, 10, true, null));
            assertTrue(e.getMessage().contains("not created by Kensho"), e.getMessage());
            // a harness calling prepare typed no option: the check names the parameter
            assertEquals("MicroTables.prepare wideRows must be at least 1", assertThrows(KenshoException.class,
                    () -> MicroTables.prepare(c, EnumSet.of(MicroTables.Data.WIDE), 1, 0, true, null)).getMessage());
            assertEquals("MicroTables.prepare scale must be at least 1", assertThrows(KenshoException.class,
                    () -> MicroTables.prepare(c, EnumSet.of(MicroTables.Data.PGBENCH), 0, 10, true, null)).getMessage());
            assertEquals(7, count(s, "select mine from kensho_wide"));
            s.execute("drop table kensho_wide");
        }
    }

    @Test
    void theReportFitsItsLongestCellAndKeepsReasonsToOneLine() {
        String longCell = "target=remote db-primary.example.internal:5432/kensho_bench;benchmark=trailing-columns";
        List<Trial> trials = List.of(
                Trial.of(longCell, 0).param("target", "x").metric("ms", 12.5).build(),
                Trial.of("target=embedded-17;benchmark=encoding;client_encoding=X", 0).param("target", "y")
                        .failed("ERROR: invalid value for parameter \"client_encoding\"\n  Position: 1").build());
        List<String> lines = MicroBenchmarks.report(trials);
        assertEquals(3, lines.size(), lines.toString());
        int n = lines.get(0).indexOf("   n ") + 3;
        assertTrue(n > longCell.length(), lines.get(0));
        for (String l : lines) {
            assertFalse(l.contains("\n"), l);
            assertEquals(' ', l.charAt(n - 1), l);
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(longCell + "    1 ")), lines.toString());
        assertTrue(lines.get(2).endsWith("failed: ERROR: invalid value for parameter \"client_encoding\""), lines.get(2));
    }

    /** A cell whose benchmark threw after some iterations has numbers, and the report says they stop at an error. */
    @Test
    void theReportNamesTheFailureOfACellThatAlsoHasNumbers() {
        String cell = "target=embedded-18;benchmark=encoding;client_encoding=none";
        List<Trial> trials = List.of(
                Trial.of(cell, 0).param("target", "x").metric("ms", 12.5).build(),
                Trial.of(cell, 1).param("target", "x").failed("org.postgresql.util.PSQLException: This connection has been closed.").build());
        List<String> lines = MicroBenchmarks.report(trials);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(1).startsWith(cell + "    1      12.500"), lines.get(1));
        assertTrue(lines.get(1).endsWith("  (1 of 2 repeats failed: org.postgresql.util.PSQLException: This connection has been closed.)"),
                lines.get(1));
    }

    @Test
    void optionsRefuseWhatCannotRun() {
        assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(List.of(Benchmark.ONE_COLUMN), 1, 10, false,
                List.of(100), List.of("none"), "EUC_JP", 0, 1, Duration.ofSeconds(1), 0, false));
        assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(List.of(Benchmark.ENCODING), 1, 10, false,
                List.of(0), List.of("SJIS'; drop table x; --"), "EUC_JP", 0, 1, Duration.ofSeconds(1), 0, false));
        assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(List.of(), 1, 10, false,
                List.of(0), List.of("none"), "EUC_JP", 0, 1, Duration.ofSeconds(1), 0, false));
        // one value twice ran its cell twice under one key, the second run a failed repeat ("JMH reported no measured iteration")
        KenshoException twice = assertThrows(KenshoException.class, () -> new MicroBenchmarks.Options(List.of(Benchmark.ENCODING), 1, 10, false,
                List.of(0), List.of("none", "sjis", "SJIS"), "EUC_JP", 0, 1, Duration.ofSeconds(1), 0, false));
        assertEquals("MicroBenchmarks.Options clientEncodings none,SJIS,SJIS: SJIS is given twice", twice.getMessage());
        assertEquals(KenshoException.USAGE, twice.exitCode());
        assertThrows(KenshoException.class, () -> Benchmark.parse("memset"));
        assertEquals(Benchmark.LEADING_COLUMNS, Benchmark.parse(" Leading-Columns "));
    }

    private static String database(Target pg) {
        return pg.kind().managed() ? MicroBenchmarks.DATABASE : pg.database();
    }

    private static String clientEncoding(EncodingConversion b) throws Exception {
        java.lang.reflect.Field f = EncodingConversion.class.getDeclaredField("connection");
        f.setAccessible(true);
        try (Statement s = ((Connection) f.get(b)).createStatement(); ResultSet rs = s.executeQuery("show client_encoding")) {
            rs.next();
            String v = rs.getString(1);
            ((Connection) f.get(b)).commit();
            return v;
        }
    }

    private static long count(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
