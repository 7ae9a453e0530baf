package dev.kensho.ssb.load;

import java.util.Locale;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-line progress bar with rows/s on stderr: redrawn in place on a terminal, a plain line every
 * few seconds otherwise (logs, CI).
 */
public final class Progress implements AutoCloseable {
    private final PrintStream out;
    private final boolean terminal = System.console() != null;
    private final AtomicLong done = new AtomicLong();
    private volatile long total;
    private volatile String label = "";
    private Thread ticker;
    private long started;

    public Progress(PrintStream out) {
        this.out = out;
    }

    public void start(String label, long totalRows) {
        this.label = label;
        this.total = totalRows;
        this.started = System.nanoTime();
        ticker = new Thread(this::tick, "kensho-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    public void add(long rows) {
        done.addAndGet(rows);
    }

    private void tick() {
        long period = terminal ? 250 : 5000;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(period);
                draw(false);
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private synchronized void draw(boolean last) {
        long d = Math.min(done.get(), total);
        double secs = (System.nanoTime() - started) / 1e9;
        double rate = secs > 0 ? d / secs : 0;
        int width = 30;
        int filled = total == 0 ? width : (int) (width * d / total);
        String eta = rate > 0 && d < total ? String.format(Locale.ROOT, " eta %ds", (long) Math.ceil((total - d) / rate)) : "";
        String line = String.format(Locale.ROOT, "%s [%s%s] %,d/%,d rows %3d%% %,.0f rows/s %.1fs%s", label, "#".repeat(filled),
                " ".repeat(width - filled), d, total, total == 0 ? 100 : 100 * d / total, rate, secs, eta);
        if (terminal) out.print("\r" + line + "\u001b[K" + (last ? "\n" : ""));
        else out.println(line);
        out.flush();
    }

    @Override
    public void close() {
        if (ticker == null) return;
        ticker.interrupt();
        try {
            ticker.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        draw(true);
        ticker = null;
    }
}
