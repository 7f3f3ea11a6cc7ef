// Whole-tree throughput: writev-lint's engine (worker threads, .gitignore, two passes) over large C
// trees, with lines per second and peak memory; and, for comparison, one thread that parses and reads
// every file (no first-look filter).
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Analyzer } from '../analyzer/analyzer';
import { DEFAULT_SETTINGS, type AnalyzerSettings } from '../analyzer/settings';
import { lint } from '../cli/main';
import type { FileResult } from '../cli/lintFile';
import { runThreads } from '../cli/pool';
import { sourceFiles } from '../workspace/files';

/** Result of {@link measureTree}. */
export interface TreeResult {
  readonly files: number;
  readonly lines: number;
  readonly seconds: number;
  /** Threads that analysed (1: the main thread alone, more: worker threads). */
  readonly threads: number;
  readonly findings: readonly {
    readonly path: string;
    readonly line: number;
    readonly code: string;
    readonly message: string;
  }[];
  readonly peakRssMiB: number;
}

/**
 * Lints `roots` as the CLI does (file walk, both passes, worker threads) and measures the wall-clock
 * time. `jobs` as `--jobs` (undefined: the CLI's default, one worker per core for large inputs).
 */
export async function measureTree(
  roots: readonly string[],
  settings: AnalyzerSettings = DEFAULT_SETTINGS,
  jobs?: number,
): Promise<TreeResult> {
  const started = process.hrtime.bigint();
  const results: FileResult[] = await lint({ paths: roots, fix: false, jobs }, settings);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const linted = results.filter((r) => !r.skipped);
  const files = linted.length;
  const bytes = linted.reduce((n, r) => n + statSync(r.path).size, 0);
  return {
    files: results.length,
    lines: results.reduce((n, r) => n + r.lines, 0),
    seconds,
    threads: runThreads(files, bytes, jobs),
    findings: results.flatMap((r) =>
      r.findings.map((f) => ({ path: r.path, line: f.start.line + 1, code: f.code, message: f.message })),
    ),
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

/** Parses and reads every C file under `root` on this thread (the worst case: no file skipped). */
export async function measureFullParse(
  root: string,
): Promise<{ files: number; lines: number; seconds: number }> {
  const analyzer = await Analyzer.create();
  let files = 0;
  let lines = 0;
  let busy = 0n;
  for await (const path of sourceFiles(root)) {
    const text = await readFile(path, 'utf8');
    const started = process.hrtime.bigint();
    // A key makes the analyzer parse even text without a write call (the editor's path).
    analyzer.analyze(path, text, DEFAULT_SETTINGS, { key: 'bench' });
    analyzer.forget('bench');
    busy += process.hrtime.bigint() - started;
    files++;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  }
  return { files, lines, seconds: Number(busy) / 1e9 };
}
