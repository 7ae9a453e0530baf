package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kensho.core.result.Json;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.OldPostgres;
import dev.kensho.core.server.Target;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Study 003's planner settings are 11's (it ran 11.6): a 9.6 server lacks some, and every cell failed on the first. */
class OldReleasesTest {

    @Test
    void settingsOfLaterReleasesAreLeftOutAndSaidSo(@TempDir Path results) throws Exception {
        try (Target pg = OldPostgres.spec(OldPostgres.PG96).open()) {
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(4000).from(1).to(51).step(50)
                    .caches(List.of(CacheState.WARM)).throughputMb(0).build();
            ScanCrossover.Result r = ScanCrossover.run(pg, o, results, List.of("bench", "scan"), null);
            List<Trial> trials = RunDirectory.readTrials(r.directory().resolve(RunDirectory.TRIALS));
            assertEquals(2 * 2 * 2, trials.size());
            for (Trial t : trials) assertEquals("ok", t.status(), t.cell() + ": " + t.extra().get("reason"));
            JsonNode run = Json.MAPPER.readTree(r.directory().resolve(RunDirectory.RUN).toFile());
            JsonNode applied = run.path("parameters").path("session_settings");
            assertEquals("off", applied.path("enable_seqscan").asText(), applied.toString());
            for (String absent : List.of("enable_gathermerge", "enable_parallel_append", "jit")) assertFalse(applied.has(absent), applied.toString());
            assertTrue(StreamSupport.stream(run.path("notes").spliterator(), false).anyMatch(n -> n.asText().equals(
                    "scan: PostgreSQL 9.6.24 has no enable_gathermerge, enable_parallel_append, enable_parallel_hash, enable_partition_pruning, "
                            + "enable_partitionwise_aggregate, enable_partitionwise_join, jit (settings of later releases, for plans it cannot make): "
                            + "not set")), run.path("notes").toString());
        }
    }
}
