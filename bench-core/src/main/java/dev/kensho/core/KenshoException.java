package dev.kensho.core;

/**
 * An error the user can act on: printed as one line, with the exit code the CLI documents
 * (2 usage, 3 target). The message must never contain a password.
 */
public class KenshoException extends RuntimeException {
    /** Bad input (an option, a builder value, a script): nothing was measured. */
    public static final int USAGE = 2;
    /** The server cannot be used as asked: down, refusing the login, missing a right or a table. */
    public static final int TARGET = 3;
    /** Anything else: a failed run, an interrupt. */
    public static final int FAILURE = 1;

    /** {@link #USAGE}, {@link #TARGET} or {@link #FAILURE}. */
    private final int exitCode;

    /**
     * @param exitCode {@link #USAGE}, {@link #TARGET} or {@link #FAILURE}
     * @param message  one line, without a password: the CLI prints it as the error
     */
    public KenshoException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** As {@link #KenshoException(int, String)}, with the error it came from. */
    public KenshoException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The process exit code this error means: {@link #USAGE}, {@link #TARGET} or {@link #FAILURE}. */
    public int exitCode() {
        return exitCode;
    }

    /** Bad input (an option, a script, a value): exit 2, nothing was measured. */
    public static KenshoException usage(String message) {
        return new KenshoException(USAGE, message);
    }

    /** The server cannot be used as asked (down, refusing, missing a right or a table): exit 3. */
    public static KenshoException target(String message, Throwable cause) {
        return new KenshoException(TARGET, message, cause);
    }

    /**
     * A builder's argument that has no meaning as null: refused where it is given, naming the method
     * ({@code mode() must not be null}), not later as a NullPointerException, or as a failure of the server.
     */
    public static <T> T given(T value, String builderMethod) {
        if (value == null) throw usage(builderMethod + " must not be null");
        return value;
    }

    /**
     * This error in the words of a caller that does not use the command line: each option name in the message (a whole
     * word: "--url", "--password-file") replaced by what that caller set instead (a JUnit suite's environment variable,
     * a JMH fork's system property), since "--password-file" means nothing to who set KENSHO_TEST_PASSWORD_FILE. A
     * replacement ending in '.' takes the option's value after it ("--set work_mem" with "-Dkensho.set." reads
     * "-Dkensho.set.work_mem"). Same exit code and cause; this exception itself when no name is in its message.
     */
    public KenshoException naming(java.util.Map<String, String> names) {
        String m = getMessage();
        if (m == null) return this;
        String out = m;
        for (java.util.Map.Entry<String, String> e : names.entrySet()) {
            String replacement = e.getValue();
            String option = "(?<![\\w-])" + java.util.regex.Pattern.quote(e.getKey()) + (replacement.endsWith(".") ? " " : "(?![\\w-])");
            out = out.replaceAll(option, java.util.regex.Matcher.quoteReplacement(replacement));
        }
        if (out.equals(m)) return this;
        KenshoException renamed = new KenshoException(exitCode, out, getCause());
        renamed.setStackTrace(getStackTrace());
        return renamed;
    }

    /** {@link #naming} the other way round: each value of names is read back as its key (a library's names as the command line's). */
    public KenshoException namingBack(java.util.Map<String, String> names) {
        java.util.Map<String, String> back = new java.util.LinkedHashMap<>();
        names.forEach((key, value) -> back.put(value, key));
        return naming(back);
    }

    /**
     * The first line of an exception's message, credentials masked (its class name when it has no message): what a
     * one-line error shows of its cause. Server errors keep their "ERROR: " prefix; callers that quote pgbench drop it.
     */
    public static String firstLine(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : firstLine(m);
    }

    /** The first line of a text (a tool's output, a message), credentials masked; "" for null. */
    public static String firstLine(String text) {
        if (text == null) return "";
        String s = text.strip();
        int nl = s.indexOf('\n');
        return Credentials.mask(nl < 0 ? s : s.substring(0, nl).stripTrailing());
    }

    /**
     * Why a file operation failed, in words: NIO's file exceptions carry only the path as their message
     * ("cannot write /proc/x: /proc/x"), their reason, when there is one, or their type says what happened.
     */
    public static String ioReason(java.io.IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) return "no such file or directory";
        if (e instanceof java.nio.file.FileAlreadyExistsException) return "already exists";
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.file.NotDirectoryException) return "not a directory";
        if (e instanceof java.nio.file.DirectoryNotEmptyException) return "directory not empty";
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason();
        // a binary file read as text: the decoder says only "Input length = 1"
        if (e instanceof java.nio.charset.CharacterCodingException) return "not UTF-8 text";
        return firstLine(e);
    }
}
