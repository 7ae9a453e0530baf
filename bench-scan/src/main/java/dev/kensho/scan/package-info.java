/**
 * bench scan: the PGECons 2019 study of index scan vs full scan (インデックススキャン vs テーブルフルスキャン).
 *
 * <p>Entry point: {@link dev.kensho.scan.ScanCrossover} ({@code run}, {@code resume}) with its
 * {@link dev.kensho.scan.ScanCrossover.Options}; results are {@link dev.kensho.scan.LayoutFacts},
 * {@link dev.kensho.scan.Crossover} and {@link dev.kensho.scan.Check}. The engine lives in
 * sub-packages: {@code table} (the study's table in two layouts, tablespaces), {@code sweep} (cells,
 * queries and planner settings, plan verification, crossover arithmetic), {@code cache} (OS page
 * cache drop) and {@code storage} (the dd-like sequential read probe).
 */
package dev.kensho.scan;
