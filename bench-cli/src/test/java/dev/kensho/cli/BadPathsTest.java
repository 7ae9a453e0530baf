package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A path given wrong is one line naming the option and what is wrong with the path, exit 2, before any server starts. */
class BadPathsTest {
    @TempDir Path tmp;

    @Test
    void aMissingQueryFileSaysSoInWords() {
        Path missing = tmp.resolve("q.sql");
        CommandRun r = CommandRun.of("query", "-f", missing.toString(), "--results", tmp.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: -f " + missing + ": cannot read (no such file or directory)\n", r.err());
    }

    /**
     * A run that fails before its first trial removes its run directory, and the --results directory it made for it
     * (an empty ./results was left behind); one that was there stays.
     */
    @Test
    void aRunThatMeasuredNothingLeavesNoResultsDirectoryItMade() throws Exception {
        Path made = tmp.resolve("new").resolve("results");
        CommandRun r = CommandRun.of("query", "-c", "select 1", "--url", "jdbc:postgresql://127.0.0.1:1/x?user=u", "--results", made.toString());
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains("removed)"), r.err());
        assertTrue(!Files.exists(made) && Files.isDirectory(made.getParent()), "left: " + made);
        Path there = Files.createDirectories(tmp.resolve("there"));
        CommandRun again = CommandRun.of("query", "-c", "select 1", "--url", "jdbc:postgresql://127.0.0.1:1/x?user=u", "--results", there.toString());
        assertEquals(3, again.exit(), again.err());
        assertTrue(Files.isDirectory(there));
    }

    /** An empty path is the working directory to Java: --results "" wrote there without a word. */
    @Test
    void anEmptyPathIsRefused() {
        for (String[] args : new String[][] {{"query", "-c", "select 1", "--results", ""}, {"ssb", "gen", "-s", "0.01", "--out", " "}}) {
            CommandRun r = CommandRun.of(args);
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().startsWith("bench: Invalid value for option '" + args[args.length - 2] + "': an empty path"), r.err());
        }
    }

    /** A binary password file: its decoder said only "Input length = 1". */
    @Test
    void aPasswordFileThatIsNoTextSaysSo() throws Exception {
        Path binary = Files.write(tmp.resolve("pw"), new byte[] {(byte) 0xc0, (byte) 0xff, 0x01});
        CommandRun r = CommandRun.of("env", "--url", "jdbc:postgresql://127.0.0.1:1/x?user=u", "--password-file", binary.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: --password-file " + binary + ": cannot read (not UTF-8 text)\n", r.err());
    }

    @Test
    void keepDataThatIsAFileIsAUsageError() throws Exception {
        Path file = Files.writeString(tmp.resolve("afile"), "x");
        CommandRun r = CommandRun.of("env", "--keep-data", file.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: --keep-data " + file + ": is a file, not a directory\n", r.err());
    }

    @Test
    void aMistypedTablespaceDirIsRefusedNotCreated() {
        // it names the medium to measure: created anew it would measure whatever disk holds its parent
        Path missing = tmp.resolve("mnt/sdd/kensho");
        CommandRun r = CommandRun.of("scan", "--rows", "1000", "--tablespace-dir", missing.toString(), "--results", tmp.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: --tablespace-dir " + missing + ": no such directory\n", r.err());
        assertFalse(Files.exists(tmp.resolve("mnt")), "nothing created");
    }

    /** The scan library's builder names its methods in errors; the command names the options the user typed. */
    @Test
    void scanOptionErrorsNameTheOptions() {
        CommandRun r = CommandRun.of("scan", "--rows", "10", "--results", tmp.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("bench: --rows must be at least 100\n", r.err());
    }

    /**
     * A --set of a setting scan SETs in every session (the study's planner settings, jit, the workers per Gather) was
     * overridden there while run.json recorded it as the run's: refused before anything starts. Others go through.
     */
    @Test
    void aScanSettingOfItsOwnIsRefused() {
        CommandRun seq = CommandRun.of("scan", "--rows", "1000", "--set", "enable_seqscan=on", "--results", tmp.toString());
        assertEquals(2, seq.exit(), seq.err());
        assertEquals("bench: --set enable_seqscan: bench scan sets it itself (off, one of the study's planner settings that make each "
                + "query run its intended plan); it cannot be changed\n", seq.err());
        CommandRun jit = CommandRun.of("scan", "--rows", "1000", "--set", "JIT=on", "--results", tmp.toString());
        assertEquals(2, jit.exit(), jit.err());
        assertTrue(jit.err().startsWith("bench: --set JIT: bench scan sets it itself (off: "), jit.err());
        CommandRun workers = CommandRun.of("scan", "--rows", "1000", "--set", "max_parallel_workers_per_gather=2", "--results", tmp.toString());
        assertEquals("bench: --set max_parallel_workers_per_gather: bench scan sets it itself from --parallel-workers; give its value there\n",
                workers.err());
        assertEquals(0, tmp.toFile().list().length, "refused before a run directory was made");
        // micro's encoding benchmark sets client_encoding per cell: a --set of it was overridden there
        CommandRun micro = CommandRun.of("micro", "--set", "client_encoding=SJIS", "--results", tmp.toString());
        assertEquals(2, micro.exit(), micro.err());
        assertEquals("bench: --set client_encoding: bench micro sets it itself from --client-encodings; give its values there\n", micro.err());
    }
}
