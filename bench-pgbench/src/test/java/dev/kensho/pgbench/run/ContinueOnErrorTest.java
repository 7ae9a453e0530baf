package dev.kensho.pgbench.run;

import static dev.kensho.pgbench.run.RunOptionsTest.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.Engine;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.RunReport;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** pgbench 19's --continue-on-error on a real server, both engines. */
@KenshoTarget
class ContinueOnErrorTest {
    private Target pg;

    @BeforeEach
    void tables(Target pg) throws Exception {
        this.pg = pg;
        sql("drop table if exists kensho_coe_unique, kensho_coe_counter",
                "create table kensho_coe_unique(i int unique)",
                "create table kensho_coe_counter(n int)", "insert into kensho_coe_counter values (0)");
    }

    @AfterEach
    void drop() throws Exception {
        sql("drop table if exists kensho_coe_unique, kensho_coe_counter");
    }

    private void sql(String... statements) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            for (String q : statements) s.execute(q);
        }
    }

    private long count(String query) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static Stream<Arguments> enginesAndModes() {
        return Stream.of(Engine.values()).flatMap(e -> Stream.of(QueryMode.values()).map(m -> Arguments.of(e, m)));
    }

    /** 001_pgbench_with_server.pl's case: -t 10 of one INSERT into a unique column gives processed 1/10, other failures 9. */
    @ParameterizedTest
    @MethodSource("enginesAndModes")
    void pgbenchsTapCase(Engine engine, QueryMode mode, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("001_continue_on_error"), "INSERT INTO kensho_coe_unique VALUES(0);\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(engine).mode(mode).file(script.toString()).transactions(10).continueOnError(true)
                .failuresDetailed(true).perStatement(true).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        List<String> lines = r.lines();
        assertFalse(r.aborted(), String.join("\n", lines));
        assertTrue(lines.contains("number of transactions actually processed: 1/10"), String.join("\n", lines));
        assertTrue(lines.contains("number of failed transactions: 9 (90.000%)"), String.join("\n", lines));
        assertTrue(lines.contains("number of other failures: 9 (90.000%)"), String.join("\n", lines));
        assertEquals(9L, r.metrics().get("other_failures"));
        // -r: the failures are the INSERT's; nothing is said per error without --verbose-errors
        assertTrue(lines.stream().anyMatch(l -> l.matches(" +\\d+\\.\\d{3} +9  INSERT INTO kensho_coe_unique VALUES\\(0\\);")), String.join("\n", lines));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertEquals(1, count("select count(*) from kensho_coe_unique"));
    }

    /**
     * A failed transaction block is rolled back: the counter each transaction bumps before its INSERT counts exactly
     * the successful ones, and the session goes on (not stuck in an aborted block). Every failure is logged as
     * "other" with --failures-detailed, and said with --verbose-errors.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aFailedBlockIsRolledBackAndTheClientGoesOn(Engine engine, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("block.sql"), "\\set k random(1, 4)\nBEGIN;\n"
                + "UPDATE kensho_coe_counter SET n = n + 1;\nINSERT INTO kensho_coe_unique VALUES (:k);\nEND;\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(engine).file(script.toString()).clients(2).threads(1).transactions(15).continueOnError(true)
                .failuresDetailed(true).verboseErrors(true).log(true).logDirectory(tmp).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        List<String> lines = r.lines();
        assertFalse(r.aborted(), String.join("\n", lines));
        assertEquals(30, r.processed() + r.failed(), "failed transactions count toward -t, as in pgbench: " + lines);
        assertTrue(r.failed() >= 26, "at most 4 keys can be inserted: " + lines);
        assertEquals(r.processed(), count("select count(*) from kensho_coe_unique"));
        assertEquals(r.processed(), count("select n from kensho_coe_counter"), "a failed block's UPDATE was rolled back");

        List<String> log;
        try (Stream<Path> files = Files.list(tmp)) {
            Path file = files.filter(p -> p.getFileName().toString().startsWith("pgbench_log.")).findFirst().orElseThrow();
            log = Files.readAllLines(file);
        }
        assertEquals(30, log.size());
        assertEquals(r.failed(), log.stream().filter(l -> l.split(" ")[2].equals("other")).count(), String.join("\n", log));

        List<String> said = err.toString(StandardCharsets.UTF_8).lines().toList();
        long got = said.stream().filter(l -> l.matches("client [01] got an error in command 3 \\(SQL\\) of script 0; "
                + "ERROR:  duplicate key value violates unique constraint \"kensho_coe_unique_i_key\".*")).count();
        long ends = said.stream().filter(l -> l.matches("client [01] ends the failed transaction \\(try 1/1\\)")).count();
        assertEquals(r.failed(), got, String.join("\n", said));
        assertEquals(r.failed(), ends, String.join("\n", said));
    }

    /** Without the option the same error aborts the client, as it always did; with it a failed meta-command still does. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void whatStillAbortsTheClient(Engine engine, @TempDir Path tmp) throws Exception {
        Path insert = Files.writeString(tmp.resolve("insert.sql"), "INSERT INTO kensho_coe_unique VALUES(0);\n");
        RunReport plain = new PgbenchRun().engine(engine).file(insert.toString()).transactions(10).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertTrue(plain.aborted(), String.join("\n", plain.lines()));
        assertEquals(1, plain.processed());
        assertEquals(0, plain.failed());
        assertFalse(plain.lines().stream().anyMatch(l -> l.contains("other failures")), "pgbench 15-17's report without the option");

        Path meta = Files.writeString(tmp.resolve("meta.sql"), "select 1;\n\\set x 1 / 0\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(engine).file(meta.toString()).transactions(10).continueOnError(true).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        assertTrue(r.aborted(), String.join("\n", r.lines()));
        assertEquals(0, r.processed() + r.failed());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("division by zero"), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * The server's protocol_violation (08P01, a bind with fewer parameters than the statement has) is an ERROR on a
     * live session: pgbench aborts the client with it. It was taken for a lost connection (class 08): no message,
     * a failed transaction, a reconnection after each.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aProtocolViolationErrorAbortsTheClientAndIsNoLostConnection(Engine engine, @TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("dollar.sql"), "\\set a 5\nselect $1;\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunReport r = new PgbenchRun().engine(engine).mode(QueryMode.EXTENDED).file(script.toString()).transactions(3).noVacuum(true)
                .warmup(0).output(sink(new ByteArrayOutputStream()), sink(err)).run(pg);
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(r.aborted(), String.join("\n", r.lines()));
        assertEquals(0, r.processed() + r.failed(), String.join("\n", r.lines()));
        assertEquals(0, r.connectionFailures());
        assertEquals(0, r.reconnects());
        assertTrue(said.contains("client 0 script 0 aborted in command 1 query 0: ERROR:  bind message supplies 0 parameters, "
                + "but prepared statement \"\" requires 1"), said);

        // with --continue-on-error it is an "other" failure, and the same session goes on
        r = new PgbenchRun().engine(engine).mode(QueryMode.EXTENDED).file(script.toString()).transactions(3).noVacuum(true).warmup(0)
                .continueOnError(true).output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertFalse(r.aborted(), String.join("\n", r.lines()));
        assertEquals(3, r.otherFailures(), String.join("\n", r.lines()));
        assertEquals(0, r.connectionFailures());
        assertEquals(0, r.reconnects());
    }

    /** -r averages a command over its successful executions, as pgbench does (an error skips its END_COMMAND). */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void perCommandLatencyLeavesTheFailedExecutionsOut(Engine engine, @TempDir Path tmp) throws Exception {
        // k = 1 sleeps 40 ms, then divides by zero; k = 2 answers at once
        Path script = Files.writeString(tmp.resolve("slowfail.sql"), "\\set k 1 + :client_id % 2\n"
                + "select 1 / (:k - count(*)) from (select pg_sleep(case when :k = 1 then 0.04 else 0 end)) s;\n");
        RunReport r = new PgbenchRun().engine(engine).file(script.toString()).clients(2).threads(1).transactions(5).continueOnError(true)
                .perStatement(true).noVacuum(true).warmup(0).output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        assertEquals(5, r.processed(), String.join("\n", r.lines()));
        assertEquals(5, r.failed(), String.join("\n", r.lines()));
        RunReport.CommandReport select = r.scripts().get(0).commands().get(1);
        assertEquals(5, select.failures());
        // the successful transactions' latency holds their SELECT's: averaged in, the 40 ms failures would put the SELECT's
        // average above it (half of 40 ms over ~0), where a constant bound fails on a loaded machine's slow quick query
        assertTrue(select.avgMs() <= r.latency().avgMs() * 1.01 + 0.01,
                "the 40 ms failures were averaged in: " + select.avgMs() + " ms, transactions " + r.latency().avgMs() + " ms");
    }

    /** An error inside a pipeline fails its transaction; the pipeline is left and the next transaction runs normally. */
    @Test
    void anErrorInAPipelineFailsTheTransaction(@TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("pipe.sql"), "\\set k random(1, 3)\n\\startpipeline\n"
                + "UPDATE kensho_coe_counter SET n = n + 1;\nINSERT INTO kensho_coe_unique VALUES (:k);\n\\endpipeline\n");
        RunReport r = new PgbenchRun().engine(Engine.WIRE).mode(QueryMode.EXTENDED).file(script.toString()).clients(2).threads(1)
                .transactions(12).continueOnError(true).perStatement(true).noVacuum(true).warmup(0)
                .output(sink(new ByteArrayOutputStream()), sink(new ByteArrayOutputStream())).run(pg);
        List<String> lines = r.lines();
        assertFalse(r.aborted(), String.join("\n", lines));
        assertEquals(24, r.processed() + r.failed(), String.join("\n", lines));
        assertTrue(r.failed() >= 21, String.join("\n", lines));
        assertEquals(r.processed(), count("select count(*) from kensho_coe_unique"));
        // the pipeline is one implicit transaction: a failed one took its UPDATE with it
        assertEquals(r.processed(), count("select n from kensho_coe_counter"));
    }
}
