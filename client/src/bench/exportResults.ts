import { formatCaseMarkdown, type BenchSize, type CaseResult } from '@writev/runtime/bench';

/** The machine a run measured, as `writev-bench --json` records it. */
export interface MachineInfo {
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
}

/**
 * The JSON export: the same layout `writev-bench --json` writes (machine, size, then every case in
 * hyperfine's `--export-json` layout, `results[]` with `command`, `mean`, `stddev`, ... `times`).
 */
export interface BenchmarkExport {
  machine: MachineInfo;
  size: BenchSize;
  cases: CaseResult[];
}

/** The JSON export as text (two-space indented, trailing newline). Does not modify `cases`. */
export function exportJson(machine: MachineInfo, size: BenchSize, cases: readonly CaseResult[]): string {
  const value: BenchmarkExport = { machine, size, cases: [...cases] };
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The Markdown export, for a pull-request comment: a line naming the machine and size, then each case
 * as the runtime's Markdown table (the same tables `writev-bench --markdown` writes).
 */
export function exportMarkdown(machine: MachineInfo, size: BenchSize, cases: readonly CaseResult[]): string {
  const head = `writev benchmarks (size ${size}) on ${machine.cpuModel || 'unknown CPU'} × ${machine.cpus}, Node ${machine.node}, ${machine.platform}`;
  return `${[head, ...cases.map(formatCaseMarkdown)].join('\n\n')}\n`;
}
