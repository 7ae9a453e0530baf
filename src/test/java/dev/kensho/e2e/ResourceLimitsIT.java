package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.pgbench.PgbenchInit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process's own limits (open files, threads) are said before or instead of a run that cannot hold them. */
class ResourceLimitsIT {
    static Target pg;
    static String url;

    @BeforeAll
    static void start() {
        pg = new TargetSpec().open();
        new PgbenchInit().scale(1).log(null).run(pg);
        url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/kensho";
    }

    @AfterAll
    static void stop() {
        if (pg != null) pg.close();
    }

    @TempDir Path work;

    /** A shell that lowers a limit and runs the command after it. */
    private static List<String> withLimit(String ulimit) {
        return List.of("bash", "-c", "ulimit " + ulimit + " && exec \"$@\"", "bench");
    }

    /**
     * The sweep's check before its first trial counted one thread: a --clients 1,60 on the wire engine (30 threads of
     * two descriptors each at 60) passed it and failed at its second cell, naming -c, which a sweep has not. The pgjdbc
     * engine's threads hold no descriptor: the check asked four a thread of it and refused runs that fit.
     */
    @Test
    void aSweepPastTheOpenFilesLimitIsRefusedBeforeItsFirstTrial() throws Exception {
        String[] sweep = {"pgbench", "sweep", "-S", "--clients", "1,60", "--repeat", "1", "--order", "sequential", "-T", "1",
                "--warmup", "0", "--url", url, "--user", "postgres"};
        BenchJar.Result wire = BenchJar.run(work.resolve("wire"), withLimit("-n 100"), Map.of(), concat(sweep, "--engine", "wire"));
        assertEquals(2, wire.exitCode(), wire.all());
        String err = BenchJar.withoutRemovedRun(wire.err()).strip();
        assertTrue(err.lines().reduce((a, b) -> b).orElse("").matches("bench: 62 connections need about \\d+ open files \\(\\d+ open already\\)"
                + " but this process may open 100: lower --clients, or raise the limit \\(ulimit -n \\d+\\)"), err);
        assertEquals(0, BenchJar.runDirectories(work.resolve("wire/results")), "nothing measured, nothing kept");
        BenchJar.Result pgjdbc = BenchJar.run(work.resolve("pgjdbc"), withLimit("-n 100"), Map.of(), concat(sweep, "--engine", "pgjdbc"));
        assertEquals(0, pgjdbc.exitCode(), pgjdbc.all());
        List<Trial> trials;
        try (var d = Files.list(work.resolve("pgjdbc/results"))) {
            trials = RunDirectory.readTrials(d.findFirst().orElseThrow().resolve(RunDirectory.TRIALS));
        }
        assertEquals(2, trials.size());
        for (Trial t : trials) assertEquals("ok", t.status(), t.toString());
    }

    /**
     * A driver in a pod with half a CPU of quota reported "35% of one CPU", as if at ease, while the quota stopped it in
     * most periods: the report now says how often the quota held it back, and run.json names the quota. The JVM runs
     * in a cgroup of its own (v1's cpu controller, or v2's where the root delegates cpu), the server outside it.
     */
    @Test
    void aCpuQuotaThatHeldTheDriverBackIsSaid() throws Exception {
        Path v1 = Path.of("/sys/fs/cgroup/cpu"), v2 = Path.of("/sys/fs/cgroup");
        boolean useV1 = Files.isWritable(v1) && Files.exists(v1.resolve("cpu.cfs_quota_us"));
        boolean useV2 = !useV1 && Files.isReadable(v2.resolve("cgroup.subtree_control"))
                && Files.readString(v2.resolve("cgroup.subtree_control")).contains("cpu") && Files.isWritable(v2);
        Assumptions.assumeTrue(useV1 || useV2, "no cgroup cpu controller this user may make a cgroup in (needs root, cgroup v1's cpu or v2's delegated)");
        Path cg = (useV1 ? v1 : v2).resolve("kensho-quota-" + ProcessHandle.current().pid());
        Files.createDirectory(cg);
        try {
            if (useV1) {
                Files.writeString(cg.resolve("cpu.cfs_period_us"), "100000");
                Files.writeString(cg.resolve("cpu.cfs_quota_us"), "50000");
            } else {
                Files.writeString(cg.resolve("cpu.max"), "50000 100000");
            }
            List<String> inQuota = List.of("bash", "-c", "echo $$ > " + cg.resolve("cgroup.procs") + " && exec \"$@\"", "bench");
            // a script of meta-commands alone, which no server bounds: -S on a fast host (36 us a transaction at the
            // server's 10 k tps: 37% of one CPU) fitted in the half CPU, was never held back, and the line was rightly absent
            Path spin = Files.writeString(work.resolve("spin.sql"), "\\set a random(1, 100000)\n\\set b :a * 3 + 1\n");
            BenchJar.Result r = BenchJar.run(work, inQuota, Map.of(), "pgbench", "run", "-f", spin.toString(), "-c", "4", "-j", "2",
                    "-T", "3", "--url", url, "--user", "postgres");
            assertEquals(0, r.exitCode(), r.all());
            assertTrue(r.out().matches("(?s).*\\(a cgroup's CPU quota held this process back in \\d+% of the run's periods: the driver was capped,"
                    + " and its numbers with it\\).*"), r.all());
            String runJson;
            try (var d = Files.list(work.resolve("results"))) {
                runJson = Files.readString(d.findFirst().orElseThrow().resolve(RunDirectory.RUN));
            }
            assertTrue(runJson.contains("\"cpu_quota\" : 0.5"), runJson);
        } finally {
            // empty once the JVM in it has ended (rmdir: a cgroup's files go with it); a JVM killed at the timeout may still be
            // ending: waited for a moment, and a cgroup still busy is left, not a failure hiding the test's own
            for (int i = 0; i < 20; i++) {
                try {
                    Files.deleteIfExists(cg);
                    break;
                } catch (java.io.IOException busy) {
                    Thread.sleep(250);
                }
            }
        }
    }

