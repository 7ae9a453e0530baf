package dev.kensho.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.LatencyDistribution;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.RunResults;
import dev.kensho.core.result.Timeline;
import dev.kensho.core.result.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
    @TempDir
    Path tmp;

    /** Everything the page needs is in the file: no URL, no src/href to another file, no script. */
    static void assertSelfContained(String html) {
        assertFalse(html.contains("http://"), "http:// in the page");
        assertFalse(html.contains("https://"), "https:// in the page");
        assertFalse(Pattern.compile("\\b(src|href)\\s*=").matcher(html).find(), "src= or href= in the page");
        assertFalse(html.contains("<script"), "script in the page");
        assertFalse(html.contains("<link"), "link element in the page");
        assertFalse(html.contains("@import"), "CSS import in the page");
    }

    /**
     * A chart saved on its own (report --png) names its run and what the run held fixed under the plot: without the
     * page's header, "TPS vs clients" of a select-only sweep and of a tpcb-like one were the same picture.
     */
    @Test
    void everyFigureOnItsOwnIsCaptionedWithTheRunAndItsFixedConditions() throws Exception {
        RunResults run = SampleRuns.pgbenchSweep(tmp);
        String caption = "bench pgbench sweep · script=select-only · " + run.directory().getFileName();
        assertEquals(caption, HtmlReport.caption(run), "clients, threads and version vary: not conditions");
        List<Figure> figures = HtmlReport.figures(run);
        assertTrue(figures.size() >= 2, figures.toString());
        for (Figure f : figures) {
            List<String> subtitles = new java.util.ArrayList<>();
            for (Object t : f.chart().getSubtitles()) {
                if (t instanceof org.jfree.chart.title.TextTitle tt) subtitles.add(tt.getText());
            }
            assertEquals(List.of(caption), subtitles, f.title());
            Path png = tmp.resolve("f.png");
            f.png(png);
            assertTrue(Files.size(png) > 0);
        }
        // the page's own charts stand under its header and stay as they were
        assertFalse(HtmlReport.render(run).contains(caption));
        // a parameter of some cells only is no condition of the run: ssb's load trial has a scale, its queries none
        RunResults ssb = SampleRuns.ssbWorkersWithLoad(tmp.resolve("ssb"));
        assertEquals("bench ssb · version=17 · " + ssb.directory().getFileName(), HtmlReport.caption(ssb));
        // ssb jit's cells name neither the server nor the scale: run.json does
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("jit"), RunInfo.of("ssb jit", List.of("bench", "ssb", "jit"),
                Map.of("scale", 0.05, "target", "pg-bin /usr/lib/postgresql/15/bin", "repeat", 1)))) {
            for (String jit : List.of("off", "on")) {
                rd.append(Trial.of("v3;query=q1.1;jit=" + jit, 0).param("verification", 3).param("query", "q1.1").param("jit", jit)
                        .metric("seconds", 0.01).build());
            }
            RunResults jit = RunDirectory.read(rd.path());
            assertEquals("bench ssb jit · verification=3, query=q1.1, target=pg-bin /usr/lib/postgresql/15/bin, scale=0.05 · "
                    + jit.directory().getFileName(), HtmlReport.caption(jit));
        }
    }

    /**
     * An ssb index-build cut short after its load: the load, a one-off step with the seconds the builds chart, is no
     * cell short of its repeats; the builds never reached are named.
     */
    @Test
    void aLoadIsNoCellShortOfItsRepeats() throws Exception {
        RunResults cut;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("ib"), RunInfo.of("ssb index-build", List.of("bench"), Map.of("repeat", 3)))) {
            rd.plannedCells(List.of("index-build;workers=0;columns=1", "index-build;workers=0;columns=2"));
            rd.append(Trial.of("load;version=15", 0).param("step", "load").param("version", "15").metric("seconds", 12.5).build());
            rd.append(Trial.of("index-build;workers=0;columns=1", 0).param("maintenance_workers", 0).param("columns", 1).metric("seconds", 0.2).build());
            cut = RunDirectory.read(rd.path());
        }
        String said = HtmlReport.unfinished(cut).orElseThrow();
        assertTrue(said.startsWith("Unfinished: 1 of 1 cell has fewer trials than the 3 repeats asked for: index-build;workers=0;columns=1 (1);"
                + " 1 cell has none: index-build;workers=0;columns=2, as an interrupted run leaves them"), said);

        // stopped after its load, nothing planned yet (an ssb jit run before its cells were recorded): not complete
        RunResults loaded;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("jit"), RunInfo.of("ssb jit", List.of("bench"), Map.of("repeat", 3)))) {
            rd.append(Trial.of("load;version=15", 0).param("step", "load").param("version", "15").metric("seconds", 12.5).build());
            loaded = RunDirectory.read(rd.path());
        }
        assertTrue(HtmlReport.unfinished(loaded).orElseThrow().startsWith("Unfinished: only the data load finished;"), HtmlReport.unfinished(loaded).toString());
        // ssb load's own run: the load is all it measures
        RunResults load;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("load"), RunInfo.of("ssb load", List.of("bench"), Map.of("scale", 0.01)))) {
            rd.append(Trial.of("load;version=15", 0).param("step", "load").param("version", "15").metric("seconds", 1.5).build());
            load = RunDirectory.read(rd.path());
        }
        assertEquals(java.util.Optional.empty(), HtmlReport.unfinished(load));
    }

    /**
     * Nothing in the results says a run was cut short: the report compares each cell's trials with the repeats asked
     * for, and says when no trial finished, where it showed an empty table.
     */
    @Test
    void interruptedAndEmptyRunsSaySo() throws Exception {
        assertFalse(HtmlReport.render(SampleRuns.pgbenchSweep(tmp.resolve("full"))).contains("Unfinished"), "every cell has its 3 repeats");
        RunResults cut;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("cut"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 3)))) {
            for (int r = 0; r < 3; r++) rd.append(Trial.of("clients=1", r).param("clients", 1).metric("tps", 1000.0 + r).build());
            rd.append(Trial.of("clients=4", 0).param("clients", 4).metric("tps", 3000.0).build());
            cut = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(cut);
        assertTrue(html.contains("<p class=\"warnings\">Unfinished: 1 of 2 cells have fewer trials than the 3 repeats asked for: "
                + "clients=4 (1), as an interrupted run leaves them"), html);
        assertTrue(html.contains("--resume " + cut.directory()), html);
        assertTrue(html.contains("cells it never reached are not listed"), "run.json without its planned cells: " + html);
        // the plan is in run.json: the cells the run never reached are named too (they were not, "1 of 1 cell" read as all)
        RunResults planned;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("planned"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 2)))) {
            rd.plannedCells(List.of("clients=1", "clients=2", "clients=4"));
            rd.append(Trial.of("clients=2", 0).param("clients", 2).metric("tps", 2000.0).build());
            planned = RunDirectory.read(rd.path());
        }
        assertEquals("Unfinished: 1 of 1 cell has fewer trials than the 2 repeats asked for: clients=2 (1); 2 cells have none: clients=1,"
                + " clients=4, as an interrupted run leaves them (" + planned.info().resumeCommand(planned.directory()) + " runs the rest).",
                HtmlReport.unfinished(planned).orElseThrow());
        // one repeat asked for: no cell is short, but one never reached is still said
        RunResults once;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("once"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 1)))) {
            rd.plannedCells(List.of("clients=1", "clients=2"));
            rd.append(Trial.of("clients=2", 0).param("clients", 2).metric("tps", 2000.0).build());
            once = RunDirectory.read(rd.path());
        }
        assertTrue(HtmlReport.unfinished(once).orElseThrow().startsWith("Unfinished: 1 cell has none: clients=1, as an interrupted run"),
                HtmlReport.unfinished(once).toString());
        RunResults none;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("none"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 3)))) {
            none = RunDirectory.read(rd.path());
        }
        // a run to resume, not to delete: the command that does is there
        assertTrue(HtmlReport.render(none).contains("No trial finished: the run stopped before its first measurement (java -jar bench.jar bench --resume "
                + none.directory() + " runs it)."), HtmlReport.render(none));
    }

    /** A run still being written said it had stopped and offered a --resume, which was then refused. */
    @Test
    void aRunStillGoingIsSaidToBe() throws Exception {
        Path dir;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("going"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 3)))) {
            rd.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 1000.0).build());
            dir = rd.path();
            assertEquals("Still running: another process is writing to this run (1 trial so far); report it again when the run has ended.",
                    HtmlReport.unfinished(RunDirectory.read(dir)).orElseThrow());
            // asking did not drop the writer's lock: a --resume is still refused
            assertThrows(dev.kensho.core.KenshoException.class, () -> RunDirectory.resume(dir));
        }
        assertTrue(HtmlReport.unfinished(RunDirectory.read(dir)).orElseThrow().startsWith("Unfinished: 1 of 1 cell has fewer trials"));
    }

    /**
     * A resume must repeat the run's options (any other command line is refused), so the report gives the whole line
     * from run.json, not "--resume DIR" alone, which a user copied into "Missing required option: '--clients=N'".
     */
    @Test
    void anUnfinishedRunGivesItsOwnCommandLineToResume() throws Exception {
        RunResults cut;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("cut line"), RunInfo.of("pgbench sweep", List.of("pgbench", "sweep",
                "--url", "jdbc:postgresql://127.0.0.1:5432/db?user=bob&password=s3cret", "--clients", "1,4", "--repeat", "3"),
                Map.of("repeat", 3)))) {
            rd.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 1000.0).build());
            cut = RunDirectory.read(rd.path());
        }
        String said = HtmlReport.unfinished(cut).orElseThrow();
        assertTrue(said.contains("(java -jar bench.jar pgbench sweep --url 'jdbc:postgresql://127.0.0.1:5432/db?user=bob&password=****' "
                + "--clients 1,4 --repeat 3 --resume '" + cut.directory() + "', the masked password given again, runs the rest)"), said);
        assertFalse(said.contains("s3cret"), said);
    }

    /** A note repeated in a row (a restart before each cold cell) is listed once with its count, others as they were. */
    @Test
    void notesRepeatedInARowAreListedOnce() throws Exception {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("notes"), RunInfo.of("scan", List.of("bench"), Map.of()))) {
            rd.note("the server's OS cache is dropped before each cold cell");
            for (int i = 0; i < 400; i++) rd.note("embedded at 127.0.0.1:5555: restarted");
            rd.note("the server's OS cache is dropped before each cold cell");
            rd.append(Trial.of("cell", 0).param("x", 1).metric("ms", 1.0).build());
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        String notes = html.substring(html.indexOf("<h2 id=\"notes\">"));
        assertEquals(3, notes.split("<li>", -1).length - 1, notes);
        assertTrue(notes.contains("<li>embedded at 127.0.0.1:5555: restarted (400 times in a row)</li>"), notes);
        assertEquals(2, notes.split("OS cache is dropped", -1).length - 1, notes);
    }

    /** An option the run was not given is recorded as null: shown as not set, where the report printed "null". */
    @Test
    void unsetParametersReadAsNotSet() throws Exception {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        params.put("rate", null);
        params.put("repeat", 1);
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("n"), RunInfo.of("pgbench sweep", List.of("bench"), params))) {
            rd.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 1000.0).build());
            String html = HtmlReport.render(RunDirectory.read(rd.path()));
            assertTrue(html.contains("<tr><th>rate</th><td><i>not set</i></td></tr>"), html);
        }
    }

    /**
     * The parameters table read run.json's raw values: "warmup 20000" (transactions), "duration_s 2", a script as
     * "-btpcb-like". It names the units and the script as typed; run.json keeps what compare and --resume read.
     */
    @Test
    void parametersReadWithTheirUnits() throws Exception {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        params.put("duration_s", 2);
        params.put("scripts", List.of("-btpcb-like", "-fread.sql@2"));
        params.put("rate", 500.0);
        params.put("wait_sample_ms", 100);
        params.put("warmup", 20000);
        params.put("scale", 1);
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("units"), RunInfo.of("pgbench sweep", List.of("bench"), params))) {
            rd.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 1000.0).build());
            RunResults run = RunDirectory.read(rd.path());
            String html = HtmlReport.render(run);
            assertTrue(html.contains("<tr><th>duration_s</th><td>2 s</td></tr>"), html);
            assertTrue(html.contains("<tr><th>scripts</th><td>-b tpcb-like, -f read.sql@2</td></tr>"), html);
            assertTrue(html.contains("<tr><th>rate</th><td>500 transactions/s</td></tr>"), html);
            assertTrue(html.contains("<tr><th>wait_sample_ms</th><td>100 ms</td></tr>"), html);
            assertTrue(html.contains("<tr><th>warmup</th><td>20000 transactions</td></tr>"), html);
            assertTrue(html.contains("<tr><th>scale</th><td>1</td></tr>"), html);
            assertEquals(20000, ((Number) run.info().parameters().get("warmup")).intValue());
            assertEquals(List.of("-btpcb-like", "-fread.sql@2"), run.info().parameters().get("scripts"));
        }
        // query's warm-up is runs of each cell; micro's JMH options are a table of their own
        Map<String, Object> query = Map.of("warmup", 1);
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("query"), RunInfo.of("query", List.of("bench"), query))) {
            rd.append(Trial.of("q=1", 0).param("query", "q").metric("ms", 1.0).build());
            assertTrue(HtmlReport.render(RunDirectory.read(rd.path())).contains("<tr><th>warmup</th><td>1 run</td></tr>"));
        }
        Map<String, Object> micro = Map.of("jmh", Map.of("iteration_ms", 1000));
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("micro"), RunInfo.of("micro", List.of("bench"), micro))) {
            rd.append(Trial.of("b=1", 0).param("benchmark", "b").metric("ms", 1.0).build());
            assertTrue(HtmlReport.render(RunDirectory.read(rd.path())).contains("<tr><th>iteration_ms</th><td>1000 ms</td></tr>"));
        }
    }

    /**
     * bench scan records its layouts and storage probe as numbers: the report showed 4.8399752E-4, 902.4770078121794,
     * a tableBytes of 4096000 beside a bytes of 256.0 MiB, and an empty list as a blank cell.
     */
    @Test
    void recordedNumbersReadAsNumbers() throws Exception {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        params.put("from", 1.0);
        params.put("shared_buffers", List.of());
        params.put("seed", 2004104149160L);
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("numbers"), RunInfo.of("scan", List.of("bench"), params))) {
            rd.environment("layouts", List.of(Map.of("layout", "LOW", "correlation", 4.8399752E-4, "tableBytes", 4096000,
                    "loadSeconds", 0.586335571)));
            rd.environment("storage", Map.of("mb_per_s", 902.4770078121794, "bytes", 268435456));
            rd.append(Trial.of("s=1", 0).param("selectivity_pct", 1).metric("time_ms", 1.0).build());
            String html = HtmlReport.render(RunDirectory.read(rd.path()));
            assertTrue(html.contains("<tr><th>from</th><td>1 %</td></tr>"), html);   // scan's selectivity
            assertTrue(html.contains("<tr><th>shared_buffers</th><td><i>none</i></td></tr>"), html);
            assertTrue(html.contains("<tr><th>seed</th><td>2004104149160</td></tr>"), html);
            assertTrue(html.contains("<td>0.000483998</td>"), html);
            assertTrue(html.contains("<td>3.9 MiB</td>"), html);
            assertTrue(html.contains("<td>0.586336</td>"), html);
            assertTrue(html.contains("<td>902.477</td>"), html);
            assertTrue(html.contains("<td>256.0 MiB</td>"), html);
            assertFalse(html.contains("E-4"), html);
        }
    }

    /**
     * A sweep's driver CPU median of 13 (repeats 7 and 19) read "13 [7–19]" in the column under "18.450 [10.300–26.600]";
     * in a column of fractions a whole value keeps its decimals, and a column of whole numbers stays whole.
     */
    @Test
    void aColumnOfFractionsGivesItsWholeValuesTheirDecimals() throws Exception {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("cols"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
            double[][] driver = {{7, 19}, {10.3, 26.6}, {1584, 1584}};
            int[] clients = {1, 2, 4};
            for (int i = 0; i < 3; i++) {
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("clients=" + clients[i], r).param("clients", clients[i]).metric("tps", 1000.0 * (i + 1) + r * 100)
                            .metric("driver_cpu_pct", driver[i][r]).build());
                }
            }
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        String summary = html.substring(html.indexOf("<h2 id=\"summary\">"));
        assertTrue(summary.contains("13.000 <span class=\"range\">[7.000–19.000]</span>"), summary);
        assertTrue(summary.contains("18.450 <span class=\"range\">[10.300–26.600]</span>"), summary);
        assertTrue(summary.contains("1584.0 <span class=\"range\">[1584.0–1584.0]</span>"), summary);
        assertTrue(summary.contains("1050 <span class=\"range\">[1000–1100]</span>"), "tps is whole in every cell: " + summary);
    }

    /**
     * A sweep whose 4 clients failed every repeat drew TPS vs clients ending at 2 clients with nothing under it, as if
     * the sweep had stopped there; each chart now names the cell it has no point for.
     */
    @Test
    void aChartSaysWhichCellsHaveNoPoint() throws Exception {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("failed"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of("repeat", 2)))) {
            for (String v : List.of("16", "17")) {
                for (int c : List.of(1, 2, 4)) {
                    for (int r = 0; r < 2; r++) {
                        Trial.Builder t = Trial.of("version=" + v + ";clients=" + c, r).param("version", v).param("clients", c);
                        if (c == 4 && v.equals("17")) t.failed("too many connections");
                        else t.metric("tps", 1000.0 * c + r).metric("latency_avg_ms", 1.0 * c + r);
                        rd.append(t.build());
                    }
                }
            }
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        String charts = html.substring(html.indexOf("<h2 id=\"charts\">"), html.indexOf("<h2 id=\"summary\">"));
        assertEquals(2, count(charts, "<figcaption>No point for version=17, clients=4: no repeat finished (failed; the reasons are "
                + "under Skipped and failed)</figcaption>"), charts);
        assertFalse(charts.contains("version=16, clients=4"), charts);
    }

    /** A file where the output's directory should be is named, where the message said only "already exists". */
    @Test
    void writeUnderAFileNamesIt() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        dev.kensho.core.KenshoException e = org.junit.jupiter.api.Assertions.assertThrows(dev.kensho.core.KenshoException.class,
                () -> HtmlReport.writeString(file.resolve("report.html"), "<p>"));
        assertEquals("cannot write " + file.resolve("report.html") + ": " + file + " is not a directory", e.getMessage());
    }

    static int count(String s, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    /**
     * The environment is captured before the first cell. A setting the run varies (a --matrix value, or the
     * settings an SSB cell records) must not read as if one value held throughout; an SSB run's server, filed under
     * its bare version, is headed as PostgreSQL.
     */
    @Test
    void environmentSaysWhichSettingsTheRunVaries() throws Exception {
        Path dir;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("query", List.of("bench", "query"), Map.of()))) {
            rd.environment("18", Map.of("kensho_settings", Map.of("work_mem", "4MB", "shared_buffers", "1GB"),
                    "server", Map.of("non_default_settings", Map.of("max_parallel_workers", "8 (configuration file)"))));
            int r = 0;
            for (String wm : List.of("4MB", "64MB")) {
                for (String mpw : List.of("8", "16")) {
                    rd.append(Trial.of("work_mem=" + wm + ";p=" + mpw, 0).param("query", "q1").param("work_mem", wm)
                            .metric("ms", ++r).extra("settings", Map.of("max_parallel_workers", mpw)).build());
                }
            }
            dir = rd.path();
        }
        String html = Files.readString(HtmlReport.write(RunDirectory.read(dir), tmp.resolve("env.html")));
        String env = html.substring(html.indexOf("<h2 id=\"environment\">"), html.indexOf("<h2", html.indexOf("<h2 id=\"environment\">") + 5));
        assertTrue(env.contains("<h3>PostgreSQL 18</h3>"), env);
        assertTrue(env.contains("4MB when the environment was read; the run varies it: 4MB, 64MB"), env);
        assertTrue(env.contains("8 (configuration file) when the environment was read; the run varies it: 8, 16"), env);
        assertTrue(env.contains("<td>1GB</td>"), "a setting the run keeps is shown as it is: " + env);
    }

    @Test
    void pgbenchSweepReport() throws Exception {
        RunResults run = SampleRuns.pgbenchSweep(tmp);
        Path out = HtmlReport.write(run, tmp.resolve("report.html"));
        String html = Files.readString(out);
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertSelfContained(html);
        // two charts (tps and latency vs clients), each an inline SVG with both versions in the legend
        assertEquals(2, count(html, "<svg"), "one SVG per default chart");
        String[] svgs = html.split("<svg");
        for (int i = 1; i < svgs.length; i++) {
            String svg = svgs[i].substring(0, svgs[i].indexOf("</svg>"));
            assertTrue(svg.contains(">version=16<"), "legend names version 16");
            assertTrue(svg.contains(">version=17<"), "legend names version 17");
            assertFalse(svg.contains("threads="), "threads follows clients: no series of its own");
        }
        assertTrue(html.contains("TPS vs clients (tps)"));
        assertTrue(html.contains("Latency vs clients (latency_avg_ms)"));
        // medians with min–max per cell: version 16, 4 clients: 4000 [3900–4100]; version 17, 16 clients: 7600 [7500–7700]
        assertTrue(html.contains("4000 <span class=\"range\">[3900–4100]</span>"), "median and range of 16/c4");
        assertTrue(html.contains("7600 <span class=\"range\">[7500–7700]</span>"), "median and range of 17/c16");
        assertTrue(html.contains("1050 <span class=\"range\">[1040–1060]</span>"), "median and range of 17/c1");
        // the skipped cell and its reason, the note, the command line and environment
        assertTrue(html.contains("max_connections is 50, below 64 clients"));
        assertTrue(html.contains("restarted pg17 for max_connections"));
        assertTrue(html.contains("bench pgbench sweep --pg-version 16,17 --clients 1,4,16,64 --repeat 3"));
        assertTrue(html.contains("17.10") && html.contains("16.10"), "server versions");
        assertTrue(html.contains("shared_buffers"), "non-default settings");
        assertTrue(html.contains("bench-host-1"), "client host");
        assertTrue(html.contains("23.3 GiB"), "memory in readable units");
        assertTrue(html.contains("<code>script=select-only</code>"), "constant parameters listed once");
        // the versions in the run compared as bench compare does: 17/16 at 16 clients = 7600/8000
        assertTrue(html.contains("<h2 id=\"versions\">version compared</h2>"));
        assertTrue(html.contains("<td>clients=16</td><td>17</td><td class=\"num\">8000</td><td class=\"num\">7600</td>"
                + "<td class=\"num\"><span class=\"sig\">0.950</span></td>"), "ratio row, significant by Welch");
    }

    @Test
    void scanReportMarksCrossovers() throws Exception {
        RunResults run = SampleRuns.scan(tmp);
        List<ChartSpec> specs = Charts.defaults(run);
        assertEquals(1, specs.size());
        assertEquals("selectivity_pct", specs.get(0).x());
        assertEquals("time_ms", specs.get(0).metric());
        assertEquals(List.of("layout", "scan"), specs.get(0).series());
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        assertTrue(html.contains("layout=high: crossover at 52.63 %"), "high-clustering crossover, interpolated");
        assertTrue(html.contains("layout=low: crossover at 10.1 %"), "low-clustering crossover, interpolated");
        assertFalse(html.contains("Study checks"), "none recorded");
        String svg = html.substring(html.indexOf("<svg"), html.indexOf("</svg>"));
        for (String series : List.of("layout=high, scan=index", "layout=high, scan=full", "layout=low, scan=index", "layout=low, scan=full")) {
            assertTrue(svg.contains(">" + series + "<"), "legend: " + series);
        }
        assertTrue(svg.contains("layout=high: 52.63 %"), "crossover marker label in the chart");
        var plot = (org.jfree.chart.plot.XYPlot) Charts.draw(run, specs.get(0)).get(0).chart().getPlot();
        assertEquals("time (ms)", plot.getRangeAxis().getLabel(), "2 to 100 ms: linear");
    }

    /**
     * The console's crossover caveats and the study's checks, recorded in run.json, are in the report; one outlier
     * among values 570 times smaller puts the y axis on a log scale.
     */
    @Test
    void scanReportCarriesCaveatsChecksAndALogAxisForAnOutlier() {
        RunResults run = SampleRuns.scanNoisy(tmp);
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        assertTrue(html.contains("<figcaption>Crossover: where the index scan becomes slower than the full scan (selectivity_pct)<br>"
                + "layout=high: crossover 2.7 % (curves cross 5 times; fitted lines do not meet inside the sweep)<br>"
                + "layout=low: crossover 6.0 %</figcaption>"), html);
        String checks = html.substring(html.indexOf("<h3>Study checks</h3>"));
        assertTrue(checks.startsWith("<h3>Study checks</h3>\n<p>1 of 2 as the study expects.</p>"), checks);
        assertTrue(checks.contains("<td>as expected</td><td>index scan faster at the lowest selectivity (high, warm, shared_buffers 128MB)"
                + "</td><td>crossover 2.7 %</td>"), checks);
        assertTrue(checks.contains("<tr class=\"bad\"><td>NOT as expected</td><td>crossover at a larger selectivity for high clustering than "
                + "for low (warm, shared_buffers 128MB)</td><td>high 2.7 %, low 6.0 %</td>"), checks);
        assertTrue(html.indexOf("<h3>Study checks</h3>") < html.indexOf("id=\"summary\""), "with the charts");
        assertFalse(html.contains("<th>crossovers</th>") || html.contains("<th>checks</th>"), "findings are not parameters");
        var plot = (org.jfree.chart.plot.XYPlot) Charts.draw(run, Charts.defaults(run).get(0)).get(0).chart().getPlot();
        assertTrue(plot.getRangeAxis() instanceof org.jfree.chart.axis.LogAxis, "0.01 to 5.7 ms");
        assertEquals("time (ms), log scale", plot.getRangeAxis().getLabel());

        // a run from before findings were recorded: the report's own interpolation, with the same kind of caveat
        Map<String, Object> asked = new java.util.LinkedHashMap<>(run.info().parameters());
        asked.keySet().removeAll(List.of("crossovers", "checks"));
        var info = run.info();
        RunResults older = new RunResults(run.directory(), new RunInfo(info.command(), info.commandLine(),
                info.started(), asked, info.environment(), info.notes()), run.trials());
        String own = HtmlReport.render(older);
        assertTrue(own.contains("layout=high: crossover at 2.67 % (curves cross 5 times)<br>layout=low: crossover at 6 %</figcaption>"), own);
    }

    @Test
    void ssbJitReportHasReductionRates() {
        RunResults run = SampleRuns.ssbJit(tmp);
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        assertEquals(2, count(html, "<svg"), "time per query and reduction charts");
        // reduction 100·(off − on)/off: Q1.1 (10 → 8) 20.0 %, Q2.1 (20 → 15) 25.0 %, Q10.1 0.0 %
        assertTrue(html.matches("(?s).*<td>Q1\\.1</td><td class=\"num\">10</td><td class=\"num\">8</td><td class=\"num\">20\\.0</td>.*"));
        assertTrue(html.contains("<td>Q2.1</td><td class=\"num\">20</td><td class=\"num\">15</td><td class=\"num\">25.0</td>"));
        assertTrue(html.contains("<td>Q10.1</td><td class=\"num\">40</td><td class=\"num\">40</td><td class=\"num\">0.0</td>"));
        // on the total: (70 − 63)/70; the mean of 20, 25 and 0 % (15.0) weighed Q1.1's 2 s like Q10.1's 40 s
        assertTrue(html.contains("overall reduction on total time 10.0 %"), "figure caption");
        assertTrue(html.contains("<p>Overall reduction on total time 100·(Σoff − Σon)/Σoff: <b>10.0 %</b></p>"), "under the table");
        assertFalse(html.contains("15.0 %"), "no arithmetic mean of the percentages");
        assertFalse(html.contains("<td class=\"num\">60.0</td>"), "Q3.1 compiled nothing: no reduction rate for it");
        // queries in natural order: Q1.1, Q2.1, Q10.1
        assertTrue(html.indexOf("<td>Q2.1</td>") < html.indexOf("<td>Q10.1</td>"));
    }

    /**
     * JIT compiled nothing in verification 1: its jit=on rows say why, its reduction chart is one line instead of empty
     * axes; verification 2 keeps its chart. Queries in the study's order, not alphabetical.
     */
    @Test
    void ssbJitNotTriggeredIsSaidOnTheRowsAndInsteadOfAnEmptyChart() {
        RunResults run = SampleRuns.ssbJitPartlyTriggered(tmp);
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        assertEquals(3, count(html, "<svg"), "time off/on per verification, reduction for verification 2 only");
        assertTrue(html.contains("<p><b>JIT reduction rate 100·(off − on)/off per query — verification=1</b>: no reduction rate: "
                + "JIT never ran (jit=on compiled no function in any query: plan cost below jit_above_cost); lower --jit-above-cost</p>"), html);
        assertFalse(html.contains("reduction rate 100·(off − on)/off per query — verification=2</b>"), "verification 2 has its chart");
        String summary = html.substring(html.indexOf("id=\"summary\""), html.indexOf("<details class=\"wide\"><summary>All"));
        assertEquals(4, count(summary, "<td>" + SampleRuns.NOT_TRIGGERED + "</td>"), "every jit=on row of verification 1");
        assertTrue(summary.contains("<td>1</td><td>multiply</td><td>on</td>"));
        assertTrue(summary.contains("<tr><td>2</td><td>integer</td><td>on</td><td class=\"num\">2</td><td>ok</td><td class=\"num\">9.000 "
                + "<span class=\"range\">[9.000–9.000]</span></td><td></td></tr>"), "compiled: no note");
        String reduction = html.substring(html.indexOf("per query — verification=2"));
        ChartSpec rates = Charts.defaults(run).stream().filter(c -> c.kind() == ChartSpec.Kind.REDUCTION).findFirst().orElseThrow();
        List<Figure> figures = Charts.draw(run, rates);
        assertEquals(List.of(false, true), figures.stream().map(Figure::drawn).toList());
        assertEquals("reduction % (positive = faster with JIT)",
                ((org.jfree.chart.plot.CategoryPlot) figures.get(1).chart().getPlot()).getRangeAxis().getLabel(), "which sign is which");
        // the study's order (000 ch.6): 乗算, 減算, sum, avg; integer, numeric, real, double precision
        assertInOrder(summary, "<td>multiply</td>", "<td>subtract</td>", "<td>sum</td>", "<td>avg</td>");
        assertInOrder(summary, "<td>integer</td>", "<td>numeric</td>", "<td>real</td>", "<td>double precision</td>");
        String timeV1 = html.substring(html.indexOf("<svg"));
        assertInOrder(timeV1, ">multiply<", ">subtract<", ">sum<", ">avg<");
        assertInOrder(reduction, ">integer<", ">numeric<", ">real<", ">double precision<");
    }

    /**
     * Study 000 ch.7: time vs workers per pool, the speed-up against workers=0, and the cells that ran with fewer workers
     * planned than their label says.
     */
    @Test
    void ssbWorkersMatrixShowsSpeedUpsAndCellsPlannedBelowTheirWorkers() {
        RunResults run = SampleRuns.ssbWorkers(tmp);
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        List<Figure> figures = Charts.draw(run, Charts.defaults(run).get(0));
        // the unit is the axis's ("seconds" drawn as milliseconds here, every time under one)
        assertEquals(List.of("Time vs workers — pool=gather", "Time vs workers — pool=gather*4"),
                figures.stream().map(Figure::title).toList());
        assertEquals("milliseconds", figures.get(0).chart().getXYPlot().getRangeAxis().getLabel(), "the axis says the unit");
        String svg = figures.get(1).svg("x");
        assertTrue(svg.contains(">Q2.1<") && svg.contains(">Q3.1<"), "a line per query, named, also where one worker count is left");
        // 0.08 / 0.05 and 0.08 / 0.04; gather*4 has no workers=0 cell, so no row
        assertTrue(html.contains("<h3>Speed-up against workers=0</h3>"));
        // a column per worker count, in the order the rows give them
        assertTrue(html.contains("<thead><tr><th>pool</th><th>query</th><th>seconds at workers=0</th><th>×2</th><th>×4</th></tr></thead>"),
                html);
        assertTrue(html.contains("<tr><td>gather</td><td>Q2.1</td><td class=\"num\">0.08000</td><td class=\"num\">1.60</td>"
                + "<td class=\"num\">2.00</td></tr>"), html);
        assertFalse(html.contains("<tr><td>gather*4</td><td>Q2.1</td><td class=\"num\">"), "no workers=0 to compare with");
        // a plan without workers: the ratio of two serial runs is marked, not read as a speed-up
        assertTrue(html.contains("<tr><td>gather</td><td>Q3.1</td><td class=\"num\">0.06000</td><td class=\"num\">1.60</td>"
                + "<td class=\"num\">2.00 *</td></tr>"), html);
        assertTrue(html.contains("* where the plan had no parallel workers, so the ratio compares two serial runs."), html);
        assertTrue(html.contains("Every cell launched the workers its plan asked for."));
        assertTrue(html.contains("<p>2 cells planned fewer workers than their <code>workers</code> setting requested"), html);
        assertTrue(html.contains("<tr><td>gather</td><td>4</td><td>Q2.1</td><td class=\"num\">2</td></tr>"), "planned 2 at workers=4");
        assertFalse(html.contains("<tr><td>gather</td><td>2</td><td>Q2.1</td><td class=\"num\">2</td></tr>"), "2 of 2 is what was asked");
    }

    /**
     * ssb index-build records the workers each build planned and launched: a build labelled by a
     * max_parallel_maintenance_workers the planner did not grant (a small table) is listed as ssb's queries are.
     */
    @Test
    void indexBuildsPlannedBelowTheirMaintenanceWorkersAreListed() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("ssb index-build", List.of("bench", "ssb", "index-build"), Map.of()))) {
            for (int w : new int[] {0, 2, 4}) {
                rd.append(Trial.of("index-build;workers=" + w + ";columns=1", 0).param("maintenance_workers", w).param("columns", 1)
                        .param("key", "lo_orderkey").metric("seconds", 1.0 / (1 + Math.min(w, 2))).metric("distinct_keys", 150_000L)
                        .metric("workers_planned", (long) Math.min(w, 2)).metric("workers_launched", (long) Math.min(w, 2)).build());
            }
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        assertTrue(html.contains("<p>1 cells planned fewer workers than their <code>maintenance_workers</code> setting requested"), html);
        assertTrue(html.contains("<tr><td>4</td><td class=\"num\">2</td></tr>"), html);
    }

    static void assertInOrder(String s, String... parts) {
        int at = -1;
        for (String p : parts) {
            int i = s.indexOf(p);
            assertTrue(i > at, p + " after the one before it");
            at = i;
        }
    }

    /** TrialMatrix records a body that threw as a failed trial with its cell key only: the report still places it. */
    @Test
    void theCommandLineIsShownAsAShellTakesItBack() {
        assertEquals("query -c 'SELECT count(*) FROM t WHERE x = '\\''a'\\''' --repeat 3",
                String.join(" ", java.util.stream.Stream.of("query", "-c", "SELECT count(*) FROM t WHERE x = 'a'", "--repeat", "3")
                        .map(RunInfo::shellWord).toList()));
        assertEquals("''", RunInfo.shellWord(""));
    }

    @Test
    void ssbLoadIsNotARowOfDashesAmongTheQueries() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("ssb", List.of("bench", "ssb"), Map.of()))) {
            rd.append(Trial.of("load;version=17", 0).param("step", "load").param("version", "17").param("scale", 0.1)
                    .metric("copy_seconds", 1.5).metric("total_seconds", 2.5).build());
            for (int w : new int[] {0, 2}) {
                rd.append(Trial.of("query=Q1.1;workers=" + w, 0).param("query", "Q1.1").param("workers", w)
                        .metric("seconds", 1.0 / (w + 1)).metric("workers_planned", w).metric("workers_launched", w).build());
            }
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        String charted = html.substring(html.indexOf("id=\"summary\""), html.indexOf("<details class=\"wide\"><summary>All"));
        assertFalse(charted.contains("<td><code>load;version=17</code></td>"), charted);
        assertTrue(charted.contains("Measuring none of these metrics, in All metrics below: <code>load;version=17</code>"), charted);
        String all = html.substring(html.indexOf("<details class=\"wide\"><summary>All"));
        assertTrue(all.contains("<tr><td><code>load;version=17</code></td><td class=\"num\">1</td><td>ok</td><td class=\"num\">1.500</td>"), all);
    }

    /**
     * ssb --fetch-size timed through a cursor, without workers: "Every cell launched the workers its plan asked for" was
     * said of those cells unqualified, their planned/launched being the EXPLAIN (ANALYZE)'s.
     */
    @Test
    void cellsTimedWithoutWorkersAreSaidToBe() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("ssb", List.of("bench", "ssb"), Map.of()))) {
            for (int w : new int[] {0, 2}) {
                Trial.Builder b = Trial.of("query=Q2.1;workers=" + w, 0).param("query", "Q2.1").param("workers", w)
                        .metric("seconds", 0.06).metric("workers_planned", w).metric("workers_launched", w);
                if (w > 0) b.extra("timed_without_workers", true);
                rd.append(b.build());
            }
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        assertTrue(html.contains("1 cell was timed without workers (--fetch-size: a cursor&#39;s plan runs without them)"), html);
        assertTrue(html.contains("Every cell launched the workers its plan asked for in its EXPLAIN (ANALYZE)."), html);
    }

    /** 130 trials skipped for one reason were 130 rows; repeats were 0-based where the CLI counts from 1. */
    @Test
    void skippedTrialsAreGroupedByReason() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("ssb", List.of("bench", "ssb"), Map.of()))) {
            rd.append(Trial.of("query=Q1.1;workers=0", 0).param("query", "Q1.1").param("workers", 0).metric("seconds", 1.0).build());
            for (String q : List.of("Q1.1", "Q2.1")) {
                for (int r = 0; r < 2; r++) {
                    rd.append(Trial.of("query=" + q + ";workers=8", r).param("query", q).param("workers", 8)
                            .skipped("max_worker_processes is 4 and Kensho does not restart it").build());
                }
            }
            rd.append(Trial.of("query=Q2.1;workers=0", 2).param("query", "Q2.1").param("workers", 0).failed("canceled").build());
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        String problems = html.substring(html.indexOf("<h2 id=\"problems\">"), html.indexOf("<h2 id=\"notes\">"));
        assertTrue(problems.contains("<p>4 skipped, 1 failed.</p>"), problems);
        assertTrue(problems.contains("<tr><td>skipped</td><td>max_worker_processes is 4 and Kensho does not restart it</td>"
                + "<td class=\"num\">4</td><td><code>query=Q1.1;workers=8</code> repeats 1, 2<br><code>query=Q2.1;workers=8</code> repeats 1, 2</td></tr>"),
                problems);
        assertTrue(problems.contains("<td>failed</td><td>canceled</td><td class=\"num\">1</td><td><code>query=Q2.1;workers=0</code> repeat 3</td>"),
                problems);
        String notes = html.substring(html.indexOf("<h2 id=\"notes\">"));
        assertFalse(notes.contains("skipped settings"), "trials were skipped for a setting: the note said none were");
        assertTrue(notes.contains("<p>Kensho recorded no restarts or server changes.</p>\n<p>5 trials were skipped or failed: "
                + "their reasons are under Skipped and failed above.</p>"), notes);
    }

    /** A pgbench run's header read "1 trials in 1 cells". */
    @Test
    void countsOfOneAreSingular() throws Exception {
        assertTrue(HtmlReport.render(SampleRuns.pgbenchRun(tmp.resolve("three"), 1000)).contains(" · 3 trials in 1 cell (1 with results)</p>"));
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("one"), RunInfo.of("pgbench run", List.of("bench"), Map.of()))) {
            rd.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 1000.0).build());
            assertTrue(HtmlReport.render(RunDirectory.read(rd.path())).contains(" · 1 trial in 1 cell (1 with results)</p>"));
        }
    }

    /** A pgbench run charts nothing: its first summary table held 19 columns, eight of them 0, the latencies off the page. */
    @Test
    void zeroMetricsOnlyInTheFullSummary() {
        String html = HtmlReport.render(SampleRuns.pgbenchRun(tmp, 1000));
        String first = html.substring(html.indexOf("<h2 id=\"summary\">"), html.indexOf("<details class=\"wide\"><summary>All 19 metrics"));
        String header = first.substring(first.indexOf("<thead>"), first.indexOf("</thead>"));
        assertTrue(header.contains("<th>tps median [min–max]</th>") && header.contains("<th>latency_avg_ms median [min–max]</th>"), header);
        assertFalse(header.contains("failed") || header.contains("retries") || header.contains("lag_avg_ms"), header);
        assertTrue(first.contains("0 in every cell, in All metrics below: <code>failed</code> <code>connection_failures</code>"), first);
        String all = html.substring(html.indexOf("<details class=\"wide\"><summary>All 19 metrics"));
        // printed, the folded sections open, but this one is wider than a page: the printout names summary.csv instead
        assertTrue(all.contains("<p class=\"print-only\">All 19 metrics per cell: in summary.csv (a table too wide to print).</p>"), all);
        assertTrue(html.contains("details.wide{display:none}.print-only{display:block}") && html.contains("details::details-content{"), html);
        assertTrue(all.contains("<th>failed median [min–max]</th>"), "kept in the full table");
    }

    @Test
    void printKeepsWideTablesWhole() {
        String html = HtmlReport.render(SampleRuns.pgbenchSweep(tmp));
        String print = html.substring(html.indexOf("@media print{"));
        print = print.substring(0, print.indexOf("\n}\n"));
        assertTrue(print.contains(".scroll,pre{overflow:visible}"), "no clipping on paper");
        assertTrue(print.contains("thead{display:table-header-group}"), "a table broken across pages repeats its header");
        assertTrue(html.contains("max-width:1600px"), "tables may widen past the 1100 px text column");
    }

    @Test
    void failedTrialWithoutParamsIsPlacedByItsKey() throws Exception {
        RunResults run;
        try (dev.kensho.core.result.RunDirectory rd = dev.kensho.core.result.RunDirectory.create(tmp,
                dev.kensho.core.result.RunInfo.of("pgbench sweep", List.of("bench"), java.util.Map.of()))) {
            for (int c : new int[] {1, 2, 4}) {
                rd.append(dev.kensho.core.result.Trial.of("target=pg16;clients=" + c, 0).param("target", "pg16").param("clients", c)
                        .metric("tps", 100.0 * c).build());
            }
            rd.append(dev.kensho.core.result.Trial.of("target=pg16;clients=8", 0).failed("connection refused").build());
            run = dev.kensho.core.result.RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        assertTrue(html.contains("<tr class=\"bad\"><td>8</td>"), "the failed cell is a row of its own, clients=8");
        assertTrue(html.contains("failed: connection refused"));
        assertTrue(html.contains("<code>target=pg16</code>"), "constant target recovered for the failed cell too");
    }

    /** A run interrupted before its first trial, and one where every trial failed, still get a report. */
    @Test
    void emptyAndAllFailedRuns() {
        RunResults empty;
        try (dev.kensho.core.result.RunDirectory rd = dev.kensho.core.result.RunDirectory.create(tmp,
                dev.kensho.core.result.RunInfo.of("pgbench sweep", List.of("bench"), java.util.Map.of()))) {
            empty = dev.kensho.core.result.RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(empty);
        assertSelfContained(html);
        assertTrue(html.contains("0 trials in 0 cells"));
        RunResults failed;
        try (dev.kensho.core.result.RunDirectory rd = dev.kensho.core.result.RunDirectory.create(tmp,
                dev.kensho.core.result.RunInfo.of("pgbench sweep", List.of("bench"), java.util.Map.of()))) {
            for (String v : List.of("16", "17")) {
                rd.append(dev.kensho.core.result.Trial.of("target=" + v + ";clients=1", 0).failed("server " + v + " did not start").build());
            }
            failed = dev.kensho.core.result.RunDirectory.read(rd.path());
        }
        html = HtmlReport.render(failed);
        assertTrue(html.contains("server 17 did not start"));
        assertTrue(html.contains("0 skipped, 2 failed."));
        assertEquals(0, count(html, "<svg"));
    }

    @Test
    void pngRendering() throws Exception {
        RunResults run = SampleRuns.pgbenchSweep(tmp);
        Figure f = Charts.draw(run, Charts.defaults(run).get(0)).get(0);
        Path png = tmp.resolve("tps.png");
        f.png(png);
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertEquals("\u0089PNG", new String(head, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1));
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        assertEquals(Figure.WIDTH, img.getWidth());
    }

    @Test
    void microReportChartsQueriesAndColumnPositionPerTarget() {
        RunResults run = SampleRuns.micro(tmp);
        List<ChartSpec> specs = Charts.defaults(run);
        assertEquals(2, specs.size(), specs.toString());
        assertEquals("query", specs.get(0).x());
        assertEquals(List.of("target"), specs.get(0).series());
        assertEquals("column", specs.get(1).x());
        assertEquals(List.of("target"), specs.get(1).series());
        assertEquals(List.of("benchmark"), specs.get(1).facets());
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        assertEquals(3, count(html, "<svg"), "query bars, and column position for one-column and leading-columns");
        assertTrue(html.contains("benchmark=leading-columns") && html.contains("benchmark=one-column"), "a figure per test");
        String bars = html.substring(html.indexOf("<svg"), html.indexOf("</svg>"));
        assertTrue(bars.contains(">encoding SJIS<") && bars.contains(">join-group-count<"), "queries on the category axis");
        assertTrue(bars.contains(">embedded-16<") && bars.contains(">embedded-17<"), "a bar series per version");
    }

    /** pgbench trials that kept their histograms and timelines: the distribution per version, and each trial per second. */
    /** Trials that shared the machine are said so in the report, as the sweep said them on the console (found in a folded column only). */
    @Test
    void trialsThatSharedTheMachineAreSaidSo() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp.resolve("shared"), RunInfo.of("pgbench sweep", List.of("bench"), Map.of()))) {
            rd.append(Trial.of("clients=1", 0).param("clients", 1).metric("tps", 100.0).metric("other_cpu_pct", 45.0).build());
            rd.append(Trial.of("clients=1", 1).param("clients", 1).metric("tps", 101.0).metric("other_cpu_pct", 3.0).build());
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        assertTrue(html.contains("1 of 2 trials shared the machine: other processes took 45–45 % of the host's CPU"), html);
        assertFalse(HtmlReport.render(SampleRuns.pgbenchSweep(tmp.resolve("quiet"))).contains("shared the machine"));
    }

    @Test
    void latencyDistributionAndTimelines() {
        RunResults run = SampleRuns.pgbenchSweepWithTimelines(tmp);
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        String dist = html.substring(html.indexOf("<h2 id=\"latency\">"), html.indexOf("<h2 id=\"waits\">"));
        assertEquals(2, count(dist, "<svg"), "one distribution chart per version");
        assertTrue(dist.contains("Latency by percentile — version=16") && dist.contains("Latency by percentile — version=17"), dist);
        String svg = dist.substring(dist.indexOf("<svg"), dist.indexOf("</svg>"));
        assertTrue(svg.contains(">clients=1<") && svg.contains(">clients=4<"), "a line per client count");
        assertTrue(svg.contains(">99.9%<"), "the x axis counts nines");
        // both repeats merged: of 2000 transactions, p99 is 1 ms (a median of the repeats' p99s would be 0.6 ms)
        assertTrue(dist.contains("clients=4: p50 0.200 ms, p99 0.999 ms, p99.9 0.999 ms, p99.99 0.999 ms, max 0.999 ms over 2000 transactions (2 repeats merged)"), dist);
        String waits = html.substring(html.indexOf("<h2 id=\"waits\">"), html.indexOf("<h2 id=\"timelines\">"));
        assertEquals(2, count(waits, "<svg"), "one wait-event chart per version");
        // the repeats averaged, the seven busiest named and the rest summed as other
        assertTrue(waits.contains("clients=4: Client:ClientRead 45.0 %, CPU 25.0 %, LWLock:WALWrite 10.0 %, IO:WALSync 6.0 %, "
                + "Lock:transactionid 5.0 %, Lock:tuple 4.0 %, LWLock:BufferContent 3.5 %, other 3.0 %"), waits);
        assertTrue(waits.contains("clients=1: Client:ClientRead 90.0 %, CPU 10.0 %<"), waits);
        // a profile cut short is said under its chart (it was drawn as a whole one, the console's warning nowhere)
        assertTrue(waits.contains("version=17, clients=4, threads=2 repeat 2: the sampler&#39;s connection failed after 12 samples: FATAL: terminating connection"), waits);
        // the names a reader meets most are explained: Kensho's own (CPU, Idle:…) and the client wait
        assertTrue(waits.contains("<i>CPU</i>: running") && waits.contains("<i>Client:ClientRead</i>: between statements")
                && waits.contains("<i>Idle:idle</i>: between statements but not waiting"), waits);
        String bars = waits.substring(waits.indexOf("<svg"), waits.indexOf("</svg>"));
        assertTrue(bars.contains(">other<") && !bars.contains(">Idle:idle<"), "legend: named events and other");
        String over = html.substring(html.indexOf("<h2 id=\"timelines\">"));
        assertEquals(4, count(over.substring(0, over.indexOf("<h2", 5) < 0 ? over.length() : over.indexOf("<h2", 5)), "<svg"),
                "a chart per cell");
        assertTrue(over.contains("TPS per second — version=17, clients=4<"), over);
        assertTrue(over.contains("repeat 1: tps per second 100.0–300.0 (coefficient of variation 50.0 %); highest p99 latency of a second 0.700 ms"), over);
        assertTrue(over.contains("repeat 2: tps per second 200.0–600.0 (coefficient of variation 50.0 %); highest p99 latency of a second 1.400 ms; 1 failed"), over);
        // distinct ids across sections: every SVG's clip paths are its own
        assertEquals(count(html, "<svg"), (int) java.util.regex.Pattern.compile("<svg id='chart(\\d+)'").matcher(html).results()
                .map(m -> m.group(1)).distinct().count());
    }

    /**
     * A sweep whose trials kept the server host second by second: per cell, from its first repeat, the CPU split,
     * softirq per CPU (the CPUs that carried it named, as study 001 found eight of 32) and disk and network traffic.
     */
    @Test
    void serverHostOverTime() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("bench", "pgbench", "sweep"), Map.of()))) {
            for (int c : new int[] {1, 4}) {
                for (int r = 0; r < 2; r++) {
                    Timeline.Builder b = new Timeline.Builder();
                    for (int t = 1; t <= 3; t++) {
                        b.interval(t).put("cpu.usr", 60).put("cpu.sys", 20).put("cpu.soft", 2.5).put("cpu.idle", 17.5);
                        for (int cpu = 0; cpu < 4; cpu++) {
                            // repeat 2 has its softirq on cpu0: the charts show repeat 1's
                            double soft = cpu == (r == 0 ? 3 : 0) ? 10 : 0;
                            b.put("cpu" + cpu + ".usr", 60).put("cpu" + cpu + ".sys", 20).put("cpu" + cpu + ".soft", soft)
                                    .put("cpu" + cpu + ".idle", 20 - soft);
                        }
                        b.put("disk.vda.read_kB_s", 0).put("disk.vda.write_kB_s", 1000 * t).put("disk.vda.iops", 50).put("disk.vda.util_pct", 30)
                                .put("net.eth0.rx_kB_s", 100).put("net.eth0.tx_kB_s", 900).put("net.eth0.rx_packets_s", 2000)
                                .put("net.eth0.tx_packets_s", 1500).put("mem.used_MB", 1000 + 100 * t);
                    }
                    Trial.Builder t = Trial.of("clients=" + c, r).param("clients", c).metric("tps", 100.0 * c);
                    // the 1-client cell was recorded without its host (a remote server whose files could not be read)
                    if (c == 4) t.extra(Timeline.HOST, b.build().columns()).extra("host", Map.of("source", "this host"));
                    rd.append(t.build());
                }
            }
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        assertSelfContained(html);
        String host = html.substring(html.indexOf("<h2 id=\"host\">"));
        host = host.substring(0, host.indexOf("<h2", 5));
        assertEquals(3, count(host, "<svg"), "CPU split, softirq per CPU, disks and network, for the one cell that kept its host");
        assertTrue(host.contains("Host CPU, all CPUs, % of time — clients=4 (repeat 1)"), host);
        assertTrue(host.contains("read from this host; busy 82.5 % on average (100 − idle); memory in use 1200 MB on average"), host);
        assertTrue(host.contains("softirq 2.50 % on average per CPU; more than twice that on 1 of 4 CPUs: cpu3 10.0 %"), host);
        assertTrue(host.contains("means over the run: vda busy 30.0 % of the time; eth0 2000 packets/s received, 1500 sent"), host);
        int title = host.indexOf("Host disks and network");
        String io = host.substring(host.lastIndexOf("<svg", title), host.indexOf("</svg>", title));
        assertTrue(io.contains(">disk vda write<") && io.contains(">net eth0 tx<"), "a line per device and direction");
        assertFalse(html.contains("clients=1 (repeat"), "no host charts for a cell without them");
    }

    /**
     * A sweep's cells each keep their host: 18 cells drew 54 charts in one fold, to be scrolled through for the one
     * cell wanted. The means stand in a table, a row per cell, and each cell's charts fold out on their own.
     */
    @Test
    void hostOfManyCellsIsATableWithEachCellsChartsFolded() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("bench", "pgbench", "sweep"), Map.of()))) {
            for (int c : new int[] {1, 4, 16}) {
                Timeline.Builder b = new Timeline.Builder();
                for (int t = 1; t <= 3; t++) {
                    b.interval(t).put("cpu.usr", 5 * c).put("cpu.idle", 100 - 5 * c);
                    for (int cpu = 0; cpu < 2; cpu++) b.put("cpu" + cpu + ".usr", 5 * c).put("cpu" + cpu + ".idle", 100 - 5 * c);
                    // only 16 clients keep a disk busy; nothing else had softirq or traffic
                    if (c == 16) b.put("disk.vda.write_kB_s", 1000).put("disk.vda.util_pct", 40);
                }
                rd.append(Trial.of("clients=" + c, 0).param("clients", c).metric("tps", 100.0 * c)
                        .extra(Timeline.HOST, b.build().columns()).build());
            }
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        String host = html.substring(html.indexOf("<h2 id=\"host\">"));
        host = host.substring(0, host.indexOf("<h2", 5));
        String table = host.substring(host.indexOf("<table>"), host.indexOf("</table>"));
        // columns for what some cell has: busy, and disks from the 16 clients' cell; no memory, softirq or network
        assertTrue(table.contains("<th>cell</th><th>busy %</th><th>disks busy %</th></tr>"), table);
        assertTrue(table.contains("<td>clients=1 (repeat 1)</td><td class=\"num\">5.0</td><td>–</td>"), table);
        assertTrue(table.contains("<td>clients=16 (repeat 1)</td><td class=\"num\">80.0</td><td>vda 40.0</td>"), table);
        assertEquals(0, count(table, "<svg"));
        assertEquals(3, count(host, "<details>"), "a fold per cell");
        assertTrue(host.contains("<details><summary>clients=4 (repeat 1): 1 chart</summary>"), host);
        String sixteen = host.substring(host.indexOf("<summary>clients=16 (repeat 1)"));
        assertEquals(2, count(sixteen.substring(0, sixteen.indexOf("</details>")), "<svg"), "CPU split, disks and network");
        assertEquals(4, count(host, "<svg"));
    }

    /**
     * Study 001's host: 32 CPUs, softirq on eight of them (cpu0–cpu7 here), 300 seconds. A line per CPU drew 32 lines
     * in eight colours (cpu0 and cpu8 alike); the chart names the eight busiest and draws the others' mean in grey.
     * Its coordinates are hundredths of a pixel, where JFreeSVG wrote 17 digits each.
     */
    @Test
    void softirqOfAThirtyTwoCpuHostNamesTheBusiestAndAveragesTheRest() {
        RunResults run;
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("bench", "pgbench", "sweep"), Map.of()))) {
            Timeline.Builder b = new Timeline.Builder();
            for (int t = 1; t <= 300; t++) {
                b.interval(t).put("cpu.usr", 60).put("cpu.soft", 3.25).put("cpu.idle", 36.75);
                for (int cpu = 0; cpu < 32; cpu++) {
                    // eight CPUs carry the interrupts (12 %, and cpu7 the least of them at 5 %); the others 1 % on odd
                    // seconds, 0 on even ones: their mean is 1 % then 0
                    double soft = cpu < 7 ? 12 : cpu == 7 ? 5 : t % 2 == 1 ? 1 : 0;
                    // cpu9 never had one: a state that stayed 0 is left out of the timeline
                    if (cpu != 9) b.put("cpu" + cpu + ".soft", soft);
                    b.put("cpu" + cpu + ".usr", 60).put("cpu" + cpu + ".idle", 40 - soft);
                }
            }
            rd.append(Trial.of("clients=1024", 0).param("clients", 1024).metric("tps", 1000)
                    .extra(Timeline.HOST, b.build().columns()).build());
            run = RunDirectory.read(rd.path());
        }
        String html = HtmlReport.render(run);
        int title = html.indexOf("softirq per CPU, % of time");
        String svg = html.substring(html.lastIndexOf("<svg", title), html.indexOf("</svg>", title));
        // cpu1 … cpu6 at cpu0's 12 % every second are drawn over its line: named so
        for (int cpu = 0; cpu < 8; cpu++) {
            String named = cpu == 0 || cpu == 7 ? ">cpu" + cpu + "<" : ">cpu" + cpu + " (same as cpu0)<";
            assertTrue(svg.contains(named), named);
        }
        assertFalse(svg.contains(">cpu8<") || svg.contains(">cpu31<"), "the quiet CPUs are not lines of their own");
        assertTrue(svg.contains(">mean of the other 24 CPUs<"), svg);
        assertTrue(svg.contains("rgb(187,187,187)") || svg.contains("#bbbbbb"), "the rest in grey");
        // a line of 300 seconds is a path of 299 segments
        assertEquals(9, Pattern.compile("d='M[^']*'").matcher(svg).results().filter(m -> count(m.group(), "L") == 299).count(),
                "8 CPUs and the mean, a line each");
        // the mean line runs between 0 and the 1 % of the odd seconds: 24 CPUs at 1 % or 0 (cpu9's missing column as 0)
        assertTrue(html.contains("softirq 3.14 % on average per CPU; more than twice that on 7 of 32 CPUs"), html);
        Matcher digits = Pattern.compile("\\d\\.\\d{3,}").matcher(svg.replaceAll("(?s)<text.*?</text>", ""));
        assertFalse(digits.find(), () -> "a coordinate finer than 0.01 px: " + digits.group());
    }

    /** A single pgbench run: no "vs clients" line through one point; its distribution and timeline are its charts. */
    @Test
    void singleRunGetsItsDistributionAndTimelineOnly() {
        try (RunDirectory rd = RunDirectory.create(tmp, RunInfo.of("pgbench run", List.of("bench", "pgbench", "run"), Map.of()))) {
            org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(1, 3_600_000_000L, 3);
            h.recordValueWithCount(150, 100);
            rd.append(Trial.of("clients=4", 0).param("clients", 4).metric("tps", 100).metric("latency_avg_ms", 0.15)
                    .extra(Timeline.KEY, new Timeline.Builder().interval(1).put("tps", 100).build().columns())
                    .extra(LatencyDistribution.KEY, LatencyDistribution.encode(h)).build());
            String html = HtmlReport.render(RunDirectory.read(rd.path()));
            assertFalse(html.contains("id=\"charts\""), "no charts section");
            assertEquals(2, count(html, "<svg"), "latency by percentile and TPS per second");
            assertTrue(html.contains("<figcaption>p50 0.150 ms, p99 0.150 ms"), html);
        }
    }

    /** Runs recorded before timelines (and commands without them) get neither section. */
    @Test
    void noTimelineSectionsWithoutThem() {
        String html = HtmlReport.render(SampleRuns.pgbenchSweep(tmp));
        assertFalse(html.contains("id=\"latency\"") || html.contains("id=\"timelines\"") || html.contains("id=\"waits\""));
    }
}
