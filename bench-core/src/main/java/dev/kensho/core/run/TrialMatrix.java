package dev.kensho.core.run;

import dev.kensho.core.JvmShutdown;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.core.result.Trial;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Cells × repeats, run in sequential, random or rounds order (the 2024 PGECons study randomises trial order so drift
 * over time does not line up with one version or client count: "16 patterns in random order, 3 times", rounds).
 * The order is a pure function of the seed, so --resume replays the same plan and skips the finished trials.
 *
 * @param <C> the cell type (a record of the parameters the matrix varies)
 */
public final class TrialMatrix<C> {
    /**
     * SEQUENTIAL: every cell in turn, then again; RANDOM: all trials shuffled together (a cell's repeats may come
     * close in time); ROUNDS: every cell once per round, each round shuffled, so repeat r is round r, a block.
     */
    public enum Order { SEQUENTIAL, RANDOM, ROUNDS }

    /** What a command says of a --seed given with a sequential order, which draws nothing (it records no seed). */
    public static final String SEED_UNUSED = "warning: --seed orders the trials at random; --order sequential has no use for it: ignored";

    /** One planned measurement. */
    public record Planned<C>(C cell, String key, int repeat) { }

    /** Measures one planned trial; returns the trial to append (ok, skipped or failed). */
    @FunctionalInterface
    public interface Body<C> {
        Trial run(Planned<C> planned) throws Exception;
    }

    /** Told about each trial as it is appended or skipped (progress bars, console lines). */
    public interface Listener<C> {
        default void starting(Planned<C> p, int index, int total) { }
        default void finished(Planned<C> p, Trial t, int index, int total) { }
        default void alreadyDone(Planned<C> p) { }
    }

    private final List<C> cells;
    private final Function<C, String> key;
    private final int repeats;
    private final Order order;
    private final long seed;

    private final Function<C, Map<String, Object>> params;

    /** A matrix whose failed trials take their parameters from their keys, as text (see {@link #paramsOf}). */
    public TrialMatrix(List<C> cells, Function<C, String> key, int repeats, Order order, long seed) {
        this(cells, key, c -> paramsOf(key.apply(c)), repeats, order, seed);
    }

    /**
     * @param params a cell's parameters as its measured trials record them: a failed trial gets the same (scan's
     *               selectivity_pct 51.0; from its key it got "selectivity" "51", an extra column of summary.csv)
     */
    public TrialMatrix(List<C> cells, Function<C, String> key, Function<C, Map<String, Object>> params, int repeats, Order order, long seed) {
        if (repeats < 1) throw new IllegalArgumentException("repeats must be at least 1");
        this.cells = List.copyOf(cells);
        this.key = key;
        this.params = params;
        this.repeats = repeats;
        this.order = order;
        this.seed = seed;
    }

    public List<Planned<C>> plan() {
        List<Planned<C>> p = new ArrayList<>();
        if (order == Order.SEQUENTIAL) {
            // repeat-major like the studies' scripts: every cell once, then again
            for (int r = 0; r < repeats; r++) for (C c : cells) p.add(new Planned<>(c, key.apply(c), r));
        } else if (order == Order.ROUNDS) {
            Random random = new Random(seed);
            for (int r = 0; r < repeats; r++) {
                List<C> round = new ArrayList<>(cells);
                Collections.shuffle(round, random);
                for (C c : round) p.add(new Planned<>(c, key.apply(c), r));
            }
        } else {
            for (C c : cells) for (int r = 0; r < repeats; r++) p.add(new Planned<>(c, key.apply(c), r));
            Collections.shuffle(p, new Random(seed));
        }
        return p;
    }

