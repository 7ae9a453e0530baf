package dev.kensho.core.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pod's confinement is recorded as what it is: 0.5 CPU of quota is not "cpus 1", and the host's CPUs are named too. */
class ConfinementTest {
    @TempDir Path root;

    private void write(String rel, String text) throws Exception {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void cgroupV1QuotaAffinityAndMemoryLimit() throws Exception {
        write("proc/stat", "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu1 1 2 3 4\nintr 5\n");
        write("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0\n");
        write("proc/self/cgroup", "4:memory:/pod\n1:cpu,cpuacct:/pod\n0::/\n");
        write("sys/fs/cgroup/cpu/pod/cpu.cfs_quota_us", "50000\n");
        write("sys/fs/cgroup/cpu/pod/cpu.cfs_period_us", "100000\n");
        write("sys/fs/cgroup/memory/pod/memory.limit_in_bytes", "629145600\n");
        Map<String, Object> m = Confinement.of(root);
        assertEquals(2L, m.get("host_cpus"));
        assertEquals("0", m.get("cpus_allowed"));
        assertEquals(0.5, m.get("cpu_quota"));
        assertEquals(629145600L, m.get("memory_limit_bytes"));
    }

    @Test
    void cgroupV2UnlimitedIsLeftOut() throws Exception {
        write("proc/stat", "cpu  1 2 3 4\ncpu0 1 2 3 4\n");
        write("proc/self/cgroup", "0::/ci\n");
        write("sys/fs/cgroup/ci/cpu.max", "max 100000\n");
        write("sys/fs/cgroup/ci/memory.max", "max\n");
        Map<String, Object> m = Confinement.of(root);
        assertFalse(m.containsKey("cpu_quota"));
        assertFalse(m.containsKey("memory_limit_bytes"));
    }

    @Test
    void cgroupV2Quota() throws Exception {
        write("proc/self/cgroup", "0::/ci\n");
        write("sys/fs/cgroup/ci/cpu.max", "150000 100000\n");
        write("sys/fs/cgroup/ci/memory.max", "1073741824\n");
        Map<String, Object> m = Confinement.of(root);
        assertEquals(1.5, m.get("cpu_quota"));
        assertEquals(1073741824L, m.get("memory_limit_bytes"));
    }
}
