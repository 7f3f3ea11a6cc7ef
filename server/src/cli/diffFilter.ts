// --diff-base: the lines added or changed since a revision, from `git diff` in each file's repository
// (the working tree against the revision, so staged and unstaged edits count; untracked files count as
// wholly added), and the filter that keeps findings with a write on such a line.
import type * as ChildProcess from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from './args';
import type { ReportedFinding } from './lintFile';

// node:child_process loaded with the first --diff-base query, not by every run (2 ms of start-up).
let run: typeof ChildProcess.execFile.__promisify__ | undefined;

/** Lines (1-based) added or changed in a file, or every line of it. */
export type ChangedLines = 'all' | ReadonlySet<number>;

async function git(cwd: string, args: readonly string[]): Promise<string> {
  // Settings of the user that would change the output we parse are overridden on the command line.
  run ??= promisify((require('node:child_process') as typeof ChildProcess).execFile);
  const { stdout } = await run('git', ['-c', 'core.quotePath=false', ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return stdout;
}

/** Undoes git's C-style quoting of a path in diff headers ("a\\tb" with octal escapes for bytes). */
export function unquoteGitPath(path: string): string {
  if (!path.startsWith('"')) return path;
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  // i stays below the closing quote, so `path[i]` and the escaped `path[++i]` both exist.
  for (let i = 1; i < path.length - 1; i++) {
    const c = path[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = path[++i]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(path.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(simple[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The added lines of every file in a `git diff --unified=0` output, by path relative to the top. */
export function parseUnifiedDiff(diff: string): Map<string, Set<number>> {
  const files = new Map<string, Set<number>>();
  let current: Set<number> | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      // Git ends the name with a tab when it contains a space (a tab in a name is quoted, so this one is git's).
      const target = line.slice(4).replace(/\t$/, '');
      current = target === '/dev/null' ? undefined : new Set();
      if (current) files.set(unquoteGitPath(target).replace(/^b\//, ''), current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      for (let n = start; n < start + count; n++) current.add(n);
    }
  }
  return files;
}

interface Repository {
  readonly top: string;
  readonly changed: Map<string, Set<number>>;
  readonly untracked: Set<string>;
}

async function repositoryOf(dir: string): Promise<{ top: string; prefix: string } | undefined> {
  try {
    const [top, prefix] = (await git(dir, ['rev-parse', '--show-toplevel', '--show-prefix'])).split('\n');
    // A work tree prints both lines (the prefix may be empty); anything else is no repository here.
    return top === undefined || prefix === undefined ? undefined : { top, prefix };
  } catch {
    return undefined;
  }
}

async function diffOf(top: string, rev: string): Promise<Repository> {
  try {
    // A leading '-' would be read as an option by git.
    if (rev.startsWith('-')) throw new Error('not a revision');
    await git(top, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  } catch {
    throw new UsageError(`--diff-base: ${rev} is not a commit of the repository at ${top}`);
  }
  const diff = await git(top, [
    'diff',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--unified=0',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    rev,
    '--',
  ]);
  const untracked = await git(top, ['ls-files', '--others', '--exclude-standard', '-z']);
  return {
    top,
    changed: parseUnifiedDiff(diff),
    untracked: new Set(untracked.split('\0').filter((p) => p !== '')),
  };
}

/**
 * The changed lines of each of `files` (absolute paths) since `rev`, from the repository each file is in.
 * Throws {@link UsageError} for a file outside any repository or a revision a repository does not have.
 */
export async function changedLines(
  files: readonly string[],
  rev: string,
): Promise<Map<string, ChangedLines>> {
  const places = new Map<string, Promise<{ top: string; prefix: string } | undefined>>();
  const repositories = new Map<string, Promise<Repository>>();
  const out = new Map<string, ChangedLines>();
  for (const file of files) {
    const dir = dirname(file);
    if (!places.has(dir)) places.set(dir, repositoryOf(dir));
    const place = await places.get(dir);
    if (!place) throw new UsageError(`--diff-base needs git: ${file} is not in a git repository`);
    if (!repositories.has(place.top)) repositories.set(place.top, diffOf(place.top, rev));
    const repo = await (repositories.get(place.top) as Promise<Repository>);
    const relative = join(place.prefix, basename(file)).split('\\').join('/');
    if (repo.untracked.has(relative)) out.set(file, 'all');
    else out.set(file, repo.changed.get(relative) ?? new Set());
  }
  return out;
}

/** Whether one of the finding's writes (or, without writes, the finding itself) touches a changed line. */
export function touchesChange(finding: ReportedFinding, changed: ChangedLines | undefined): boolean {
  if (changed === undefined) return false;
  if (changed === 'all') return true;
  const spans = finding.related.length > 0 ? finding.related : [finding];
  return spans.some((s) => {
    for (let line = s.start.line + 1; line <= s.end.line + 1; line++) if (changed.has(line)) return true;
    return false;
  });
}
