/**
 * The benchmarks' data: what one run measures, what a case reports, and the JSON lines a suite
 * streams to the terminal and to the editor. A case's layout follows hyperfine's `--export-json`
 * (`results[]` with `command`, `mean`, `stddev`, `median`, `user`, `system`, `min`, `max`, `times`,
 * `memory_usage_byte`), extended with syscall counts.
 */

/** How much work a suite does: `tiny` for tests, `quick` for a laptop, `full` for the figures. */
export type BenchSize = 'tiny' | 'quick' | 'full';

/** What one run of one mode measured. Times in seconds, memory in bytes. */
export interface RunSample {
  /** Wall-clock time of the run. */
  wall: number;
  /** CPU time in user mode, when known. */
  user?: number;
  /** CPU time in the kernel, when known. */
  system?: number;
  /** Peak resident memory, when known. */
  maxRss?: number;
  /** System calls by name (`write`, `writev`, ...), when counted. */
  syscalls?: Record<string, number>;
  /** Further per-run figures, e.g. `{ streaming: 0.21 }` (seconds) or `{ objects: 1000 }`. */
  extra?: Record<string, number>;
}

/** One mode of one case, summarised over its runs, in hyperfine's export layout. */
export interface Measurement {
  /** The mode's name, as shown in tables and charts. */
  command: string;
  mean: number;
  stddev: number;
  median: number;
  min: number;
  max: number;
  /** Mean user CPU seconds (0 when unknown). */
  user: number;
  /** Mean system CPU seconds (0 when unknown). */
  system: number;
  /** Wall seconds of every run, in order. */
  times: number[];
  /** Peak resident bytes of every run, when measured. */
  memory_usage_byte?: number[];
  /** Median syscall counts per run, by name. */
  syscalls?: Record<string, number>;
  /** Median of each extra figure per run. */
  extra?: Record<string, number>;
}

/** The result of one case: every mode measured in the same run, interleaved. */
export interface CaseResult {
  suite: string;
  /** The case's id within the suite, e.g. `side-band`. */
  case: string;
  /** A human title, e.g. `100 MiB over side-band (1000-byte packets)`. */
  title: string;
  /** The modes against which ratios are reported (defaults to the slowest). */
  references?: string[];
  /** Parameters worth showing with the result (sizes, counts). */
  parameters?: Record<string, string | number>;
  /** The one comparison the case is about, e.g. `batched` against `two writes`. */
  headline?: Headline;
  results: Measurement[];
}

/** Which two modes of a case make its headline ratio (how many times faster `mode` ran than `reference`). */
export interface Headline {
  mode: string;
  reference: string;
}

/** One line of a suite's JSON-lines stream. */
export type BenchEvent =
  | { type: 'suite'; suite: string; title: string; size: BenchSize }
  | { type: 'case'; suite: string; case: string; title: string; modes: string[] }
  | { type: 'progress'; suite: string; case: string; mode: string; run: number; runs: number }
  | { type: 'result'; result: CaseResult }
  | { type: 'log'; suite: string; message: string }
  | { type: 'error'; suite: string; message: string }
  | { type: 'done'; suite: string };
