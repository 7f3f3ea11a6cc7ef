// Number formatting for the analyzer benchmarks' report lines; statistics come from the runtime's
// one stats module.

/** Milliseconds with two decimals. */
export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

/** A count with thousands separators. */
export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
