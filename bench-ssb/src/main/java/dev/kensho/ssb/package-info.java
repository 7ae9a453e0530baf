/**
 * bench ssb from Java: the Star Schema Benchmark of PGECons 2018, chapters 6 and 7.
 *
 * <ul>
 * <li>{@link dev.kensho.ssb.SsbDatabase} (the SSB tables in one schema of a target: {@code load} with its
 *     {@link dev.kensho.ssb.SsbDatabase.LoadOptions}, {@code status}, {@code drop} of what Kensho loaded) and
 *     {@link dev.kensho.ssb.SsbQuery} (the 13 queries' texts);</li>
 * <li>{@link dev.kensho.ssb.ParallelSweep} ({@code bench ssb}: queries × workers per gather × worker pools, into a
 *     {@link dev.kensho.core.result.RunDirectory}; {@code finish} writes summary.csv);</li>
 * <li>{@link dev.kensho.ssb.JitMatrix} ({@code bench ssb jit}, which needs a server with JIT) and
 *     {@link dev.kensho.ssb.IndexBuild} ({@code bench ssb index-build}).</li>
 * </ul>
 *
 * <pre>
 * SsbDatabase.LoadOptions load = new SsbDatabase.LoadOptions(1, 4, true, false);
 * ParallelSweep.Options o = new ParallelSweep.Options(1, List.of(0, 2, 4), List.of(), 3, List.of(), null, load, false, false, 0);
 * ParallelSweep sweep = new ParallelSweep(o, System.out, System.err);
 * sweep.run(target, dir);                                   // loads SF 1 where it is missing, then measures
 * sweep.finish(dir, List.of(ParallelSweep.versionLabel(target)));
 * </pre>
 *
 * The data generator (a byte-for-byte ssb-dbgen) is {@code gen}; {@code load} is the parallel COPY.
 */
package dev.kensho.ssb;
