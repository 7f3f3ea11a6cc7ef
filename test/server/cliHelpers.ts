// Helpers for the writev-lint tests: running main() in this process, the installed bin in a child, C
// sources with a known finding, and git repositories to review.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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

/** A write-in-full loop (loop.c of {@link chainTree}). */
export const CHAIN_LOOP = `#include <unistd.h>
int write_loop(int fd, const void *buf, unsigned n)
{
\tconst char *p = buf;
\tunsigned done = 0;
\twhile (done < n) {
\t\tint w = write(fd, p + done, n - done);
\t\tif (w <= 0)
\t\t\treturn -1;
\t\tdone += w;
\t}
\treturn done;
}
`;

/**
 * A chain of helpers over three files: loop.c's write loop, proto.c's tell_int() and tell_cmd()
 * built on it, and main.c calling those twice. tell_int() is a helper only once proto.c is read
 * with loop.c's facts, and main.c's run only then.
 */
export function chainTree(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'loop.c'), CHAIN_LOOP);
  writeFileSync(
    join(dir, 'proto.c'),
    'void die(const char *);\nint write_loop(int fd, const void *buf, unsigned n);\n' +
      'void tell_int(int fd, int v)\n{\n\tif (write_loop(fd, &v, sizeof(v)) != sizeof(v))\n\t\tdie("tell_int");\n}\n' +
      'void tell_cmd(int fd, char c)\n{\n\tif (write_loop(fd, &c, 1) != 1)\n\t\tdie("tell_cmd");\n}\n',
  );
  writeFileSync(
    join(dir, 'main.c'),
    'void tell_int(int fd, int v);\nvoid tell_cmd(int fd, char c);\n' +
      'void ask(int fd, int port)\n{\n\ttell_cmd(fd, 7);\n\ttell_int(fd, port);\n}\n',
  );
  return dir;
}

/**
 * The findings (as `--format json` prints them) the real CLI reports over a tree of `files` (name to
 * text), made in a fresh folder under `parent`.
 */
export function lintTree<T = { path: string; line: number; code: string }>(
  parent: string,
  files: Record<string, string>,
): T[] {
  const dir = mkdtempSync(join(parent, 'tree-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const run = lintBin(['--format', 'json', dir]);
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`writev-lint exited ${run.status}: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { findings: T[] }).findings;
}
