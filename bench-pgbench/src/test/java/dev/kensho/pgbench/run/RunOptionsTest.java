package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** pgbench's --progress-timestamp, --verbose-errors and --exit-on-abort on a real server. */
@KenshoTarget
class RunOptionsTest {

    static PrintStream sink(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }

    @Test
    void progressTimestampShowsEpochSecondsWithMilliseconds(Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("one.sql"), "select 1;\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        double before = System.currentTimeMillis() / 1000.0;
        new PgbenchRun().file(script.toString()).clients(1).seconds(3).progress(1).progressTimestamp(true).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        double after = System.currentTimeMillis() / 1000.0;
        String progress = err.toString(StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?m)^progress: (\\d{10}\\.\\d{3}) s, \\d+\\.\\d tps, lat \\d+\\.\\d{3} ms stddev \\d+\\.\\d{3}, 0 failed$")
                .matcher(progress);
        int lines = 0;
        double last = 0;
        while (m.find()) {
            double t = Double.parseDouble(m.group(1));
            // printed rounded to the millisecond, so the last line may read up to 0.5 ms past `after`
            assertTrue(t >= before - 0.001 && t <= after + 0.001, t + " not within the run [" + before + ", " + after + "]");
            assertTrue(t > last + 0.5, "one line per second: " + progress);
            last = t;
            lines++;
        }
        assertTrue(lines >= 2, progress);
    }

    /** Two clients updating one row under repeatable read: every failed try is printed, the retried ones too. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void verboseErrorsPrintEveryFailedTry(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_verbose_probe");
            s.execute("create table kensho_verbose_probe(id int primary key, v int)");
            s.execute("insert into kensho_verbose_probe values (1, 0)");
        }
        Path script = Files.writeString(tmp.resolve("ser.sql"), "begin isolation level repeatable read;\n"
                + "select v from kensho_verbose_probe where id = 1;\nselect pg_sleep(0.005);\n"
                + "update kensho_verbose_probe set v = v + 1 where id = 1;\nend;\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(engine).file(script.toString()).clients(3).threads(1).transactions(10).maxTries(2).verboseErrors(true)
                .noVacuum(true).warmup(0).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        long got = lines.stream().filter(l -> l.matches("client [0-2] got an error in command 3 \\(SQL\\) of script 0; "
                + "ERROR:  could not serialize access due to concurrent update.*")).count();
        long repeats = lines.stream().filter(l -> l.matches("client [0-2] repeats the transaction after the error \\(try 1/2\\)")).count();
        long ends = lines.stream().filter(l -> l.matches("client [0-2] ends the failed transaction \\(try 2/2\\)")).count();
        assertTrue(r.retries() > 0, String.join("\n", r.lines()));
        assertEquals(r.retries(), repeats, String.join("\n", lines));
        assertEquals(r.failed(), ends, String.join("\n", lines));
        assertEquals(repeats + ends, got, String.join("\n", lines));

        ByteArrayOutputStream quiet = new ByteArrayOutputStream();
        RunReport q = new PgbenchRun().engine(engine).file(script.toString()).clients(3).threads(1).transactions(10).maxTries(2)
                .noVacuum(true).warmup(0).output(sink(new ByteArrayOutputStream()), sink(quiet)).run(pg);
        assertTrue(q.retries() > 0, String.join("\n", q.lines()));
        assertFalse(quiet.toString(StandardCharsets.UTF_8).contains("got an error"), quiet.toString(StandardCharsets.UTF_8));
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table kensho_verbose_probe");
        }
    }

    /**
     * Client 0 fails at once while client 1 sits in a 20 s query: with --exit-on-abort the run stops within seconds and
     * fails; without it client 1 finishes its transactions and the report says the run was aborted.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void exitOnAbortStopsAllClientsAtOnce(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("abort.sql"), "\\if :client_id = 0\n\\sleep 300 ms\nselect 1/0;\n"
                + "\\else\nselect pg_sleep(20);\n\\endif\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        KenshoException e = assertThrows(KenshoException.class, () -> new PgbenchRun().engine(engine).file(script.toString()).clients(2).threads(2)
                .seconds(60).exitOnAbort(true).noVacuum(true).warmup(0).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(KenshoException.FAILURE, e.exitCode());
        assertEquals("Run was aborted due to an error in client 0 (--exit-on-abort): all clients stopped, no report", e.getMessage());
        // the other client sleeps 20 s: a run that waited for it ends after that; a loaded machine's start-up is far less
        assertTrue(seconds < 15, "the run went on for " + seconds + " s");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("division by zero"), err.toString(StandardCharsets.UTF_8));

        Path shortScript = Files.writeString(tmp.resolve("abort-short.sql"), "\\if :client_id = 0\nselect 1/0;\n"
                + "\\else\nselect pg_sleep(0.05);\n\\endif\n");
        RunReport r = new PgbenchRun().engine(engine).file(shortScript.toString()).clients(2).threads(2).transactions(10).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertTrue(r.aborted());
        assertEquals(10, r.processed(), String.join("\n", r.lines()));
        assertTrue(r.lines().contains("Run was aborted; the above results are incomplete."));
    }

    /**
     * A \sleep that runs past -T's end is slept to its end and the transaction after it finishes, as in pgbench
     * (pgbench -T 1 of "\sleep 1500 ms; select 1": one transaction of 1.5 s per client). It was cut at the end
     * and the shortened transaction counted: tps too high, latency too low for think-time scripts.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSleepPastTheEndOfTheRunIsSleptInFull(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("think.sql"), "\\sleep 1500 ms\nselect 1;\n");
        RunReport r = new PgbenchRun().engine(engine).file(script.toString()).clients(2).threads(2).seconds(1).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertEquals(2, r.processed(), String.join("\n", r.lines()));
        assertTrue(r.latency().p50Ms() >= 1490 && r.latency().avgMs() >= 1500, String.join("\n", r.lines()));
        assertTrue(r.benchSeconds() >= 1.5, String.join("\n", r.lines()));
        assertTrue(r.tps() < 1.4, "two 1.5 s transactions: " + r.tps() + " tps");
    }

    /** The server's notices reach stderr once per command that caused them, as libpq's default notice processor prints them. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void noticesArePrintedAsPgbenchPrintsThem(Engine engine, Target pg, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("notice.sql"), "drop table if exists kensho_no_such_notice_table;\nselect 1;\n");
        for (dev.kensho.pgbench.QueryMode mode : dev.kensho.pgbench.QueryMode.values()) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            new PgbenchRun().engine(engine).mode(mode).file(script.toString()).clients(2).threads(1).transactions(3).noVacuum(true).warmup(0)
                    .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
            List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
            long notices = lines.stream().filter(l -> l.equals("NOTICE:  table \"kensho_no_such_notice_table\" does not exist, skipping")).count();
            assertEquals(6, notices, mode + ": " + String.join("\n", lines));
        }
    }
}
