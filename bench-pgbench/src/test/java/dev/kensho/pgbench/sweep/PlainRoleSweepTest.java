package dev.kensho.pgbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import dev.kensho.core.server.PlainRole;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.ClientSweep;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sweep as a role that owns its database and nothing more, as production-like hosts give a benchmark tool. */
@KenshoTarget
class PlainRoleSweepTest {

    /**
     * CHECKPOINT needs a superuser or pg_checkpoint, and pg_prewarm (not a trusted extension) a superuser to create: each
     * refusal is said once, with what would allow it, and kept in every trial it concerns; the trials themselves run.
     */
    @Test
    void refusedCheckpointAndPrewarmAreSaidOnceAndTheTrialsRun(@LocalPostgres Target pg, @TempDir Path tmp) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "sweep")) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            Path first;
            try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
                first = dir.path();
                new ClientSweep().clients(List.of(1)).repeats(3).order(TrialMatrix.Order.SEQUENTIAL).seconds(1).builtin("select-only")
                        .scale(1).warmup(0).log(new PrintStream(log, true, StandardCharsets.UTF_8))
                        .run(Map.of("remote", role.target()), dir);
                String said = log.toString(StandardCharsets.UTF_8);
                List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
                assertEquals(3, trials.size(), said);
                for (Trial t : trials) {
                    assertTrue(t.ok() && t.metric("tps") > 0, t + "\n" + said);
                    // the server's words (15: "must be superuser or have privileges of pg_checkpoint"; 16 words it otherwise), then the grant
                    String skipped = String.valueOf(t.extra().get("checkpoint_skipped"));
                    assertTrue(skipped.startsWith("ERROR: ") && skipped.contains("CHECKPOINT")
                            && skipped.endsWith(" (GRANT pg_checkpoint TO " + role.name() + " allows it)"), skipped);
                    assertEquals("pg_prewarm is not installed in database " + role.name() + " and role " + role.name()
                            + " may not create it (a superuser can: CREATE EXTENSION pg_prewarm)", t.extra().get("prewarm_error"));
                    assertNull(t.extra().get("prewarm_blocks"), t.extra().toString());
                    @SuppressWarnings("unchecked")
                    Map<String, Object> waits = (Map<String, Object>) t.extra().get("wait_events");
                    assertEquals("the role's own only (pg_stat_activity hides other roles' from it)", waits.get("backends"), waits.toString());
                }
                assertEquals(1, said.lines().filter(l -> l.startsWith("remote: no CHECKPOINT before the trials: ")).count(), said);
                assertEquals(1, said.lines().filter(l -> l.startsWith("remote: pgbench_accounts is not prewarmed before the trials: ")).count(), said);
                assertEquals(1, said.lines().filter(l -> l.equals("remote: the wait-event profile counts " + role.name() + "'s backends only,"
                        + " pg_stat_activity hiding other roles' from it (GRANT pg_read_all_stats TO " + role.name() + " shows them)")).count(), said);
                String run = Files.readString(dir.path().resolve(RunDirectory.RUN));
                assertTrue(run.contains("no CHECKPOINT before the trials") && run.contains("is not prewarmed"), run);
            }
            // resumed for a fourth repeat, the sweep meets the same refusals: said again to this process's user, but
            // run.json, which had them, does not note them twice
            ByteArrayOutputStream resumedLog = new ByteArrayOutputStream();
            try (RunDirectory dir = RunDirectory.resume(first)) {
                new ClientSweep().clients(List.of(1)).repeats(4).order(TrialMatrix.Order.SEQUENTIAL).seconds(1).builtin("select-only")
                        .warmup(0).log(new PrintStream(resumedLog, true, StandardCharsets.UTF_8)).run(Map.of("remote", role.target()), dir);
                String said = resumedLog.toString(StandardCharsets.UTF_8);
                assertEquals(4, RunDirectory.readTrials(first.resolve(RunDirectory.TRIALS)).size(), said);
                assertEquals(1, said.lines().filter(l -> l.startsWith("remote: no CHECKPOINT before the trials: ")).count(), said);
                List<String> notes = RunDirectory.info(first).notes();
                assertEquals(1, notes.stream().filter(n -> n.startsWith("remote: no CHECKPOINT before the trials: ")).count(), notes.toString());
                assertEquals(1, notes.stream().filter(n -> n.startsWith("remote: pgbench_accounts is not prewarmed before the trials: ")).count(), notes.toString());
            }
            // granted pg_checkpoint and given pg_prewarm and pg_read_all_stats by a superuser, the same role does all, and says nothing
            role.asSuperuser("GRANT pg_checkpoint TO " + role.name());
            role.asSuperuser("CREATE EXTENSION pg_prewarm");
            role.asSuperuser("GRANT pg_read_all_stats TO " + role.name());
            ByteArrayOutputStream grantedLog = new ByteArrayOutputStream();
            try (RunDirectory dir = RunDirectory.create(tmp.resolve("granted"), RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
                new ClientSweep().clients(List.of(1)).repeats(1).seconds(1).builtin("select-only").warmup(0)
                        .log(new PrintStream(grantedLog, true, StandardCharsets.UTF_8)).run(Map.of("remote", role.target()), dir);
                Trial t = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS)).get(0);
                assertTrue(t.ok(), t.toString());
                assertNull(t.extra().get("checkpoint_skipped"), t.extra().toString());
                assertTrue(((Number) t.extra().get("prewarm_blocks")).longValue() > 0, t.extra().toString());
                assertNull(((Map<?, ?>) t.extra().get("wait_events")).get("backends"), t.extra().toString());
                assertTrue(grantedLog.toString(StandardCharsets.UTF_8).lines().noneMatch(l -> l.startsWith("remote: ")), grantedLog.toString(StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * A role that may only read the pgbench tables of a database it does not own: pgbench's vacuum before each trial skips
     * them with a warning, which was dropped; each trial keeps it, and the run says it once.
     */
    @Test
    void aVacuumSkippedForWantOfOwnershipIsKeptInEachTrial(@LocalPostgres Target pg, @TempDir Path tmp) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "sweep_reader");
             Target admin = new dev.kensho.core.server.TargetSpec().url(role.target().jdbcUrl()).user(pg.user()).open()) {
            new dev.kensho.pgbench.PgbenchInit().scale(1).log(null).run(admin);
            role.asSuperuser("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role.name());
            role.asSuperuser("ALTER DATABASE " + role.name() + " OWNER TO " + pg.user());
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench sweep", List.of("pgbench", "sweep"), Map.of()))) {
                new ClientSweep().clients(List.of(1)).repeats(2).seconds(1).builtin("select-only").warmup(0).prewarm(false)
                        .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run(Map.of("remote", role.target()), dir);
                String said = log.toString(StandardCharsets.UTF_8);
                List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
                assertEquals(2, trials.size(), said);
                for (Trial t : trials) {
                    assertTrue(t.ok(), t.toString());
                    // PostgreSQL 15's words ("skipping ... only table or database owner can vacuum it"; 16 words it otherwise)
                    List<String> warnings = String.valueOf(t.extra().get("warnings")).lines().toList();
                    assertEquals(2, warnings.size(), warnings.toString());
                    assertTrue(warnings.get(0).startsWith("WARNING:  ") && warnings.get(0).contains("\"pgbench_branches\""), warnings.toString());
                    assertTrue(warnings.get(1).startsWith("WARNING:  ") && warnings.get(1).contains("\"pgbench_tellers\""), warnings.toString());
                    assertEquals("error: ERROR:  permission denied for table pgbench_history (ignoring this error and continuing anyway)",
                            t.extra().get("errors"));
                }
                assertEquals(1, said.lines().filter(l -> l.startsWith("remote: the server warned (kept in each trial as warnings): WARNING:  ")
                        && l.contains("\"pgbench_branches\"")).count(), said);
            }
        }
    }
}
