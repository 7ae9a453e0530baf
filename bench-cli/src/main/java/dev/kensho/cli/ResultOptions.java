package dev.kensho.cli;

import dev.kensho.core.Credentials;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.Json;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.RunInfo;
import dev.kensho.core.server.ServerActions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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

    /** A parameter the run to resume recorded (null when not resuming, or not recorded): defaults that must carry over. */
    public Object recorded(String key) {
        if (resume == null || !Files.isRegularFile(resume.resolve("run.json"))) return null;   // open() says what is wrong
        return RunDirectory.info(resume).parameters().get(key);
    }

    /**
     * ", by another build of Kensho (commit A before, B now)" where the trials so far were measured by another build
     * than this one (an upgrade between a run and its resume), else "": the environment run.json holds is the last
     * session's, and the run's trials would otherwise read as one build's.
     */
    static String otherBuild(dev.kensho.core.result.RunInfo info) {
        java.util.Set<String> before = new java.util.TreeSet<>();
        for (String c : info.kenshoCommits()) before.add(c == null ? "not recorded" : c);
        String now = dev.kensho.core.KenshoVersion.commit();
        if (before.isEmpty() || before.equals(java.util.Set.of(now))) return "";
        return ", by another build of Kensho (commit " + String.join(", ", before) + " before, " + now + " now)";
    }

    /**
     * Creates the run directory (or reopens it with --resume) and says where it is on err.
     * The command line is stored with credentials masked.
     */
    public RunDirectory open(String command, Map<String, Object> parameters, PrintStream err) {
        RunDirectory dir;
        if (resume != null) {
            dir = RunDirectory.resume(resume);
            try {
                checkSameRun(dir, command, parameters);
            } catch (RuntimeException e) {
                dir.close();   // lets go of the run: a resume with the right options may follow in this JVM
                throw e;
            }
            err.println("resuming " + dir.path() + " (" + dir.trials().size() + " trials already recorded)");
            notPutBack(dir.info().notes()).forEach((server, changes) -> err.println("warning: the run changed " + server
                    + " with ALTER SYSTEM and did not put it back (it was killed): " + String.join(", ", changes)
                    + "; the server may still run with these (its postgresql.auto.conf has them), and this session will not put them back"));
            // which trials ran in which session: the environment run.json keeps is this session's
            dir.note("resumed at " + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " with "
                    + dir.trials().size() + " trials already recorded" + otherBuild(dir.info()));
            Kensho.resumedRunDirectory = dir;
        } else {
            boolean parentExisted = java.nio.file.Files.isDirectory(results);
            dir = RunDirectory.create(results, RunInfo.of(command, Arrays.asList(Credentials.maskArgs(Kensho.arguments())), parameters));
            Kensho.createdResults = parentExisted ? null : results;
            err.println("results: " + dir.path());
            Kensho.createdRun = dir.path();
            Kensho.createdRunDirectory = dir;
        }
        Kensho.activeRun = dir.path();
        // initdb, restarts, settings, ALTER SYSTEM: what Kensho did to the servers, in run.json's notes
        RunDirectory notes = dir;
        ServerActions.recordTo(notes::note);
        return dir;
    }

    /**
     * From run.json's notes, the ALTER SYSTEM changes to a remote server no later note restores (a run killed with -9
     * cannot put them back), by server: "remote 127.0.0.1:5432" → ["max_connections = 50"].
     */
    static Map<String, List<String>> notPutBack(List<String> notes) {
        Map<String, Map<String, String>> open = new java.util.LinkedHashMap<>();
        java.util.regex.Pattern change = java.util.regex.Pattern.compile("^(remote [^:]+:\\d+): ALTER SYSTEM (?:SET (\\S+) = (.*)|RESET (\\S+).*)$");
        for (String n : notes == null ? List.<String>of() : notes) {
            java.util.regex.Matcher m = change.matcher(n);
            if (!m.matches()) continue;
            Map<String, String> of = open.computeIfAbsent(m.group(1), k -> new java.util.LinkedHashMap<>());
            boolean restored = n.endsWith(" (restored)");
            String name = m.group(2) != null ? m.group(2) : m.group(4);
            if (restored) of.remove(name);
            else if (m.group(2) != null) of.put(name, name + " = " + m.group(3));
        }
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        open.forEach((server, changes) -> {
            if (!changes.isEmpty()) out.put(server, List.copyOf(changes.values()));
        });
        return out;
    }

    /**
     * The exit status of a run that measured: 1 when a trial of it failed (a resumed run's earlier ones too, as
     * summary.csv shows them), so that CI notices; a skipped cell (a setting the target cannot take) is no failure,
     * but a run whose every cell was skipped measured nothing: 1 too (it had exited 0, as if it had measured).
     */
    public static int exitStatus(RunDirectory dir, PrintStream err) {
        if (!dir.trials().isEmpty() && dir.trials().stream().allMatch(t -> "skipped".equals(t.status()))) {
            err.println(everySkipped(dir.trials().stream().map(t -> t.cell()).distinct().count(), "cell"));
            return 1;
        }
        // a failure a resume ran again with success is behind the run: only repeats still without a result count
        long failed = dir.trials().stream().filter(t -> "failed".equals(t.status()) && !dir.isFinished(t.cell(), t.repeat()))
                .map(t -> t.cell() + "#" + t.repeat()).distinct().count();
        if (failed == 0) return 0;
        err.println(failed + " of " + dir.trials().size() + " trials failed; the reasons are in summary.csv");
        return 1;
    }

    /** The line of a run that measured nothing because the target could take none of its cells. */
    public static String everySkipped(long n, String what) {
        return (n == 1 ? "its one " + what + " was" : "every one of its " + n + " " + what + "s was")
                + " skipped: nothing was measured; the reasons are in summary.csv";
    }

    /**
     * A resumed run must be the same run: trials of another command, or of other options, appended to
     * it would make its summary a mixture (a parameter given now and recorded then must be equal).
     */
    static void checkSameRun(RunDirectory dir, String command, Map<String, Object> parameters) {
        String recorded = dir.info().command();
        if (!command.equals(recorded)) {
            throw KenshoException.usage("--resume " + dir.path() + ": a '" + recorded + "' run, not '" + command + "'");
        }
        // an option an older Kensho did not record cannot be compared: resumed, its trials and the new ones were mixed
        // in one cell (an old scan's JIT-compiled full scans beside jit=off ones) and run.json took this command's value
        // for the whole run; one given now as nothing (null) is no difference
        List<String> unrecorded = parameters.entrySet().stream()
                .filter(e -> e.getValue() != null && !dir.info().parameters().containsKey(e.getKey())
                        && !e.getValue().equals(BEFORE_RECORDED.get(e.getKey()))).map(Map.Entry::getKey).toList();
        if (!unrecorded.isEmpty()) throw earlierKensho(dir, unrecorded);
        for (var e : parameters.entrySet()) {
            if (!dir.info().parameters().containsKey(e.getKey())) continue;
            com.fasterxml.jackson.databind.JsonNode was = asJson(dir.info().parameters().get(e.getKey()));
            com.fasterxml.jackson.databind.JsonNode now = asJson(e.getValue());
            // a size spelled otherwise is the same setting; not the same cell: a --matrix work_mem=1GB then 1024MB keyed
            // its cells by the text, and the resume measured a third cell beside the run's two
            boolean amounts = AMOUNTS.contains(e.getKey());
            if (amounts ? !same(was, now) : !was.equals(now)) {
                // an object of options (scan's) names the member that differs: the whole of it twice hid which
                String name = e.getKey();
                while (was.isObject() && now.isObject()) {
                    // a member an older Kensho did not record in an object of options (scan's options.caches), as above; a
                    // map of values (--set's settings, a --matrix) holding another key is another run, said below
                    final String at = name;
                    final com.fasterxml.jackson.databind.JsonNode had = was, has = now;
                    List<String> missing = fieldNames(has).stream().filter(f -> !had.has(f) && !has.get(f).isNull()).map(f -> at + "." + f).toList();
                    if (OPTION_RECORDS.contains(e.getKey()) && !missing.isEmpty()) throw earlierKensho(dir, missing);
                    if (!fieldNames(was).equals(fieldNames(now))) break;
                    String field = null;
                    for (String f : fieldNames(was)) {
                        if (amounts ? !same(was.get(f), now.get(f)) : !was.get(f).equals(now.get(f))) {
                            field = f;
                            break;
                        }
                    }
                    name += "." + field;
                    was = was.get(field);
                    now = now.get(field);
                }
                // the command itself: "--resume DIR" alone met a default (scan's --rows 1000000) and was told only of it
                throw KenshoException.usage("--resume " + dir.path() + ": that run had " + name + " " + was
                        + ", this command line " + now + " (given or by default); resume with the run's own options: "
                        + dir.info().resumeCommand(dir.path()));
            }
        }
    }

    /**
     * Equal as recorded, or the same amount spelled otherwise (--set shared_buffers=1GB then 1024MB, scan's
     * --shared-buffers 1GB then 1024MB): the server reads them alike, so the trials were measured alike.
     */
    private static boolean same(com.fasterxml.jackson.databind.JsonNode a, com.fasterxml.jackson.databind.JsonNode b) {
        if (a.equals(b)) return true;
        if (a.isTextual() && b.isTextual()) return dev.kensho.core.server.SettingValue.sameAmount(a.asText(), b.asText());
        if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) if (!same(a.get(i), b.get(i))) return false;
            return true;
        }
        if (a.isObject() && b.isObject() && fieldNames(a).equals(fieldNames(b))) {
            for (String f : fieldNames(a)) if (!same(a.get(f), b.get(f))) return false;
            return true;
        }
        return false;
    }

    /**
     * Parameters whose sizes and times compare as amounts (1GB = 1024MB): --set's settings, which the server reads, and
     * scan's options, whose resume runs with the recorded ones (labels and all). Not a --matrix, whose values key cells.
     */
    private static final java.util.Set<String> AMOUNTS = java.util.Set.of("settings", "options");

    /** Parameters that are one object of a command's options (scan's), whose members a later Kensho adds to. */
    private static final java.util.Set<String> OPTION_RECORDS = java.util.Set.of("options");

    /**
     * What every earlier Kensho did where it recorded no parameter: a run it made resumes with that value (its sweeps
     * sampled wait events every 100 ms), and run.json states the value of every new run.
     */
    private static final Map<String, Object> BEFORE_RECORDED = Map.of("wait_sample_ms", 100);

    private static KenshoException earlierKensho(RunDirectory dir, List<String> unrecorded) {
        return KenshoException.usage("--resume " + dir.path() + ": that run was written by an earlier Kensho, which did not record "
                + String.join(", ", unrecorded) + ": its trials may have been measured otherwise than this command's; start a new run");
    }

    /** An object's member names in its order; equal to another's whatever the order (a Map.of's differs from run to run). */
    private static java.util.Set<String> fieldNames(com.fasterxml.jackson.databind.JsonNode object) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** A value as run.json holds it, so a number or list read back compares equal to the one given. */
    private static com.fasterxml.jackson.databind.JsonNode asJson(Object v) {
        try {
            // masked, as run.json holds it: a --set conninfo's password is "****" there, and no other value
            return Json.MAPPER.readTree(Json.MASKING.writeValueAsString(v));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
