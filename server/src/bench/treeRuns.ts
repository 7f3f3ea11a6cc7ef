// Whole-tree timings as a user gets them: the writev-lint command itself, a fresh process per run
// (Node's start, module loading, the file walk, both passes, its worker threads' start-up), once with
// `--jobs 1` and once with its default threads, runs interleaved so that the machine's load weighs on
// both alike. Each run's CPU time (user and system, all threads) is kept beside its wall clock: on a
// shared machine the wall clock also counts the time spent waiting for a core, the CPU time does not.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, speedRatio, summarize } from '@writev/runtime';
import { measureProcess } from '@writev/runtime/dist/bench/measure';
import { DEFAULT_SETTINGS } from '../analyzer/settings';
import { collect } from '../cli/collect';
import { runThreads } from '../cli/pool';
import { count } from './format';

/** A tree to time, with the raw settings its config file gets. */
export interface TreeCase {
  readonly name: string;
  readonly root: string;
  readonly settings: unknown;
}

/**
 * One tree's timings: wall-clock seconds per run, with `--jobs 1` and with the default threads; CPU
 * seconds (user and system, every thread) of the same runs where GNU time is installed.
 */
export interface TreeTiming {
  readonly name: string;
  readonly files: number;
  readonly lines: number;
  readonly findings: number;
  /** Threads the default run analyses on (1: the main thread alone). */
  readonly threads: number;
  readonly one: number[];
  readonly many: number[];
  readonly oneCpu: number[];
  readonly manyCpu: number[];
  /** The one-minute load average as each default run started. */
  readonly loads: number[];
}

/** A run of the command that did not end as a lint run ends (exit 0 or 1 with a JSON report). */
export class TreeRunError extends Error {
  readonly code = 'ETREERUN';
  constructor(message: string) {
    super(message);
    this.name = 'TreeRunError';
  }
}

const BIN = join(__dirname, '..', '..', 'bin', 'writev-lint.js');

/**
 * Runs writev-lint over `root` (its report to `reportFile`); resolves to the wall-clock seconds, the
 * CPU seconds (undefined without GNU time) and the number of findings.
 */
async function runCli(
  root: string,
  config: string,
  jobs: number | undefined,
  reportFile: string,
): Promise<{ seconds: number; cpu?: number; findings: number }> {
  const args = [BIN, '--format', 'json', '--config', config, ...(jobs ? ['--jobs', String(jobs)] : []), root];
  const out = openSync(reportFile, 'w');
  let run;
  try {
    run = await measureProcess(process.execPath, args, { stdio: ['ignore', out] });
  } finally {
    closeSync(out);
  }
  // Exit 2 with only "skipped" notes is a complete lint of what can be linted: a tree may hold a file
  // that is no source text (nsd holds a macOS resource fork named `._xfr_2.nsd-ldnsd.c`).
  const onlySkips = run.stderr
    .trim()
    .split('\n')
    .every((line) => line.startsWith('writev-lint: skipped '));
  if (run.status !== 0 && run.status !== 1 && !(run.status === 2 && onlySkips))
    throw new TreeRunError(
      `writev-lint ${args.slice(1).join(' ')}: exit ${run.status}: ${run.stderr.trim()}`,
    );
  let report: { findings: unknown[] };
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as { findings: unknown[] };
  } catch (error) {
    throw new TreeRunError(`writev-lint over ${root}: no JSON report (${(error as Error).message})`);
  }
  const cpu = run.user !== undefined && run.system !== undefined ? run.user + run.system : undefined;
  return { seconds: run.wall, cpu, findings: report.findings.length };
}

/** Files, lines (one more than newlines per file) and bytes of `root` as writev-lint counts them. */
async function size(root: string): Promise<{ files: number; lines: number; bytes: number }> {
  const { files } = await collect([root], DEFAULT_SETTINGS, undefined);
  let lines = 0;
  let bytes = 0;
  for (const file of files) {
    const text = readFileSync(file, 'latin1');
    bytes += text.length;
    lines++;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  }
  return { files: files.length, lines, bytes };
}

