package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A runtime without com.sun.management (a jlink'ed one without jdk.management): a run goes on without what it gives. */
class RuntimeWithoutJdkManagementTest {
    /** Run in a JVM limited to java.se: prints what the driver reads of its CPU, and whether the client's memory was found. */
    public static void main(String[] args) {
        System.out.println(Driver.processCpuNanos());
        System.out.println(dev.kensho.core.env.Environment.client().containsKey("memory_bytes"));
    }

    /**
     * There the driver's CPU is "unknown" (-1) and the environment has no memory size; both threw
     * NoClassDefFoundError, the first ending the run, the second its start.
     */
    @Test
    void aRuntimeWithoutJdkManagementHasNoDriverCpu() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--limit-modules", "java.se", "-cp", System.getProperty("java.class.path"),
                RuntimeWithoutJdkManagementTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertEquals(List.of("-1", "false"), out.lines().toList(), out);
    }
}
