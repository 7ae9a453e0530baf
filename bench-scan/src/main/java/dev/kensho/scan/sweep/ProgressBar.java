package dev.kensho.scan.sweep;

import dev.kensho.core.result.Trial;
import dev.kensho.core.run.TrialMatrix;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress on stderr: bar, count, ETA from this session's pace, and the cell being measured. On a
 * terminal one line is redrawn with \r; otherwise (a log file, CI) a plain line is printed after the
 * first cell, at every tenth of the sweep, at least every {@value #PLAIN_EVERY_SECONDS} s, and at the end,
 * so the log holds no carriage returns and stays short.
 */
final class ProgressBar implements TrialMatrix.Listener<Cell> {
    private static final int WIDTH = 30;
    static final int PLAIN_EVERY_SECONDS = 30;
    private final PrintStream out;
    private final boolean redraw;
    private final long started = System.nanoTime();
    private long lastLine = Long.MIN_VALUE;
    private int lastTenth = -1;
    private int measuredHere;
    private int skippedAsDone;
    private int invalid;
    private int failed;
    private int skipped;

    ProgressBar(PrintStream out) {
        this(out, System.console() != null);
    }

    /** @param redraw true on a terminal: one line redrawn in place */
    ProgressBar(PrintStream out, boolean redraw) {
        this.out = out;
        this.redraw = redraw;
    }

    @Override
    public void alreadyDone(TrialMatrix.Planned<Cell> p) {
        skippedAsDone++;
    }

    @Override
    public void starting(TrialMatrix.Planned<Cell> p, int index, int total) {
        if (redraw) draw(index - 1, total, p.cell());
    }

    @Override
    public void finished(TrialMatrix.Planned<Cell> p, Trial t, int index, int total) {
        if ("skipped".equals(t.status())) skipped++;
        else measuredHere++;   // the pace counts measured cells only: a skipped one takes no time
        if ("invalid".equals(t.status())) invalid++;
        if ("failed".equals(t.status())) failed++;
        if (redraw) {
            draw(index, total, p.cell());
            if (index == total) out.println();
            return;
        }
        int tenth = total == 0 ? 10 : (int) ((long) index * 10 / total);
        long now = System.nanoTime();
        if (tenth != lastTenth || index == total || now - lastLine >= PLAIN_EVERY_SECONDS * 1_000_000_000L) {
            lastTenth = tenth;
            lastLine = now;
            draw(index, total, p.cell());
        }
    }

    private void draw(int done, int total, Cell c) {
        if (out == null) return;
        int filled = total == 0 ? WIDTH : (int) ((long) done * WIDTH / total);
        String eta = "";
        if (measuredHere > 0 && done < total) {
            double perCell = (System.nanoTime() - started) / 1e9 / measuredHere;
            long s = Math.round(perCell * (total - done));
            eta = String.format(Locale.ROOT, " ETA %dm%02ds", s / 60, s % 60);
        }
        String flags = (invalid > 0 ? " invalid=" + invalid : "") + (failed > 0 ? " failed=" + failed : "")
                + (skipped > 0 ? " skipped=" + skipped : "") + (skippedAsDone > 0 ? " resumed=" + skippedAsDone : "");
        String line = String.format(Locale.ROOT, "scan [%s%s] %d/%d%s  %s %s %s %s%%%s", "#".repeat(filled), ".".repeat(WIDTH - filled),
                done, total, eta, c.layout().label(), c.cache().label(), c.scan().label(), Cell.percentText(c.percent()), flags);
        if (redraw) {
            out.print("\r" + line + "   ");
        } else {
            out.println(line);
        }
        out.flush();
    }
}
