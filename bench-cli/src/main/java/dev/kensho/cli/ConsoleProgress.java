package dev.kensho.cli;

import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import java.util.function.Function;

/** One stderr line per finished trial: "[3/40] q1 {jit=on} 12.3 ms". */
public final class ConsoleProgress<C> implements TrialMatrix.Listener<C> {
    private final Function<TrialMatrix.Planned<C>, String> label;
    private int skipped;

    public ConsoleProgress(Function<TrialMatrix.Planned<C>, String> label) {
        this.label = label;
    }

    @Override
    public void alreadyDone(TrialMatrix.Planned<C> p) {
        skipped++;
    }

    @Override
    public void finished(TrialMatrix.Planned<C> p, Trial t, int index, int total) {
        String what = t.ok() ? t.metrics().entrySet().stream().findFirst().map(e -> e.getKey() + " " + fmt(e.getValue())).orElse("ok")
                : t.status() + ": " + t.extra().get("reason");
        System.err.printf("[%d/%d] %s #%d %s%s%n", index, total, label.apply(p), p.repeat() + 1, what,
                skipped > 0 ? " (" + skipped + " already done)" : "");
    }

    private static String fmt(Object v) {
        return v instanceof Double d ? String.format("%.3f", d) : String.valueOf(v);
    }
}
