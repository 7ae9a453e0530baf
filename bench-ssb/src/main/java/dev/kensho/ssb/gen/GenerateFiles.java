package dev.kensho.ssb.gen;

import java.util.Locale;
import java.nio.file.Path;

/**
 * Entry point for {@code bench/ssb-gen-vs-dbgen.sh}: what {@code bench ssb gen} writes, without the CLI's start-up,
 * {@code java -cp ... dev.kensho.ssb.gen.GenerateFiles <sf> <outdir> [threads]} (threads default: available
 * processors). Writes the five {@code .tbl} files and prints one summary line.
 */
public final class GenerateFiles {
    private GenerateFiles() {
    }

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: GenerateFiles <scale-factor> <outdir> [threads]");
            System.exit(2);
        }
        try {
            double sf = Double.parseDouble(args[0]);
            int threads = args.length == 3 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
            long t0 = System.nanoTime();
            new SsbGenerator(sf).writeFiles(Path.of(args[1]), threads);
            System.out.printf(Locale.ROOT, "ssb gen -s %s: %d thread(s), %.2f s, files in %s%n",
                args[0], threads, (System.nanoTime() - t0) / 1e9, args[1]);
        } catch (NumberFormatException e) {
            System.err.println("error: not a number: " + e.getMessage());
            System.exit(2);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        } catch (java.io.IOException e) {
            System.err.println("error: " + e);
            System.exit(1);
        }
    }
}
