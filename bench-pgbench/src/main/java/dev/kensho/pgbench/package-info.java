/**
 * bench pgbench from Java: the API is this package alone.
 *
 * <ul>
 * <li>{@link dev.kensho.pgbench.PgbenchInit} ({@code pgbench -i}) with {@link dev.kensho.pgbench.PartitionMethod};</li>
 * <li>{@link dev.kensho.pgbench.PgbenchRun} (a pgbench run: its options as builder methods, {@link dev.kensho.pgbench.QueryMode},
 *     {@link dev.kensho.pgbench.Engine}) returning a {@link dev.kensho.pgbench.RunReport}, and telling a
 *     {@link dev.kensho.pgbench.RunWindow} when the measured interval opens and closes;</li>
 * <li>{@link dev.kensho.pgbench.ClientSweep} (the PGECons fixed-point observation: clients × targets × repeats).</li>
 * </ul>
 *
 * The engine lives in sub-packages, which a caller does not need: {@code init} (tables, COPY), {@code script}
 * (pgbench's script language and random generator), {@code run} (the driver, both engines, logs), {@code sweep}
 * (per-trial sampling) and {@code micro} (study 002's JMH benchmarks, run through
 * {@link dev.kensho.pgbench.micro.MicroBenchmarks}).
 */
package dev.kensho.pgbench;
