// What git itself ignores in a work tree. Git never applies ignore rules to a file it tracks: a bare
// `lcdproc` line in a root .gitignore (meant for the built binary) also matches the tracked source folder
// clients/lcdproc/, and git still tracks, diffs and builds every file in it. Asking git gives its exact
// answer (tracked files, nested .gitignore files, `!` negations, .git/info/exclude, the user's global
// excludes) where matching .gitignore lines ourselves cannot know which files are tracked.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Git's ignore decisions for the untracked paths of one folder inside a work tree. */
export interface GitIgnored {
  /** The folder git was asked about (absolute); paths below it are answered. */
  readonly dir: string;
  /** Untracked files git ignores (absolute paths). */
  readonly files: ReadonlySet<string>;
  /** Folders git ignores whole: none of their files is tracked (absolute paths, no trailing slash). */
  readonly dirs: ReadonlySet<string>;
}

/** Why git could not answer for a folder inside a work tree. */
export class GitUnansweredError extends Error {
  readonly code = 'EGITUNANSWERED';
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`${dir}: git could not list what it ignores: ${reason}`);
    this.name = 'GitUnansweredError';
  }
}

/**
 * Variables that point git at another repository or index: set while a git hook runs (GIT_DIR,
 * GIT_INDEX_FILE), they would answer for that repository instead of the folder walked.
 */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_PREFIX'];

/** Whether `dir` or a folder above it holds a `.git` entry (a work tree, or a submodule's `.git` file). */
export async function inWorkTree(dir: string): Promise<boolean> {
  for (let at = dir; ; at = dirname(at)) {
    if (
      await stat(join(at, '.git')).then(
        () => true,
        () => false,
      )
    )
      return true;
    if (dirname(at) === at) return false;
  }
}

/**
 * Runs `git -c core.fsmonitor=false ARGS` in `dir` and resolves with its status and output when it
 * exits with one of `answers`. The repository's own fsmonitor hook is turned off: asking what git
 * ignores must not run a program the repository names. Rejects with a GitUnansweredError when git
 * cannot run or refuses (no git binary, a repository of another owner).
 */
function askGit(dir: string, args: readonly string[], answers: readonly number[]): Promise<[number, Buffer]> {
  const env = { ...process.env };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'core.fsmonitor=false', ...args], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new GitUnansweredError(dir, error.code === 'ENOENT' ? 'no git program found' : error.message)),
    );
    child.on('close', (status, signal) => {
      if (status !== null && answers.includes(status)) {
        resolve([status, Buffer.concat(out)]);
        return;
      }
      const said = err.trim().split('\n')[0] ?? '';
      reject(
        new GitUnansweredError(
          dir,
          said || (signal ? `git was stopped by ${signal}` : `git exited with status ${status}`),
        ),
      );
    });
  });
}

/**
 * Asks git which untracked paths under `dir` it ignores (`git ls-files --others --ignored
 * --exclude-standard --directory`): a folder with no tracked file is answered whole and not walked by
 * git; one holding a tracked file is answered file by file, so its tracked files are never listed.
 * Rejects with a GitUnansweredError when git cannot answer.
 */
export async function gitIgnored(dir: string): Promise<GitIgnored> {
  const [, out] = await askGit(
    dir,
    ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
    [0],
  );
  const files = new Set<string>();
  const dirs = new Set<string>();
  for (const entry of out.toString('utf8').split('\0')) {
    if (!entry) continue;
    if (entry.endsWith('/')) dirs.add(join(dir, entry.slice(0, -1)));
    else files.add(join(dir, entry));
  }
  return { dir, files, dirs };
}

/**
 * Whether git ignores the one file `path` (`git check-ignore`, which never answers yes for a tracked
 * file, and answers yes for a file in an ignored folder). Rejects with a GitUnansweredError when git
 * cannot answer.
 */
export async function gitIgnores(path: string): Promise<boolean> {
  const [status] = await askGit(dirname(path), ['check-ignore', '-q', '--', basename(path)], [0, 1]);
  return status === 0;
}
