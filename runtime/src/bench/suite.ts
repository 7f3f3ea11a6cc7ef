import type { BenchEvent, BenchSize, CaseResult } from './result';

/** What a suite gets from whoever runs it: the terminal, the editor, or a test. */
export interface SuiteContext {
  size: BenchSize;
  /** Measured runs per mode; a suite picks a default per size when absent. */
  runs?: number;
  /** A scratch folder for generated data, kept between runs of the same size. */
  cacheDir: string;
  /**
   * The ids of the suite's cases to run (from its `cases`); every case when absent. A suite prepares
   * only what the cases it runs need, so a case that needs a download is skipped without one.
   */
  cases?: readonly string[];
  emit(event: BenchEvent): void;
  signal?: AbortSignal;
}

/**
 * A benchmark suite: a group of cases measured side by side. Suites register in
 * `bench/suites/index.ts`; each lives in its own file under `bench/suites/`.
 */
export interface Suite {
  /** Short id used on the command line (`--suite sideband`). */
  id: string;
  title: string;
  /** One sentence on what is compared and why, shown in the editor's picker. */
  description: string;
  /** The ids of its cases, in the order it runs them (`--case sideband/side-band`). */
  cases: readonly string[];
  /**
   * The ids of its cases that download their data (from the npm registry) the first time they run,
   * into the cache folder, which keeps it for later runs. None when absent.
   */
  downloads?: readonly string[];
  run(context: SuiteContext): Promise<CaseResult[]>;
}

/** Picks a value by size: small enough for tests, representative for `full`. */
export function bySize<T>(size: BenchSize, values: Record<BenchSize, T>): T {
  return values[size];
}

/** Whether the run asked for the case `id` (every case runs when none was named). */
export function wantsCase(ctx: SuiteContext, id: string): boolean {
  return ctx.cases === undefined || ctx.cases.includes(id);
}
