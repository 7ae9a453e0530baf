package dev.kensho.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kensho.core.server.OldPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PostgreSQL 9.6, the oldest release the studies ran, from bench.jar: a pipelined pgbench run, env, and ssb jit's refusal. */
class OldReleasesIT {
    @TempDir Path work;

    @BeforeEach
    void binaries() {
        OldPostgres.assumeLocal(OldPostgres.PG96);   // found in the local Maven repository, nothing is downloaded
    }

    /** Pipelines are libpq's protocol, not the server's: 9.6 runs them as 14 does. */
    @Test
    void pgbenchRunWithAPipeline() throws Exception {
        Path pipeline = Files.writeString(work.resolve("pipeline.sql"), "\\set aid random(1, 100000 * :scale)\n\\startpipeline\n"
                + "select abalance from pgbench_accounts where aid = :aid;\n\\syncpipeline\nselect 1;\n\\endpipeline\n");
        BenchJar.Result r = BenchJar.run(work.resolve("run"), "pgbench", "run", "--init", "--pg-version", "9.6.24", "-f", pipeline.toString(),
                "-M", "extended", "-c", "2", "-t", "50", "--engine", "wire", "--warmup", "0");
        assertEquals(0, r.exitCode(), r.all());
        assertTrue(r.out().contains("number of transactions actually processed: 100/100"), r.out());
        assertFalse(r.out().contains("partition method"), r.out());
    }

    @Test
    void envRecordsTheServerWithoutJit() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "env", "--pg-version", "9.6.24");
        assertEquals(0, r.exitCode(), r.all());
        JsonNode server = new ObjectMapper().readTree(r.out()).path("server");
        assertFalse(server.has("error"), server.toString());
        assertEquals("9.6.24", server.path("server_version").asText());
        assertFalse(server.path("jit_available").asBoolean(true), server.toString());
    }

    @Test
    void ssbJitIsRefusedInOneLine() throws Exception {
        BenchJar.Result r = BenchJar.run(work, "ssb", "jit", "--pg-version", "9.6.24", "-s", "0.01", "--no-cache");
        assertEquals(2, r.exitCode(), r.all());
        assertTrue(r.err().startsWith("bench: the embedded PostgreSQL servers have no JIT (their binaries are built without LLVM, "
                + "and PostgreSQL had none before 11)"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
