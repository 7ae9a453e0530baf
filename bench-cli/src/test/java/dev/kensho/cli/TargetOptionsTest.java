package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The target options every command shares: a malformed one is one line naming it, exit 2, before any server starts. */
class TargetOptionsTest {

    /**
     * A --set whose name is no setting's (empty, or with a space) was written to the managed server's kensho.conf as it
     * was: initdb ran, the start failed on the file's syntax, and the run ended as a target error (exit 3).
     */
    @Test
    void aSetWithoutASettingsNameIsAUsageError() {
        CommandRun empty = CommandRun.of("env", "--set", "=1");
        assertEquals(2, empty.exit(), empty.err());
        assertEquals("bench: --set =...: '' is not a setting's name (NAME=VALUE, e.g. work_mem=64MB)\n", empty.err());

        CommandRun spaced = CommandRun.of("env", "--set", "work mem=secret");
        assertEquals(2, spaced.exit(), spaced.err());
        assertEquals("bench: --set work mem=...: 'work mem' is not a setting's name (NAME=VALUE, e.g. work_mem=64MB)\n", spaced.err());
    }

    /** --restart-command without --url was accepted and never run (the embedded server started, exit 0). */
    /** --pg-bin= (a script's unset variable) was the current directory. */
    /** One setting in two spellings: the server took the last while run.json recorded both. */
    @Test
    void oneSettingInTwoSpellingsIsAUsageError() {
        CommandRun r = CommandRun.of("env", "--set", "work_mem=8MB", "--set", "WORK_MEM=16MB");
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: --set work_mem and --set WORK_MEM are one setting: give it once\n", r.err());
        CommandRun m = CommandRun.of("query", "-c", "select 1", "--matrix", "work_mem=1MB", "--matrix", "WORK_MEM=2MB");
        assertEquals(2, m.exit(), m.err());
        assertTrue(m.err().contains("--matrix WORK_MEM and --matrix work_mem are one setting"), m.err());
    }

    @Test
    void anEmptyPgBinIsAUsageError() {
        CommandRun r = CommandRun.of("env", "--pg-bin=");
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: Invalid value for option '--pg-bin' (DIR): an empty path (see 'bench env --help')\n", r.err());
    }

    @Test
    void aRestartCommandWithoutUrlIsAUsageError() {
        CommandRun r = CommandRun.of("env", "--restart-command", "true");
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: --restart-command restarts a server given with --url; Kensho restarts the servers it starts itself\n", r.err());
        assertEquals("", r.out(), "no server started");
    }
}
