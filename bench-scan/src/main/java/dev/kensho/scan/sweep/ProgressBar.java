package dev.kensho.scan.sweep;

import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import java.io.PrintStream;
import java.util.Locale;

/** One redrawn line on stderr: bar, count, ETA from this session's pace, and the cell being measured. */
final class ProgressBar implements TrialMatrix.Listener<Cell> {
    private static final int WIDTH = 30;
    private final PrintStream out;
    private final long started = System.nanoTime();
    private int doneHere;
    private int skippedAsDone;
    private int invalid;
    private int failed;

    ProgressBar(PrintStream out) {
        this.out = out;
    }

    @Override
    public void alreadyDone(TrialMatrix.Planned<Cell> p) {
        skippedAsDone++;
    }

    @Override
    public void starting(TrialMatrix.Planned<Cell> p, int index, int total) {
        draw(index - 1, total, p.cell());
    }

    @Override
    public void finished(TrialMatrix.Planned<Cell> p, Trial t, int index, int total) {
        doneHere++;
        if ("invalid".equals(t.status())) invalid++;
        if ("failed".equals(t.status())) failed++;
        draw(index, total, p.cell());
        if (index == total) out.println();
    }

    private void draw(int done, int total, Cell c) {
        if (out == null) return;
        int filled = total == 0 ? WIDTH : (int) ((long) done * WIDTH / total);
        String eta = "";
        if (doneHere > 0 && done < total) {
            double perCell = (System.nanoTime() - started) / 1e9 / doneHere;
            long s = Math.round(perCell * (total - done));
            eta = String.format(Locale.ROOT, " ETA %dm%02ds", s / 60, s % 60);
        }
        String flags = (invalid > 0 ? " invalid=" + invalid : "") + (failed > 0 ? " failed=" + failed : "")
                + (skippedAsDone > 0 ? " resumed=" + skippedAsDone : "");
        out.printf(Locale.ROOT, "\rscan [%s%s] %d/%d%s  %s %s %s %s%%%s   ", "#".repeat(filled), ".".repeat(WIDTH - filled),
                done, total, eta, c.layout().label(), c.cache().label(), c.scan().label(), Cell.percentText(c.percent()), flags);
        out.flush();
    }
}
