package dev.kensho.ssb;

import dev.kensho.core.result.RunDirectory;
import java.util.List;

/**
 * A study over SSB data already loaded ({@link JitMatrix}, {@link IndexBuild}): the command loads or reuses the data,
 * then plans, runs and summarises the study's cells in a run directory.
 */
public interface SsbStudy {
    /** The command's name, as run.json records it. */
    String command();

    /** Records the planned cells and how the summary is written after each trial. */
    void prepare(RunDirectory dir);

    /** Runs every cell not yet in dir. */
    void run(SsbDatabase db, RunDirectory dir) throws InterruptedException;

    /** Writes summary.csv and prints the study's table; returns summary.csv's rows. */
    List<List<Object>> finish(RunDirectory dir);

    /** Whether dir already holds every trial (a finished run's --resume: nothing to load, set or run). */
    boolean finishedIn(RunDirectory dir);
}
