package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.PlainRole;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.PgbenchRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pgbench run as a role that may read a table someone else loaded, but not write it. */
@KenshoTarget
class PlainRoleRunTest {

    /** Every client aborts on "permission denied": the run exits 1 (pgbench 2), and its trial says failed, with the error. */
    @Test
    void aRunWhoseClientsAbortIsAFailedTrial(@LocalPostgres Target pg, @TempDir Path tmp) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "run")) {
            role.asSuperuser("CREATE TABLE kensho_read_only (k int)");
            role.asSuperuser("INSERT INTO kensho_read_only VALUES (1)");
            role.asSuperuser("GRANT SELECT ON kensho_read_only TO " + role.name());
            Path script = Files.writeString(tmp.resolve("update.sql"), "UPDATE kensho_read_only SET k = k + 1;\n");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            try (RunDirectory dir = RunDirectory.create(tmp, RunInfo.of("pgbench run", List.of("pgbench", "run"), Map.of()))) {
                PgbenchRun run = new PgbenchRun().file(script.toString()).clients(2).seconds(1).warmup(0).noVacuum(true)
                        .output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                                new PrintStream(err, true, StandardCharsets.UTF_8));
                assertTrue(run.runAndRecord(role.target(), dir).aborted(), err.toString(StandardCharsets.UTF_8));
                List<Trial> trials = RunDirectory.readTrials(dir.path().resolve(RunDirectory.TRIALS));
                assertEquals(1, trials.size());
                Trial t = trials.get(0);
                assertEquals("failed", t.status(), t.toString());
                String reason = String.valueOf(t.extra().get("reason"));
                assertTrue(reason.startsWith("run aborted: client ") && reason.contains("permission denied for table kensho_read_only"), reason);
                // the clients' errors still reached the errors stream
                assertTrue(err.toString(StandardCharsets.UTF_8).contains("error: client "), err.toString(StandardCharsets.UTF_8));
            }
        }
    }

    /** pgbench's vacuum of tables the role does not own: the server's "skipping" warnings are shown, as libpq shows them. */
    @Test
    void aVacuumOfSomeoneElsesTablesSaysItSkippedThem(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "vacuum");
             Target admin = new dev.kensho.core.server.TargetSpec().url(role.target().jdbcUrl()).user(pg.user()).open()) {
            new dev.kensho.pgbench.PgbenchInit().scale(1).log(null).run(admin);
            role.asSuperuser("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role.name());
            // a database owner may vacuum every table in it: the database too is someone else's
            role.asSuperuser("ALTER DATABASE " + role.name() + " OWNER TO " + pg.user());
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            new PgbenchRun().builtin("select-only").clients(1).seconds(1).warmup(0)
                    .output(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                    .run(role.target());
            String said = err.toString(StandardCharsets.UTF_8);
            // PostgreSQL 15's words ("skipping ... only table or database owner can vacuum it"; 16 words it otherwise)
            assertTrue(said.lines().anyMatch(l -> l.contains("WARNING:  ") && l.contains("\"pgbench_branches\"")), said);
            assertTrue(said.lines().anyMatch(l -> l.startsWith("WARNING:  ") && l.contains("\"pgbench_tellers\"")), said);
            assertTrue(said.contains("permission denied for table pgbench_history (ignoring this error and continuing anyway)"), said);
        }
    }
}