    /**
     * A thread that cannot start (a user's process limit) was said as heap exhaustion ("give it more, as in java
     * -Xmx..."), the clients started before it left connected, and the run's directory without a word of why.
     */
    @Test
    void aThreadLimitIsSaidAsOneWithTheRunsNote() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        Assumptions.assumeTrue(root && Files.exists(Path.of("/usr/sbin/runuser")), "a user's process limit is set for another user here: needs root and runuser");
        // nobody's process limit counts nobody's threads only; a directory nobody may write, outside @TempDir (root's alone)
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kensho-nproc-");
        try {
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            List<String> asNobody = List.of("runuser", "-u", "nobody", "--", "bash", "-c", "ulimit -u 60 && exec \"$@\"", "bench");
            for (String engine : List.of("pgjdbc", "wire")) {
                Path w = dir.resolve(engine);
                Files.createDirectories(w);
                Files.setPosixFilePermissions(w, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
                BenchJar.Result r = BenchJar.run(w, asNobody, Map.of("KENSHO_HOME", w.resolve("home").toString()), "pgbench", "run", "-S",
                        "-c", "80", "-j", "80", "--engine", engine, "-T", "1", "--url", url, "--user", "postgres");
                Assumptions.assumeFalse(r.err().contains("AccessDeniedException") || r.err().contains("Unable to access jarfile"),
                        "nobody may not read bench.jar here: " + r.err());
                assertEquals(1, r.exitCode(), r.all());
                String last = r.err().strip().lines().reduce((a, b) -> b).orElse("");
                assertTrue(last.startsWith("bench: pgbench: cannot start thread ") && last.contains("(ulimit -u)")
                        && last.endsWith(engine.equals("wire") ? "lower -j, or raise the limit" : "or use --engine wire (clients on -j threads, as pgbench), or raise the limit"), r.err());
                assertTrue(!r.all().contains("-Xmx") && !r.all().contains("kensho-remote-servers-at-exit"), "no heap advice, every exit hook started: " + r.all());
                Path run;
                try (var d = Files.list(w.resolve("results"))) {
                    run = d.findFirst().orElseThrow();
                }
                assertTrue(RunDirectory.info(run).notes().stream().anyMatch(n -> n.startsWith(RunDirectory.FAILED_BEFORE_FIRST_TRIAL + "pgbench: cannot start thread ")),
                        RunDirectory.info(run).notes().toString());
            }
        } finally {
            try (var all = Files.walk(dir)) {
                all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * A result larger than the heap (the pgjdbc engine holds a statement's whole result): the client's OutOfMemoryError
     * ended its thread with a stack trace, and the run reported the transactions of the others, "ok", exit 0.
     */
    @Test
    void aClientOutOfHeapAbortsTheRunSayingWhy() throws Exception {
        Path script = Files.writeString(work.resolve("big.sql"), "SELECT g, repeat('x', 100) FROM generate_series(1, 2000000) g;\n");
        BenchJar.Result r = BenchJar.run(work.resolve("run"), List.of(), Map.of("JAVA_TOOL_OPTIONS", "-Xmx96m"), "pgbench", "run", "-n",
                "--warmup", "0", "-c", "1", "-t", "1", "-f", script.toString(), "--url", url, "--user", "postgres");
        assertEquals(1, r.exitCode(), r.all());
        assertTrue(r.err().contains("error: client 0 stopped: out of memory (Java heap space; the JVM's heap is at most ")
                && r.err().contains("the pgjdbc engine holds a statement's whole result in memory (--engine wire reads it as it comes)")
                && r.err().contains("Run was aborted"), r.err());
        assertTrue(!r.all().contains("Exception in thread"), r.all());
        List<Trial> trials;
        try (var d = Files.list(work.resolve("run/results"))) {
            trials = RunDirectory.readTrials(d.findFirst().orElseThrow().resolve(RunDirectory.TRIALS));
        }
        assertEquals("failed", trials.get(0).status());
        assertTrue(String.valueOf(trials.get(0).extra().get("reason")).contains("client 0 stopped: out of memory"), trials.get(0).extra().toString());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
