import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUploadPackCommand } from '@writev/runtime';
import { gitEnv } from '../../helpers/gitEnv';

/** The bundled server, as users run it (built by `npm run build`). */
export const BIN = join(__dirname, '..', '..', '..', '..', '..', 'runtime', 'dist', 'writev-upload-pack.js');

/** Runs git and returns its standard output; a failure throws with git's stderr. */
export function git(
  cwd: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: Buffer } = {},
): string {
  return execFileSync('git', args, {
    cwd,
    env: options.env ?? gitEnv(),
    input: options.input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 1 << 28,
  });
}

/** What a finished command did. */
export interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a command to completion without blocking the event loop (servers and clients run at once). */
export function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: Buffer; timeoutMs?: number } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env ?? gitEnv(), stdio: 'pipe' });
    const out: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout: Buffer.concat(out), stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/**
 * Runs writev-upload-pack with `args` in this process, through the command's own entry (what the
 * bin calls with its stdin, stdout and stderr), on files holding `input` and taking its output:
 * the same parsing, serve and exit statuses without a node start per request, which cost the
 * upload-pack tests most of their time. For tests about the protocol; what only a process shows
 * (its descriptors, signals, a real client on a pipe) is tested through {@link BIN}.
 */
export async function runInProcess(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: Buffer } = {},
): Promise<Finished> {
  const dir = mkdtempSync(join(tmpdir(), 'writev-upload-pack-io-'));
  const fds: number[] = [];
  const open = (name: string, flags: string): number => {
    const fd = openSync(join(dir, name), flags);
    fds.push(fd);
    return fd;
  };
  try {
    writeFileSync(join(dir, 'in'), options.input ?? Buffer.alloc(0));
    const status = await runUploadPackCommand(args, options.env ?? gitEnv(), {
      input: open('in', 'r'),
      output: open('out', 'w'),
      errors: open('err', 'w'),
    });
    return {
      status,
      signal: null,
      stdout: readFileSync(join(dir, 'out')),
      stderr: readFileSync(join(dir, 'err'), 'utf8'),
    };
  } finally {
    for (const fd of fds) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A scratch folder, removed by `dispose`. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'writev-upload-pack-'));

  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function commit(repo: string, file: string, text: string, message: string): void {
  writeFileSync(join(repo, file), text);
  git(repo, ['add', file]);
  git(repo, ['commit', '-q', '-m', message]);
}

/**
 * The folder of this run's fixture repositories: `WRITEV_TEST_FIXTURES` when the runner set one for
 * all its test files (scripts/test.js), else one of this process, removed when it exits.
 */
let fixtureDir: string | undefined;
function fixtureCache(): string {
  if (fixtureDir !== undefined) return fixtureDir;
  const shared = process.env.WRITEV_TEST_FIXTURES;
  if (shared) {
    mkdirSync(shared, { recursive: true });
    return (fixtureDir = shared);
  }
  const own = mkdtempSync(join(tmpdir(), 'writev-fixtures-'));
  process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  return (fixtureDir = own);
}

/**
 * Makes `dir/source` a copy of the repository `build` makes (in the folder it is given, as
 * `source`), and returns its path. Each builder runs once per test run rather than once per suite:
 * a history takes git dozens of processes, and some thirty suites asked for one. The builders
 * fix every date and identity (gitEnv), so a copy is what a fresh build would make; each caller gets
 * its own copy and may change it. Keyed by the builder's source text, so an edited builder is
 * never served an old history.
 */
export function fromFixtureCache(dir: string, build: (dir: string) => string): string {
  const key = `${build.name}-${createHash('sha256').update(build.toString()).digest('hex').slice(0, 16)}`;
  const cached = join(fixtureCache(), key);
  if (!existsSync(cached)) {
    // Built aside, then renamed into place: a test file running beside this one never sees half a
    // repository, and the second to finish a build keeps the first one's.
    const building = mkdtempSync(`${cached}.building-`);
    build(building);
    try {
      renameSync(join(building, 'source'), cached);
    } catch (err) {
      if (!existsSync(cached)) throw err;
    }
    rmSync(building, { recursive: true, force: true });
  }
  const repo = join(dir, 'source');
  // Timestamps kept, so the copied index still matches its work tree's files by their times.
  cpSync(cached, repo, { recursive: true, preserveTimestamps: true });
  return repo;
}

/**
 * A repository with history worth cloning: two branches with a merge, a lightweight and an
 * annotated tag, a few hundred KiB of files (so packs have deltas and several packets), HEAD on
 * `main`. A copy from the run's fixture cache (see {@link fromFixtureCache}).
 */
export function makeRepository(dir: string): string {
  return fromFixtureCache(dir, buildRepository);
}

function buildRepository(dir: string): string {
  git(dir, ['init', '-q', '-b', 'main', 'source']);
  const repo = join(dir, 'source');
  const big = Array.from({ length: 4000 }, (_, i) => `line ${i} ${(i * 7919) % 10007}\n`).join('');
  commit(repo, 'README', 'hello\n', 'first');
  git(repo, ['tag', 'v0.1']);
  commit(repo, 'data.txt', big, 'data');
  git(repo, ['checkout', '-q', '-b', 'topic']);
  commit(repo, 'topic.txt', 'topic work\n', 'topic');
  commit(repo, 'data.txt', big.replace('line 17 ', 'line seventeen '), 'edit data on topic');
  git(repo, ['checkout', '-q', 'main']);
  commit(repo, 'README', 'hello again\n', 'readme');
  git(repo, ['merge', '-q', '--no-ff', '-m', 'merge topic', 'topic']);
  git(repo, ['tag', '-a', 'v1.0', '-m', 'release 1.0']);
  return repo;
}

/** Adds a commit and an annotated tag to `repo`. */
export function addCommit(repo: string, name: string): void {
  commit(repo, `${name}.txt`, `${name}\n`.repeat(100), name);
  git(repo, ['tag', '-a', `tag-${name}`, '-m', name]);
}

/** The refs of a repository as `oid name` lines (`refs/heads` and `refs/tags`). */
export function refsOf(repo: string, prefix: string): string[] {
  return git(repo, ['for-each-ref', '--format=%(objectname) %(refname)', prefix])
    .trim()
    .split('\n')
    .filter((l) => l !== '');
}

/** The `--upload-pack` command that runs the server with `args`. */
export function uploadPackCommand(...args: string[]): string {
  return [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
}
