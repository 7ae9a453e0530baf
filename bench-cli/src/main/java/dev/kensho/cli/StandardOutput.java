package dev.kensho.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The process's standard output, remembering the first write that failed: a PrintStream swallows the error, and
 * {@code bench compare A B > file} on a full disk left an empty file and exit 0 (psql says "could not print result
 * table: No space left on device" and exits 1). A reader gone away (| head) is no failure: Kensho stops writing as a
 * program killed by SIGPIPE would, without a word. Which it was is told by what standard output is (a pipe or a socket
 * fails only when its reader has gone), not by the error's words, which follow the user's language.
 */
final class StandardOutput extends FilterOutputStream {
    private static volatile String failure;

    private StandardOutput() {
        super(new FileOutputStream(FileDescriptor.out));
    }

    static OutputStream open() {
        return new StandardOutput();
    }

    /** Why a write to standard output failed, or null; a closed pipe is not said. */
    static String failure() {
        String f = failure;
        return f == null || toReader() ? null : f;
    }

    /** Whether standard output is a pipe or a socket (Linux names them so in /proc); false where that cannot be told. */
    private static boolean toReader() {
        try {
            String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/1")).toString();
            return target.startsWith("pipe:") || target.startsWith("socket:");
        } catch (IOException | RuntimeException e) {
            // no /proc: English words are the JVM's where it cannot tell otherwise
            return String.valueOf(failure).contains("Broken pipe");
        }
    }

    private static IOException seen(IOException e) {
        if (failure == null) failure = String.valueOf(e.getMessage());
        return e;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw seen(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw seen(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw seen(e);
        }
    }
}
