package dev.kensho.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs bench.jar in its own JVM, as a user does. */
final class BenchJar {
    static final Path JAR = Path.of(System.getProperty("kensho.jar", "bench.jar")).toAbsolutePath().normalize();

    record Result(int exitCode, String out, String err) {
        String all() {
            return out + err;
        }
    }

    static Process start(Path workDir, String... args) throws IOException {
        return start(workDir, java.util.Map.of(), args);
    }

    /** With environment variables added to this JVM's. */
    static Process start(Path workDir, java.util.Map<String, String> env, String... args) throws IOException {
        return start(workDir, List.of(), env, args);
    }

    /** Started by a wrapper command (runuser, a shell setting a ulimit) that runs the java command it is given after it. */
    static Process start(Path workDir, List<String> wrapper, java.util.Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(wrapper);
        // C1 only and the serial collector, as the test JVMs (the parent pom says why): these runs check what the command
        // does, not how fast, and C2 and the parallel collector took a fifth of this module's CPU, on the suite's critical path
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        Files.createDirectories(workDir);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile())
                .redirectOutput(workDir.resolve("stdout.txt").toFile())
                .redirectError(workDir.resolve("stderr.txt").toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    static Result run(Path workDir, String... args) throws Exception {
        return run(workDir, java.util.Map.of(), args);
    }

    static Result run(Path workDir, java.util.Map<String, String> env, String... args) throws Exception {
        return run(workDir, List.of(), env, args);
    }

    static Result run(Path workDir, List<String> wrapper, java.util.Map<String, String> env, String... args) throws Exception {
        Process p = start(workDir, wrapper, env, args);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bench.jar " + String.join(" ", args) + " did not finish in 300 s");
        }
        return new Result(p.exitValue(), Files.readString(workDir.resolve("stdout.txt"), StandardCharsets.UTF_8),
                withoutJvmNotes(Files.readString(workDir.resolve("stderr.txt"), StandardCharsets.UTF_8)));
    }

    /**
     * The launcher's own first lines where the environment sets JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS (some CI hosts do,
     * and a coverage agent does): they are the JVM's words, not Kensho's, so the one-line error checks hold around them.
     */
    static String withoutJvmNotes(String err) {
        while (err.startsWith("Picked up JAVA_TOOL_OPTIONS: ") || err.startsWith("NOTE: Picked up JDK_JAVA_OPTIONS: ")) {
            int nl = err.indexOf('\n');
            err = nl < 0 ? "" : err.substring(nl + 1);
        }
        return err;
    }
    /** Waits until the run's trials.jsonl (under workDir/results) holds at least n trials; returns its path. */
    static Path waitForTrials(Process p, Path workDir, int n) throws Exception {
        Path results = workDir.resolve("results");
        Path trials = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (trials == null && Files.isDirectory(results)) {
                try (var d = Files.list(results)) {
                    trials = d.findFirst().map(x -> x.resolve(dev.kensho.core.result.RunDirectory.TRIALS)).orElse(null);
                }
            }
            if (trials != null && Files.exists(trials) && Files.readAllLines(trials).size() >= n) return trials;
            Thread.sleep(50);
        }
        throw new AssertionError("no " + n + " trials appeared: " + Files.readString(workDir.resolve("stderr.txt")));
    }

    /** After Ctrl-C the interrupt's line is the last: nothing the stop broke is reported after it. */
    static void assertLastLineIsTheInterrupt(String err) {
        List<String> lines = err.strip().lines().toList();
        if (!lines.get(lines.size() - 1).startsWith("bench: interrupted")) throw new AssertionError(err);
    }

    /** The run directories under a --results directory: none where a run that measured nothing removed it with its run. */
    static long runDirectories(Path results) throws java.io.IOException {
        if (!java.nio.file.Files.exists(results)) return 0;
        try (var d = java.nio.file.Files.list(results)) {
            return d.count();
        }
    }

    /** An error line without the note that the run directory it had announced was removed (nothing measured). */
    static String withoutRemovedRun(String err) {
        return err.replaceAll(" \\(nothing was measured: [^\\n]* removed\\)", "");
    }
}
