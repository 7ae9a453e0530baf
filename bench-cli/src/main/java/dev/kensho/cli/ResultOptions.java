package dev.kensho.cli;

import dev.kensho.core.Credentials;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where results go, and how to continue an interrupted run (a picocli mixin). */
public final class ResultOptions {

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "Parent directory of run directories (default: ${DEFAULT-VALUE}); each run writes "
                    + "DIR/<UTC timestamp>-<command>/ with run.json, trials.jsonl and summary.csv.")
    Path results;

    @Option(names = "--resume", paramLabel = "RUN_DIR",
            description = "Continue the interrupted run in RUN_DIR: finished trials are kept and skipped.")
    Path resume;

    public boolean resuming() {
        return resume != null;
    }

    /**
     * Creates the run directory (or reopens it with --resume) and says where it is on err.
     * The command line is stored with credentials masked.
     */
    public RunDirectory open(String command, Map<String, Object> parameters, PrintStream err) {
        RunDirectory dir;
        if (resume != null) {
            dir = RunDirectory.resume(resume);
            err.println("resuming " + dir.path() + " (" + dir.trials().size() + " trials already recorded)");
        } else {
            dir = RunDirectory.create(results, RunInfo.of(command, Arrays.asList(Credentials.maskArgs(Kensho.arguments())), parameters));
            err.println("results: " + dir.path());
            Kensho.createdRun = dir.path();
        }
        Kensho.activeRun = dir.path();
        return dir;
    }

    /** The parameters recorded by the run being resumed (for checking they match), or null. */
    public Path resumeDirectory() {
        return resume;
    }
}
