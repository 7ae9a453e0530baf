/**
 * Star Schema Benchmark data identical to ssb-dbgen (eyalroz/ssb-dbgen @ ae1e254, {@code TZ=UTC dbgen -s SF}, all
 * tables in one process).
 *
 * <p>API: {@link dev.kensho.ssb.gen.SsbGenerator} (row counts, {@code write} of any unit range of a table to a stream
 * in {@link dev.kensho.ssb.gen.RowFormat#TBL} or {@link dev.kensho.ssb.gen.RowFormat#COPY} form, {@code writeFiles}
 * for the five {@code .tbl} files; {@code perTableRuns} for dbgen's one-run-per-table variant),
 * {@link dev.kensho.ssb.gen.SsbTable}, and the script entry point
 * {@link dev.kensho.ssb.gen.GenerateFiles}. Everything else is package-private engine: one class per table's rows,
 * the Park–Miller streams ({@code Lcg}), the specification's value lists ({@code Distributions}), byte formatting
 * ({@code RowBuffer}) and the parallel file writer ({@code ChunkPipeline}).
 *
 * <p>The algorithm follows {@code ../shared/ssb-reference/ssb-dbgen-algorithm.md}, with one correction: the color
 * list has 92 entries including {@code lavender} (between {@code lace} and {@code lawn}), which that text omits.
 */
package dev.kensho.ssb.gen;