/** Times each tree `runs` times; throws a {@link TreeRunError} when the two runs find different counts. */
export async function timeTrees(trees: readonly TreeCase[], runs: number): Promise<TreeTiming[]> {
  const dir = mkdtempSync(join(tmpdir(), 'writev-bench-'));
  try {
    const timings: TreeTiming[] = [];
    for (const tree of trees) {
      const config = join(dir, `${tree.name}.json`);
      writeFileSync(config, JSON.stringify(tree.settings ?? {}));
      const { files, lines, bytes } = await size(tree.root);
      timings.push({
        name: tree.name,
        files,
        lines,
        findings: 0,
        threads: runThreads(files, bytes),
        one: [],
        many: [],
        oneCpu: [],
        manyCpu: [],
        loads: [],
      });
    }
    for (let run = 0; run < runs; run++) {
      for (const [i, tree] of trees.entries()) {
        const timing = timings[i] as TreeTiming;
        const config = join(dir, `${tree.name}.json`);
        const report = join(dir, `${tree.name}.report.json`);
        const one = await runCli(tree.root, config, 1, report);
        timing.loads.push(loadavg()[0] ?? NaN);
        const many = await runCli(tree.root, config, undefined, report);
        // Threads must not change what is found: a difference is a bug, not a figure.
        if (one.findings !== many.findings)
          throw new TreeRunError(
            `tree ${tree.name}: ${one.findings} findings with --jobs 1, ${many.findings} with ${timing.threads} threads`,
          );
        timings[i] = { ...timing, findings: many.findings };
        timing.one.push(one.seconds);
        timing.many.push(many.seconds);
        if (one.cpu !== undefined) timing.oneCpu.push(one.cpu);
        if (many.cpu !== undefined) timing.manyCpu.push(many.cpu);
      }
    }
    return timings;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function seconds(values: readonly number[]): string {
  const s = summarize(values);
  return `${s.median.toFixed(2)} (${s.min.toFixed(2)}-${s.max.toFixed(2)})`;
}

/** The median of CPU seconds, or "-" where none were measured (no GNU time). */
function cpuSeconds(values: readonly number[]): string {
  return values.length > 0 ? median(values).toFixed(2) : '-';
}

/** The table of tree timings, with a total row: all lines over the sum of the medians. */
export function treeTable(timings: readonly TreeTiming[]): string {
  const header = [
    'tree',
    'files',
    'lines',
    'findings',
    '--jobs 1 s',
    'lines/s',
    'cpu s',
    'threads',
    'default s',
    'lines/s',
    'cpu s',
    'speed-up',
  ];
  const row = (t: TreeTiming) => {
    const one = summarize(t.one);
    const many = summarize(t.many);
    const up = speedRatio(one, many);
    return [
      t.name,
      count(t.files),
      count(t.lines),
      String(t.findings),
      seconds(t.one),
      count(t.lines / one.median),
      cpuSeconds(t.oneCpu),
      String(t.threads),
      seconds(t.many),
      count(t.lines / many.median),
      cpuSeconds(t.manyCpu),
      `${up.ratio.toFixed(2)} ± ${up.stddev.toFixed(2)}`,
    ];
  };
  const sum = (of: (t: TreeTiming) => number) => timings.reduce((n, t) => n + of(t), 0);
  const lines = sum((t) => t.lines);
  const one = sum((t) => median(t.one));
  const many = sum((t) => median(t.many));
  const cpu = (of: (t: TreeTiming) => number[]) =>
    timings.every((t) => of(t).length > 0) ? sum((t) => median(of(t))).toFixed(2) : '-';
  const total = [
    'all',
    count(sum((t) => t.files)),
    count(lines),
    String(sum((t) => t.findings)),
    one.toFixed(2),
    count(lines / one),
    cpu((t) => t.oneCpu),
    '',
    many.toFixed(2),
    count(lines / many),
    cpu((t) => t.manyCpu),
    (one / many).toFixed(2),
  ];
  // No total over no trees: it would be 0 lines in 0 s.
  const body = timings.length > 0 ? [...timings.map(row), total] : [];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), ...body.map(line)].join('\n');
}

/** The size of tree the speed target is stated for, in lines. */
export const TARGET_TREE_LINES = 400_000;
/** The speed target for such a tree: the writev-lint command with its default threads, lines/s. */
export const TARGET_LINES_PER_SECOND = 250_000;

/**
 * The target's verdict, one line per tree of at least {@link TARGET_TREE_LINES} lines: the default
 * threads' lines/s (median, and the range over the runs), the CPU seconds a run took, the load while
 * they ran, met or not. Without such a tree, a line saying that the target was not measured.
 */
export function targetLines(timings: readonly TreeTiming[]): string[] {
  const big = timings.filter((t) => t.lines >= TARGET_TREE_LINES);
  const target = `target ${count(TARGET_LINES_PER_SECOND)} lines/s`;
  if (big.length === 0) {
    const largest = [...timings].sort((a, b) => b.lines - a.lines)[0];
    return [
      `${target} over a ${count(TARGET_TREE_LINES)}-line tree: not measured (no tree that large here${
        largest ? `; the largest, ${largest.name}, has ${count(largest.lines)} lines` : ''
      })`,
    ];
  }
  return big.map((t) => {
    const many = summarize(t.many);
    const rate = t.lines / many.median;
    const cpu =
      t.manyCpu.length > 0
        ? `, ${median(t.manyCpu).toFixed(2)} CPU s a run (${count(t.lines / median(t.manyCpu))} lines per CPU s)`
        : '';
    const loads = t.loads.filter((l) => Number.isFinite(l));
    const load =
      loads.length > 0
        ? `; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} as the runs started`
        : '';
    return (
      `${target} over a ${count(TARGET_TREE_LINES)}-line tree: ${t.name} (${count(t.lines)} lines), writev-lint with ` +
      `its default threads (${t.threads}), whole process: ${count(rate)} lines/s, median of ${t.many.length} runs ` +
      `(${count(t.lines / many.max)}-${count(t.lines / many.min)})${cpu}${load}: ${
        rate >= TARGET_LINES_PER_SECOND ? 'met' : 'NOT met'
      }`
    );
  });
}

/** Times the trees and prints the table with what was measured, under which load. */
export async function printTreeTimings(trees: readonly TreeCase[], runs: number): Promise<void> {
  const load = () => loadavg()[0]?.toFixed(1) ?? '?';
  const before = load();
  const timings = await timeTrees(trees, runs);
  console.log(
    `project trees: each whole tree at its pinned commit with the project's settings, linted by the writev-lint command (a fresh process per run: start-up, walk, both passes); wall-clock seconds, median (min-max) of ${runs} runs, and the median CPU seconds (user and system, all threads) of the same runs; "--jobs 1" analyses on the main thread alone, "default" on the threads shown (${availableParallelism()} cores here); load average ${before} before, ${load()} after`,
  );
  console.log(treeTable(timings));
  for (const line of targetLines(timings)) console.log(line);
}
