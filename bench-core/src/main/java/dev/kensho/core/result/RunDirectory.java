package dev.kensho.core.result;

import dev.kensho.core.JvmShutdown;

import dev.kensho.core.KenshoException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * results/&lt;UTC timestamp&gt;-&lt;command&gt;/: run.json, trials.jsonl, summary.csv.
 *
 * <p>Each trial is appended as one JSON line and forced to disk before {@link #append} returns, so
 * Ctrl-C, a crash or SIGKILL loses nothing already measured; files that are rewritten go through a
 * temporary file and a rename. {@link #resume} reopens a directory and tells which cells are done.
 *
 * <p>One instance may be shared by the threads of a run: its methods that read or append trials are synchronized.
 */
public final class RunDirectory implements AutoCloseable {
    public static final String RUN = "run.json";
    public static final String TRIALS = "trials.jsonl";
    public static final String SUMMARY = "summary.csv";
    /** The start of the note of a run that ended in an error before its first trial; the error's words follow. */
    public static final String FAILED_BEFORE_FIRST_TRIAL = "failed before its first trial: ";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Path dir;
    private RunInfo info;
    private final List<Trial> trials = new ArrayList<>();
    private final Set<String> finished = new HashSet<>();
    /** The cells in the order a command planned them (see {@link #plannedCells}), whatever order they ran in. */
    private final Set<String> planned = new java.util.LinkedHashSet<>();
    private final FileChannel out;
    /** Rewrites summary.csv from the trials; null until the command says how (see {@link #summarizeAfterEachTrial}). */
    private java.util.function.Consumer<RunDirectory> summary;

    /** The wall clock's steps since this run began or resumed, looked at as each timed trial is appended. */
    private final WallClockStep wallClock = WallClockStep.ofSystem();

    /** A new run's directory with its info, or (info null) a run to resume, read once this process holds it. */
    private RunDirectory(Path dir, RunInfo info) throws IOException {
        boolean resuming = info == null;
        this.dir = dir;
        this.info = info;
        // run.json before trials.jsonl: a kill in between leaves a directory report and --resume can read
        if (!resuming && !Files.exists(dir.resolve(RUN))) writeInfo();
        // written by this JVM already: opening the file, and closing it on the refusal, would drop that writer's lock
        if (WRITING_HERE.contains(dir.toAbsolutePath().normalize())) throw alreadyWritten(dir, resuming);
        this.out = FileChannel.open(dir.resolve(TRIALS), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        // one writer at a time: a second --resume of a run that is still going would run its missing trials twice.
        // The lock goes with the process (SIGKILL included); this channel is the only one the run opens on the file,
        // as closing another would drop the lock.
        if (!locked(out)) {
            out.close();
            throw alreadyWritten(dir, resuming);
        }
        if (resuming) {
            // read as its one writer, after the cut: a line a full disk cut just before its newline is whole JSON, and
            // read before the cut it counted as finished while the file no longer held it
            try {
                truncatePartialLine(out);
                this.info = Json.MAPPER.readValue(dir.resolve(RUN).toFile(), RunInfo.class);
                // the run's own order of cells: a resume with nothing left to run plans none, and its summary.csv came
                // out in the order the trials had run (a random order's)
                if (this.info.parameters() != null && this.info.parameters().get(PLANNED_CELLS) instanceof List<?> cells) {
                    for (Object c : cells) if (c instanceof String s) planned.add(s);
                }
                // through the locked channel: closing any other descriptor of the file would drop the process's lock
                out.position(0);
                java.io.InputStream unclosed = new java.io.FilterInputStream(java.nio.channels.Channels.newInputStream(out)) {
                    @Override
                    public void close() {
                        // the channel stays open, and with it the lock
                    }
                };
                try (BufferedReader r = new BufferedReader(new java.io.InputStreamReader(unclosed, StandardCharsets.UTF_8))) {
                    for (Trial t : readTrials(r, dir.resolve(TRIALS))) record(t);
                }
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
        }
        out.position(out.size());
        WRITING_HERE.add(dir.toAbsolutePath().normalize());
    }

    private static KenshoException alreadyWritten(Path dir, boolean resuming) {
        return KenshoException.usage((resuming ? "--resume " : "") + dir + ": another Kensho process is writing to this run "
                + "(the run itself, or another --resume of it); wait for it to end");
    }

    /** The runs this JVM writes: asked of one of them, {@link #beingWritten} must not open its file (see there). */
    private static final Set<Path> WRITING_HERE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Whether a process writes to the run in dir now (its lock on trials.jsonl is held): a report of a run that is still
     * going said it had stopped and offered a --resume, which was then refused. Within the writing JVM the file is not
     * opened: closing any descriptor of it would drop the writer's lock.
     */
    public static boolean beingWritten(Path dir) {
        Path d = dir.toAbsolutePath().normalize();
        if (WRITING_HERE.contains(d)) return true;
        if (!Files.isRegularFile(d.resolve(TRIALS))) return false;
        try (FileChannel ch = FileChannel.open(d.resolve(TRIALS), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            java.nio.channels.FileLock l = ch.tryLock(WRITER_LOCK, 1, false);
            if (l == null) return true;
            l.release();
            return false;
        } catch (java.nio.channels.OverlappingFileLockException sameJvm) {
            return true;
        } catch (IOException | RuntimeException cannotTell) {
            return false;   // a directory this user may only read: said as a finished or interrupted run
        }
    }

    /**
     * The byte the writer locks, far past any content: Windows enforces a lock on what it covers, and a lock of the whole
     * file (the default) kept `bench report` from reading a run in progress. A whole-file lock of an older build covers
     * it too, so the two still exclude each other.
     */
    private static final long WRITER_LOCK = Long.MAX_VALUE - 1;

    private static boolean locked(FileChannel ch) throws IOException {
        try {
            return ch.tryLock(WRITER_LOCK, 1, false) != null;
        } catch (java.nio.channels.OverlappingFileLockException sameJvm) {
            return false;
        }
    }

    /**
     * Creates root/&lt;UTC stamp&gt;-&lt;command&gt; (root too, where missing) with its run.json; a -2, -3... suffix keeps
     * two runs in one second apart. The command names the directory and picks the report's charts: a workload's
     * {@code COMMAND} gets that workload's.
     *
     * @return the open directory, the caller's to close
     * @throws dev.kensho.core.KenshoException a usage one where root is a file or the directory cannot be made
     */
    public static RunDirectory create(Path root, RunInfo info) {
        JvmShutdown.begun();   // watching from now on
        String base = STAMP.format(info.started()) + "-" + info.command().trim().replaceAll("[^A-Za-z0-9._-]+", "-");
        // createDirectories on a file says only "already exists"
        if (Files.exists(root) && !Files.isDirectory(root)) throw KenshoException.usage("--results " + root + ": is a file, not a directory");
        try {
            Files.createDirectories(root);
            Path dir = root.resolve(base);
            for (int i = 2; ; i++) {
                try {
                    Files.createDirectory(dir);
                    break;
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    dir = root.resolve(base + "-" + i);
                }
            }
            try {
                return new RunDirectory(dir, info);
            } catch (IOException | RuntimeException e) {
                removeUnstarted(dir);   // a full disk left an empty run directory (or a run.json without trials.jsonl)
                throw e;
            }
        } catch (IOException e) {
            throw KenshoException.usage("--results " + root + ": cannot create a run directory there (" + KenshoException.ioReason(e) + ")");
        }
    }

    /** Deletes a run directory this process just made and could not start: what RunDirectory itself wrote, then it. */
    private static void removeUnstarted(Path dir) {
        try {
            for (String own : List.of(RUN + ".tmp", RUN, TRIALS)) Files.deleteIfExists(dir.resolve(own));
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // the error being thrown says what matters
        }
    }

    /** Reopens an interrupted run: its run.json and every complete line of trials.jsonl. */
    public static RunDirectory resume(Path dir) {
        JvmShutdown.begun();   // watching from now on
        if (!Files.exists(dir)) throw KenshoException.usage("--resume " + dir + ": no such directory");
        if (!Files.isDirectory(dir)) throw KenshoException.usage("--resume " + dir + ": not a directory");
        if (!Files.isRegularFile(dir.resolve(RUN))) {
            throw KenshoException.usage("--resume " + dir + ": not a results directory (no " + RUN + ")");
        }
        try {
            // a foreign run.json is refused before anything is made
            if (Json.MAPPER.readValue(dir.resolve(RUN).toFile(), RunInfo.class) == null) throw new IOException(RUN + " is null");
        } catch (IOException e) {
            throw KenshoException.usage("--resume " + dir + ": cannot read it (" + whatIsWrong(RUN, e) + ")");
        }
        try {
            return new RunDirectory(dir, null);
        } catch (IOException e) {
            // a read-only file system said "cannot read it"
            throw KenshoException.usage("--resume " + dir + ": cannot write to it (" + KenshoException.ioReason(e) + ")");
        }
    }

    /** Every complete trial in a trials.jsonl; a line cut short by a crash is ignored. */
    public static List<Trial> readTrials(Path file) throws IOException {
        if (!Files.exists(file)) return new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return readTrials(r, file);
        }
    }

    private static List<Trial> readTrials(BufferedReader r, Path file) throws IOException {
        List<Trial> list = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        int lineNo = 0, last = 0;
        String line;
        while ((line = r.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) continue;
            last = lineNo;
            Trial t;
            try {
                t = Json.MAPPER.readValue(line, Trial.class);
            } catch (IOException e) {
                // whole JSON of the wrong shape (a field's type) is no crash's remnant, even on the last line: said
                boolean whole = e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException;
                bad.add((whole ? "whole:" : "") + lineNo + "\t" + whatIsWrong(file.getFileName() + ":" + lineNo, e).replaceFirst("^[^ ]*:\\d+:\\d+: ", ""));
                continue;
            }
            // whole JSON, so no crash's remnant: said even on the last line ("null", {}, another tool's record)
            String missing = t == null ? "null" : t.cell() == null ? "no cell" : t.status() == null ? "no status" : null;
            if (missing != null) {
                System.err.println("warning: " + file + ":" + lineNo + ": not a trial, skipped (" + missing + ")");
                continue;
            }
            list.add(compactTimelines(t));
        }
        // the last line may be partial (killed mid-write) and is skipped quietly; one before it was damaged since
        for (String b : bad) {
            boolean whole = b.startsWith("whole:");
            int n = Integer.parseInt(b.substring(whole ? 6 : 0, b.indexOf('\t')));
            if (n != last || whole) System.err.println("warning: " + file + ":" + n + ": not a trial, skipped (" + b.substring(b.indexOf('\t') + 1) + ")");
        }
        return list;
    }

    /** The trial with its timelines' columns held as doubles (a study's run is mostly host timeline: {@link DoubleColumn}). */
    private static Trial compactTimelines(Trial t) {
        if (t.extra() == null || (!(t.extra().get(Timeline.KEY) instanceof Map<?, ?>) && !(t.extra().get(Timeline.HOST) instanceof Map<?, ?>))) {
            return t;
        }
        Map<String, Object> extra = new java.util.LinkedHashMap<>(t.extra());
        for (String key : List.of(Timeline.KEY, Timeline.HOST)) {
            if (!(extra.get(key) instanceof Map<?, ?> columns)) continue;
            Map<Object, Object> compact = new java.util.LinkedHashMap<>();
            columns.forEach((k, v) -> compact.put(k, v instanceof List<?> l ? DoubleColumn.of(l) : v));
            extra.put(key, compact);
        }
        return new Trial(t.cell(), t.repeat(), t.params(), t.metrics(), extra, t.status(), t.started(), t.finished());
    }

    /** A SIGKILL during write can leave a line without its newline; cut it so appends stay valid JSONL. */
    private static void truncatePartialLine(FileChannel ch) throws IOException {
        long size = ch.size();
        if (size == 0) return;
        ByteBuffer b = ByteBuffer.allocate(1);
        ch.read(b, size - 1);
        if (b.get(0) == '\n') return;
        long pos = size - 1;
        while (pos > 0) {
            b.clear();
            ch.read(b, pos - 1);
            if (b.get(0) == '\n') break;
            pos--;
        }
        ch.truncate(pos);
    }

    /** Opens the run in dir for reading only (reports, comparisons): its {@link Trial#standing standing} trials. */
    public static RunResults read(Path dir) {
        RunInfo info = info(dir);
        try {
            return new RunResults(dir, info, Trial.standing(readTrials(dir.resolve(TRIALS))));
        } catch (IOException e) {
            throw unreadable(dir, TRIALS, e);
        }
    }

    /** The run's run.json alone: what it was asked and found, without its trials. */
    public static RunInfo info(Path dir) {
        try {
            RunInfo info = Json.MAPPER.readValue(dir.resolve(RUN).toFile(), RunInfo.class);
            if (info == null) throw new IOException(RUN + " is null");   // read on, a NullPointerException
            return info;
        } catch (IOException e) {
            throw unreadable(dir, RUN, e);
        }
    }

    private static KenshoException unreadable(Path dir, String file, IOException e) {
        return KenshoException.usage(dir + ": not a readable results directory (" + whatIsWrong(file, e) + ")");
    }

    /**
     * What is wrong with a results file, as file:line:column and words: Jackson's own named Java types
     * ({@code "Cannot deserialize value of type 'java.util.LinkedHashMap<java.lang.String,java.lang.Object>' from
     * Integer value"}) and its source ("[Source: REDACTED ('StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION' disabled)"), and a
     * file that is no UTF-8 text said only "Input length = 1".
     */
    static String whatIsWrong(String file, IOException e) {
        if (e instanceof java.nio.charset.CharacterCodingException) return file + " is not UTF-8 text (a results file is JSON)";
        if (!(e instanceof com.fasterxml.jackson.core.JsonProcessingException j) || j.getLocation() == null) {
            return KenshoException.firstLine(e.getMessage());
        }
        String at = file + ":" + j.getLocation().getLineNr() + ":" + j.getLocation().getColumnNr() + ": ";
        if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException m && m.getTargetType() != null) {
            String field = m.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(java.util.stream.Collectors.joining(".")).replace(".[", "[");
            return at + (field.isEmpty() ? "the whole file" : field) + " is not " + expected(m.getTargetType());
        }
        if (e instanceof com.fasterxml.jackson.core.io.JsonEOFException) return at + "the file ends early (cut short?)";
        // "Unexpected character ('x' (code 120)): ..." is the JSON's own fault, in its words; without the source
        return at + KenshoException.firstLine(j.getOriginalMessage()).replaceFirst("\\s*\\(start marker at \\[Source.*$", "");
    }

    private static String expected(Class<?> type) {
        if (Map.class.isAssignableFrom(type) || type.isRecord()) return "an object";
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) return "a list";
        if (Number.class.isAssignableFrom(type) || type == int.class || type == long.class || type == double.class) return "a number";
        if (type == boolean.class || type == Boolean.class) return "true or false";
        if (type == String.class) return "text";
        if (type == java.time.Instant.class) return "a time (2026-01-01T00:00:00Z)";
        return "a " + type.getSimpleName();
    }

    /** Why a run without trials ended (the error its command ended with), if it failed rather than was stopped. */
    public static java.util.Optional<String> failedBeforeFirstTrial(RunInfo info) {
        List<String> notes = info.notes() == null ? List.of() : info.notes();
        for (int i = notes.size() - 1; i >= 0; i--) {
            if (notes.get(i).startsWith(FAILED_BEFORE_FIRST_TRIAL)) return java.util.Optional.of(notes.get(i).substring(FAILED_BEFORE_FIRST_TRIAL.length()));
        }
        return java.util.Optional.empty();
    }

    /** The run's directory: results/&lt;stamp&gt;-&lt;command&gt;. */
    public Path path() {
        return dir;
    }

    /** What run.json says now. */
    public synchronized RunInfo info() {
        return info;
    }

    /** Adds a note to run.json ("restarted for max_worker_processes=16"). */
    public synchronized void note(String line) {
        info.notes().add(line);
        writeInfo();
    }

    /**
     * Adds a note unless run.json has it already: for a state ("the role may not CHECKPOINT"), which a run resumed
     * with --resume finds again and would otherwise note twice; an event (a restart, a wait) takes {@link #note}.
     */
    public synchronized void noteOnce(String line) {
        if (!info.notes().contains(line)) note(line);
    }

    /** Records a target's environment (e.g. {@code Environment.capture(target)}) under its label in run.json. */
    public synchronized void environment(String label, Object facts) {
        info.environment().put(label, facts);
        writeInfo();
    }

    /** Records one of the run's parameters in run.json. */
    public synchronized void parameter(String name, Object value) {
        info.parameters().put(name, value);
        writeInfo();
    }

    /** Appends one trial and forces it to disk. */
    public synchronized void append(Trial t) {
        // a trial finishing while the JVM ends ran while its server stopped or changed: not a result (resume reruns it)
        if (JvmShutdown.begun()) return;
        // a skipped trial has no times for a step to put off: the next timed one takes it
        double step = t.started() == null ? 0 : wallClock.look();
        if (step != 0) t = t.withExtra(Trial.WALL_CLOCK_STEP, step);
        try {
            byte[] line = (Json.MASKING.writeValueAsString(t) + "\n").getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.wrap(line);
            while (b.hasRemaining()) out.write(b);
            out.force(false);
        } catch (IOException e) {
            // a full disk: one line saying so (the trials before this one are whole; --resume cuts a half-written one)
            throw new KenshoException(KenshoException.FAILURE, "cannot append to " + dir.resolve(TRIALS) + ": " + KenshoException.ioReason(e), e);
        }
        // kept for summary.csv and --resume: a 300 s sweep trial's timelines as doubles, not boxed (DoubleColumn)
        record(compactTimelines(t));
        if (summary != null) summary.accept(this);
    }

    /**
     * How the command makes summary.csv: from now on it is rewritten after every appended trial, so a run that
     * Ctrl-C or SIGKILL ends has the summary of what it finished (a command's own last write may never come).
     */
    public synchronized void summarizeAfterEachTrial(java.util.function.Consumer<RunDirectory> writer) {
        this.summary = writer;
    }

    /** Whether a command said how to write summary.csv ({@link #summarizeAfterEachTrial}). */
    public synchronized boolean summarizesAfterEachTrial() {
        return summary != null;
    }

    private void record(Trial t) {
        trials.add(t);
        if (!"failed".equals(t.status())) finished.add(key(t.cell(), t.repeat()));
    }

    private static String key(String cell, int repeat) {
        return cell + "#" + repeat;
    }

    /** True when this cell's repeat already has a trial (ok or skipped): --resume skips it. */
    public synchronized boolean isFinished(String cell, int repeat) {
        return finished.contains(key(cell, repeat));
    }

    /**
     * The cells of a trial matrix in the order its command lists them (targets, then client counts, as given): a random
     * trial order must not shuffle the rows of summary.csv. Several matrices of one run add theirs after the earlier ones.
     */
    public synchronized void plannedCells(List<String> cells) {
        planned.addAll(cells);
        // kept in run.json too: a report of an interrupted run names the cells it never reached
        if (!planned.equals(info.parameters().get(PLANNED_CELLS))) parameter(PLANNED_CELLS, List.copyOf(planned));
    }

    /** run.json's parameter that lists {@link #plannedCells}: what the run set out to measure. */
    public static final String PLANNED_CELLS = "planned_cells";

    public synchronized List<String> plannedCells() {
        return List.copyOf(planned);
    }

    /** Every trial so far, a resumed run's earlier ones included, in the order they were appended. */
    public synchronized List<Trial> trials() {
        return Collections.unmodifiableList(new ArrayList<>(trials));
    }

    /** Writes summary.csv atomically. Values are quoted where CSV needs it. */
    public void writeSummary(List<String> header, List<List<Object>> rows) {
        // a failed cell's reason quotes the error, which may quote the statement
        writeAtomically(SUMMARY, Csv.format(header, rows.stream()
                .map(r -> r.stream().map(v -> v instanceof String t ? (Object) dev.kensho.core.Credentials.maskText(t) : v).toList()).toList()));
    }

    /** Writes name (e.g. "plans/q1.1.json") as pretty JSON, atomically. */
    public void writeJson(String name, Object value) {
        try {
            writeAtomically(name, Json.MASKING.writerWithDefaultPrettyPrinter().writeValueAsString(value));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes name in this directory as UTF-8 text: a temporary file, then a rename, so a reader never sees half. */
    public void writeAtomically(String name, String content) {
        Path target = dir.resolve(name);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            Files.createDirectories(target.getParent());
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);   // the earlier version of the file stays as it was
            } catch (IOException ignored) {
                // the message below says what matters
            }
            throw new KenshoException(KenshoException.FAILURE, "cannot write " + target + ": " + KenshoException.ioReason(e), e);
        }
    }

    private void writeInfo() {
        writeJson(RUN, info);
    }

    /** Closes trials.jsonl; every trial was on disk already, and the directory stays. */
    @Override
    public synchronized void close() {
        WRITING_HERE.remove(dir.toAbsolutePath().normalize());
        try {
            out.close();
        } catch (IOException ignored) {
            // every trial was forced already
        }
    }
}
