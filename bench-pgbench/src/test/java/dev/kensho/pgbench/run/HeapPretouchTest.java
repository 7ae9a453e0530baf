package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each case runs in a fresh JVM (this class's main): only there is eden still unwritten, as in bench.jar's. */
class HeapPretouchTest {
    private static final long MB = 16;
    private static final long PAGES = MB * 1024 * 1024 / 4096;
    private static volatile Object sink;

    @Test
    void afterThePretouchAllocatingIntoEdenHardlyFaultsWhereAFreshJvmFaultsOnEveryPage() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "page faults are read from /proc (Linux)");
        long fresh = faultsInFreshJvm(false);
        long touched = faultsInFreshJvm(true);
        // fresh: one fault per 4 KB page (4096 for 16 MB); after the pretouch about 500 here (a region or two of eden
        // is new after the last collection, and the JVM's other threads fault a little)
        assertTrue(fresh > PAGES / 2, "a fresh JVM faulted " + fresh + " times allocating " + MB + " MB: the case measures nothing");
        assertTrue(touched < PAGES / 4, "after the pretouch " + touched + " faults allocating " + MB + " MB (" + PAGES + " pages)");
    }

    private static long faultsInFreshJvm(boolean pretouch) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseG1GC",
                "-cp", System.getProperty("java.class.path"), HeapPretouchTest.class.getName(), String.valueOf(pretouch))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        List<String> lines = out.lines().toList();
        return Long.parseLong(lines.get(lines.size() - 1));
    }

    /** Prints the page faults of allocating {@link #MB} MB (less than a fresh JVM's eden), after the pretouch if args[0] is "true". */
    public static void main(String[] args) throws Exception {
        if (Boolean.parseBoolean(args[0])) {
            if (HeapPretouch.run() == 0) throw new AssertionError("the pretouch allocated nothing");
            if (HeapPretouch.run() != 0) throw new AssertionError("a second pretouch at the same heap size wrote eden again");
        }
        long faults = minorFaults();
        for (int i = 0; i < MB * 16; i++) sink = new byte[64 * 1024];
        System.out.println(minorFaults() - faults);
    }

    /** minflt of this process (field 10 of /proc/self/stat). */
    private static long minorFaults() throws Exception {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    }
}
