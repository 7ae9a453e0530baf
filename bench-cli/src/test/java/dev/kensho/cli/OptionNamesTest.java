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

    /**
     * An error names the option as the user typed it (pgbench's -T, not --duration), and an unknown option comes before
     * the required one it was meant for (ssb gen -o said only "Missing required option: '--out=DIR'").
     */
    @Test
    void errorsNameTheOptionsTheUserTyped() {
        CommandRun t = CommandRun.of("pgbench", "run", "-T", "2s");
        assertEquals(2, t.exit());
        assertEquals("bench: Invalid value for option '-T': '2s' is not an int (see 'bench pgbench run --help')\n", t.err());
        assertEquals("bench: Missing required parameter for option '-T' (SECONDS) (see 'bench pgbench run --help')\n",
                CommandRun.of("pgbench", "run", "-T").err());
        assertEquals("bench: Invalid value for option '--duration': '2s' is not an int (see 'bench pgbench run --help')\n",
                CommandRun.of("pgbench", "run", "--duration", "2s").err());
        assertEquals("bench: Invalid value for option '-T': '2s' is not an int (see 'bench pgbench run --help')\n",
                CommandRun.of("pgbench", "run", "-nT", "2s").err());
        // -b's value select-only holds the letters of -s and -c: no option of theirs was typed
        assertEquals("bench: Invalid value for option '--client': 'x' is not an int (see 'bench pgbench run --help')\n",
                CommandRun.of("pgbench", "run", "--client", "x", "-bselect-only").err());
        // a value with a dash is no unknown option (a file -w.sql, the results directory -res), nor is what follows --
        assertEquals("bench: Missing required option: '--clients=N' (see 'bench pgbench sweep --help')\n",
                CommandRun.of("pgbench", "sweep", "-S", "-f", "-w.sql", "--results", "-res").err());
        CommandRun o = CommandRun.of("ssb", "gen", "-s", "0.01", "-o", "x");
        assertEquals(2, o.exit());
        assertEquals("bench: Unknown option: '-o'; missing required option: '--out=DIR' (see 'bench ssb gen --help')\n", o.err());
        assertEquals("bench: Unknown option: '-c'; missing required option: '--clients=N' (see 'bench pgbench sweep --help')\n",
                CommandRun.of("pgbench", "sweep", "-c", "1").err());
    }

    /** A command of commands alone is a usage error, as the footer's exit codes say (it printed its help and exited 0). */
    @Test
    void aCommandOfCommandsAloneIsAUsageError() {
        CommandRun p = CommandRun.of("pgbench");
        assertEquals(2, p.exit());
        assertEquals("bench: Missing required subcommand: give one of init, run, sweep (see 'bench pgbench --help')\n", p.err());
        assertEquals(2, CommandRun.of().exit());
        assertEquals(0, CommandRun.of("--help").exit());
        assertEquals(0, CommandRun.of("pgbench", "--help").exit());
    }

    @Test
    void microTakesTheShortScaleOfTheOtherCommands() {
        assertEquals(Integer.valueOf(2), leaf("micro", "-s", "2").matchedOptionValue("--scale", 0));
    }
}
