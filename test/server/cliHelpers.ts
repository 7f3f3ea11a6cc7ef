// Helpers for the writev-lint tests: running main() in this process, the installed bin in a child, C
// sources with a known finding, and git repositories to review.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { main } from 'writev-lint/out/cli/main';
import { gitEnv } from '../runtime/helpers/gitEnv';
import { REPO } from './helpers';
import { join } from 'node:path';

/** What a run of writev-lint printed and returned. */
export interface Run {
  status: number;
  out: string;
  err: string;
}

/** Runs writev-lint's main() here, with `stdin` as standard input; paths print relative to `cwd`. */
export async function lintRun(args: string[], cwd = REPO, stdin?: string): Promise<Run> {
  let out = '';
  let err = '';
  const status = await main(
    args,
    { out: (t) => (out += t), err: (t) => (err += t), readStdin: async () => stdin ?? '' },
    cwd,
  );
  return { status, out, err };
}

/**
 * The first line of each finding in text output, full (the default) or concise: the excerpt lines of
 * `full` (`  |`, `3 | code`, `  |   ^^^`) and blank lines are left out.
 */
export function findingLines(out: string): string[] {
  return out.split('\n').filter((l) => l !== '' && !/^ *\d* \|/.test(l));
}

/** The installed bin (node_modules/.bin/writev-lint), as a user runs it. */
export function lintBin(
  args: string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): SpawnSyncReturns<string> {
  return spawnSync(join(REPO, 'node_modules', '.bin', 'writev-lint'), args, {
    cwd: options.cwd ?? REPO,
    input: options.input,
    env: options.env ?? process.env,
    encoding: 'utf8',
  });
}

/**
 * {@link lintBin}'s result from main() run in this process, the analyzer loaded once rather than once a
 * run: for the cases that vary what a flag is given, where each flag also has a case through the bin.
 * main() prints paths relative to `cwd` but opens operands as given (from this process's working
 * folder): pass files by their full paths.
 */
export async function lintHere(
  args: string[],
  options: { cwd?: string; input?: string } = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  const run = await lintRun(args, options.cwd ?? REPO, options.input);
  return { status: run.status, stdout: run.out, stderr: run.err };
}

/** A C function with one adjacent-writes finding (two writes, on its lines 3 and 4). */
export function cFunction(name: string, first = '"a", 1', second = 'buf, len'): string {
  return [
    `void ${name}(int fd, const char *buf, size_t len)`,
    '{',
    `\twrite_or_die(fd, ${first});`,
    `\twrite_or_die(fd, ${second});`,
    '}',
    '',
  ].join('\n');
}

/** Runs git in `cwd` with a clean, fixed identity; throws with git's message on failure. */
export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, env: gitEnv(), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}
