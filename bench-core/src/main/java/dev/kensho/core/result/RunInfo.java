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

    /**
     * The Kensho build (commit) each target's facts name, in label order, null for a target an older Kensho recorded
     * without one. A target's facts keep Kensho's under "client"; other maps there (scan's layouts, storage) are skipped.
     */
    public List<String> kenshoCommits() {
        List<String> out = new java.util.ArrayList<>();
        for (Object facts : environment.values()) {
            if (facts instanceof Map<?, ?> m && m.get("client") instanceof Map<?, ?> c) {
                out.add(c.get("kensho_commit") == null ? null : String.valueOf(c.get("kensho_commit")));
            }
        }
        return out;
    }

    /**
     * The command that resumes this run in dir: its own command line with --resume, since a resume with other options
     * (or none) is refused and "--resume DIR" alone sent the user to an error. A password is masked here and has to
     * be given again.
     */
    public String resumeCommand(java.nio.file.Path dir) {
        List<String> line = new java.util.ArrayList<>(commandLine == null ? List.of() : commandLine);
        int earlier = line.indexOf("--resume");
        if (earlier >= 0) line.subList(earlier, Math.min(earlier + 2, line.size())).clear();
        String resume = "--resume " + shellWord(dir.toString());
        if (line.isEmpty()) return resume;
        String words = String.join(" ", line.stream().map(RunInfo::shellWord).toList());
        return program + " " + words + " " + resume + (words.contains("****") ? ", the masked password given again," : "");
    }

    /** How the process that prints a resume command was started: bench.jar's entry point sets it to the jar it ran. */
    private static volatile String program = "java -jar bench.jar";

    /** Sets what {@link #resumeCommand} starts with ("java -jar /opt/kensho.jar"): stderr, report and compare say it. */
    public static void startedAs(String command) {
        program = command;
    }

    /** An argument as a shell takes it back: the command line can be copied and run again. */
    public static String shellWord(String arg) {
        if (!arg.isEmpty() && arg.matches("[A-Za-z0-9_./:=,@%+-]+")) return arg;
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    /**
     * A new run's info, started now, for {@link RunDirectory#create}.
     *
     * @param command     what ran ("pgbench sweep", or a harness's own name): --resume and compare match runs by it
     * @param commandLine the arguments as given (a password in them is masked when written)
     * @param parameters  the options that define the run, compared by --resume and shown by report and compare; null for none
     */
    public static RunInfo of(String command, List<String> commandLine, Map<String, Object> parameters) {
        // none given reads as none, as the record takes it: a harness's RunInfo.of(command, args, null) was a NullPointerException
        return new RunInfo(command, commandLine, Instant.now(), parameters == null ? new LinkedHashMap<>() : new LinkedHashMap<>(parameters),
                new LinkedHashMap<>(), new java.util.ArrayList<>());
    }
}
