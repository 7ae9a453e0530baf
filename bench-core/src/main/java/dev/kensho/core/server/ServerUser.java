package dev.kensho.core.server;

import dev.kensho.core.JvmShutdown;
import dev.kensho.core.KenshoException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The operating-system user a managed server runs as. PostgreSQL refuses to run as root, so
 * when Kensho runs as root it creates (once) the system user {@code kensho} and runs initdb,
 * pg_ctl and postgres through runuser; otherwise the server runs as the current user.
 */
final class ServerUser {
    static final String NAME = "kensho";
    private static Boolean root;

    private ServerUser() {}

    static synchronized boolean isRoot() {
        if (root == null) {
            try {
                Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes()).trim();
                p.waitFor();
                root = out.equals("0");
            } catch (IOException e) {
                root = "root".equals(System.getProperty("user.name"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                root = "root".equals(System.getProperty("user.name"));
            }
        }
        return root;
    }

    /** Prefix for commands the server user runs; empty when not root. */
    static synchronized List<String> commandPrefix() {
        if (!isRoot()) return List.of();
        ensureUser();
        return List.of("runuser", "-u", NAME, "--");
    }

    /** Gives the server user a directory tree (no-op when not root). */
    static void own(Path dir) {
        if (!isRoot()) return;
        ensureUser();
        run(List.of("chown", "-R", NAME + ":" + NAME, dir.toString()), "chown " + dir);
    }

    /**
     * Fails with a clear line when the server user cannot reach dir (e.g. under /root, mode 700); setting names
     * what the user changes to move it (--keep-data, KENSHO_HOME).
     */
    static void checkReachable(Path dir, String setting) {
        if (!isRoot()) return;
        for (Path p = dir.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            try {
                var perms = Files.getPosixFilePermissions(p);
                if (!perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
                    throw KenshoException.usage("the server runs as the unprivileged user '" + NAME + "' (PostgreSQL refuses root), "
                            + "which cannot enter " + p + "; give " + setting + " a directory outside it (e.g. under /var/tmp)");
                }
            } catch (java.nio.file.NoSuchFileException notYet) {
                // made later, with modes Kensho chooses; what is above it still counts
            } catch (IOException | UnsupportedOperationException e) {
                return;
            }
        }
    }

    private static boolean userExists() {
        try {
            Process p = new ProcessBuilder("id", "-u", NAME).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Where processes on this machine take turns to create the user (whatever their KENSHO_HOME). Three CI jobs' first
     * runs on a fresh machine each saw no user and each ran useradd: the entry was rewritten under them, directories
     * already given to one uid belonged to nobody, and initdb failed there. The directory is everyone's (sticky): the
     * file is opened without following a link, nothing is written to it, and a lock someone else holds is waited on for
     * a minute at most.
     */
    private static final Path USER_LOCK = Path.of(Files.isDirectory(Path.of("/run/lock")) ? "/run/lock" : "/tmp", "kensho-useradd.lock");

    private static synchronized void ensureUser() {
        if (userExists()) return;
        try (var ch = java.nio.channels.FileChannel.open(USER_LOCK, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS);
             var held = lockWithin(ch, 60)) {
            if (userExists()) return;   // made by the process that held the lock before
            List<String> cmd = new ArrayList<>(List.of("useradd", "--system", "--user-group", "--no-create-home",
                    "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", NAME));
            try {
                run(cmd, "create the system user '" + NAME + "' to run PostgreSQL (it refuses root)");
            } catch (KenshoException e) {
                if (!userExists()) throw e; // another program may have created it meanwhile
            }
        } catch (IOException e) {
            throw new KenshoException(KenshoException.FAILURE, "cannot lock " + USER_LOCK + " to create the system user '" + NAME
                    + "': " + e.getMessage(), e);
        }
    }

    /** The channel's lock, or null after waiting seconds for it (then useradd runs unlocked, as before there was one). */
    private static java.nio.channels.FileLock lockWithin(java.nio.channels.FileChannel ch, int seconds) throws IOException {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        while (true) {
            java.nio.channels.FileLock l = ch.tryLock();
            if (l != null || System.nanoTime() > until) return l;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /**
     * A command's environment without the passwords Kensho's run was given: PGPASSWORD, and any variable whose value holds
     * one (a URL's user:password@, password=). A server the command (re)starts (--restart-command) keeps its environment,
     * which any superuser can read (COPY FROM PROGRAM 'env'). The rest stays: a restart command may need PGDATA or PATH.
     */
    static void withoutPasswords(java.util.Map<String, String> env) {
        env.entrySet().removeIf(e -> e.getKey().equals("PGPASSWORD") || !dev.kensho.core.Credentials.mask(e.getValue()).equals(e.getValue()));
    }

    /** How long a command may run before it is stopped, with all it started; shorter in tests. */
    static java.time.Duration commandTimeout = java.time.Duration.ofSeconds(300);

    /**
     * Runs cmd and returns its output. The output goes to a file, not a pipe, and the wait is for
     * the process, not for the end of its output: a command that starts a server (--restart-command
     * with "pg_ctl restart" and no -l) leaves that server holding whatever output it was given.
     */
    static String run(List<String> cmd, String what) {
        return run(cmd, what, null);
    }

    /**
     * As {@link #run(List, String)}, the output kept in logFile (replaced each time) when not null: a
     * server the command starts may go on writing its log there, so it must be a file that stays.
     */
    static String run(List<String> cmd, String what, Path logFile) {
        Path out = null;
        try {
            if (logFile != null) {
                KenshoHome.makeDirectories(logFile.toAbsolutePath().getParent());
                // the owner's only: a restart command's output may quote what it was given (a password in its text)
                if (!Files.exists(logFile)) Files.createFile(logFile);
                try {
                    Files.setPosixFilePermissions(logFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException notPosix) {
                    // a file system without POSIX permissions: as it is
                }
            }
            if (logFile != null) {
                out = logFile;
            } else {
                try {
                    out = Files.createTempFile("kensho-cmd", ".out");
                } catch (IOException e) {
                    // the JVM's temporary directory, not the command: said as such (it read "cannot chown ...: /nonexistent/kensho-cmd…", exit 3)
                    throw KenshoException.usage("cannot create a temporary file in " + System.getProperty("java.io.tmpdir")
                            + " (java.io.tmpdir): " + KenshoException.ioReason(e));
                }
            }
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            withoutPasswords(pb.environment());
            Process p = pb.start();
            boolean ended;
            JvmShutdown.stoppable(p, what.replaceFirst("^run ", ""));
            try {
                ended = p.waitFor(commandTimeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } finally {
                JvmShutdown.done(p);
            }
            if (!ended) {
                // killed alone, a restart command's setsid left the shell and what it started (an ssh, say) running on
                JvmShutdown.stop(p);
                throw new KenshoException(KenshoException.TARGET, "cannot " + what + ": still running after "
                        + commandTimeout.toSeconds() + " s; stopped it and what it started");
            }
            if (p.exitValue() != 0 && JvmShutdown.signalledAgain()) {
                throw new KenshoException(KenshoException.FAILURE, "cannot " + what + ": stopped by a second interrupt");
            }
            String text = Files.readString(out);
            if (p.exitValue() != 0) {
                throw new KenshoException(KenshoException.TARGET, "cannot " + what + ": exit code " + p.exitValue()
                        + (text.isBlank() ? "" : ", " + KenshoException.firstLine(text)));
            }
            return text;
        } catch (IOException e) {
            throw new KenshoException(KenshoException.TARGET, "cannot " + what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KenshoException(KenshoException.FAILURE, "interrupted: " + what, e);
        } finally {
            if (out != null && logFile == null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }
}
