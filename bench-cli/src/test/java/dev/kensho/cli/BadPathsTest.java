package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
}
