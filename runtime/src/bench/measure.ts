import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunSample } from './result';

/**
 * Times `work` in this process: wall clock from `hrtime`, user and system time from
 * `process.cpuUsage`. Peak memory is left out: a process's peak covers its whole life, not one run.
 */
export async function measureInProcess(work: () => unknown): Promise<RunSample> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await work();
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  return { wall, user: used.user / 1e6, system: used.system / 1e6 };
}

/** A child's stdin or stdout: a descriptor, or nothing. */
export type StdioEnd = number | 'ignore' | 'inherit';

const GNU_TIME = '/usr/bin/time';

/** What a measured child process did. */
export interface ProcessRun extends RunSample {
  /** The exit status (or 128 + signal number). */
  status: number;
  /** Standard error, for diagnostics (at most the last 64 KiB). */
  stderr: string;
}

/**
 * Runs a command to completion and measures it: wall clock from spawn to exit, and, where GNU time
 * is installed (Debian's `time` package), its user and system time and peak memory.
 *
 * @param stdio - stdin and stdout of the child (fds, 'ignore' or 'inherit'); stderr is captured.
 */
export function measureProcess(
  command: string,
  args: readonly string[],
  options: { stdio?: [StdioEnd, StdioEnd]; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ProcessRun> {
  const withTime = existsSync(GNU_TIME);
  const scratch = withTime ? mkdtempSync(join(tmpdir(), 'writev-time-')) : undefined;
  const report = scratch ? join(scratch, 'time') : undefined;
  const [file, argv] = report
    ? [GNU_TIME, ['-f', '%U %S %M', '-o', report, command, ...args]]
    : [command, [...args]];
  const [stdin, stdout] = options.stdio ?? ['ignore', 'ignore'];
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(file, argv, { stdio: [stdin, stdout, 'pipe'], env: options.env, cwd: options.cwd });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (s: string) => {
      stderr = (stderr + s).slice(-65536);
    });
    child.on('error', reject);
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      const wall = Number(process.hrtime.bigint() - start) / 1e9;
      const run: ProcessRun = { wall, status: code ?? 128, stderr };
      if (signal) run.status = 128 + (signalNumber(signal) ?? 0);
      if (report && scratch) {
        const figures = parseGnuTime(readFileSync(report, 'utf8'));
        rmSync(scratch, { recursive: true, force: true });
        Object.assign(run, figures);
      }
      resolve(run);
    });
  });
}

/** Reads the last line of GNU time's `-f '%U %S %M'` report (it may prefix a status line). */
export function parseGnuTime(text: string): Pick<RunSample, 'user' | 'system' | 'maxRss'> {
  const last = text.trim().split('\n').pop() ?? '';
  const [user, system, rssKiB] = last.split(' ').map(Number);
  if (![user, system, rssKiB].every((v) => Number.isFinite(v))) return {};
  return { user: user!, system: system!, maxRss: rssKiB! * 1024 };
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return constants.signals[signal];
}
