import type { BenchEvent, CaseResult, Headline, Measurement, RunSample } from './result';
import { median, summarize } from './stats';

/** One way of doing a case's work, measured against the others. */
export interface Mode {
  /** The name shown in tables and charts. */
  name: string;
  /** Does the work once and says what it cost. */
  run(): Promise<RunSample>;
}

/** A case: what to measure, how often, and against which modes ratios are reported. */
export interface CaseSpec {
  suite: string;
  case: string;
  title: string;
  modes: readonly Mode[];
  /** Measured runs per mode. */
  runs: number;
  /** Unmeasured runs per mode first (warms caches and the JIT). */
  warmup?: number;
  references?: string[];
  parameters?: Record<string, string | number>;
  /** The one comparison the case is about (shown as its headline ratio). */
  headline?: Headline;
}

/** Reports progress and lets the caller stop a suite between runs. */
export interface CaseHooks {
  emit(event: BenchEvent): void;
  signal?: AbortSignal;
}

/**
 * Measures every mode of a case. Runs are interleaved (mode A, B, C, then A, B, C again...) so a
 * drift of the machine, such as another process waking up, spreads over all modes instead of
 * favouring whichever ran last.
 */
export async function runCase(spec: CaseSpec, hooks: CaseHooks): Promise<CaseResult> {
  const { suite, modes } = spec;
  hooks.emit({ type: 'case', suite, case: spec.case, title: spec.title, modes: modes.map((m) => m.name) });
  for (let w = 0; w < (spec.warmup ?? 0); w++) {
    for (const mode of modes) {
      hooks.signal?.throwIfAborted();
      await mode.run();
    }
  }
  const samples = modes.map((): RunSample[] => []);
  for (let run = 0; run < spec.runs; run++) {
    for (const [i, mode] of modes.entries()) {
      hooks.signal?.throwIfAborted();
      hooks.emit({
        type: 'progress',
        suite,
        case: spec.case,
        mode: mode.name,
        run: run + 1,
        runs: spec.runs,
      });
      samples[i]!.push(await mode.run());
    }
  }
  const result: CaseResult = {
    suite,
    case: spec.case,
    title: spec.title,
    results: modes.map((mode, i) => summarizeRuns(mode.name, samples[i]!)),
  };
  if (spec.references) result.references = spec.references;
  if (spec.parameters) result.parameters = spec.parameters;
  if (spec.headline) result.headline = spec.headline;
  hooks.emit({ type: 'result', result });
  return result;
}

/** Turns the samples of one mode into hyperfine's export layout. */
export function summarizeRuns(command: string, samples: readonly RunSample[]): Measurement {
  const times = samples.map((s) => s.wall);
  const { mean, stddev, median: med, min, max } = summarize(times);
  const meanOf = (pick: (s: RunSample) => number | undefined): number =>
    samples.reduce((sum, s) => sum + (pick(s) ?? 0), 0) / samples.length;
  const m: Measurement = {
    command,
    mean,
    stddev,
    median: med,
    min,
    max,
    user: meanOf((s) => s.user),
    system: meanOf((s) => s.system),
    times,
  };
  const rss = samples.map((s) => s.maxRss).filter((v): v is number => v !== undefined);
  if (rss.length > 0) m.memory_usage_byte = rss;
  const syscalls = medianByKey(samples.map((s) => s.syscalls));
  if (syscalls) m.syscalls = syscalls;
  const extra = medianByKey(samples.map((s) => s.extra));
  if (extra) m.extra = extra;
  return m;
}

function medianByKey(
  records: readonly (Record<string, number> | undefined)[],
): Record<string, number> | undefined {
  const present = records.filter((r): r is Record<string, number> => r !== undefined);
  if (present.length === 0) return undefined;
  const keys = new Set(present.flatMap((r) => Object.keys(r)));
  return Object.fromEntries([...keys].map((k) => [k, median(present.map((r) => r[k] ?? 0))]));
}
