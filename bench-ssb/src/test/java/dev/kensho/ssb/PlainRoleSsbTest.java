package dev.kensho.ssb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.measure.QueryTimer;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.PlainRole;
import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SSB as a role that owns its database and nothing more: pg_prewarm, which only a superuser creates, is missing. */
@KenshoTarget
class PlainRoleSsbTest {

    @Test
    void withoutPgPrewarmTheQueriesAndBuildsRunAndTheRunSaysSoOnce(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "ssb")) {
            SsbDatabase db = new SsbDatabase(role.target(), "public");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream errs = new PrintStream(err, true, StandardCharsets.UTF_8);
            try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
                ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(0), List.of(ParallelSweep.Pool.GATHER), 2,
                        List.of("q1.1"), db.schema(), new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false,
                        QueryTimer.DEFAULT_FETCH_SIZE);
                new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), errs).run(role.target(), dir);
                List<Trial> queries = dir.trials().stream().filter(t -> t.params().containsKey("query")).toList();
                assertEquals(2, queries.size(), dir.trials().toString());
                for (Trial t : queries) assertTrue(t.ok(), t.toString() + "\n" + err);
                saidOnce(err, role);
                err.reset();
                IndexBuild ib = new IndexBuild(new IndexBuild.Options(List.of(0), 1, 2, "64MB"), new PrintStream(OutputStream.nullOutputStream()), errs);
                ib.run(db, dir);
                List<Trial> builds = dir.trials().stream().filter(t -> t.params().containsKey("columns")).toList();
                assertEquals(2, builds.size(), dir.trials().toString());
                for (Trial t : builds) assertTrue(t.ok(), t.toString() + "\n" + err);
                saidOnce(err, role);
                assertTrue(Files.readString(dir.path().resolve(RunDirectory.RUN)).contains("the SSB tables are not prewarmed"));
            }
        }
    }

    /**
     * A read-only session (a hot standby, whose primary lacks pg_prewarm; here default_transaction_read_only) refuses
     * CREATE EXTENSION even to a superuser: the queries run unprewarmed and say so once, as where the role may not create
     * it. The run had stopped, exit 3, and could not run on such a replica at all.
     */
    @Test
    void aReadOnlySessionWithoutPgPrewarmRunsUnprewarmed(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "ssb_ro");
             Target admin = new TargetSpec().url(role.target().jdbcUrl()).user(pg.user()).open()) {
            new SsbDatabase(admin, "public").load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null);
            role.asSuperuser("ALTER DATABASE " + role.name() + " SET default_transaction_read_only = on");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            try (Target readOnly = new TargetSpec().url(role.target().jdbcUrl()).user(pg.user()).open();
                 RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb", List.of("test"), Map.of()))) {
                ParallelSweep.Options o = new ParallelSweep.Options(0.01, List.of(0), List.of(ParallelSweep.Pool.GATHER), 2,
                        List.of("q1.1"), "public", new SsbDatabase.LoadOptions(0.01, 1, false, false), false, false,
                        QueryTimer.DEFAULT_FETCH_SIZE);
                new ParallelSweep(o, new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8))
                        .run(readOnly, dir);
                String said = err.toString(StandardCharsets.UTF_8);
                List<Trial> queries = dir.trials().stream().filter(t -> t.params().containsKey("query")).toList();
                assertEquals(2, queries.size(), dir.trials() + "\n" + said);
                for (Trial t : queries) assertTrue(t.ok(), t + "\n" + said);
                assertEquals(1, said.lines().filter(l -> l.startsWith("ssb: the SSB tables are not prewarmed") && l.contains("read-only transaction")
                        && l.endsWith("(on a standby, CREATE EXTENSION pg_prewarm on its primary, whence it replicates)")).count(), said);
            }
        }
    }

    /** A role that may only read lineorder (someone else loaded it) cannot index it: one line, before any build, naming the owner. */
    @Test
    void indexBuildOnSomeoneElsesLineorderIsRefusedOnce(@LocalPostgres Target pg, @TempDir Path results) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "ssb_reader");
             Target admin = new TargetSpec().url(role.target().jdbcUrl()).user(pg.user()).open()) {
            new SsbDatabase(admin, "public").load(new SsbDatabase.LoadOptions(0.01, 1, false, false), null);
            role.asSuperuser("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role.name());
            SsbDatabase db = new SsbDatabase(role.target(), "public");
            try (RunDirectory dir = RunDirectory.create(results, RunInfo.of("ssb index-build", List.of("test"), Map.of()))) {
                IndexBuild ib = new IndexBuild(new IndexBuild.Options(List.of(0, 2), 2, 1, "64MB"), new PrintStream(OutputStream.nullOutputStream()),
                        new PrintStream(OutputStream.nullOutputStream()));
                KenshoException e = assertThrows(KenshoException.class, () -> ib.run(db, dir));
                assertEquals(KenshoException.TARGET, e.exitCode());
                assertEquals("ssb index-build creates indexes on public.lineorder, which only its owner " + pg.user() + " may, not " + role.name()
                        + ": run it as " + pg.user() + ", or load the SSB into a database or schema of " + role.name() + "'s own (ssb load)", e.getMessage());
                assertEquals(List.of(), dir.trials());
            }
        }
    }

    /** One line for the run, however often it would prewarm, naming the database, the role and the remedy. */
    private static void saidOnce(ByteArrayOutputStream err, PlainRole role) {
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, said.lines().filter(l -> l.equals("ssb: the SSB tables are not prewarmed (what a run reads comes from the OS cache"
                + " or disk until it is in shared buffers): pg_prewarm is not installed in database " + role.name() + " and role "
                + role.name() + " may not create it (a superuser can: CREATE EXTENSION pg_prewarm)")).count(), said);
    }
}
