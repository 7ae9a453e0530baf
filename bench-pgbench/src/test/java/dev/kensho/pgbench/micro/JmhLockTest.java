package dev.kensho.pgbench.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock a micro run holds from before it touches a target, and the check of JMH's own. */
class JmhLockTest {

    /**
     * Another process holding a lock file as JMH does (FileChannel.tryLock, a POSIX record lock) until its stdin closes;
     * content is written into the file first.
     */
    static Process holdLock(Path file, String content, Path tmp) throws Exception {
        Path source = Files.writeString(tmp.resolve("Hold.java"), """
                import java.nio.ByteBuffer;
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                public class Hold {
                    public static void main(String[] a) throws Exception {
                        FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        ch.lock();
                        ch.write(ByteBuffer.wrap(a[1].getBytes("UTF-8")));
                        System.out.println("locked");
                        System.in.read();
                    }
                }
                """);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), source.toString(),
                file.toString(), content).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("locked", r.readLine(), "the holder took its lock");
        return p;
    }

    static void release(Process holder) throws Exception {
        holder.getOutputStream().close();
        if (!holder.waitFor(30, TimeUnit.SECONDS)) holder.destroyForcibly();
    }

    /**
     * A lock file planted as a link to a file of root's (anyone may write a shared /tmp): it was opened through the link,
     * and the file truncated and given the owner line.
     */
    @Test
    void aLockFileThatIsALinkIsNotFollowed(@TempDir Path tmp) throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim"), "root's own");
        Files.createSymbolicLink(tmp.resolve(JmhLock.FILE), victim);
        KenshoException e = assertThrows(KenshoException.class, () -> JmhLock.acquire(tmp, "process 1", false));
        assertEquals(KenshoException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("cannot open " + tmp.resolve(JmhLock.FILE) + " ("), e.getMessage());
        assertEquals("root's own", Files.readString(victim));
    }

    /** Anyone may write the file: a terminal's control characters in it do not reach the message. */
    @Test
    void anOwnerLineIsPrintedWithoutControlCharacters(@TempDir Path tmp) throws Exception {
        Process other = holdLock(tmp.resolve(JmhLock.FILE), "process 4242\u001b[2J\u009b\u202e", tmp);
        try {
            KenshoException e = assertThrows(KenshoException.class, () -> JmhLock.acquire(tmp, "process 1", false));
            assertTrue(e.getMessage().startsWith("another bench micro is running (process 4242 [2J)"), e.getMessage());
        } finally {
            release(other);
        }
    }

    @Test
    void anotherMicroRunIsNamed(@TempDir Path tmp) throws Exception {
        Process other = holdLock(tmp.resolve(JmhLock.FILE), "process 4242, run /r/20260101T000000Z-micro", tmp);
        try {
            KenshoException e = assertThrows(KenshoException.class, () -> JmhLock.acquire(tmp, "process 1", false));
            assertEquals(KenshoException.USAGE, e.exitCode());
            assertEquals("another bench micro is running (process 4242, run /r/20260101T000000Z-micro): JMH runs one benchmark run "
                    + "at a time on a machine (its lock " + tmp.resolve("jmh.lock") + "); wait for it to end", e.getMessage());
        } finally {
            release(other);
        }
        try (JmhLock l = JmhLock.acquire(tmp, "process 1", false)) {
            l.owner("process 1, run /r/x");
            assertEquals("process 1, run /r/x\n", Files.readString(tmp.resolve(JmhLock.FILE)), "the owner a refused run names");
        }
    }

    @Test
    void anotherJmhRunIsFoundBeforeAnythingIsPrepared(@TempDir Path tmp) throws Exception {
        Process jmh = holdLock(tmp.resolve("jmh.lock"), "", tmp);
        try {
            KenshoException e = assertThrows(KenshoException.class, () -> JmhLock.acquire(tmp, "process 1", false));
            assertEquals("another JMH run holds " + tmp.resolve("jmh.lock") + " (JMH runs one benchmark run at a time on a machine, "
                    + "and would refuse this one only after its tables were made); wait for it to end", e.getMessage());
        } finally {
            release(jmh);
        }
        // the refused run let go of its own lock: the next one takes it
        JmhLock.acquire(tmp, "process 1", false).close();
    }

    @Test
    void oneRunAtATimeInThisJvmToo(@TempDir Path tmp) {
        try (JmhLock first = JmhLock.acquire(tmp, "process 1, run /r/a", false)) {
            KenshoException e = assertThrows(KenshoException.class, () -> JmhLock.acquire(tmp, "process 1", false));
            assertEquals("another bench micro is running (process 1, run /r/a): JMH runs one benchmark run at a time on a machine "
                    + "(its lock " + tmp.resolve("jmh.lock") + "); wait for it to end", e.getMessage());
        }
        JmhLock.acquire(tmp, "process 1", false).close();
    }

    /**
     * MicroBenchmarks.run takes the lock itself (a harness calling it took none), under the one bench micro already holds
     * across its targets in the same thread; a micro run of another thread is refused.
     */
    @Test
    void aRunTakesTheLockUnlessItsThreadHoldsIt(@TempDir Path tmp) throws Exception {
        try (JmhLock run = JmhLock.forRun(tmp, "process 1, run /r/lib", false)) {
            assertEquals("process 1, run /r/lib\n", Files.readString(tmp.resolve(JmhLock.FILE)), "a library run holds it");
            java.util.concurrent.atomic.AtomicReference<Throwable> other = new java.util.concurrent.atomic.AtomicReference<>();
            Thread t = new Thread(() -> other.set(assertThrows(KenshoException.class, () -> JmhLock.forRun(tmp, "process 1", false))));
            t.start();
            t.join();
            assertEquals("another bench micro is running (process 1, run /r/lib): JMH runs one benchmark run at a time on a "
                    + "machine (its lock " + tmp.resolve("jmh.lock") + "); wait for it to end", other.get().getMessage());
        }
        try (JmhLock command = JmhLock.acquire(tmp, "process 1, run /r/cli", false)) {
            JmhLock.forRun(tmp, "process 1, run /r/cli", false).close();   // its first target's run, then its second's
            JmhLock.forRun(tmp, "process 1, run /r/cli", false).close();
            // the command's lock is still held: another run is refused
            assertThrows(KenshoException.class, () -> JmhLock.acquire(tmp, "process 2", false));
        }
        JmhLock.acquire(tmp, "process 1", false).close();
    }

    /** jmh.ignoreLock=true, JMH's way to run beside other runs (the build's tests set it): no lock is looked at. */
    @Test
    void jmhIgnoreLockRunsBesideOthers(@TempDir Path tmp) throws Exception {
        try (JmhLock first = JmhLock.acquire(tmp, "process 1", false); JmhLock beside = JmhLock.acquire(tmp, "process 2", true)) {
            assertEquals("process 1\n", Files.readString(tmp.resolve(JmhLock.FILE)));
        }
    }
}
