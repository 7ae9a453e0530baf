package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --resume continues the same run or refuses: trials of another command or other options would mix into its summary. */
@KenshoTarget
class ResultOptionsTest {
    @TempDir Path results;

    @Test
    void resumeRefusesAnotherCommandOrOtherOptions(@LocalPostgres Target pg) throws Exception {
        String[] target = {"--url", pg.jdbcUrl(), "-U", pg.user(), "--results", results.toString()};
        CommandRun first = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,8MB", "--repeat", "1"}, target));
        assertEquals(0, first.exit(), first.err());
        Path run;
        try (var d = Files.list(results)) {
            run = d.findFirst().orElseThrow();
        }

        CommandRun other = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,16MB", "--repeat", "1",
                "--resume", run.toString()}, target));
        assertEquals(2, other.exit(), other.err());
        assertTrue(other.err().contains("that run had matrix {\"work_mem\":[\"4MB\",\"8MB\"]}"), other.err());

        CommandRun ssb = CommandRun.of("ssb", "-s", "0.01", "--resume", run.toString());
        assertEquals(2, ssb.exit(), ssb.err());
        assertTrue(ssb.err().contains("a 'query' run, not 'ssb'"), ssb.err());

        CommandRun same = CommandRun.of(concat(new String[] {"query", "-c", "SELECT 1", "--matrix", "work_mem=4MB,8MB", "--repeat", "1",
                "--resume", run.toString()}, target));
        assertEquals(0, same.exit(), same.err());
        assertEquals(2, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size(), "nothing left to run, nothing added");
    }

    @Test
    void aSweepResumesOnlyWithItsOwnScriptModeAndClients(Target pg, @TempDir Path sweeps) throws Exception {
        String[] target = {"--url", pg.jdbcUrl(), "-U", pg.user(), "--results", sweeps.toString()};
        String[] sweep = {"pgbench", "sweep", "-S", "-s", "1", "--clients", "1", "--repeat", "1", "-T", "1"};
        CommandRun first = CommandRun.of(concat(sweep, target));
        assertEquals(0, first.exit(), first.err());
        Path run;
        try (var d = Files.list(sweeps)) {
            run = d.findFirst().orElseThrow();
        }
        String[] resume = {"--resume", run.toString()};
        String[][] others = {
            {"pgbench", "sweep", "-b", "tpcb-like", "-s", "1", "--clients", "1", "--repeat", "1", "-T", "1"},
            {"pgbench", "sweep", "-S", "-M", "prepared", "-s", "1", "--clients", "1", "--repeat", "1", "-T", "1"},
            {"pgbench", "sweep", "-S", "-s", "1", "--clients", "1,2", "--repeat", "1", "-T", "1"},
        };
        String[] said = {"that run had scripts [\"-bselect-only\"]", "that run had mode \"simple\"", "that run had clients [1]"};
        for (int i = 0; i < others.length; i++) {
            CommandRun r = CommandRun.of(concat(concat(others[i], target), resume));
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().contains(said[i]), r.err());
        }
        assertEquals(1, RunDirectory.readTrials(run.resolve(RunDirectory.TRIALS)).size(), "nothing was added");
        CommandRun same = CommandRun.of(concat(concat(sweep, target), resume));
        assertEquals(0, same.exit(), same.err());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
