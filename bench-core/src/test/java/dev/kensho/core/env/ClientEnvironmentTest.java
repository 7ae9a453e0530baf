package dev.kensho.core.env;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The client's record names the JVM's build: Debian's 17 and Temurin's 25 both read "OpenJDK 64-Bit Server VM". */
class ClientEnvironmentTest {

    @Test
    void theJvmsVendorAndHomeAreRecorded() {
        assertEquals(System.getProperty("java.vendor") + " (" + System.getProperty("java.vm.vendor") + "), " + System.getProperty("java.home"),
                Environment.client().get("jvm_vendor"));
    }

    /** The host's CPUs and those this process may use, beside availableProcessors()' one number (Linux, where /proc is). */
    @Test
    void theHostsCpusAndTheAllowedOnesAreRecorded() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/self/status")), "no /proc");
        java.util.Map<String, Object> c = Environment.client();
        long cpus = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/stat")).lines().filter(l -> l.matches("cpu\\d+ .*")).count();
        assertEquals(cpus, ((Number) c.get("host_cpus")).longValue(), c.toString());
        org.junit.jupiter.api.Assertions.assertNotNull(c.get("cpus_allowed"), c.toString());
    }
}
