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

    private static final String V1_MOUNTS = "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
            + "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
            + "36 31 0:33 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";

    /** A v1 host (with v2's empty hierarchy beside it, as hybrid hosts have): the process's own cgroup under the host's. */
    @Test
    void cgroupV1QuotaAffinityAndMemoryLimit() throws Exception {
        write("proc/stat", "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu1 1 2 3 4\nintr 5\n");
        write("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0\n");
        write("proc/self/cgroup", "4:memory:/pod\n1:cpu,cpuacct:/pod\n0::/\n");
        write("proc/self/mountinfo", V1_MOUNTS);
        write("sys/fs/cgroup/cpu,cpuacct/pod/cpu.cfs_quota_us", "50000\n");
        write("sys/fs/cgroup/cpu,cpuacct/pod/cpu.cfs_period_us", "100000\n");
        write("sys/fs/cgroup/memory/pod/memory.limit_in_bytes", "629145600\n");
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
        Map<String, Object> m = Confinement.of(root);
        assertEquals(2L, m.get("host_cpus"));
        assertEquals("0", m.get("cpus_allowed"));
        assertEquals("/sys/fs/cgroup/cpu,cpuacct/pod", m.get("cpu_cgroup"));
        assertEquals("/sys/fs/cgroup/memory/pod", m.get("memory_cgroup"));
        assertEquals(0.5, m.get("cpu_quota"));
        assertEquals(629145600L, m.get("memory_limit_bytes"));
    }

    /**
     * A v1 container without a cgroup namespace: /proc/self/cgroup gives the host's path, while the container's own
     * cgroup is mounted at the hierarchy's mount point (its root field is that path). Read under the host's path, the
     * limits were not found and recorded as none.
     */
    @Test
    void cgroupV1ContainerSeesItsOwnCgroupAtTheMountPoint() throws Exception {
        String pod = "/kubepods/burstable/pod1/abc";
        write("proc/self/cgroup", "4:memory:" + pod + "\n1:cpu,cpuacct:" + pod + "\n");
        write("proc/self/mountinfo", "32 31 0:29 " + pod + " /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct\n"
                + "35 31 0:32 " + pod + " /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n");
        write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "150000\n");
        write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", "1073741824\n");
        Map<String, Object> m = Confinement.of(root);
        assertEquals(1.5, m.get("cpu_quota"));
        assertEquals(1073741824L, m.get("memory_limit_bytes"));
    }

    @Test
    void cgroupV2UnlimitedIsLeftOutAndTheCgroupNamed() throws Exception {
        write("proc/stat", "cpu  1 2 3 4\ncpu0 1 2 3 4\n");
        write("proc/self/cgroup", "0::/ci\n");
        write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        write("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        write("sys/fs/cgroup/ci/cpu.max", "max 100000\n");
        write("sys/fs/cgroup/ci/memory.max", "max\n");
        Map<String, Object> m = Confinement.of(root);
        assertEquals("/sys/fs/cgroup/ci", m.get("cpu_cgroup"));
        assertFalse(m.containsKey("cpu_quota"));
        assertFalse(m.containsKey("memory_limit_bytes"));
    }

    /** A limit set on a parent (a systemd slice) confines the leaf too: the lowest on the way up counts. */
    @Test
    void cgroupV2QuotaOfTheLeafAndLimitOfItsSlice() throws Exception {
        write("proc/self/cgroup", "0::/ci.slice/job\n");
        write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        write("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        write("sys/fs/cgroup/ci.slice/job/cpu.max", "150000 100000\n");
        write("sys/fs/cgroup/ci.slice/job/memory.max", "max\n");
        write("sys/fs/cgroup/ci.slice/cpu.max", "200000 100000\n");
        write("sys/fs/cgroup/ci.slice/memory.max", "1073741824\n");
        Map<String, Object> m = Confinement.of(root);
        assertEquals(1.5, m.get("cpu_quota"));
        assertEquals(1073741824L, m.get("memory_limit_bytes"));
    }

    /** No cgroup found (not Linux, no /proc): nothing of it recorded, not "none". */
    @Test
    void noCgroupLeavesItsFactsOut() {
        Map<String, Object> m = Confinement.of(root);
        assertFalse(m.containsKey("cpu_cgroup") || m.containsKey("memory_cgroup") || m.containsKey("cpu_quota"), m.toString());
    }

    /** The quota's throttling is read from the cgroup that sets the quota: here the slice above the process's own. */
    @Test
    void throttlingIsReadWhereTheQuotaIs() throws Exception {
        write("proc/self/cgroup", "0::/ci.slice/job\n");
        write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        write("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        write("sys/fs/cgroup/ci.slice/job/cpu.max", "max 100000\n");
        write("sys/fs/cgroup/ci.slice/cpu.max", "50000 100000\n");
        write("sys/fs/cgroup/ci.slice/cpu.stat", "usage_usec 100\nnr_periods 130\nnr_throttled 72\nthrottled_usec 9000\n");
        CpuThrottling t = CpuThrottling.of(root);
        CpuThrottling.Count before = new CpuThrottling.Count(30, 2);
        assertEquals(70.0, t.read().percentSince(before), 1e-9);
        // no quota anywhere: nothing to read
        write("sys/fs/cgroup/ci.slice/cpu.max", "max 100000\n");
        assertEquals(null, CpuThrottling.of(root));
    }

    /** Memory on v1, CPU on v2 (a host moving to v2 controller by controller): each read where it is held. */
    @Test
    void cpuOnV2AndMemoryOnV1AreEachReadWhereHeld() throws Exception {
        write("proc/self/cgroup", "4:memory:/pod\n0::/pod\n");
        write("proc/self/mountinfo", "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
                + "36 31 0:33 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
        write("sys/fs/cgroup/unified/cgroup.controllers", "cpu\n");
        write("sys/fs/cgroup/unified/pod/cpu.max", "50000 100000\n");
        write("sys/fs/cgroup/memory/pod/memory.limit_in_bytes", "629145600\n");
        Map<String, Object> m = Confinement.of(root);
        assertEquals(0.5, m.get("cpu_quota"));
        assertEquals("/sys/fs/cgroup/unified/pod", m.get("cpu_cgroup"));
        assertEquals(629145600L, m.get("memory_limit_bytes"));
        // a hybrid host's cgroup2 that holds no controller: no CPU cgroup read, so no quota said to be none
        write("sys/fs/cgroup/unified/cgroup.controllers", "\n");
        assertFalse(Confinement.of(root).containsKey("cpu_cgroup"), Confinement.of(root).toString());
    }
}
