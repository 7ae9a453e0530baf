package dev.kensho.cli.pgbench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** bench pgbench: pgbench-equivalent init, run and the PGECons client sweeps. */
@Command(name = "pgbench", mixinStandardHelpOptions = true,
        subcommands = {PgbenchInitCommand.class, PgbenchRunCommand.class, PgbenchSweepCommand.class},
        description = {"pgbench-equivalent workloads: 'init' (pgbench -i), 'run' (pgbench with pgbench's options and report, "
                + "plus latency percentiles) and 'sweep' (the PGECons fixed-point observation over client counts and versions).",
                "Examples:",
                "  bench pgbench init -s 10 --url jdbc:postgresql://127.0.0.1:5432/test \\",
                "      -U postgres",
                "  bench pgbench run -S -M prepared -c 8 -j 4 -T 60 -P 5 \\",
                "      --url jdbc:postgresql://127.0.0.1:5432/test -U postgres",
                "  bench pgbench sweep -S --clients 1,4,16,32,48,64,80,96 --threads clients/2 \\",
                "      --repeat 3 --duration 60 -s 100 --pg-version 16,17"})
public final class PgbenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        // a command of commands alone is a usage error (exit 2), as the footer's scheme says; it exited 0
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand: give one of "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
