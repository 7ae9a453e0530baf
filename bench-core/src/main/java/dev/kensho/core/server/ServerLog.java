package dev.kensho.core.server;

import dev.kensho.core.JvmShutdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A managed server's server.log, which pg_ctl -l appends to (a kept directory's holds its earlier runs): read on from a
 * place in it (its length before a start or a reload) for the server's own words on a failed start, a rejected setting
 * or a crash.
 */
final class ServerLog {
    private final Path file;

    ServerLog(Path file) {
        this.file = file;
    }

    Path path() {
        return file;
    }

    /** Its length now: where {@link #linesSince} and a {@link CrashScan} read on from. */
    long size() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The lines server.log gained since it was this long (pg_ctl -l appends: a kept directory's log holds older runs). */
    List<String> linesSince(long mark) {
        // a RandomAccessFile, not a channel: a channel read with the thread's interrupt pending (a cancelled start) closes
        // and reads nothing, and the start's failure lost the log's reason
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "r")) {
            long length = f.length();
            if (mark >= length) return List.of("");
            byte[] added = new byte[(int) Math.min(length - mark, Integer.MAX_VALUE - 8)];
            f.seek(mark);
            f.readFully(added);
            return List.of(new String(added, StandardCharsets.UTF_8).split("\n"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The server's words for a failed start, as " (server log: ...)" to follow a tool's own, else "". */
    String tail(long startMark) {
        try {
            if (!Files.exists(file)) return "";
            // a kept directory's log holds its earlier starts: their "invalid value" is not this start's reason
            List<String> lines = startMark >= 0 ? linesSince(startMark) : Files.readAllLines(file, StandardCharsets.UTF_8);
            String why = startFailure(lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            if (why != null) return " (server log: " + why + ")";
        } catch (IOException ignored) {
            // the log is a courtesy here
        }
        return "";
    }

    /** The server's words for a failed start, from the last lines of its log; null where none says. */
    static String startFailure(List<String> tail) {
        // The line naming the bad parameter (or the config file's line) is more useful than the FATAL that follows it.
        for (String key : List.of("invalid value", "unrecognized configuration parameter", "syntax error in file", "FATAL", "ERROR")) {
            for (int i = tail.size() - 1; i >= 0; i--) {
                String l = tail.get(i);
                if (l.contains(key)) return logMessage(l);
            }
        }
        // a check before the server's logging is set up writes "postgres: ..." with no level (max_connections=1:
        // reserved connections must be fewer), and pg_ctl only says "Examine the log output."
        for (int i = tail.size() - 1; i >= 0; i--) {
            String l = tail.get(i);
            if (l.startsWith("postgres: ")) return logMessage(l);
        }
        return null;
    }

    /**
     * The line of a tool's output that says why it failed: the server's last FATAL, PANIC or ERROR (initdb's bootstrap
     * "could not write to file ...: No space left on device"), else the last line that is not initdb's cleanup note.
     */
    static String failureReason(String text) {
        String[] lines = text.strip().split("\n");
        for (int i = lines.length - 1; i >= 0; i--) {
            if (lines[i].matches(".*\\b(FATAL|PANIC|ERROR):.*")) return logMessage(lines[i]);
        }
        for (int i = lines.length - 1; i >= 0; i--) {
            String l = lines[i].strip();
            if (!l.isEmpty() && !l.startsWith("initdb: removing") && !l.startsWith("initdb: data directory")) return l;
        }
        return lines.length == 0 ? "" : lines[lines.length - 1];
    }

    /** A server log line without its prefix (time, pid, level): the server's words. */
    static String logMessage(String line) {
        return line.replaceFirst("^postgres: ", "").replaceFirst("^.*?(LOG|FATAL|PANIC|ERROR):\\s*", "").strip();
    }

    /**
     * The server's own words for a reload it could not apply (e.g. 'invalid value for parameter
     * "work_mem": "banana"'): the postmaster logs them as it processes SIGHUP, possibly a moment
     * after pg_file_settings has shown the error, so wait a little for the line.
     */
    String line(long from, String mentioning, String otherwise) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        do {
            for (String l : linesSince(from)) {
                if (l.contains(mentioning) && !l.contains("cannot be changed without restarting")) return logMessage(l);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return otherwise;
            }
        } while (System.nanoTime() < deadline);
        return otherwise;
    }

    /** See {@link ServerControl#crashSince}: -1 as mark (no place to read from) finds none. */
    Optional<String> crashSince(long mark, long waitMillis) {
        if (mark < 0) return Optional.empty();
        // the postmaster logs a process's end as it reaps it, a moment after the client saw its connection go
        long giveUp = System.nanoTime() + waitMillis * 1_000_000L;
        CrashScan scan = new CrashScan(mark);
        String crash = scan.scan(file);
        while (crash == null && System.nanoTime() < giveUp && !JvmShutdown.begun()) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            crash = scan.scan(file);
        }
        return Optional.ofNullable(crash);
    }

    /**
     * Looks through server.log from a place on for a crash, line by line and on from where it stopped: a log of every
     * statement (log_statement=all) grows by gigabytes in a trial, and was read whole into memory.
     */
    static final class CrashScan {
        /** A line's start is enough to recognise it; a logged statement's megabytes are not kept. */
        private static final int LINE_KEPT = 8192;
        private long position;
        private String panic;

        CrashScan(long mark) {
            position = mark;
        }

        /** The crash's line, else the PANIC seen (the client saw its connection end there, before the reaping is logged). */
        String scan(Path log) {
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(log.toFile(), "r")) {
                long end = f.length(), at = position;
                f.seek(position);
                byte[] buf = new byte[1 << 16], line = new byte[LINE_KEPT];
                int kept = 0;
                while (at < end) {
                    int n = f.read(buf, 0, (int) Math.min(buf.length, end - at));
                    if (n <= 0) break;
                    int from = 0;
                    for (int i = 0; i < n; i++) {
                        if (buf[i] != '\n') continue;
                        int take = Math.min(i - from, LINE_KEPT - kept);
                        System.arraycopy(buf, from, line, kept, take);
                        String l = new String(line, 0, kept + take, StandardCharsets.UTF_8);
                        kept = 0;
                        from = i + 1;
                        position = at + from;   // a line still being written is read again whole next time
                        if (l.contains(" PANIC: ") && panic == null) panic = logMessage(l);   // why it aborted (a full disk)
                        if (l.contains(") was terminated by signal ") || l.contains(") terminated by signal ")) {
                            return logMessage(l) + (panic == null ? "" : ", after PANIC: " + panic);
                        }
                    }
                    int take = Math.min(n - from, LINE_KEPT - kept);
                    System.arraycopy(buf, from, line, kept, take);
                    kept += take;
                    at += n;
                }
            } catch (IOException e) {
                // no log to read: no crash to name
            }
            return panic == null ? null : "PANIC: " + panic;
        }
    }
}
