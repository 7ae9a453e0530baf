package dev.kensho.cli.report;

import java.util.Locale;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunResults;
import dev.kensho.report.Figure;
import dev.kensho.report.HtmlReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** bench report: one self-contained HTML file for a results directory. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write a self-contained HTML report (inline SVG charts and CSS, no scripts, no external files) "
                + "for a results directory: run info and environment, charts, per-cell medians with min–max and n, "
                + "skipped and failed cells with reasons, and what Kensho did (restarts, settings).",
                "Charts follow the command: pgbench sweep → tps and latency vs clients per version; ssb → time vs workers, a line per query; "
                        + "ssb jit → time off/on and the reduction rate; scan → time vs selectivity with the crossover."})
public final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR",
            description = "Results directory (results/<UTC timestamp>-<command>); default: the newest under ./results that has trials.")
    Path dir;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "HTML file to write, or a directory to write report.html into "
            + "(one that exists, or any path ending in /; default: DIR/report.html).")
    String out;   // not a Path: Path.of drops the trailing / that says "a directory"

    @Option(names = "--png", paramLabel = "DIR", description = "Also write every chart as a PNG file into DIR.")
    Path png;

    @Override
    public Integer call() {
        Path run = dir != null ? dir : RunDirs.newest(Path.of("results"));
        RunResults results = RunDirs.read(run);
        Path html = run.resolve("report.html");
        if (out != null) {
            Path o = Path.of(out);
            boolean directory = Files.isDirectory(o) || out.endsWith("/") || out.endsWith(java.io.File.separator);
            if (directory) {
                try {
                    Files.createDirectories(o);
                } catch (java.io.IOException e) {
                    throw KenshoException.usage("-o " + out + ": cannot create it (" + KenshoException.ioReason(e) + ")");
                }
            }
            html = directory ? o.resolve("report.html") : o;
        }
        if (png != null) {
            // before the HTML is written: a --png that cannot be made failed after report.html was there
            try {
                Files.createDirectories(png);
            } catch (java.io.IOException e) {
                throw KenshoException.usage("--png " + png + ": cannot create it (" + KenshoException.ioReason(e) + ")");
            }
        }
        Path written = HtmlReport.write(results, html);
        System.out.println("report: " + written);
        HtmlReport.unfinished(results).ifPresent(u -> System.err.println("report: " + u));
        if (png != null) {
            List<Figure> figures = HtmlReport.figures(results);
            int i = 0;
            for (Figure f : figures) {
                Path file = png.resolve(String.format(Locale.ROOT, "chart-%02d-%s.png", ++i, slug(f.title())));
                f.png(file);
                System.out.println("chart: " + file);
            }
            if (figures.isEmpty()) System.out.println("charts: none in this run (" + png + " is empty)");
        }
        return 0;
    }

    private static String slug(String title) {
        String s = title.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        return s.length() > 60 ? s.substring(0, 60) : s;
    }

    /** Locating and opening results directories, with one-line errors. */
    static final class RunDirs {
        private RunDirs() {}

        static RunResults read(Path dir) {
            if (!Files.exists(dir)) throw KenshoException.usage(dir + ": no such directory");
            if (!Files.isDirectory(dir)) throw KenshoException.usage(dir + ": not a directory (give a run's results directory)");
            if (!Files.isRegularFile(dir.resolve(RunDirectory.RUN))) {
                throw KenshoException.usage(dir + ": not a results directory (no " + RunDirectory.RUN + ")");
            }
            return RunDirectory.read(dir);
        }

        /**
         * The most recently started run under root (names begin with the UTC start time) that measured something:
         * a run stopped before its first trial (a failed init, a refused target) is passed over, and said so.
         */
        static Path newest(Path root) {
            java.util.List<Path> runs;
            try (var s = Files.list(root)) {
                runs = s.filter(p -> Files.isRegularFile(p.resolve(RunDirectory.RUN)))
                        .sorted(java.util.Comparator.comparing((Path p) -> p.getFileName().toString()).reversed())
                        .toList();
            } catch (java.io.IOException e) {
                throw KenshoException.usage(Files.isDirectory(root) ? "cannot list " + root + " (" + KenshoException.ioReason(e) + "); give DIR"
                        : "no " + root + " directory to find the newest run in; give DIR");
            }
            if (runs.isEmpty()) throw KenshoException.usage("no results directory under " + root + "; give DIR");
            // names are the wall clock at each start: one dated after now was made before the clock stepped back, and a
            // run made since sorts below it
            String top = runs.get(0).getFileName().toString();
            if (top.length() >= 16) {
                try {
                    java.time.Instant stamp = java.time.LocalDateTime.parse(top.substring(0, 15),
                            java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")).toInstant(java.time.ZoneOffset.UTC);
                    if (stamp.isAfter(java.time.Instant.now().plusSeconds(60))) {
                        System.err.println("report: warning: " + top + " is dated after this machine's clock (" + java.time.Instant.now()
                                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + "): the clock was stepped back since, and the newest"
                                + " run by name may not be the last one made; give DIR");
                    }
                } catch (java.time.format.DateTimeParseException notAStamp) {
                    // a directory named by hand: nothing to compare
                }
            }
            for (int i = 0; i < runs.size(); i++) {
                if (!measured(runs.get(i))) continue;
                if (i > 0) {
                    System.err.println("report: " + i + " newer run" + (i == 1 ? "" : "s") + " without trials passed over ("
                            + runs.get(0).getFileName() + (i == 1 ? "" : ", ...") + "); give DIR to report " + (i == 1 ? "it" : "one"));
                }
                return runs.get(i);
            }
            return runs.get(0);   // nothing measured anywhere: the newest, whose report says so
        }

        private static boolean measured(Path run) {
            try {
                return Files.size(run.resolve(RunDirectory.TRIALS)) > 0;
            } catch (java.io.IOException e) {
                return false;
            }
        }
    }
}
