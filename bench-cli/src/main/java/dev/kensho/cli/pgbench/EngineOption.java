package dev.kensho.cli.pgbench;

import dev.kensho.core.KenshoException;
import dev.kensho.pgbench.Engine;
import picocli.CommandLine.Option;

/** --engine, shared by `pgbench run` and `pgbench sweep`. */
public final class EngineOption {
    @Option(names = "--engine", defaultValue = "pgjdbc", paramLabel = "ENGINE",
            description = "wire: pgbench's thread model, each -j thread waiting on all its clients' connections at once, Kensho speaking "
                    + "the protocol itself with libpq's messages (TLS for sslmode prefer and require; the verifying sslmodes fall back to pgjdbc, with a warning); runs pipelines (\\startpipeline); "
                    + "pgjdbc: a thread and a pgjdbc connection per client (default ${DEFAULT-VALUE}).")
    String engine;

    Engine engine() {
        try {
            return Engine.parse(engine);
        } catch (IllegalArgumentException e) {
            throw KenshoException.usage(e.getMessage());
        }
    }
}
