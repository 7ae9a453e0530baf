package dev.kensho.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.result.Trial;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.scan.table.ScanTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --resume measures the cells the interrupted run had left, under the keys it gave them. */
class ScanResumeTest {

    /**
     * "large" is at least the server's current shared_buffers, so it depends on the server's state: a run killed while
     * it ran with a larger value (a kept data directory, a remote server with --restart-command) resumed with "large"
     * resolved to that value, and measured the remaining cells under other keys than the run's own.
     */
    @Test
    void aResumedRunKeepsTheSharedBuffersItResolved(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(2_000).from(10).to(90).step(80).layouts(List.of(Layout.HIGH))
                    .sharedBuffers(List.of("large")).throughputMb(0).build();
            ScanCrossover.Result first = ScanCrossover.run(pg, o, results, List.of("scan"), null);
            Path trials = first.directory().resolve(RunDirectory.TRIALS);
            List<String> lines = Files.readAllLines(trials);
            assertEquals(4, lines.size());
            String resolved = (String) RunDirectory.readTrials(trials).get(0).params().get("shared_buffers");
            // interrupted after its first two cells, with the server left at a larger shared_buffers
            Files.write(trials, lines.subList(0, 2));
            long larger = Long.parseLong(resolved.replace("MB", "")) + 32;
            pg.control().apply(Map.of("shared_buffers", larger + "MB"));

            ScanCrossover.Result resumed = ScanCrossover.resume(pg, first.directory(), null);
            List<Trial> all = RunDirectory.readTrials(trials);
            assertEquals(4, all.size(), all.toString());
            assertEquals(new TreeSet<>(List.of(resolved)), new TreeSet<>(all.stream().map(t -> String.valueOf(t.params().get("shared_buffers"))).toList()));
            assertEquals(1, resumed.crossovers().size());

            // a failed repeat the resume ran again with success is behind the run: "2 failed" and exit 1 for ever after
            Trial rerun = all.get(3);
            List<String> withFailure = new java.util.ArrayList<>(Files.readAllLines(trials));
            withFailure.add(2, dev.kensho.core.result.Json.MAPPER.writeValueAsString(new Trial(rerun.cell(), rerun.repeat(), rerun.params(),
                    Map.of(), Map.of("reason", "canceled"), "failed", rerun.started(), rerun.finished())));
            Files.write(trials, withFailure);
            ScanCrossover.Result again = ScanCrossover.resume(pg, first.directory(), null);
            assertEquals(0, again.failed(), again.report().toString());
            assertEquals(5, RunDirectory.readTrials(trials).size(), "nothing run again");
        }
    }

    /**
     * A --resume of a run that finished checked its tables again, built them again where they were gone, and rebuilt them
     * where the run had --rebuild (a 10-million-row load at the study's size), before it found no trial left to run.
     */
    @Test
    void aFinishedRunsResumeLeavesTheTablesAlone(@TempDir Path results) throws Exception {
        try (Target pg = new TargetSpec().open()) {
            ScanCrossover.Options o = ScanCrossover.Options.builder().rows(2_000).from(10).to(90).step(80).layouts(List.of(Layout.HIGH))
                    .throughputMb(0).rebuild(true).build();
            ScanCrossover.Result first = ScanCrossover.run(pg, o, results, List.of("scan", "--rebuild"), null);
            Path trials = first.directory().resolve(RunDirectory.TRIALS);
            long table = oid(pg);
            Files.delete(first.directory().resolve(RunDirectory.SUMMARY));

            java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
            ScanCrossover.Result again = ScanCrossover.resume(pg, first.directory(), new java.io.PrintStream(said, true, "UTF-8"));
            assertEquals(table, oid(pg), "the finished run's resume rebuilt " + ScanTable.name(Layout.HIGH));
            assertEquals("scan: every trial is already in " + first.directory() + "; nothing left to resume\n", said.toString("UTF-8"));
            assertEquals(4, RunDirectory.readTrials(trials).size());
            assertEquals(first.crossovers(), again.crossovers());
            assertEquals(first.layouts(), again.layouts(), "the layouts the run measured, from its run.json");
            assertEquals(first.report(), again.report());
            assertTrue(Files.size(first.directory().resolve(RunDirectory.SUMMARY)) > 0, "summary.csv written again");
        }
    }

    private static long oid(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT '" + ScanTable.name(Layout.HIGH) + "'::regclass::oid::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
