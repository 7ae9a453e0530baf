package dev.kensho.cli;

import java.util.Locale;
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
        String what = t.ok() ? t.metrics().entrySet().stream().findFirst().map(e -> measured(e.getKey(), e.getValue())).orElse("ok")
                : t.status() + ": " + t.extra().get("reason");
        System.err.printf(Locale.ROOT, "[%d/%d] %s #%d %s%s%n", index, total, label.apply(p), p.repeat() + 1, what,
                skipped > 0 ? " (" + skipped + " already done)" : "");
        // in run.json's notes only, a restart of a dead server went unseen on the console
        if (Boolean.TRUE.equals(t.extra().get("restarted_server"))) System.err.println("  warning: the server did not accept connections: "
                + "Kensho restarted it before this trial (run.json's notes say why)");
        else if (t.extra().get("waited_for_server_s") != null) System.err.println("  warning: waited " + t.extra().get("waited_for_server_s")
                + " s for the server to accept connections before this trial (it was restarting or recovering)");
    }

    /** "21.186 ms", a number before its unit, where the metric is named by its unit; "rows 12" where it is not. */
    static String measured(String metric, Object v) {
        return metric.matches("ms|s|us|tps") ? fmt(v) + " " + metric : metric + " " + fmt(v);
    }

    private static String fmt(Object v) {
        return v instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : String.valueOf(v);
    }
}
