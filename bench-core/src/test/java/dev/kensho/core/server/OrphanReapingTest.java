package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a start finds of a JVM killed together with its watchdog (a CI job's whole process group). */
class OrphanReapingTest {
    @TempDir Path root;

    /** The pid of a process that has ended. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    /**
     * The System V segments the kernel holds, by id (/proc/sysvipc/shm, second column). Not by key: PostgreSQL takes
     * its key from the data directory's inode, which a server another test starts meanwhile may be given again.
     */
    private static List<String> shmIds() throws Exception {
        return Files.readAllLines(Path.of("/proc/sysvipc/shm")).stream().skip(1)
                .map(l -> l.trim().split("\\s+")[1]).toList();
    }

    @Test
    void anOrphanedServerIsStoppedWithoutLeavingItsSharedMemory() throws Exception {
        try (Target orphan = new TargetSpec().open()) {
            Path data = orphan.control().dataDirectory().orElseThrow();
            Path instance = data.getParent();
            List<String> pid = Files.readAllLines(data.resolve("postmaster.pid"));
            long postmaster = Long.parseLong(pid.get(0).trim());
            // postmaster.pid's seventh line: "key shmid"
            String shmId = Long.toString(Long.parseLong(pid.get(6).trim().split("\\s+")[1]));
            assertTrue(shmIds().contains(shmId), "segment " + shmId + " not found");

            Files.writeString(instance.resolve("owner.pid"), Long.toString(deadPid()));
            InstanceDirectory.reapOrphansIn(instance.getParent());

            assertFalse(ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false), "postmaster still runs");
            assertFalse(Files.exists(instance), "instance directory still there");
            // the kernel frees the segment when its last attached process has gone: a backend of the stopped
            // postmaster may still be exiting on a loaded machine, so this is a deadline, not an instant
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (shmIds().contains(shmId) && System.nanoTime() < deadline) Thread.sleep(50);
            assertFalse(shmIds().contains(shmId), "shared memory segment " + shmId + " left behind");
        }
    }

    /**
     * A CI job killed as a process group (kill -9 -PGID: the JVM and whatever it started in its group): the
     * watchdog, in a session of its own, still stops the server and removes its files.
     */
    @Test
    void aJvmKilledWithItsWholeProcessGroupLeavesNoServer() throws Exception {
        // the watchdog leaves the JVM's group through /usr/bin/setsid; without it, it dies with the group
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")),
                "no /usr/bin/setsid: the watchdog stays in the JVM's process group, test skipped");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // setsid: the child JVM leads a process group of its own, which the test can kill whole
        // with a tablespace outside the instance (scan's --tablespace-dir): the watchdog removed the instance, and the
        // tablespace's files stayed for good, no later start able to find them
        Path outside = Files.createTempDirectory(Path.of("/var/tmp"), "kensho-reap-ts");
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rwxr-xr-x"));   // the server's user enters it
        Process child = new ProcessBuilder("/usr/bin/setsid", java, "-cp", System.getProperty("java.class.path"), HoldsAServer.class.getName(),
                outside.toString()).redirectErrorStream(true).start();
        Path data = null;
        try {
            var out = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()));
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("/")) {
                    data = Path.of(line);
                    break;
                }
            }
            assertTrue(data != null, "the child JVM printed no data directory");
            long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            new ProcessBuilder("kill", "-9", "--", "-" + child.pid()).start().waitFor();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while ((ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false) || Files.exists(data.getParent()))
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertFalse(ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false), "postmaster still runs");
            assertFalse(Files.exists(data.getParent()), "instance directory still there");
            try (var left = Files.list(outside)) {
                assertEquals(List.of(), left.toList(), "the tablespace's files and Kensho's directory for them are gone");
            }
        } finally {
            InstanceDirectory.deleteTree(outside);
            child.destroyForcibly();
            if (data != null) InstanceDirectory.reapOrphansIn(data.getParent().getParent());   // what a failed run left
        }
    }

    /**
     * The servers of this JVM's instances that run (owner.pid names this JVM, or nothing: a directory a start was
     * still filling), by their data directory.
     */
    private static java.util.Set<Path> ownRunningServers() throws Exception {
        java.util.Set<Path> running = new java.util.HashSet<>();
        Path root = KenshoHome.dir().resolve("instances");
        if (!Files.isDirectory(root)) return running;
        String me = Long.toString(ProcessHandle.current().pid());
        try (var dirs = Files.list(root)) {
            for (Path instance : dirs.toList()) {
                Path owner = instance.resolve("owner.pid"), pidFile = instance.resolve("data/postmaster.pid");
                try {
                    if (Files.exists(owner) && !Files.readString(owner).strip().equals(me)) continue;
                    long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
                    if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) running.add(instance);
                } catch (java.io.IOException | RuntimeException gone) {
                    // no server there, or its directory went meanwhile
                }
            }
        }
        return running;
    }

    /**
     * A start cancelled midway (Future.cancel(true), a JUnit @Timeout): the interrupt cut the wait for initdb or pg_ctl
     * short, and the tool went on without Kensho: the server came up after its start had failed and ran, unowned,
     * until the JVM ended; or the stop, interrupted in turn, was not waited for.
     */
    @Test
    void aCancelledStartLeavesNoServer() throws Exception {
        java.util.Set<Path> before = ownRunningServers();
        var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            for (int delay : new int[] {200, 700, 1200}) {
                var opening = pool.submit(() -> new TargetSpec().open());
                Thread.sleep(delay);
                if (!opening.cancel(true)) opening.get().close();
                // the cancelled start has cleaned up when the pool's thread takes its next task
                pool.submit(() -> { }).get(3, TimeUnit.MINUTES);
                assertEquals(before, ownRunningServers(), "servers left running after a start cancelled at " + delay + " ms");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** After a reboot the pid in a stale postmaster.pid may be any process's: it is not killed. */
    @Test
    void aStalePidFileDoesNotKillTheProcessNowHoldingThatPid() throws Exception {
        Process bystander = new ProcessBuilder("sleep", "60").start();
        try {
            Path instance = Files.createDirectories(root.resolve("pg123/data"));
            Files.writeString(instance.resolve("postmaster.pid"), bystander.pid() + "\n" + instance + "\n");
            Files.writeString(instance.getParent().resolve("owner.pid"), Long.toString(deadPid()));
            InstanceDirectory.reapOrphansIn(root);
            assertFalse(bystander.waitFor(1, TimeUnit.SECONDS), "the reaper killed an unrelated process");
            assertFalse(Files.exists(instance.getParent()), "stale instance directory still there");
        } finally {
            bystander.destroyForcibly();
        }
    }
}
