/**
 * The one statistics module of the benchmarks (the terminal, the JSON export and the editor's
 * panel all use it), so a figure means the same thing everywhere.
 */

/** Summary of repeated measurements of one quantity. */
export interface Summary {
  mean: number;
  /** Sample standard deviation (n - 1); 0 for a single run. */
  stddev: number;
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The `p`-th percentile (0 to 100) of `values`, by nearest rank: a value that was observed. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** Mean, sample standard deviation, median, minimum and maximum of `values`. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError('summary of no values');
  const runs = values.length;
  const mean = values.reduce((sum, v) => sum + v, 0) / runs;
  const variance = runs > 1 ? values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (runs - 1) : 0;
  return {
    mean,
    stddev: Math.sqrt(variance),
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    runs,
  };
}

/** How many times faster `fast` is than `slow`, with the spread propagated from both. */
export interface Ratio {
  ratio: number;
  /** One standard deviation of the ratio, from the relative spreads of both inputs. */
  stddev: number;
}

/**
 * `slow.mean / fast.mean`, with its standard deviation propagated as hyperfine does:
 * ratio * sqrt((σ_slow/slow)² + (σ_fast/fast)²).
 */
export function speedRatio(
  slow: Pick<Summary, 'mean' | 'stddev'>,
  fast: Pick<Summary, 'mean' | 'stddev'>,
): Ratio {
  const ratio = slow.mean / fast.mean;
  const stddev = ratio * Math.sqrt((slow.stddev / slow.mean) ** 2 + (fast.stddev / fast.mean) ** 2);
  return { ratio, stddev };
}
