import {
  formatSyscalls,
  formatTime,
  speedRatio,
  type CaseResult,
  type Measurement,
} from '@writev/runtime/bench';

/** One mode's row of a case table, every figure already formatted as hyperfine prints it. */
export interface ModeRow {
  command: string;
  /** "12.3 ms" */
  mean: string;
  stddev: string;
  median: string;
  min: string;
  max: string;
  runs: number;
  /** "writev 1,024 · write 2", or "" when not counted. */
  syscalls: string;
  fastest: boolean;
}

/** A summary line: `fastest` ran `ratio ± stddev` times faster than `than`. */
export interface RatioLine {
  ratio: string;
  stddev: string;
  than: string;
}

/** What a chart plots: one bar per mode; times scaled to `timeUnit`. */
export interface ChartData {
  modes: string[];
  timeUnit: 's' | 'ms' | 'µs';
  mean: number[];
  stddev: number[];
  /** Per syscall name, the median count per run of each mode (in `modes` order). */
  syscalls: { name: string; counts: number[] }[];
}

/** Everything the panel shows for one case. Plain data: it crosses into the webview as JSON. */
export interface CaseView {
  /** `suite/case`, unique within a run. */
  key: string;
  suite: string;
  title: string;
  /** "payload=995, records=1054" or "". */
  parameters: string;
  rows: ModeRow[];
  /** The fastest mode, when there are several. */
  fastest: string | undefined;
  ratios: RatioLine[];
  chart: ChartData;
}

function fastestOf(results: readonly Measurement[]): Measurement {
  return results.reduce((a, b) => (b.mean < a.mean ? b : a));
}

/** The unit a chart of these means reads best in. */
function timeUnit(results: readonly Measurement[]): ChartData['timeUnit'] {
  const largest = Math.max(...results.map((m) => m.mean));
  return largest >= 1 ? 's' : largest >= 1e-3 ? 'ms' : 'µs';
}

const SCALE = { s: 1, ms: 1e3, µs: 1e6 } as const;

/**
 * Formats a case for the panel with the runtime's stats and format modules, so the panel, the terminal
 * (`writev-bench`) and the Markdown export print the same figures. Does not modify `result`.
 */
export function caseView(result: CaseResult): CaseView {
  const best = result.results.length > 1 ? fastestOf(result.results) : undefined;
  const unit = timeUnit(result.results);
  const names = [...new Set(result.results.flatMap((m) => Object.keys(m.syscalls ?? {})))].sort();
  return {
    key: `${result.suite}/${result.case}`,
    suite: result.suite,
    title: result.title,
    parameters: Object.entries(result.parameters ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
    rows: result.results.map((m) => ({
      command: m.command,
      mean: formatTime(m.mean),
      stddev: formatTime(m.stddev),
      median: formatTime(m.median),
      min: formatTime(m.min),
      max: formatTime(m.max),
      runs: m.times.length,
      syscalls: m.syscalls ? formatSyscalls(m.syscalls) : '',
      fastest: m === best,
    })),
    fastest: best?.command,
    ratios: best
      ? result.results
          .filter((m) => m !== best)
          .map((m) => {
            const { ratio, stddev } = speedRatio(m, best);
            return { ratio: ratio.toFixed(2), stddev: stddev.toFixed(2), than: m.command };
          })
      : [],
    chart: {
      modes: result.results.map((m) => m.command),
      timeUnit: unit,
      mean: result.results.map((m) => m.mean * SCALE[unit]),
      stddev: result.results.map((m) => m.stddev * SCALE[unit]),
      // Names every mode counted zero of (an EAGAIN tally that never happened) would only add legend noise.
      syscalls: names
        .map((name) => ({ name, counts: result.results.map((m) => m.syscalls?.[name] ?? 0) }))
        .filter((s) => s.counts.some((n) => n > 0)),
    },
  };
}
