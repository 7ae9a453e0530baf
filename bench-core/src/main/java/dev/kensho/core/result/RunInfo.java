package dev.kensho.core.result;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * run.json: what was run, where and how. Written when the run starts and rewritten (atomically)
 * when it ends or learns more about its environment.
 *
 * @param command     the command name ("pgbench run", "ssb")
 * @param commandLine the full command line, credentials masked (here, whoever passes it: a harness records its own
 *                    arguments, a --url or a password option among them)
 * @param started     start time (UTC)
 * @param parameters  the command's parameters (matrix definition, seed for the random order…)
 * @param environment captured server and client facts, one map per target label
 * @param notes       what Kensho did or decided on the user's behalf (restarts, skipped settings)
 */
public record RunInfo(String command, List<String> commandLine, Instant started, Map<String, Object> parameters,
                      Map<String, Object> environment, List<String> notes) {

    public RunInfo {
        // a run.json without them (hand-made, cut down) reads as having none: null ended --resume in a NullPointerException
        if (parameters == null) parameters = new LinkedHashMap<>();
        if (environment == null) environment = new LinkedHashMap<>();
        if (notes == null) notes = new java.util.ArrayList<>();
        if (commandLine != null) commandLine = List.of(dev.kensho.core.Credentials.maskArgs(commandLine.toArray(String[]::new)));
    }

    public static RunInfo of(String command, List<String> commandLine, Map<String, Object> parameters) {
        return new RunInfo(command, commandLine, Instant.now(), new LinkedHashMap<>(parameters),
                new LinkedHashMap<>(), new java.util.ArrayList<>());
    }
}
