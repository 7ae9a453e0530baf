package dev.kensho.core;

/**
 * An error the user can act on: printed as one line, with the exit code the CLI documents
 * (2 usage, 3 target). The message must never contain a password.
 */
public class KenshoException extends RuntimeException {
    public static final int USAGE = 2;
    public static final int TARGET = 3;
    public static final int FAILURE = 1;

    private final int exitCode;

    public KenshoException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public KenshoException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    public static KenshoException usage(String message) {
        return new KenshoException(USAGE, message);
    }

    public static KenshoException target(String message, Throwable cause) {
        return new KenshoException(TARGET, message, cause);
    }
}
