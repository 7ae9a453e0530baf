package dev.kensho.cli;

import java.util.Locale;
import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import dev.kensho.core.env.Environment;
import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.run.DisplayWidth;
import dev.kensho.core.run.QueryMatrix;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Times SQL queries under combinations of settings, with repeats and medians. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Time SQL queries (full result streamed) under combinations of settings, with repeats and medians.",
                "Example:",
                "  bench query -c \"SELECT count(*) FROM t\" --matrix jit=on,off --repeat 5 \\",
                "      --url jdbc:postgresql://127.0.0.1/test",
                "Exit status 1 when a trial failed (the server rejected a query; see summary.csv)."})
final class QueryCommand implements Callable<Integer> {
    private static final List<String> SUMMARY_METRICS = List.of("ms", "rows");

    @Mixin TargetOptions target;
    @Mixin ResultOptions results;

    @Option(names = {"-c", "--sql"}, paramLabel = "SQL", description = "A query to time (repeatable).")
    List<String> sql = new ArrayList<>();

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "A file holding one statement (repeatable); named after the file.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--setup", paramLabel = "SQL", description = "SQL run once per target before measuring (e.g. CREATE TABLE … AS …).")
    List<String> setup = new ArrayList<>();

    @Option(names = "--matrix", paramLabel = "NAME=V1,V2", description = "Vary a setting over values (repeatable; cells are all combinations).")
    List<String> matrix = new ArrayList<>();

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5", description = "Measured repeats per cell (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1", description = "Unrecorded runs of each cell before its first repeat (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--order", paramLabel = "random|rounds|sequential", defaultValue = "random",
            description = "Trial order: random (all trials shuffled), rounds (every cell once per round, each round shuffled) or sequential (default ${DEFAULT-VALUE}).")
    TrialMatrix.Order order;

    @Option(names = "--seed", paramLabel = "SEED", description = "Seed of the random trial order, for --order random or rounds (default: time-based, recorded in run.json; --resume takes the run's).")
    Long seed;

    @Option(names = "--explain", description = "Also capture EXPLAIN (ANALYZE, BUFFERS) once per cell.")
    boolean explain;

    @Option(names = "--fetch-size", defaultValue = "0", paramLabel = "ROWS",
            description = "Rows per fetch through a cursor; 0 (the default) runs each query in one execution, its result streamed as COPY: a cursor makes PostgreSQL run the plan without parallel workers.")
    int fetchSize;

    @Override
    public Integer call() throws Exception {
        List<QueryMatrix.Query> queries = new ArrayList<>();
        for (int i = 0; i < sql.size(); i++) {
            List<Integer> later = QueryTimer.laterStatements(sql.get(i));
            if (!later.isEmpty()) {
                throw KenshoException.usage("-c '" + KenshoException.firstLine(sql.get(i)) + "': a second statement at " + lineColumn(sql.get(i), later.get(0))
                        + ONE_STATEMENT);
            }
            // nothing to run (blanks, a semicolon, comments): timed, it measured a round trip as the query's cell
            if (!QueryTimer.holdsStatement(sql.get(i))) throw KenshoException.usage("-c '" + sql.get(i).replaceAll("\\s+", " ").strip() + "': holds no statement");
            queries.add(new QueryMatrix.Query("q" + (i + 1), sql.get(i)));
        }
        Map<String, Path> named = new LinkedHashMap<>();
        for (Path f : files) {
            String name = f.getFileName().toString().replaceFirst("\\.sql$", "");
            // the name is the cell: two files of one name would mix their timings in it
            Path before = named.putIfAbsent(name, f);
            if (before != null) {
                throw KenshoException.usage("-f " + f + " and -f " + before + " are both named " + name + " (a query is named after its file): rename one");
            }
            // -c queries are q1, q2, ...: a file q1.sql beside them was one cell with the first -c, "(1 already done)"
            if (name.matches("q\\d+") && Integer.parseInt(name.substring(1)) >= 1 && Integer.parseInt(name.substring(1)) <= sql.size()
                    && String.valueOf(Integer.parseInt(name.substring(1))).equals(name.substring(1))) {
                throw KenshoException.usage("-f " + f + " is named " + name + ", as -c " + KenshoException.firstLine(sql.get(Integer.parseInt(name.substring(1)) - 1))
                        + " is (the -c queries are q1, q2, ...; a query is named after its file): rename the file");
            }
            if (Files.isDirectory(f)) throw KenshoException.usage("-f " + f + ": is a directory, not a file holding a query");
            String text;
            try {
                // blank lines before the statement stay: an error's line and column are then the file's. A byte that is
                // not UTF-8 is named with its line, as for pgbench's scripts (Java said "Input length = 1"); a BOM at the
                // start is skipped, as psql skips it (the server read it as part of the first word)
                text = dev.kensho.pgbench.script.Script.utf8(f.toString(), Files.readAllBytes(f));
                if (text.startsWith("\uFEFF")) text = text.substring(1);
                text = text.stripTrailing().replaceFirst(";$", "");
            } catch (dev.kensho.pgbench.script.ScriptException e) {
                throw KenshoException.usage("-f " + e.getMessage());
            } catch (IOException e) {
                throw KenshoException.usage("-f " + f + ": cannot read (" + KenshoException.ioReason(e) + ")");
            }
            List<Integer> later = QueryTimer.laterStatements(text);
            if (!later.isEmpty()) {
                throw KenshoException.usage("-f " + f + ":" + lineColumn(text, later.get(0)).replace("line ", "").replace(", column ", ":")
                        + ": a second statement" + ONE_STATEMENT);
            }
            if (!QueryTimer.holdsStatement(text)) throw KenshoException.usage("-f " + f + ": holds no statement");
            queries.add(new QueryMatrix.Query(name, text));
        }
        if (queries.isEmpty()) throw KenshoException.usage("give at least one query with -c SQL or -f FILE");
        if (repeat < 1) throw KenshoException.usage("--repeat must be at least 1");
        if (warmup < 0) throw KenshoException.usage("--warmup must not be negative");
        if (fetchSize < 0) throw KenshoException.usage("--fetch-size must not be negative (0: one execution, the result streamed)");
        Map<String, List<String>> varied = QueryMatrix.settings(matrix);
        List<TargetSpec> specs = target.specs();

        Map<String, Object> params = new LinkedHashMap<>();
        // run.json keeps what was run, but not a password in it (ALTER ROLE ... PASSWORD '...', a dblink connection string)
        params.put("queries", queries.stream().map(q -> new QueryMatrix.Query(q.name(), Credentials.maskSql(q.sql()))).toList());
        params.put("matrix", varied);
        params.put("repeat", repeat);
        params.put("order", order.name().toLowerCase(Locale.ROOT));
        // a fixed default would give every run the same order; a resume keeps the recorded one, and one with another
        // --seed is refused (as the sweep's): it ran the trials left in another order and run.json said only the new seed.
        // A sequential order draws nothing and records none (an earlier Kensho's recorded one stays, so that it resumes).
        Long recordedSeed = results.recorded("seed") instanceof Number n ? Long.valueOf(n.longValue()) : null;
        Long orderSeed = order == TrialMatrix.Order.SEQUENTIAL ? recordedSeed
                : seed != null ? seed : recordedSeed != null ? recordedSeed : Long.valueOf(System.nanoTime());
        if (order == TrialMatrix.Order.SEQUENTIAL && seed != null) {
            System.err.println(TrialMatrix.SEED_UNUSED);
        }
        params.put("seed", orderSeed);
        params.put("targets", specs.stream().map(TargetSpec::label).toList());
        params.put("settings", target.settings());
        params.put("warmup", warmup);   // unrecorded runs before the first repeat: a cell measured warm or cold
        params.put("setup", setup.stream().map(Credentials::maskSql).toList());
        params.put("fetch_size", fetchSize);   // 0: one execution (parallel workers as planned); N: a cursor (none)
        int status;
        try (RunDirectory dir = results.open("query", params, System.err)) {
            dir.summarizeAfterEachTrial(d -> CellSummary.write(d, SUMMARY_METRICS));
            QueryMatrix m = new QueryMatrix(queries, varied, repeat, warmup, order, orderSeed == null ? 0 : orderSeed, explain, fetchSize);
            Map<String, Integer> rejectedBy = new LinkedHashMap<>();
            // a finished run's resume opens no target: a managed server is not started, --setup does not run again
            boolean finished = results.resuming() && m.finishedIn(dir, specs.stream().map(TargetSpec::label).toList());
            if (finished) System.err.println("query: every trial is already in " + dir.path() + "; nothing left to resume");
            for (TargetSpec spec : finished ? List.<TargetSpec>of() : specs) {
                String label = spec.label();
                try (Target t = spec.open()) {
                    System.err.println("target: " + t.describe());
                    // a name one version lacks skips that version's cells; with one target it is a mistake
                    m.checkSettings(t, label, specs.size() == 1).forEach((value, why) -> {
                        System.err.println("warning: --matrix " + value + ": " + why + " (" + label + "'s cells with it are skipped)");
                        rejectedBy.merge(value, 1, Integer::sum);
                    });
                    dir.environment(label, Environment.capture(t));
                    for (String stmt : setup) {
                        try (var c = t.connect(); var st = c.createStatement()) {
                            st.execute(stmt);
                        } catch (SQLException e) {
                            // masked as run.json keeps it: an ALTER ROLE ... PASSWORD that failed printed the password
                            throw KenshoException.usage("--setup " + KenshoException.firstLine(Credentials.maskSql(stmt)) + ": "
                                    + KenshoException.firstLine(Credentials.maskSql(e.getMessage())));
                        }
                    }
                    if (varied.containsKey("jit") && !dev.kensho.core.env.Environment.jitAvailable(t)) {
                        // zonky's embedded binaries have no LLVM: the jit=on cells were the jit=off ones, measured twice
                        String line = "--matrix jit=" + String.join(",", varied.get("jit")) + ": jit changes nothing on " + label
                                + ", whose server was built without LLVM (pg_jit_available() is false); give --pg-bin DIR of a"
                                + " PostgreSQL built with LLVM, or --url, to measure JIT";
                        System.err.println("warning: " + line);
                        dir.noteOnce(line);
                    }
                    int cellsPerQuery = QueryMatrix.combinations(varied).size();
                    m.writingQueries(t, label).forEach((name, what) -> {
                        // a write runs on every warm-up and repeat, unlike --setup: later runs meet what earlier ones left
                        String line = name + " (" + what + ") " + (what.equals("DO") || what.equals("CALL") ? "may write" : "writes")
                                + ": it runs " + (m.runsPerCell() * cellsPerQuery) + " times on " + label + " (" + warmup + " warm-up and "
                                + repeat + " repeats" + (cellsPerQuery > 1 ? " in each of " + cellsPerQuery + " cells" : "")
                                + (explain ? ", and an EXPLAIN ANALYZE rolled back" : "")
                                + "), each run meeting what the runs before it left; what prepares the data goes in --setup, which runs once";
                        System.err.println("warning: " + line);
                        dir.noteOnce(line);
                    });
                    m.run(t, label, dir, new ConsoleProgress<>(p -> p.cell().query().name() + " " + p.cell().settings()));
                }
            }
            CellSummary.write(dir, SUMMARY_METRICS);
            printSummary(CellSummary.inPlannedOrder(dir));
            status = ResultOptions.exitStatus(dir, System.err);
            System.err.println("results: " + dir.path());
            // one version may lack a value the others take; one that no target takes is a mistake on the command line
            List<String> nowhere = rejectedBy.entrySet().stream().filter(e -> e.getValue() == specs.size()).map(Map.Entry::getKey).toList();
            if (!nowhere.isEmpty()) throw KenshoException.usage("--matrix " + String.join(", ", nowhere) + ": rejected by every target");
        }
        return status;
    }

    /**
     * Several statements in one -c or -f all ran in each timed run, while the rows counted were the first one's and the
     * cell was named as one query.
     */
    private static final String ONE_STATEMENT = "; bench query times one statement per -c or -f (give each its own; what prepares "
            + "the data goes in --setup, which runs once)";

    /** "line L, column C" of a 0-based index. */
    static String lineColumn(String text, int index) {
        int line = 1, start = 0;
        for (int i = 0; i < index; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                start = i + 1;
            }
        }
        return "line " + line + ", column " + (index - start + 1);
    }

    /** The cells as summary.csv lists them. */
    private static void printSummary(List<CellSummary> cells) {
        // the cell column fits the longest cell (remote targets and matrices make long ones), in terminal columns
        int w = Math.max(4, cells.stream().mapToInt(c -> DisplayWidth.of(c.cell())).max().orElse(0));
        System.out.printf(Locale.ROOT, "%s %5s %12s %12s %12s %10s%n", DisplayWidth.padRight("cell", w), "n", "median ms", "min ms", "max ms", "rows");
        for (CellSummary c : cells) {
            if (!c.status().equals("ok")) {
                System.out.printf(Locale.ROOT, "%s %5s %s%n", DisplayWidth.padRight(c.cell(), w), "-", c.status() + ": " + KenshoException.firstLine(c.reason()));
                continue;
            }
            System.out.printf(Locale.ROOT, "%s %5d %12.3f %12.3f %12.3f %10.0f%n", DisplayWidth.padRight(c.cell(), w), c.n(), c.median().get("ms"),
                    c.min().get("ms"), c.max().get("ms"), c.median().get("rows"));
        }
    }

}
