package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** `bench help ...` shows the usage of the command named at any depth; what it cannot show is a usage error. */
class HelpCommandTest {
    @Test
    void aNestedCommandsHelpIsItsOwn() {
        CommandRun run = CommandRun.of("help", "pgbench", "run");
        assertEquals(0, run.exit(), run.err());
        // picocli's help command printed "bench pgbench"'s usage for it
        assertEquals(CommandRun.of("pgbench", "run", "--help").out(), run.out());
        assertTrue(run.out().startsWith("Usage: bench pgbench run "), run.out());
        assertEquals(CommandRun.of("--help").out(), CommandRun.of("help").out());
    }

    @Test
    void anUnknownOptionOrCommandIsAUsageError() {
        // it printed bench's usage and exited 0
        CommandRun bogus = CommandRun.of("help", "--bogus-opt");
        assertEquals(2, bogus.exit());
        assertEquals("", bogus.out());
        assertEquals("bench: Unknown option: '--bogus-opt' (see 'bench help --help')\n", bogus.err());
        CommandRun deeper = CommandRun.of("help", "pgbench", "bogus");
        assertEquals(2, deeper.exit());
        assertEquals("bench: Unknown command 'bogus': 'bench pgbench' has init, run, sweep (see 'bench help --help')\n", deeper.err());
        assertEquals("bench: Unknown command 'x': 'bench env' has none (see 'bench help --help')\n", CommandRun.of("help", "env", "x").err());
    }
}
