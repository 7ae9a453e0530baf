package dev.kensho.cli.ssb;

import java.util.Locale;
import dev.kensho.core.KenshoException;
import dev.kensho.ssb.SsbDatabase;
import dev.kensho.ssb.gen.SsbGenerator;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** bench ssb gen: the five .tbl files, byte-identical to ssb-dbgen. */
@Command(name = "gen", mixinStandardHelpOptions = true,
        description = "Write part.tbl, supplier.tbl, customer.tbl, date.tbl and lineorder.tbl byte-identical to "
                + "'TZ=UTC dbgen -s SF' (eyalroz/ssb-dbgen @ ae1e254), generated in parallel.")
final class SsbGenCommand implements Callable<Integer> {
    @Option(names = {"-s", "--scale"}, defaultValue = "1", paramLabel = "SF", description = "Scale factor as dbgen's -s (default ${DEFAULT-VALUE}).")
    double scale;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory for the .tbl files (created; existing files replaced).")
    Path out;

    @Option(names = {"--threads", "--jobs"}, paramLabel = "N", description = "Generator threads (default: number of cores; --jobs as ssb load names it).")
    Integer threads;

    @Override
    public Integer call() throws Exception {
        int n = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (n < 1) throw KenshoException.usage("--threads must be at least 1, got " + n);
        SsbDatabase.checkScale(scale); // the files would be those of the truncated scale
        SsbGenerator g;
        try {
            g = new SsbGenerator(scale);
        } catch (IllegalArgumentException e) {
            throw KenshoException.usage("--scale: " + e.getMessage());
        }
        long t0 = System.nanoTime();
        try {
            g.writeFiles(out, n);
        } catch (java.io.IOException e) {
            throw KenshoException.usage("--out " + out + ": cannot write (" + KenshoException.ioReason(e) + ")");
        }
        System.out.printf(Locale.ROOT, "ssb gen -s %s: %d thread(s), %.2f s, files in %s%n", SsbLoadCommand.fmt(scale), n,
                (System.nanoTime() - t0) / 1e9, out);
        return 0;
    }
}
