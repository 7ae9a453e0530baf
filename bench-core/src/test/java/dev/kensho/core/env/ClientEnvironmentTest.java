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
}
