package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/** One thing has one spelling everywhere: an option named one way in one command is taken in that way by the others. */
class OptionNamesTest {
    private static ParseResult leaf(String... args) {
        ParseResult r = Kensho.commandLine().parseArgs(args);
        while (r.hasSubcommand()) r = r.subcommand();
        return r;
    }

    @Test
    void sweepTakesPgbenchRunsTime() {
        // pgbench run -T / --time; the sweep's own name for it is --duration
        assertEquals(Integer.valueOf(7), leaf("pgbench", "sweep", "--clients", "1", "--time", "7").matchedOptionValue("--duration", 0));
        assertEquals(Integer.valueOf(8), leaf("pgbench", "sweep", "--clients", "1", "-T", "8").matchedOptionValue("--duration", 0));
    }

    @Test
    void ssbGenTakesSsbLoadsJobs() {
        assertEquals(Integer.valueOf(3), leaf("ssb", "gen", "--out", "x", "--jobs", "3").matchedOptionValue("--threads", 0));
    }

    @Test
    void theUserIsTakenAsPgbenchAndPsqlSpellIt() {
        // pgbench --username was refused, its value then read as pgbench's DBNAME in the hint
        for (String spelling : new String[] {"-U", "--user", "--username"}) {
            assertEquals("alice", leaf("pgbench", "run", "--url", "jdbc:postgresql://h/db", spelling, "alice").matchedOptionValue("--user", ""));
        }
    }

    @Test
    void microTakesTheShortScaleOfTheOtherCommands() {
        assertEquals(Integer.valueOf(2), leaf("micro", "-s", "2").matchedOptionValue("--scale", 0));
    }
}
