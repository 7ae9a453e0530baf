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
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pipelines (\startpipeline, \syncpipeline, \endpipeline) on the wire engine, on a real server: the pipeline cases
 * of pgbench 17's 001_pgbench_with_server.pl with the outcomes its TAP test expects, and what they leave implicit
 * (the commands really run, the first error is reported with pgbench's words, a retried pipeline leaves the
 * session clean).
 */
@KenshoTarget
class PipelineTest {

    private static PrintStream sink(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }

    /** Runs one script file on the wire engine; the report, with what went to stderr in {@code err}. */
    private static RunReport run(Target pg, Path tmp, String script, QueryMode mode, int clients, long tx,
                                 ByteArrayOutputStream err) throws Exception {
        Path f = Files.writeString(tmp.resolve("pipeline.sql"), script);
        return new PgbenchRun().engine(Engine.WIRE).file(f.toString()).mode(mode).clients(clients).transactions(tx)
                .noVacuum(true).warmup(0).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // 001_pgbench_with_server.pl: 'working \startpipeline', '... with \syncpipeline', the prepared one
        "ten selects, extended|-- test startpipeline\\n\\startpipeline\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\n\\n\\endpipeline\\n|EXTENDED|1|1",
        "syncpipeline, extended|-- test startpipeline\\n\\startpipeline\\nselect 1;\\n\\syncpipeline\\n\\syncpipeline\\nselect 2;\\n\\syncpipeline\\nselect 3;\\n\\endpipeline\\n|EXTENDED|1|1",
        "empty pipeline then ten selects, prepared|-- test startpipeline\\n\\startpipeline\\n\\endpipeline\\n\\startpipeline\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\n\\endpipeline\\n|PREPARED|1|1",
        "serializable, prepared, 4 clients|-- test startpipeline with serializable\\n\\startpipeline\\nBEGIN ISOLATION LEVEL SERIALIZABLE;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nselect 1;\\nEND;\\n\\endpipeline\\n|PREPARED|4|10",
        // the same statements in two pipelines of one transaction, prepared once per connection
        "two pipelines, prepared, 2 clients|\\set n random(1, 9)\\n\\startpipeline\\nselect :n;\\n\\endpipeline\\nselect 1;\\n\\startpipeline\\nselect :n + 1;\\n\\syncpipeline\\nselect :n + 2;\\n\\endpipeline\\n|PREPARED|2|20",
    })
    void workingPipelinesProcessEveryTransaction(String name, String script, QueryMode mode, int clients, long tx,
                                                 Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = run(pg, tmp, script.replace("\\n", "\n"), mode, clients, tx, err);
        String all = String.join("\n", r.lines()) + "\n" + err.toString(StandardCharsets.UTF_8);
        assertEquals(clients * tx, r.processed(), all);
        assertEquals(0, r.failed(), all);
        assertFalse(r.aborted(), all);
        assertEquals(Engine.WIRE, r.engine(), all);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // 001_pgbench_with_server.pl's error cases (-M extended), with pgbench's whole line (checked against the C pgbench)
        "startpipeline twice|-- startpipeline twice\\n\\startpipeline\\n\\startpipeline\\n|1"
                + "|client 0 aborted in command 1 (startpipeline) of script 0; already in pipeline mode",
        "endpipeline with no start|-- pipeline not started\\n\\endpipeline\\n|1"
                + "|client 0 aborted in command 0 (endpipeline) of script 0; not in pipeline mode",
        "syncpipeline with no start|\\syncpipeline\\n|1"
                + "|client 0 aborted in command 0 (syncpipeline) of script 0; not in pipeline mode",
        "gset in a pipeline|\\startpipeline\\nselect 1 \\gset f\\n\\endpipeline\\n|1"
                + "|client 0 aborted in command 1 (gset) of script 0; \\gset is not allowed in pipeline mode",
        "aset in a pipeline|\\startpipeline\\nselect 1 \\aset\\n\\endpipeline\\n|1"
                + "|client 0 aborted in command 1 (aset) of script 0; \\aset is not allowed in pipeline mode",
        "start without end, one transaction|-- startpipeline only with single transaction\\n\\startpipeline\\n|1"
                + "|client 0 aborted: end of script reached with pipeline open",
        "start without end|-- startpipeline only\\n\\startpipeline\\n|2"
                + "|client 0 aborted: end of script reached with pipeline open",
        "start and sync without end|-- startpipeline with \\syncpipeline only\\n\\startpipeline\\n\\syncpipeline\\n|2"
                + "|client 0 aborted: end of script reached with pipeline open",
        // an SQL error inside: read at \endpipeline (command 4), the first one reported
        "division by zero inside|\\startpipeline\\nselect 1;\\nselect 1/0;\\nselect 2;\\n\\endpipeline\\n|1"
                + "|client 0 script 0 aborted in command 4 query 0: ERROR:  division by zero",
    })
    void brokenPipelinesAbortTheClientWithPgbenchsWords(String name, String script, long tx, String expected,
                                                       Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = run(pg, tmp, script.replace("\\n", "\n"), QueryMode.EXTENDED, 1, tx, err);
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertTrue(r.aborted(), String.join("\n", r.lines()));
        assertEquals(0, r.processed(), String.join("\n", r.lines()));
        assertEquals(0, r.failed(), "an abort is not a failed transaction: " + String.join("\n", r.lines()));
        assertTrue(stderr.lines().anyMatch(l -> l.equals("error: " + expected)), stderr);
    }

    /**
     * An error of a pipeline's command is worded as libpq words it outside one, with that command's line and a caret
     * (pgbench 15's text, checked against it): at \endpipeline the wire engine said "at character 17", as for a
     * statement it did not know. The pipeline's later commands (after a \syncpipeline too) shift nothing.
     */
    @Test
    void aPipelinedCommandsErrorShowsItsLineAndCaret(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = run(pg, tmp, "\\startpipeline\nselect 1;\nselect 2;\nselect 3 from\n  nosuch;\nselect 4;\n\\syncpipeline\nselect 5;\n\\endpipeline\n",
                QueryMode.EXTENDED, 1, 1, err);
        assertTrue(r.aborted(), String.join("\n", r.lines()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(
                "error: client 0 script 0 aborted in command 7 query 0: ERROR:  relation \"nosuch\" does not exist\n"
                        + "LINE 2:   nosuch;\n"
                        + "          ^\n"), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * -M prepared prepares a pipeline's statements at \startpipeline, those of a branch never taken too: one the server
     * refuses is said once per connection in libpq's words, and the clients go on (pgbench 15 printed
     * "pgbench: error: ERROR:  relation "nosuch_t" does not exist", its LINE and caret, per client, and processed 4/4;
     * Kensho said nothing).
     */
    @Test
    void aPipelineStatementThatCannotBePreparedIsSaidAndTheRunGoesOn(Target pg, @TempDir Path tmp) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = run(pg, tmp, "\\startpipeline\nselect 1;\n\\if 0\nselect * from nosuch_t;\n\\endif\nselect 2;\n\\endpipeline\n",
                QueryMode.PREPARED, 2, 2, err);
        String said = err.toString(StandardCharsets.UTF_8);
        assertFalse(r.aborted(), String.join("\n", r.lines()) + "\n" + said);
        assertEquals(4, r.processed(), String.join("\n", r.lines()));
        String expected = "error: ERROR:  relation \"nosuch_t\" does not exist\nLINE 1: select * from nosuch_t;\n                      ^\n";
        assertEquals(2, said.split(java.util.regex.Pattern.quote(expected), -1).length - 1, said);
    }

    /**
     * A client that aborts inside an open pipeline (a failed meta-command, the script's end) closes its connection as
     * libpq's PQfinish does, which flushes what the pipeline queued before its Terminate: the server runs those
     * commands, so a COMMIT among them commits, and the rest rolls back (checked against C pgbench 15). The wire
     * engine used to drop the queued messages, and nothing committed.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "meta-command fails after a COMMIT|\\startpipeline\\nbegin;\\ninsert into kensho_pipeline_abort values (:client_id, 1);\\n"
                + "commit;\\ninsert into kensho_pipeline_abort values (:client_id, 2);\\n\\set q 1 / 0\\n\\endpipeline\\n|EXTENDED",
        "meta-command fails after a COMMIT, prepared|\\startpipeline\\nbegin;\\ninsert into kensho_pipeline_abort values (:client_id, 1);\\n"
                + "commit;\\ninsert into kensho_pipeline_abort values (:client_id, 2);\\n\\set q 1 / 0\\n\\endpipeline\\n|PREPARED",
        "script ends with the pipeline open|\\startpipeline\\nbegin;\\ninsert into kensho_pipeline_abort values (:client_id, 1);\\n"
                + "commit;\\ninsert into kensho_pipeline_abort values (:client_id, 2);\\n|EXTENDED",
    })
    void anAbortInsideAPipelineSendsWhatItQueued(String name, String script, QueryMode mode, Target pg, @TempDir Path tmp)
            throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_pipeline_abort");
            s.execute("create table kensho_pipeline_abort(client int, n int)");
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = run(pg, tmp, script.replace("\\n", "\n"), mode, 2, 1, err);
        assertTrue(r.aborted(), String.join("\n", r.lines()) + "\n" + err.toString(StandardCharsets.UTF_8));
        assertEquals(0, r.processed(), String.join("\n", r.lines()));
        // the aborted clients' backends run what they were sent after the run has closed them: give them time
        String rows = "";
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            for (long until = System.nanoTime() + 10_000_000_000L; !rows.equals("0:1 1:1") && System.nanoTime() < until; ) {
                Thread.sleep(50);
                try (ResultSet rs = s.executeQuery("select coalesce(string_agg(client || ':' || n, ' ' order by client, n), '')"
                        + " from kensho_pipeline_abort")) {
                    rs.next();
                    rows = rs.getString(1);
                }
            }
            s.execute("drop table kensho_pipeline_abort");
        }
        assertEquals("0:1 1:1", rows, err.toString(StandardCharsets.UTF_8));
    }

    /** The queued commands really run, each Sync ends a transaction of its own, and every client's rows arrive. */
    @Test
    void pipelinedInsertsAllArrive(Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_pipeline_probe");
            s.execute("create table kensho_pipeline_probe(client int, n int)");
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = run(pg, tmp, "\\startpipeline\ninsert into kensho_pipeline_probe values (:client_id, 1);\n\\syncpipeline\n"
                + "insert into kensho_pipeline_probe values (:client_id, 2);\n\\endpipeline\n", QueryMode.PREPARED, 3, 7, err);
        assertEquals(21, r.processed(), err.toString(StandardCharsets.UTF_8));
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*), count(distinct client), sum(n) from kensho_pipeline_probe")) {
            rs.next();
            assertEquals(42, rs.getLong(1));
            assertEquals(3, rs.getLong(2));
            assertEquals(21 * 3, rs.getLong(3));
            s.execute("drop table kensho_pipeline_probe");
        }
    }

    /**
     * A serialization failure inside a pipeline's transaction block (raised on the first try only): the pipeline is
     * read to its end, the block rolled back, the transaction retried, and the next one starts clean.
     */
    @Test
    void aSerializationFailureInAPipelineIsRetried(Target pg, @TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("create or replace function kensho_fail_first(tries int) returns int language plpgsql as $$"
                    + " begin if tries = 1 then raise exception 'first try fails' using errcode = '40001'; end if;"
                    + " return tries; end $$");
        }
        Path f = Files.writeString(tmp.resolve("retry.sql"), "\\set tries :tries + 1\n\\startpipeline\nbegin;\n"
                + "select kensho_fail_first(:tries);\nselect 1;\nend;\n\\endpipeline\nselect 1;\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(Engine.WIRE).file(f.toString()).mode(QueryMode.EXTENDED).define("tries=0")
                .transactions(3).maxTries(2).noVacuum(true).warmup(0).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        String all = String.join("\n", r.lines()) + "\n" + err.toString(StandardCharsets.UTF_8);
        assertEquals(3, r.processed(), all);
        assertEquals(0, r.failed(), all);
        assertEquals(1, r.retried(), all);
        assertEquals(1, r.retries(), all);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop function kensho_fail_first(int)");
        }
    }

    /** -r: the SQL inside a pipeline only queues; \endpipeline carries the wait, as in pgbench. */
    @Test
    void perStatementLatenciesChargeTheWaitToEndpipeline(Target pg, @TempDir Path tmp) throws Exception {
        Path f = Files.writeString(tmp.resolve("r.sql"), "\\startpipeline\nselect pg_sleep(0.05);\n\\endpipeline\n");
        RunReport r = new PgbenchRun().engine(Engine.WIRE).file(f.toString()).mode(QueryMode.EXTENDED).transactions(5)
                .perStatement(true).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        var cmds = r.scripts().get(0).commands();
        assertEquals(3, cmds.size(), cmds.toString());
        assertEquals("\\endpipeline", cmds.get(2).text());
        // the 50 ms wait is \endpipeline's; the commands add up to no more than the transactions, so the wait is not also
        // charged to the statement (a constant bound on queuing it failed when a loaded machine stalled the client)
        assertTrue(cmds.get(2).avgMs() >= 50, cmds.toString());
        double commands = cmds.stream().mapToDouble(RunReport.CommandReport::avgMs).sum();
        assertTrue(commands <= r.latency().avgMs() * 1.01 + 0.01, commands + " ms of commands in " + r.latency().avgMs() + " ms transactions: " + cmds);
    }

    @Test
    void thePgjdbcEngineAndSimpleModeRefuseAPipelineBeforeTheRun(Target pg, @TempDir Path tmp) throws Exception {
        Path f = Files.writeString(tmp.resolve("p.sql"), "select 1;\n  \\startpipeline\nselect 1;\n\\endpipeline\n");
        KenshoException pgjdbc = assertThrows(KenshoException.class, () -> new PgbenchRun().engine(Engine.PGJDBC).file(f.toString())
                .mode(QueryMode.EXTENDED).transactions(1).noVacuum(true).warmup(0).run(pg));
        assertEquals(f + ":2:3: \\startpipeline needs --engine wire: pgjdbc has no pipeline mode", pgjdbc.getMessage());
        KenshoException simple = assertThrows(KenshoException.class, () -> new PgbenchRun().engine(Engine.WIRE).file(f.toString())
                .transactions(1).noVacuum(true).warmup(0).run(pg));
        assertTrue(simple.getMessage().startsWith(f + ":2:3: cannot use pipeline mode with the simple query protocol"), simple.getMessage());
    }

    /**
     * A pipeline in a branch only some transactions take: refused before the run, a script pgbench runs where the
     * branch is never taken was refused whole. It runs; the client that reaches the pipeline aborts.
     */
    @Test
    void thePgjdbcEngineRunsAScriptWhosePipelineIsInABranch(Target pg, @TempDir Path tmp) throws Exception {
        Path f = Files.writeString(tmp.resolve("b.sql"), "\\if :client_id = 1\n\\startpipeline\nselect 1;\n\\endpipeline\n\\endif\nselect 2;\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(Engine.PGJDBC).file(f.toString()).mode(QueryMode.EXTENDED).clients(2).transactions(2)
                .noVacuum(true).warmup(0).output(RunOptionsTest.sink(new ByteArrayOutputStream()), RunOptionsTest.sink(err)).run(pg);
        String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(r.aborted(), said);
        assertEquals(2, r.processed(), "client 0 ran its two: " + said);
        assertTrue(said.contains("error: client 1 aborted in command 1 (startpipeline) of script 0; \\startpipeline needs --engine wire"), said);
    }
}
