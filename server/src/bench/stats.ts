// Percentiles and rates for the analyzer benchmarks.

/** The `p`-th percentile (0-100) of `samples` by nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/** Milliseconds with two decimals. */
export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

/** A count with thousands separators. */
export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
