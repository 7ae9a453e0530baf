package dev.kensho.cli;

import dev.kensho.core.env.Environment;
import dev.kensho.core.result.Json;
import dev.kensho.core.server.Target;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Starts or connects to the target and prints what a run would record about it. */
@Command(name = "env", mixinStandardHelpOptions = true,
        description = "Print the environment Kensho records for the target (server version, non-default settings, "
                + "JIT, checksums, client host), as JSON. A quick check that a target works.")
final class EnvCommand implements Callable<Integer> {
    @Mixin TargetOptions target;

    @Override
    public Integer call() throws Exception {
        try (Target t = target.single().open()) {
            System.out.println(Json.MASKING.writerWithDefaultPrettyPrinter().writeValueAsString(Environment.capture(t)));
        }
        return 0;
    }
}
