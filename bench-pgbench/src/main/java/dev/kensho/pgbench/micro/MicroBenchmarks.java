package dev.kensho.pgbench.micro;

import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.DisplayWidth;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Study 002's micro query benchmarks on one target, run by JMH: prepares the tables
 * ({@link MicroTables}), runs the chosen benchmarks (JMH forks connect back to the target through
 * {@link dev.kensho.jmh.TargetState}'s system properties), and appends every measured iteration as a
 * repeat of its cell, so medians, reports and run comparisons work as for every other command.
 *
 * <p>On a managed server the benchmarks run in a database of their own, {@value #DATABASE}, created
 * with the study's encoding (EUC_JP by default), so the encoding benchmark converts EUC_JP to SJIS as
 * the study did. On other targets they run in the target's database, whatever its encoding (recorded).
 */
public final class MicroBenchmarks {
    public static final String COMMAND = "micro";
    /** The metrics summary.csv summarises (a cell's milliseconds per operation). */
    public static final List<String> SUMMARY_METRICS = List.of("ms");
    public static final String DATABASE = "kensho_micro";

    /** The study's measurements, each one JMH benchmark method. */
    public enum Benchmark {
        JOIN_GROUP_COUNT("join-group-count", JoinGroupCount.class, "joinGroupCount", null, MicroTables.Data.PGBENCH),
        ENCODING("encoding", EncodingConversion.class, "selectAll", "clientEncoding", MicroTables.Data.PGBENCH),
        TRAILING_COLUMNS("trailing-columns", TupleDeform.class, "trailingColumns", null, MicroTables.Data.WIDE),
        ONE_COLUMN("one-column", TupleDeform.class, "oneColumn", "column", MicroTables.Data.WIDE),
        LEADING_COLUMNS("leading-columns", TupleDeform.class, "leadingColumns", "column", MicroTables.Data.WIDE);

        public final String label;
        final Class<?> type;
        final String method;
        /** The JMH @Param it varies, or null. */
        final String param;
        /** The tables it reads. */
        final MicroTables.Data data;

        Benchmark(String label, Class<?> type, String method, String param, MicroTables.Data data) {
            this.label = label;
            this.type = type;
            this.method = method;
            this.param = param;
            this.data = data;
        }

        public static Benchmark parse(String s) {
            for (Benchmark b : values()) if (b.label.equalsIgnoreCase(s.trim())) return b;
            List<String> known = new ArrayList<>();
            for (Benchmark b : values()) known.add(b.label);
            throw KenshoException.usage("unknown benchmark '" + s.trim() + "'; expected one of " + String.join(", ", known));
        }

        String jmhName() {
            return type.getName() + "." + method;
        }

        String sql(String value) {
            return switch (this) {
                case JOIN_GROUP_COUNT -> JoinGroupCount.SQL;
                case ENCODING -> EncodingConversion.SQL;
                case TRAILING_COLUMNS -> TupleDeform.trailingSql();
                case ONE_COLUMN -> TupleDeform.oneColumnSql(Integer.parseInt(value));
                case LEADING_COLUMNS -> TupleDeform.leadingSql(Integer.parseInt(value));
            };
        }
    }

    /**
     * @param columns          positions N for one-column and leading-columns (0..99)
     * @param clientEncodings  client encodings for the encoding benchmark; "none" = no conversion
     * @param databaseEncoding encoding of {@value #DATABASE} on managed servers
     * @param iterations       measured JMH iterations per fork, each one repeat of the cell
     * @param forks            JMH forks (0 runs in this JVM)
     */
    public record Options(List<Benchmark> benchmarks, int scale, long wideRows, boolean reinit, List<Integer> columns,
                          List<String> clientEncodings, String databaseEncoding, int warmupIterations, int iterations,
                          Duration iterationTime, int forks, boolean verbose) {
        /**
         * The command line's options as this record's components: a harness that wrote iterations 0 is told of its
         * iterations, not of an --iterations it never typed. bench micro turns them back.
         */
        public static final Map<String, String> COMPONENT_NAMES = Map.of("--iterations", "MicroBenchmarks.Options iterations",
                "--scale", "MicroBenchmarks.Options scale", "--wide-rows", "MicroBenchmarks.Options wideRows",
                "--warmup-iterations", "MicroBenchmarks.Options warmupIterations", "--forks", "MicroBenchmarks.Options forks",
                "--iteration-time", "MicroBenchmarks.Options iterationTime", "--columns", "MicroBenchmarks.Options columns",
                "--client-encodings", "MicroBenchmarks.Options clientEncodings", "--database-encoding", "MicroBenchmarks.Options databaseEncoding");

        public Options {
            // here, not in run(): without JMH, MicroBenchmarks itself cannot be linked (its methods catch JMH's
            // exceptions), and the caller would get a NoClassDefFoundError instead of what to add
            if (Options.class.getClassLoader().getResource("org/openjdk/jmh/runner/Runner.class") == null) {
                throw KenshoException.usage("the micro benchmarks run on JMH, which is not on the classpath: add the dependency "
                        + "org.openjdk.jmh:jmh-core (Kensho declares it optional)");
            }
            try {
                benchmarks = List.copyOf(benchmarks);
                columns = List.copyOf(columns);
                clientEncodings = List.copyOf(clientEncodings);
                if (benchmarks.isEmpty()) throw KenshoException.usage("no benchmark chosen");
                if (iterations < 1) throw KenshoException.usage("--iterations must be at least 1");
                // before any server starts (MicroTables checks them again where the tables are made)
                if (scale < 1) throw KenshoException.usage("--scale must be at least 1");
                if (wideRows < 1) throw KenshoException.usage("--wide-rows must be at least 1");
                if (warmupIterations < 0) throw KenshoException.usage("--warmup-iterations must not be negative");
                if (forks < 0) throw KenshoException.usage("--forks must not be negative");
                if (iterationTime.toMillis() < 1) throw KenshoException.usage("--iteration-time must be at least 1ms");   // JMH is given milliseconds
                for (int c : columns) {
                    if (c < 0 || c >= MicroTables.WIDE_COLUMNS) {
                        throw KenshoException.usage("column " + c + " is outside col0..col" + (MicroTables.WIDE_COLUMNS - 1));
                    }
                }
                if (columns.isEmpty() && (benchmarks.contains(Benchmark.ONE_COLUMN) || benchmarks.contains(Benchmark.LEADING_COLUMNS))) {
                    throw KenshoException.usage("--columns is empty");
                }
                if (clientEncodings.isEmpty() && benchmarks.contains(Benchmark.ENCODING)) throw KenshoException.usage("--client-encodings is empty");
                // canonical names: the cell keys and the existing database's encoding compare as the server names them
                clientEncodings = clientEncodings.stream().map(e -> "none".equals(e) ? e : PgEncodings.client("--client-encodings", e)).toList();
                // one value twice made JMH run that cell twice under one key: its second run added a failed repeat, "JMH reported
                // no measured iteration", and exit status 1
                for (int i = 0; i < clientEncodings.size(); i++) {
                    if (clientEncodings.indexOf(clientEncodings.get(i)) < i) {
                        throw KenshoException.usage("--client-encodings " + String.join(",", clientEncodings) + ": " + clientEncodings.get(i) + " is given twice");
                    }
                }
                databaseEncoding = PgEncodings.server("--database-encoding", databaseEncoding);
            } catch (KenshoException e) {
                throw e.naming(COMPONENT_NAMES);
            }
        }

        /** The values of one benchmark's parameter (a single null for a benchmark without one). */
        List<String> values(Benchmark b) {
            if (b.param == null) return java.util.Collections.singletonList(null);
            if (b == Benchmark.ENCODING) return clientEncodings;
            return columns.stream().map(String::valueOf).toList();
        }

        /**
         * Rough wall time of the benchmarks: JMH's iterations plus two seconds per fork (a forked JVM's start, JMH's setup
         * and the trial's tear-down: measured 4.8 s a cell where 3 s of iterations and the one second then assumed said 4).
         */
        public Duration estimate() {
            long cells = 0;
            for (Benchmark b : benchmarks) cells += values(b).size();
            long perCell = iterationTime.toMillis() * (long) (warmupIterations + iterations) * Math.max(1, forks) + 2000L * forks;
            return Duration.ofMillis(cells * perCell);
        }
    }

    /** What one target's run produced. */
    public record Result(MicroTables.Facts facts, String database, int failed) { }

    private MicroBenchmarks() {}

    /**
     * Runs the chosen benchmarks on an open target. Cells already finished in dir (a resumed run)
     * are skipped. As {@code bench micro} does, it records the target's environment under label (unless the caller did)
     * and writes summary.csv with each trial and at the end (unless the caller said how, {@link RunDirectory#summarizeAfterEachTrial}):
     * a harness's run directory had neither.
     *
     * @param spec how the target was opened: forks reach it the same way (password file, session settings)
     * @param out  progress lines (null: none)
     */
    public static Result run(TargetSpec spec, Target target, String label, Options o, RunDirectory dir, PrintStream out) {
        requireListed(o.benchmarks(), BenchmarkList.class.getClassLoader());   // the loader JMH reads the lists with
        refuseUnrereadablePasswordFile(spec);
        // a harness calling this directly holds no lock: without it a second run met JMH's own lock only at its first
        // benchmark, its tables made (bench micro takes it before its targets; its thread goes on under it here)
        try (JmhLock lock = JmhLock.forRun("process " + ProcessHandle.current().pid() + ", run " + dir.path().toAbsolutePath())) {
            if (!dir.info().environment().containsKey(label)) dir.environment(label, dev.kensho.core.env.Environment.capture(target));
            boolean ours = !dir.summarizesAfterEachTrial();
            if (ours) dir.summarizeAfterEachTrial(d -> CellSummary.write(d, SUMMARY_METRICS));
            Result r = runLocked(spec, target, label, o, dir, out);
            if (ours) CellSummary.write(dir, SUMMARY_METRICS);
            return r;
        }
    }

    private static Result runLocked(TargetSpec spec, Target target, String label, Options o, RunDirectory dir, PrintStream out) {
        PrintStream log = out != null ? out : new PrintStream(java.io.OutputStream.nullOutputStream());
        // summary.csv's rows in the order the options list them: a skipped cell (SQL_ASCII), appended before the
        // measured ones, came first
        dir.plannedCells(o.benchmarks().stream().flatMap(b -> o.values(b).stream().map(v -> cellKey(label, b, v))).toList());
        String database = target.kind().managed() ? ensureDatabase(target, o.databaseEncoding(), log) : target.database();
        MicroTables.Facts facts;
        Set<MicroTables.Data> needed = EnumSet.noneOf(MicroTables.Data.class);
        o.benchmarks().forEach(b -> needed.add(b.data));
        try (Connection c = target.connect(database)) {
            facts = MicroTables.prepare(c, needed, o.scale(), o.wideRows(), o.reinit(), log);
        } catch (SQLException e) {
            throw KenshoException.target("preparing the micro benchmarks' tables failed: " + KenshoException.firstLine(e), e);
        }
        Map<String, String> props = forkProperties(spec, target, database);
        props.put(MicroTables.SCALE_PROPERTY, String.valueOf(o.scale()));
        props.put(MicroTables.WIDE_ROWS_PROPERTY, String.valueOf(o.wideRows()));
        boolean inProcess = o.forks() == 0;
        String noForks = urlSecretForksCannotGet(spec);
        boolean urlPassword = noForks != null;
        if (!inProcess && urlPassword) {
            log.println("note: " + noForks);
            inProcess = true;
        }
        // In this JVM TargetState reads the URL as given, password included: a system property for the
        // run's duration, never a fork's command line, a file or the results (target.jdbcUrl() has none).
        Map<String, String> inProcessProps = new LinkedHashMap<>(props);
        if (urlPassword) inProcessProps.put("kensho.url", spec.url());
        int forks = inProcess ? 0 : o.forks();
        int failed = 0;
        // A SQL_ASCII database sends its bytes as they are whatever client_encoding says: no conversion to measure.
        boolean convertsNothing = "SQL_ASCII".equals(facts.serverEncoding());
        for (Benchmark b : o.benchmarks()) {
            List<String> todo = new ArrayList<>();
            for (String v : o.values(b)) {
                if (finished(dir, cellKey(label, b, v), o.iterations() * Math.max(1, forks))) continue;
                if (b == Benchmark.ENCODING && convertsNothing && !"none".equals(v)) {
                    String reason = "the database's encoding is SQL_ASCII: the server converts nothing to client_encoding " + v;
                    log.println("warning: " + b.label + " " + v + " skipped: " + reason);
                    JmhTrials.Cell c = cell(label, b, facts, v, Mode.AverageTime.shortLabel(), forks);
                    Trial.Builder t = Trial.of(c.key(), (int) dir.trials().stream().filter(x -> x.cell().equals(c.key())).count())
                            .params(c.params());
                    c.extra().forEach(t::extra);
                    dir.append(t.skipped(reason).build());
                    continue;
                }
                todo.add(v);
            }
            if (todo.isEmpty()) continue;
            // Ctrl-C: the server is stopping, and a further benchmark would only start a fork to fail
            if (dev.kensho.core.JvmShutdown.begun()) throw new KenshoException(KenshoException.FAILURE, "interrupted: no more benchmarks", null);
            log.println(b.label + (b.param == null ? "" : " (" + todo.size() + (todo.size() == 1 ? " value)" : " values)")));
            JmhTrials trials = new JmhTrials(dir, p -> cell(label, b, facts, b.param == null ? null : p.getParam(b.param),
                    p.getMode().shortLabel(), p.getForks()), log, o.verbose(), o.iterations() * Math.max(1, forks));
            // In this JVM one JMH run per value: JMH 1.37's in-VM runner throws IndexOutOfBoundsException when a
            // benchmark throws after a measured iteration, which would end the values after it too.
            List<List<String>> runs = inProcess && b.param != null ? todo.stream().map(List::of).toList() : List.of(todo);
            for (List<String> values : runs) {
                ChainedOptionsBuilder jmh = new OptionsBuilder()
                        .include("^" + Pattern.quote(b.jmhName()) + "$")
                        .warmupIterations(o.warmupIterations())
                        .warmupTime(TimeValue.milliseconds(o.iterationTime().toMillis()))
                        .measurementIterations(o.iterations())
                        .measurementTime(TimeValue.milliseconds(o.iterationTime().toMillis()))
                        .forks(forks)
                        .shouldFailOnError(false);
                if (b.param != null) jmh.param(b.param, values.toArray(String[]::new));
                if (!inProcess) {
                    jmh.jvmArgs(forkJvmArgs(ManagementFactory.getRuntimeMXBean().getInputArguments(), System.getenv()).toArray(String[]::new));
                    List<String> args = new ArrayList<>();
                    props.forEach((k, v) -> args.add("-D" + k + "=" + v));
                    jmh.jvmArgsAppend(args.toArray(String[]::new));
                }
                Map<String, String> saved = inProcess ? setSystemProperties(inProcessProps) : Map.of();
                try {
                    new Runner(jmh.build(), trials).run();
                } catch (RunnerException e) {
                    throw new KenshoException(KenshoException.FAILURE, "JMH could not run " + b.label + ": " + KenshoException.firstLine(e), e);
                } catch (IndexOutOfBoundsException e) {
                    if (!trials.failing()) throw e;
                    trials.endRun(List.of());   // the failure JMH printed before it tripped over its own results
                } finally {
                    if (inProcess) restoreSystemProperties(saved);
                }
            }
            failed += trials.failures();
        }
        return new Result(facts, database, failed);
    }

    /**
     * JMH runs only what a META-INF/BenchmarkList names, and Kensho's is in bench-pgbench's jar with classifier
     * "micro", kept out of the main jar so that a harness's own JMH run does not run these too. Checked before any
     * table is made: JMH's own "No benchmarks to run" would come after.
     */
    static void requireListed(List<Benchmark> benchmarks, ClassLoader loader) {
        Set<String> listed = new java.util.HashSet<>();
        try {
            var lists = loader.getResources(BenchmarkList.BENCHMARK_LIST.substring(1));
            while (lists.hasMoreElements()) {
                try (var in = lists.nextElement().openStream()) {
                    for (BenchmarkListEntry e : BenchmarkList.readBenchmarkList(in)) listed.add(e.getUsername());
                }
            }
        } catch (java.io.IOException e) {
            throw new KenshoException(KenshoException.FAILURE, "reading JMH's benchmark lists failed: " + KenshoException.ioReason(e), e);
        }
        for (Benchmark b : benchmarks) {
            if (!listed.contains(b.jmhName())) {
                throw KenshoException.usage("JMH's benchmark list does not name " + b.jmhName() + ": add the dependency "
                        + "dev.kensho:bench-pgbench:" + KenshoVersion.version() + ":micro (the list of Kensho's micro benchmarks)");
            }
        }
    }

    /**
     * The JVM options a fork gets: this JVM's, as JMH would pass them on, less those that came from JAVA_TOOL_OPTIONS
     * or JDK_JAVA_OPTIONS. The fork reads those from its environment again, and an agent given twice (an APM or
     * coverage agent set there, as containers often do) kills the fork before its first iteration.
     */
    static List<String> forkJvmArgs(List<String> hostArgs, Map<String, String> env) {
        List<String> args = new ArrayList<>(hostArgs);
        for (String var : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")) {
            String v = env.get(var);
            if (v == null || v.isBlank()) continue;
            for (String token : v.strip().split("\\s+")) args.remove(token);
        }
        return args;
    }

    /** Median, min and max per cell of this target's trials, one line each. */
    public static List<String> report(List<Trial> trials) {
        List<String> lines = new ArrayList<>();
        List<CellSummary> cells = CellSummary.of(trials);
        // the cell column fits the longest cell (a remote target's label makes long ones), in terminal columns
        int w = Math.max(4, cells.stream().mapToInt(c -> DisplayWidth.of(c.cell())).max().orElse(0));
        lines.add(String.format(Locale.ROOT, "%s %4s %11s %11s %11s", DisplayWidth.padRight("cell", w), "n", "median ms", "min ms", "max ms"));
        for (CellSummary c : cells) {
            if (!c.status().equals("ok")) {
                lines.add(String.format(Locale.ROOT, "%s %4s %s", DisplayWidth.padRight(c.cell(), w), "-", c.status() + ": " + KenshoException.firstLine(c.reason())));
            } else {
                // an ok cell whose benchmark then threw says so beside its numbers
                String note = c.reason() == null || c.reason().isEmpty() ? "" : "  (" + KenshoException.firstLine(c.reason()) + ")";
                lines.add(String.format(Locale.ROOT, "%s %4d %11.3f %11.3f %11.3f%s", DisplayWidth.padRight(c.cell(), w), c.n(), c.median().get("ms"),
                        c.min().get("ms"), c.max().get("ms"), note));
            }
        }
        return lines;
    }

    static String cellKey(String label, Benchmark b, String value) {
        String key = "target=" + label + ";benchmark=" + b.label;
        if (b.param == null) return key;
        return key + ";" + (b == Benchmark.ENCODING ? "client_encoding" : "column") + "=" + value;
    }

    private static JmhTrials.Cell cell(String label, Benchmark b, MicroTables.Facts facts, String value, String jmhMode, int forks) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("target", label);
        params.put("benchmark", b.label);
        switch (b) {
            case ENCODING -> {
                params.put("client_encoding", value);
                params.put("server_encoding", facts.serverEncoding());
                params.put("scale", facts.scale());
            }
            case ONE_COLUMN, LEADING_COLUMNS -> {
                params.put("column", Integer.parseInt(value));
                params.put("wide_rows", facts.wideRows());
            }
            case TRAILING_COLUMNS -> params.put("wide_rows", facts.wideRows());
            case JOIN_GROUP_COUNT -> params.put("scale", facts.scale());
        }
        // the single queries get a name to be charted by; the column tests are charted by position
        if (b != Benchmark.ONE_COLUMN && b != Benchmark.LEADING_COLUMNS) {
            params.put("query", b == Benchmark.ENCODING ? b.label + " " + value : b.label);
        }
        // the SQL follows from benchmark and column: a fact of the trial, not a parameter to compare by
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("sql", b.sql(value));
        extra.put("jmh_mode", jmhMode);
        extra.put("forks", forks);
        return new JmhTrials.Cell(cellKey(label, b, value), params, extra);
    }

    /**
     * Whether every cell of these options already has its iterations on label in dir (as forks would record them): a
     * resumed run that is finished has no server to start and no table to make.
     */
    public static boolean finished(RunDirectory dir, String label, Options o) {
        return o.benchmarks().stream().allMatch(b -> o.values(b).stream()
                .allMatch(v -> finished(dir, cellKey(label, b, v), o.iterations() * Math.max(1, o.forks()))));
    }

    private static boolean finished(RunDirectory dir, String key, int repeats) {
        return dir.trials().stream().filter(t -> t.cell().equals(key) && t.ok()).count() >= repeats;
    }

    private static final java.util.regex.Pattern SSL_PASSWORD = java.util.regex.Pattern.compile("(?i)[?&]sslpassword=");

    /**
     * Why a fork could not reach the target as this JVM does, or null: a secret inside the URL cannot reach a
     * forked JVM without being written down or shown. --password-file stands in for the login password (the URL
     * forks get has none), not for sslpassword, which the forks' URL would carry masked: their TLS key unreadable.
     */
    static String urlSecretForksCannotGet(TargetSpec spec) {
        String url = spec.url();
        if (url == null || Credentials.mask(url).equals(url)) return null;
        if (SSL_PASSWORD.matcher(url).find()) {
            return "the URL carries sslpassword (its TLS key's); benchmarks run in this JVM (no forks)";
        }
        if (spec.passwordFile() != null) return null;
        return "the URL carries credentials; benchmarks run in this JVM (no forks). Use --password-file to fork.";
    }

    /**
     * Each JMH fork reads --password-file again, and a pipe gave its first reader all it had: refused before any run
     * directory, server or table (found at the first fork, it had cost a server's start and the tables' build).
     */
    public static void refuseUnrereadablePasswordFile(TargetSpec spec) {
        if (spec.passwordFile() != null && !java.nio.file.Files.isRegularFile(spec.passwordFile())) {
            throw KenshoException.usage("--password-file " + spec.passwordFile() + " is no regular file, and each of micro's JMH forks"
                    + " reads it again: give a file (mode 600)");
        }
    }

    /** The system properties that make TargetState in a fork connect to this target's database. */
    static Map<String, String> forkProperties(TargetSpec spec, Target target, String database) {
        Map<String, String> p = new LinkedHashMap<>();
        if (target.kind().managed()) {
            p.put("kensho.url", "jdbc:postgresql://" + target.host() + ":" + target.port() + "/" + database);
        } else {
            p.put("kensho.url", target.jdbcUrl());
        }
        if (target.user() != null) p.put("kensho.user", target.user());
        refuseUnrereadablePasswordFile(spec);
        if (spec.passwordFile() != null) p.put("kensho.passwordFile", spec.passwordFile().toAbsolutePath().toString());
        // a managed server with a password of its own (run as an ordinary user): the file, never the password itself
        else target.serverPasswordFile().ifPresent(f -> p.put("kensho.passwordFile", f.toAbsolutePath().toString()));
        // a managed server has its settings in its configuration; elsewhere they are session settings
        if (!target.kind().managed()) spec.settings().forEach((k, v) -> p.put("kensho.set." + k, v));
        return p;
    }

    private static Map<String, String> setSystemProperties(Map<String, String> props) {
        Map<String, String> saved = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : props.entrySet()) {
            saved.put(e.getKey(), System.getProperty(e.getKey()));
            System.setProperty(e.getKey(), e.getValue());
        }
        return saved;
    }

    private static void restoreSystemProperties(Map<String, String> saved) {
        saved.forEach((k, v) -> {
            if (v == null) System.clearProperty(k);
            else System.setProperty(k, v);
        });
    }

    /** Creates {@value #DATABASE} with the study's encoding on a managed server (Kensho owns every database there). */
    private static String ensureDatabase(Target target, String encoding, PrintStream log) {
        try (Connection c = target.connect("postgres")) {
            try (PreparedStatement ps = c.prepareStatement("select pg_encoding_to_char(encoding) from pg_database where datname = ?")) {
                ps.setString(1, DATABASE);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        if (rs.getString(1).equalsIgnoreCase(encoding)) return DATABASE;
                        throw KenshoException.usage("database " + DATABASE + " exists with encoding " + rs.getString(1)
                                + ", not " + encoding + "; drop it or give --database-encoding " + rs.getString(1));
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                // template0 and the C locale accept any server encoding
                s.execute("create database " + DATABASE + " encoding '" + encoding + "' lc_collate 'C' lc_ctype 'C' template template0");
            }
            log.println("created database " + DATABASE + " (encoding " + encoding + ")");
            return DATABASE;
        } catch (SQLException e) {
            throw KenshoException.target("cannot create database " + DATABASE + " with encoding " + encoding + ": " + KenshoException.firstLine(e), e);
        }
    }
}
