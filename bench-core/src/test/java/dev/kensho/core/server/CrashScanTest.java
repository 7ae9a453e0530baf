package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server.log read from a mark for a crash: line by line, on from where it stopped, a line being written read whole. */
class CrashScanTest {
    private static final String KILLED = "2026-11-30 22:17:51.612 UTC [633] LOG:  client backend (PID 640) was terminated by signal 9: Killed\n";

    @Test
    void findsTheCrashAfterTheMarkPastHugeLinesAndAcrossAPartialLine(@TempDir Path tmp) throws Exception {
        Path log = tmp.resolve("server.log");
        Files.writeString(log, KILLED);   // before the mark: an earlier trial's
        long mark = Files.size(log);
        // log_statement=all: a 3 MB statement on one line
        Files.writeString(log, "2026-11-30 22:17:50.000 UTC [640] LOG:  statement: SELECT '" + "x".repeat(3_000_000) + "'\n",
                StandardOpenOption.APPEND);
        ServerLog.CrashScan scan = new ServerLog.CrashScan(mark);
        assertNull(scan.scan(log));
        // the postmaster is writing the line as it is read: half of it now, the rest a moment later
        Files.writeString(log, KILLED.substring(0, 60), StandardOpenOption.APPEND);
        assertNull(scan.scan(log));
        Files.writeString(log, KILLED.substring(60), StandardOpenOption.APPEND);
        assertEquals("client backend (PID 640) was terminated by signal 9: Killed", scan.scan(log));
    }
}
