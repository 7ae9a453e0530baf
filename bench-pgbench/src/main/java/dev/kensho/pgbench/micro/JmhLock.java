package dev.kensho.pgbench.micro;

import dev.kensho.core.KenshoException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One micro run per machine, found before anything is prepared. JMH runs one benchmark run at a time: its Runner.run
 * takes a lock on java.io.tmpdir/jmh.lock and refuses while another process holds it. It holds it for one Runner.run,
 * and a micro run makes one per benchmark, so a second micro run met it only at its first benchmark, after its server
 * had started and its tables were made (on a shared target, the first run's), or slipped in between two of the first
 * run's benchmarks and failed those. A micro run holds this lock, {@value #FILE} beside JMH's, from before it touches a
 * target to its end (the kernel lets go when the process ends, however it ends), with its owner written in the file,
 * and checks that no other JMH run holds JMH's.
 */
public final class JmhLock implements AutoCloseable {
    static final String FILE = "kensho-micro.lock";
    static final String JMH_FILE = "jmh.lock";
    /** The lock this JVM holds: a second channel on the file, once closed, would drop it (POSIX locks are the process's). */
    private static JmhLock held;

    private final FileChannel channel;
    private final Path file;
    private String owner;
    /** The thread that took it: its own nested micro runs go on under it (bench micro holds it across its targets). */
    private final Thread thread = Thread.currentThread();

    private JmhLock(FileChannel channel, Path file, String owner) {
        this.channel = channel;
        this.file = file;
        this.owner = owner;
    }

    /**
     * Takes the lock in java.io.tmpdir, where JMH takes its own; owner says who holds it ("process 123"). With JMH's
     * jmh.ignoreLock=true (JMH then runs beside other runs; the build's tests set it) neither lock is looked at.
     */
    public static JmhLock acquire(String owner) {
        return acquire(Path.of(System.getProperty("java.io.tmpdir")), owner, Boolean.getBoolean("jmh.ignoreLock"));
    }

    /**
     * What MicroBenchmarks.run takes, for a Java caller who took no lock: the lock this thread already holds (closing the
     * returned one leaves that held), else a new one. Another thread's micro run in this JVM is refused as another
     * process's is.
     */
    static JmhLock forRun(String owner) {
        return forRun(Path.of(System.getProperty("java.io.tmpdir")), owner, Boolean.getBoolean("jmh.ignoreLock"));
    }

    static synchronized JmhLock forRun(Path dir, String owner, boolean ignoreLock) {
        if (held != null && held.thread == Thread.currentThread() && !ignoreLock) return new JmhLock(null, held.file, held.owner);
        return acquire(dir, owner, ignoreLock);
    }

    static synchronized JmhLock acquire(Path dir, String owner, boolean ignoreLock) {
        Path file = dir.resolve(FILE);
        if (ignoreLock) return new JmhLock(null, file, owner);
        if (held != null) throw running(held.owner, dir);
        FileChannel ch = open(file);
        FileLock lock;
        boolean sameJvm = false;
        try {
            lock = ch.tryLock();
        } catch (IOException noLocks) {
            close(ch);
            return new JmhLock(null, file, owner);   // a file system without locks: JMH's own lock is all there is
        } catch (OverlappingFileLockException e) {
            lock = null;   // another class loader's copy of this class holds it
            sameJvm = true;
        }
        if (lock == null) {
            String other = read(ch);
            if (!sameJvm) close(ch);   // closing it in the JVM that holds the lock would drop that lock
            throw running(other.isBlank() ? "another process" : other, dir);
        }
        JmhLock l = new JmhLock(ch, file, owner);
        l.write();
        // JMH's own lock: a JMH run that is not Kensho's (a harness's, a plain 'java -cp bench.jar org.openjdk.jmh.Main')
        // holds it, and JMH refuses while it does
        Path jmh = dir.resolve(JMH_FILE);
        FileChannel j = open(jmh);
        boolean free;
        try {
            FileLock probe = j.tryLock();
            free = probe != null;
            if (free) probe.release();
        } catch (IOException noLocks) {
            free = true;
        } catch (OverlappingFileLockException ownRun) {
            // a JMH run of this JVM's holds it: closing this channel would drop that run's lock, so it stays open
            l.close();
            throw KenshoException.usage("a JMH run of this process holds " + jmh + " (JMH runs one benchmark run at a time); wait for it to end");
        }
        close(j);
        if (!free) {
            l.close();
            throw KenshoException.usage("another JMH run holds " + jmh + " (JMH runs one benchmark run at a time on a machine, "
                    + "and would refuse this one only after its tables were made); wait for it to end");
        }
        held = l;
        return l;
    }

    /** Says who holds the lock, for a run that is refused meanwhile ("process 123, run results/...-micro"). */
    public synchronized void owner(String text) {
        owner = text;
        write();
    }

    private static KenshoException running(String owner, Path dir) {
        return KenshoException.usage("another bench micro is running (" + owner + "): JMH runs one benchmark run at a time on a "
                + "machine (its lock " + dir.resolve(JMH_FILE) + "); wait for it to end");
    }

    /** Opens (making it, writable by every user as JMH makes its own, so that another user's run can lock it too). */
    private static FileChannel open(Path file) {
        try {
            if (!Files.exists(file)) {
                try {
                    Files.createFile(file);
                    file.toFile().setWritable(true, false);
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // another run made it first
                }
            }
            // not through a link: in a shared /tmp another user may plant kensho-micro.lock as a link to a file of root's,
            // which a root run then truncated and wrote its owner line into
            return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw KenshoException.usage("cannot open " + file + " (" + KenshoException.ioReason(e) + "): bench micro locks it, "
                    + "as JMH locks " + JMH_FILE + " there, to run one benchmark run at a time; another user's file there is "
                    + "passed by a temporary directory of your own (java -Djava.io.tmpdir=DIR -jar bench.jar micro ...)");
        }
    }

    private static String read(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(ch.size(), 4096));
            ch.read(b, 0);
            // anyone may write the file: its text goes into a message, without a terminal's control characters
            // C0 and C1 controls and format characters (U+202E turns the rest of a line around)
            return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).replaceAll("[\\p{Cc}\\p{Cf}]", " ").strip();
        } catch (IOException e) {
            return "";
        }
    }

    private void write() {
        if (channel == null) return;
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((owner + "\n").getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException ignored) {
            // the owner is a courtesy to a refused run; the lock is what matters
        }
    }

    private static void close(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing lets go of the file either way
        }
    }

    @Override
    public void close() {
        synchronized (JmhLock.class) {
            if (held == this) held = null;
        }
        if (channel != null) close(channel);   // and with it the lock
    }
}
