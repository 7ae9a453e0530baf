package dev.kensho.cli.pgbench;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** -f/-b/-S/-N as pgbench takes them; the scripts keep their command-line order (it numbers them). */
final class ScriptOptions {
    final List<String> specs = new ArrayList<>();

    @Option(names = {"-f", "--file"}, paramLabel = "FILE[@W]",
            description = "Add a script file, optionally with a weight (repeatable).")
    void file(List<String> values) {
        if (!values.isEmpty()) specs.add("-f" + values.get(values.size() - 1));
    }

    @Option(names = {"-b", "--builtin"}, paramLabel = "NAME[@W]",
            description = "Add a builtin script: tpcb-like, simple-update, select-only, and the studies' pgecons-read, "
                    + "pgecons-read-noagg, pgecons-update (repeatable; default tpcb-like).")
    void builtin(List<String> values) {
        if (!values.isEmpty()) specs.add("-b" + values.get(values.size() - 1));
    }

    @Option(names = {"-S", "--select-only"}, description = "Same as -b select-only.")
    void selectOnly(boolean b) {
        if (b) specs.add("-bselect-only");
    }

    @Option(names = {"-N", "--skip-some-updates"}, description = "Same as -b simple-update.")
    void simpleUpdate(boolean b) {
        if (b) specs.add("-bsimple-update");
    }

    /** A builtin runs, given or by default (tpcb-like): the scale is then pgbench_branches' count, not -s. */
    boolean builtinUsed() {
        return specs.isEmpty() || specs.stream().anyMatch(s -> s.startsWith("-b"));
    }
}
