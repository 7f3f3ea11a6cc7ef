// What git itself ignores in a work tree. Git never applies ignore rules to a file it tracks: a bare
// `lcdproc` line in a root .gitignore (meant for the built binary) also matches the tracked source folder
// clients/lcdproc/, and git still tracks, diffs and builds every file in it. Asking git gives its exact
// answer (tracked files, nested .gitignore files, `!` negations, .git/info/exclude, the user's global
// excludes) where matching .gitignore lines ourselves cannot know which files are tracked.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

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
 * Asks git which untracked paths under `dir` it ignores (`git ls-files --others --ignored
 * --exclude-standard --directory`): a folder with no tracked file is answered whole and not walked by
 * git; one holding a tracked file is answered file by file, so its tracked files are never listed.
 * Rejects with a GitUnansweredError when git cannot run or refuses (no git binary, a repository of
 * another owner). The repository's own fsmonitor hook is turned off: listing files must not run a
 * program the repository names.
 */
export function gitIgnored(dir: string): Promise<GitIgnored> {
  const env = { ...process.env };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(
      'git',
      [
        '-c',
        'core.fsmonitor=false',
        'ls-files',
        '-z',
        '--others',
        '--ignored',
        '--exclude-standard',
        '--directory',
      ],
      { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new GitUnansweredError(dir, error.code === 'ENOENT' ? 'no git program found' : error.message)),
    );
    child.on('close', (status, signal) => {
      if (status !== 0) {
        const said = err.trim().split('\n')[0] ?? '';
        const reason = said || (signal ? `git was stopped by ${signal}` : `git exited with status ${status}`);
        reject(new GitUnansweredError(dir, reason));
        return;
      }
      const files = new Set<string>();
      const dirs = new Set<string>();
      for (const entry of Buffer.concat(out).toString('utf8').split('\0')) {
        if (!entry) continue;
        if (entry.endsWith('/')) dirs.add(join(dir, entry.slice(0, -1)));
        else files.add(join(dir, entry));
      }
      resolve({ dir, files, dirs });
    });
  });
}
