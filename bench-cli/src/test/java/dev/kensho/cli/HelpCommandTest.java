package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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

    /** An invocation in prose, not quoted as a short one is ('bench pgbench run --help'): "bench", a command, an option. */
    private static final Pattern INVOCATION = Pattern.compile("(?<!')\\bbench( [a-z]+)+ -");

    @Test
    void everyExampleIsPrintedWholeAtEightyColumnsSoItCanBeCopied() {
        // picocli wraps a description at 80 columns wherever a line runs over, mid-URL too ("--url jdbc:" / "postgresql://..."):
        // an example is therefore its own indented lines, each short enough, continued with a backslash as in a shell
        List<CommandLine> all = new ArrayList<>(List.of(Kensho.commandLine()));
        int examples = 0;
        for (int i = 0; i < all.size(); i++) {
            CommandLine c = all.get(i);
            all.addAll(c.getSubcommands().values());
            String usage = CommandRun.of(qualified(c, "--help")).out();
            List<String> printed = usage.lines().toList();
            for (String line : c.getCommandSpec().usageMessage().description()) {
                String where = c.getCommandSpec().qualifiedName() + ": " + line;
                if (line.startsWith("  ")) {
                    examples++;
                    assertTrue(printed.contains(line), "printed across lines: " + where + "\n" + usage);
                } else {
                    assertTrue(!INVOCATION.matcher(line).find(), "an example inside prose, where it wraps: " + where);
                }
            }
        }
        assertTrue(examples >= 20, "examples found: " + examples);
    }

    private static String[] qualified(CommandLine c, String option) {
        List<String> names = new ArrayList<>(List.of(c.getCommandSpec().qualifiedName(" ").split(" ")));
        names.remove(0); // "bench"
        names.add(option);
        return names.toArray(String[]::new);
    }
}