    /**
     * Runs every planned trial not yet in dir, appending each as it finishes. An exception from
     * the body is recorded as a failed trial and the matrix goes on; {@link InterruptedException}
     * stops it (finished trials are already on disk).
     */
    public void run(RunDirectory dir, Body<C> body, Listener<C> listener) throws InterruptedException {
        dir.plannedCells(cells.stream().map(key).toList());
        List<Planned<C>> plan = plan();
        int index = 0;
        for (Planned<C> p : plan) {
            index++;
            // thrown, not returned: the loops around (targets, pools, workers) must not go on to their next step
            if (JvmShutdown.begun()) throw new InterruptedException("the JVM is ending");
            if (dir.isFinished(p.key(), p.repeat())) {
                listener.alreadyDone(p);
                continue;
            }
            listener.starting(p, index, plan.size());
            java.time.Instant began = java.time.Instant.now();
            Trial t;
            try {
                t = body.run(p);
            } catch (InterruptedException e) {
                throw e;
            } catch (dev.kensho.core.KenshoException e) {
                if (e.exitCode() == dev.kensho.core.KenshoException.USAGE) throw e;
                t = Trial.of(p.key(), p.repeat()).params(params.apply(p.cell())).failed(e.getMessage()).build();
            } catch (Exception e) {
                // one line: the reason is a CSV cell and a progress line (a server error's "Position: 8" follows a newline)
                // the server's words alone for a server's error ("PSQLException: ERROR: ..." named a driver class)
                t = Trial.of(p.key(), p.repeat()).params(params.apply(p.cell())).failed((e instanceof java.sql.SQLException ? ""
                        : e.getClass().getSimpleName() + ": ") + dev.kensho.core.KenshoException.firstLine(e)).build();
            }
            // the caller's thread was interrupted (a JUnit @Timeout, a cancelled Future): the body gave up ("pgbench run
            // interrupted") and restored the flag; that is no failed trial, and writing it would fail on the interrupted
            // channel (ClosedByInterruptException, read as a full disk). Stop as the Javadoc says, nothing recorded.
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted during trial " + p.key() + " repeat " + (p.repeat() + 1)
                        + ": not recorded (a resumed run measures it)");
            }
            // the JVM is ending (Ctrl-C): this trial ran while its server stopped or its query was cancelled, and
            // the rest would only fail the same way; neither is a result (RunDirectory keeps none from now on)
            if (JvmShutdown.begun()) throw new InterruptedException("the JVM is ending");
            // a skipped cell's trial never ran: no start (see Trial.started)
            if (t.started() == null && !"skipped".equals(t.status())) t = t.startedAt(began);
            dir.append(t);
            listener.finished(p, t, index, plan.size());
        }
    }

    /**
     * A cell's parameters read back from its key (name=value;name=value) for a trial whose body failed before it named
     * them (a settings change the server refused): else summary.csv's row of that cell has empty parameter columns.
     * None for a key of another form.
     */
    static Map<String, Object> paramsOf(String key) {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        for (String part : key.split(";")) {
            int eq = part.indexOf('=');
            if (eq <= 0) return Map.of();
            params.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return params;
    }

    /**
     * Waits for a server that is restarting or recovering after a crash ({@link Target#awaitAccepting}, up to
     * {@link Target#RECOVERY_WAIT}) before a trial; when it had to wait, records it in the trial
     * ({@code waited_for_server_s}) and as a note of the run, and returns the note (else null).
     */
    public static String awaitServer(Target target, String who, String before, Trial.Builder trial, RunDirectory dir)
            throws java.sql.SQLException {
        double waited;
        try {
            waited = target.awaitAccepting(Target.RECOVERY_WAIT);
        } catch (java.sql.SQLException | RuntimeException gone) {
            // a managed server whose postmaster ended (killed, the OOM killer) comes back by Kensho's restart, which is
            // its to make: every later trial failed with "Connection refused"
            if (!target.kind().managed()) throw gone;
            try {
                target.control().restart();
            } catch (RuntimeException notBack) {
                gone.addSuppressed(notBack);
                throw gone;
            }
            String note = who + ": the server did not accept connections (" + dev.kensho.core.KenshoException.firstLine(gone)
                    + "); restarted it before " + before;
            trial.extra("restarted_server", true);
            dir.note(note);
            return note;
        }
        if (waited <= 0) return null;
        String note = who + ": waited " + String.format(java.util.Locale.ROOT, "%.1f", waited)
                + " s for the server to accept connections (it was restarting or recovering) before " + before;
        trial.extra("waited_for_server_s", Math.round(waited * 10) / 10.0);
        dir.note(note);
        return note;
    }
}
