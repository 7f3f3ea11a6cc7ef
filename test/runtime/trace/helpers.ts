// Runs the built writev-trace on real programs and reads the trace it writes.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { TraceFile, TraceSite } from '@writev/runtime/dist/trace/traceFile';

/** The repository root (tests run from out/test/runtime/trace). */
export const REPO = join(__dirname, '..', '..', '..', '..');
/** The bundled bin, as `npm run build` lays it out (`WRITEV_TRACE_BIN` names another build's, to compare). */
export const TRACE_BIN = process.env.WRITEV_TRACE_BIN ?? join(REPO, 'runtime', 'dist', 'writev-trace.js');

/** A fresh folder for one test's program and trace. */
export function workFolder(): string {
  return mkdtempSync(join(tmpdir(), 'writev-trace-test-'));
}

/** A maker of fresh folders that are all removed after the calling test file's tests. */
export function removedAfterTests(): () => string {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = workFolder();
    dirs.push(dir);
    return dir;
  };
}

/** Writes `text` as `name` in `dir` and returns its path. */
export function program(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The 1-based line of the first line of `text` containing `marker`. */
export function lineOf(text: string, marker: string): number {
  const index = text.split('\n').findIndex((l) => l.includes(marker));
  if (index < 0) throw new Error(`no line with ${marker}`);
  return index + 1;
}

/** Runs `writev-trace [flags] -- command...` and returns the run and the trace it wrote. */
export function trace(
  dir: string,
  command: string[],
  flags: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): { run: SpawnSyncReturns<string>; trace: TraceFile; out: string } {
  const out = join(dir, 'trace.json');
  const run = spawnSync(process.execPath, [TRACE_BIN, '--out', out, ...flags, '--', ...command], {
    cwd: dir,
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  let parsed: TraceFile;
  try {
    parsed = JSON.parse(readFileSync(out, 'utf8')) as TraceFile;
  } catch {
    throw new Error(`no trace written (exit ${run.status}): ${run.stderr}`);
  }
  return { run, trace: parsed, out };
}

/** The sites of `file` as `line syscall fd calls bytes` strings, sorted, for exact comparison. */
export function sitesOf(trace: TraceFile, file: string): string[] {
  return trace.sites
    .filter((s: TraceSite) => s.file === file)
    .map((s) => `${s.line} ${s.syscall} fd=${s.fd >= 3 ? 'file' : s.fd} calls=${s.calls} bytes=${s.bytes}`)
    .sort();
}
