package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.pgbench.PgbenchRun;
import dev.kensho.pgbench.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The report's count lines side by side with the C pgbench 15's for runs whose counts do not depend on timing:
 * transactions that fail with a serialization error (SQLSTATE 40001), a script of weight 0, scripts chosen by
 * --random-seed. Lines with times in them (latency, tps, connection time) are compared without their numbers.
 */
@KenshoTarget
class ReportAgainstPgbenchTest {
    static final Path C_PGBENCH = Path.of("/usr/lib/postgresql/15/bin/pgbench");
    static final String FAIL = "DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '40001'; END $$;\n";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        // every transaction fails: pgbench prints no latency or tps lines (total->cnt + skipped <= 0)
        "-t 5 -f fail.sql",
        "-t 5 --max-tries=2 --failures-detailed -f fail.sql",
        // 12 of 20 succeed: a script's share is of the successful transactions, and one that never succeeded has no latency
        "-t 20 --random-seed=5 -f fail.sql@1 -f ok.sql@1",
        // a script never chosen: its percentages are 0/0, which pgbench prints as NaN
        "-t 3 --max-tries=2 -f ok.sql@0 -f ok2.sql@1",
    })
    void countLinesAsPgbench(String args, @LocalPostgres Target pg) throws Exception {
        assumeTrue(Files.isExecutable(C_PGBENCH), "no C pgbench at " + C_PGBENCH);
        Files.writeString(dir.resolve("fail.sql"), FAIL);
        Files.writeString(dir.resolve("ok.sql"), "SELECT 1;\n");
        Files.writeString(dir.resolve("ok2.sql"), "SELECT 2;\n");

        List<String> cmd = new ArrayList<>(List.of(C_PGBENCH.toString(), "-n", "-h", pg.host(), "-p", Integer.toString(pg.port()),
                "-U", pg.user()));
        PgbenchRun ours = new PgbenchRun().noVacuum(true).clients(1).warmup(0);
        String[] a = args.split(" ");
        for (int i = 0; i < a.length; i++) {
            switch (a[i]) {
                case "-t" -> ours.transactions(Long.parseLong(a[i + 1]));
                case "-f" -> ours.file(dir.resolve(a[i + 1]).toString());
                case "--max-tries=2" -> ours.maxTries(2);
                case "--failures-detailed" -> ours.failuresDetailed(true);
                case "--random-seed=5" -> ours.randomSeed("5");
                default -> { }
            }
            cmd.add(a[i].endsWith(".sql") || a[i].contains(".sql@") ? dir.resolve(a[i]).toString() : a[i]);
        }
        cmd.add(pg.database());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        List<String> theirs = comparable(out.lines().toList());

        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(sink, true, StandardCharsets.UTF_8);
        RunReport r = ours.output(ps, ps).run(pg);
        assertEquals(theirs, comparable(r.lines()), () -> "pgbench printed:\n" + out + "\nours:\n" + String.join("\n", r.lines()));
    }

    /**
     * The lines both print, times masked: pgbench's banner and Kensho's own lines (percentiles, notes, the overall
     * stddev pgbench prints only with -P, -R or -L) dropped, file paths reduced to their names. Kensho's connection
     * failures line is not dropped: with no connection lost it must not be there.
     */
    private List<String> comparable(List<String> lines) {
        List<String> l = new ArrayList<>();
        for (String s : lines) {
            if (s.startsWith("pgbench") || s.startsWith("(") || s.startsWith("latency percentiles")
                    || s.startsWith("latency stddev")) continue;
            s = s.replace(dir.toString() + "/", "");
            s = s.replaceAll("= \\d+\\.\\d+ ms.*", "= T ms").replaceAll("tps = \\d+\\.\\d+", "tps = T");
            l.add(s);
        }
        return l;
    }
}
