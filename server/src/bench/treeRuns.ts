// Whole-tree timings as a user gets them: the writev-lint command itself, a fresh process per run
// (Node's start, module loading, the file walk, both passes, its worker threads' start-up), once with
// `--jobs 1` and once with its default threads, runs interleaved so that the machine's load weighs on
// both alike.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, speedRatio, summarize } from '@writev/runtime';
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

/** One tree's timings: wall-clock seconds per run, with `--jobs 1` and with the default threads. */
export interface TreeTiming {
  readonly name: string;
  readonly files: number;
  readonly lines: number;
  readonly findings: number;
  /** Threads the default run analyses on (1: the main thread alone). */
  readonly threads: number;
  readonly one: number[];
  readonly many: number[];
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

/** Runs writev-lint over `root`; resolves to the wall-clock seconds and the number of findings. */
function runCli(
  root: string,
  config: string,
  jobs: number | undefined,
): Promise<{ seconds: number; findings: number }> {
  const args = [BIN, '--format', 'json', '--config', config, ...(jobs ? ['--jobs', String(jobs)] : []), root];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (status !== 0 && status !== 1) {
        reject(new TreeRunError(`writev-lint ${args.slice(1).join(' ')}: exit ${status}: ${err.trim()}`));
        return;
      }
      try {
        const report = JSON.parse(Buffer.concat(out).toString('utf8')) as { findings: unknown[] };
        resolve({ seconds, findings: report.findings.length });
      } catch (error) {
        reject(new TreeRunError(`writev-lint over ${root}: no JSON report (${(error as Error).message})`));
      }
    });
  });
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
      });
    }
    for (let run = 0; run < runs; run++) {
      for (const [i, tree] of trees.entries()) {
        const timing = timings[i] as TreeTiming;
        const config = join(dir, `${tree.name}.json`);
        const one = await runCli(tree.root, config, 1);
        const many = await runCli(tree.root, config, undefined);
        // Threads must not change what is found: a difference is a bug, not a figure.
        if (one.findings !== many.findings)
          throw new TreeRunError(
            `tree ${tree.name}: ${one.findings} findings with --jobs 1, ${many.findings} with ${timing.threads} threads`,
          );
        timings[i] = { ...timing, findings: many.findings };
        timing.one.push(one.seconds);
        timing.many.push(many.seconds);
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

/** The table of tree timings, with a total row: all lines over the sum of the medians. */
export function treeTable(timings: readonly TreeTiming[]): string {
  const header = [
    'tree',
    'files',
    'lines',
    'findings',
    '--jobs 1 s',
    'lines/s',
    'threads',
    'default s',
    'lines/s',
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
      String(t.threads),
      seconds(t.many),
      count(t.lines / many.median),
      `${up.ratio.toFixed(2)} ± ${up.stddev.toFixed(2)}`,
    ];
  };
  const sum = (of: (t: TreeTiming) => number) => timings.reduce((n, t) => n + of(t), 0);
  const lines = sum((t) => t.lines);
  const one = sum((t) => median(t.one));
  const many = sum((t) => median(t.many));
  const total = [
    'all',
    count(sum((t) => t.files)),
    count(lines),
    String(sum((t) => t.findings)),
    one.toFixed(2),
    count(lines / one),
    '',
    many.toFixed(2),
    count(lines / many),
    (one / many).toFixed(2),
  ];
  // No total over no trees: it would be 0 lines in 0 s.
  const body = timings.length > 0 ? [...timings.map(row), total] : [];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), ...body.map(line)].join('\n');
}

/** Times the trees and prints the table with what was measured, under which load. */
export async function printTreeTimings(trees: readonly TreeCase[], runs: number): Promise<void> {
  const load = () => loadavg()[0]?.toFixed(1) ?? '?';
  const before = load();
  const timings = await timeTrees(trees, runs);
  console.log(
    `project trees: each whole tree at its pinned commit with the project's settings, linted by the writev-lint command (a fresh process per run: start-up, walk, both passes); wall-clock seconds, median (min-max) of ${runs} runs; "--jobs 1" analyses on the main thread alone, "default" on the threads shown (${availableParallelism()} cores here); load average ${before} before, ${load()} after`,
  );
  console.log(treeTable(timings));
  console.log('(target: whole trees at 250,000 lines/s or more on a 2-core machine)');
}
