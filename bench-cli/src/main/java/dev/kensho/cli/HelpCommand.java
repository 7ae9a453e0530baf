package dev.kensho.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code bench help [COMMAND...]}: the usage of a command at any depth ({@code bench help pgbench run}). picocli's own
 * help command showed the first name's usage only ("help pgbench run" printed pgbench's), and exited 0 on an unknown
 * option ("help --bogus") with the top-level usage, where every other command refuses one with exit 2.
 */
@Command(name = "help", mixinStandardHelpOptions = true, description = "Show a command's help: 'bench help pgbench run' is 'bench pgbench run --help'.")
final class HelpCommand implements Runnable {
    /** The command's names from the top: none is bench's own help. */
    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "A command and its subcommands (e.g. pgbench run).")
    List<String> names = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        CommandLine at = spec.commandLine().getParent();
        StringBuilder path = new StringBuilder(at.getCommandName());
        for (String name : names) {
            CommandLine next = at.getSubcommands().get(name);
            if (next == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "Unknown command '" + name + "': '" + path + "'"
                        + (at.getSubcommands().isEmpty() ? " has none" : " has " + String.join(", ", at.getSubcommands().keySet())));
            }
            at = next;
            path.append(' ').append(name);
        }
        at.usage(spec.commandLine().getOut(), at.getColorScheme());
    }
}
