package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A managed server's instance directory (data/, server.log, owner.pid) as Kensho owns it: a kept one claimed for one
 * server at a time and refused where it holds someone else's files; a throw-away one deleted with what its tablespaces
 * hold; and those of JVMs that ended without cleaning up (SIGKILL) reaped, their postmasters stopped.
 */
final class InstanceDirectory {
    private InstanceDirectory() {}

    /**
     * Locks a kept directory for this server's life (the kernel lets go when the JVM ends, however it ends). A second
     * process starting in it would stop the first one's server as a stale one and run its own there (two CI forks
     * given one --keep-data directory): it is refused instead.
     */
    static FileChannel claim(Path instance) throws IOException {
        // this JVM's own claims are known here: a second channel on the lock file, once closed, would drop the
        // process's lock on it (POSIX locks belong to the process), and another process could then take it
        Path key = instance.toRealPath();
        if (!CLAIMED.add(key)) throw inUse(instance);
        FileChannel ch;
        try {
            ch = FileChannel.open(instance.resolve("in-use.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            CLAIMED.remove(key);
            throw e;
        }
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException sameJvm) {
            throw inUse(instance);   // another spelling of a directory held here: ch stays open, or the lock would go
        } catch (IOException noLocks) {
            return ch;   // a file system without locks (NFS without lockd): used as before, this JVM's claim only
        }
        if (lock == null) {
            ch.close();   // this JVM holds no other channel on the file (CLAIMED): nothing of ours is let go
            CLAIMED.remove(key);
            throw inUse(instance);
        }
        return ch;
    }

    /** Kept directories this JVM's servers hold (see claim). */
    private static final java.util.Set<Path> CLAIMED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static KenshoException inUse(Path instance) {
        String owner;
        try {
            owner = " (process " + Files.readString(instance.resolve("owner.pid")).strip() + ")";
        } catch (IOException e) {
            owner = "";
        }
        return KenshoException.usage("--keep-data " + instance + " is in use by another running server of Kensho's" + owner
                + "; give each concurrent run a directory of its own");
    }

    static void release(Path instance, FileChannel inUse) {
        if (inUse == null) return;
        try {
            inUse.close();   // and with it the lock
            CLAIMED.remove(instance.toRealPath());
        } catch (IOException ignored) {
            // the JVM's end lets go of it as well
        }
    }

    /** What Kensho keeps in a --keep-data directory; anything else there is someone else's. */
    private static final java.util.Set<String> OWN_FILES = java.util.Set.of("data", "in-use.lock", "owner.pid", "server.log",
            ManagedServer.INITDB_STARTED, ManagedServer.PASSWORD_FILE);

    /**
     * A --keep-data directory is given to the server's user (chown -R, as root): one holding anything else (--keep-data .
     * in a repository, a home directory, another cluster's data) was handed over whole before it was refused.
     */
    static void refuseForeignFiles(Path given, Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return;
        List<String> foreign;
        try (Stream<Path> entries = Files.list(dir)) {
            foreign = entries.map(p -> p.getFileName().toString())
                    .filter(n -> !OWN_FILES.contains(n) && !(n.startsWith("exec") && n.endsWith(".out"))).sorted().limit(3).toList();
        }
        if (!foreign.isEmpty()) {
            throw KenshoException.usage("--keep-data " + given + " holds files Kensho did not make (" + String.join(", ", foreign)
                    + "): give an empty directory, or one an earlier --keep-data made (nothing in it was changed)");
        }
        Path data = dir.resolve("data");
        // DIR/data: empty, Kensho's own initdb cut short (its marker beside it), or a data directory Kensho finished
        // making; a user's folder named data was given away by the first run and removed by the next as an initdb's debris
        if (!Files.isDirectory(data, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.exists(dir.resolve(ManagedServer.INITDB_STARTED))) {
            if (Files.exists(data, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(data, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw KenshoException.usage("--keep-data " + given + " holds a 'data' that is not a directory Kensho made; give another directory"
                        + " (nothing in it was changed)");
            }
            return;
        }
        boolean empty;
        try (Stream<Path> entries = Files.list(data)) {
            empty = entries.findAny().isEmpty();
        }
        Path conf = data.resolve("postgresql.conf");
        boolean kenshos = Files.isRegularFile(data.resolve("PG_VERSION")) && Files.isRegularFile(conf)
                && Files.readString(conf).contains("include_if_exists = 'kensho.conf'");
        if (!empty && !kenshos) {
            throw KenshoException.usage(data + " is not a data directory Kensho finished making (no include of kensho.conf"
                    + " in its postgresql.conf); remove it, or give another directory (nothing in it was changed)");
        }
    }

    /**
     * A throw-away instance, with what its tablespaces hold outside it: scan's --tablespace-dir put gigabytes there,
     * which a Ctrl-C or a kill (the scan's own DROP never ran) left behind. Only in a location Kensho made (kensho-digits),
     * and there only the server's own subdirectory (PG_15_202209061: PostgreSQL refuses a location another cluster's
     * already holds) and a throughput probe's file, then the location itself once nothing else is in it.
     */
    static void deleteInstance(Path instance) {
        Path links = instance.resolve("data").resolve("pg_tblspc");
        if (Files.isDirectory(links, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> ls = Files.list(links)) {
                for (Path link : (Iterable<Path>) ls::iterator) {
                    try {
                        Path location = Files.readSymbolicLink(link);
                        // only a location Kensho made: the link is the server user's to rewrite, and root must not follow
                        // it elsewhere; a user's own tablespace is theirs (in-place ones are inside the instance)
                        if (!location.isAbsolute() || !KenshoHome.isOwnTablespaceLocation(location)) continue;
                        try (Stream<Path> own = Files.list(location)) {
                            own.filter(p -> p.getFileName().toString().startsWith("PG_") || p.getFileName().toString().startsWith(KenshoHome.OWN_PROBE_PREFIX))
                                    .forEach(InstanceDirectory::deleteTree);
                        }
                        Files.deleteIfExists(location);
                    } catch (IOException | UncheckedIOException | UnsupportedOperationException ignored) {
                        // not a link, gone, or not empty: what is not the server's stays
                    }
                }
            } catch (IOException | UncheckedIOException ignored) {
                // no tablespaces to follow
            }
        }
        deleteTree(instance);
    }

    /**
     * The shell's {@link #deleteInstance}: in each tablespace location of the data directory ($2) that Kensho made
     * (kensho-digits, no .. in the way: the link is the server user's to rewrite, this shell root's), the server's PG_*
     * subdirectory and a throughput probe's file, then the location itself once empty.
     */
    static final String TABLESPACES_RM = "for l in \"$2\"/pg_tblspc/*; do t=$(readlink \"$l\") || continue; "
            + "case \"$t\" in /*) ;; *) continue;; esac; case \"$t\" in */..*|*/./*) continue;; esac; case \"${t##*/}\" in "
            + KenshoHome.OWN_TABLESPACE_PREFIX + "[0-9]*) rm -rf \"$t\"/PG_* \"$t\"/" + KenshoHome.OWN_PROBE_PREFIX + "*; rmdir \"$t\" 2>/dev/null;; esac; done; ";

    /** Removes dir and everything in it, going on past files that vanish or resist meanwhile (a walk would stop). */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try {
            Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
                    file.toFile().delete();
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
                    file.toFile().delete();   // gone meanwhile, or unreadable: what can go, goes
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult postVisitDirectory(Path d, IOException e) {
                    d.toFile().delete();
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // leftovers are reaped next start
        }
    }

    /**
     * A process killed with SIGKILL leaves its server running; the next start stops and removes
     * instances whose owning JVM is gone.
     */
    static void reapOrphans() {
        try {
            reapOrphansIn(KenshoHome.dir().resolve("instances"));
        } catch (RuntimeException e) {
            // reaping is housekeeping: it must never fail a run
        }
    }

    /**
     * Whether this process is the postmaster of that data directory: TRUE, FALSE, or null when it cannot be told. A
     * postmaster dead since (a reboot) leaves its pid free for any process, which must not be killed. Its working
     * directory is the data directory; where /proc/PID/cwd of another user's process cannot be read (root without
     * CAP_SYS_PTRACE, as in a Docker container, and the server runs as 'kensho'), the postmaster's command line, which
     * PostgreSQL leaves as pg_ctl gave it (postgres -D DATA), still tells.
     */
    static Boolean isPostmasterOf(ProcessHandle h, Path data) {
        Path proc = Path.of("/proc", Long.toString(h.pid()));
        try {
            return Files.isSameFile(proc.resolve("cwd"), data);
        } catch (IOException e) {
            // not ours to read, or gone meanwhile: the command line
        }
        try {
            List<String> args = List.of(new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).split("\0"));
            int d = args.indexOf("-D");
            if (d < 0 || d + 1 >= args.size()) return args.isEmpty() || args.get(0).isEmpty() ? null : false;
            return Files.isSameFile(Path.of(args.get(d + 1)), data);
        } catch (IOException e) {
            return ProcessHandle.of(h.pid()).isPresent() ? null : false;
        }
    }

    /**
     * SIGQUIT, PostgreSQL's immediate shutdown (pg_ctl -m immediate): the postmaster ends its backends and removes
     * its System V shared memory segment, which a SIGKILL would leave behind, one per reaped server, until the
     * kernel's limit refuses new servers. SIGKILL only when it does not end in 10 s. True when it has ended.
     */
    private static boolean stopImmediately(ProcessHandle postmaster) throws InterruptedException {
        try {
            new ProcessBuilder("kill", "-QUIT", Long.toString(postmaster.pid())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            postmaster.destroyForcibly();
        }
        try {
            postmaster.onExit().get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            postmaster.destroyForcibly();
            try {
                postmaster.onExit().get(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e2) {
                return false;   // still there: leave its directory for a later start
            }
        }
        return true;
    }

    static void reapOrphansIn(Path root) {
        if (!Files.isDirectory(root)) return;
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                Path owner = d.resolve("owner.pid");
                long pid;
                try {
                    pid = Long.parseLong(Files.readString(owner).trim());
                } catch (IOException | NumberFormatException e) {
                    // No owner yet: a start in progress, unless it is old and no server runs in it.
                    if (Files.getLastModifiedTime(d).toMillis() < System.currentTimeMillis() - 600_000
                            && !Files.exists(d.resolve("data/postmaster.pid"))) {
                        deleteTree(d);
                    }
                    continue;
                }
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) continue;
                Path pidFile = d.resolve("data/postmaster.pid");
                if (Files.exists(pidFile)) {
                    try {
                        long pm = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
                        Optional<ProcessHandle> process = ProcessHandle.of(pm);
                        Boolean ours = process.map(h -> isPostmasterOf(h, d.resolve("data"))).orElse(false);
                        // a server that may be running there keeps its directory: deleting it would orphan it for good
                        if (ours == null) continue;
                        if (ours && !stopImmediately(process.get())) continue;
                    } catch (IOException | RuntimeException e) {
                        continue;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                deleteInstance(d);
            }
        } catch (IOException ignored) {
            // nothing to reap
        }
    }
}
