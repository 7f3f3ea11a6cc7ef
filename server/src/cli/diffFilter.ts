// --diff-base: the lines added or changed since a revision, from `git diff` in each file's repository
// (the working tree against the revision, so staged and unstaged edits count; untracked files count as
// wholly added), and the filter that keeps findings with a write on such a line.
import type * as ChildProcess from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from './args';
import { forwardSlashes } from './formats';
import type { ReportedFinding } from './lintFile';

// node:child_process loaded with the first --diff-base query: loading it is a visible part of a start,
// and most runs never ask git.
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

/** A `git diff` output that does not follow the unified format where it must: names the line. */
export class DiffFormatError extends Error {
  readonly code = 'EDIFFFORMAT';
  constructor(
    readonly line: number,
    what: string,
  ) {
    super(`git diff output, line ${line}: ${what}`);
    this.name = 'DiffFormatError';
  }
}

/**
 * The added lines of every file in a `git diff` output (any context size), by path relative to the top.
 * A hunk is read by the line counts of its `@@ -a,b +c,d @@` header, never by guessing from a line's
 * first characters: an added line whose text begins with `++ ` shows as `+++ ...`, which only outside a
 * hunk is a file header. Throws {@link DiffFormatError} when a hunk ends before its counts say.
 */
export function parseUnifiedDiff(diff: string): Map<string, Set<number>> {
  const files = new Map<string, Set<number>>();
  let current: Set<number> | undefined;
  // Lines still to come in the current hunk, of the old and of the new file; the next new line's number.
  let oldLeft = 0;
  let newLeft = 0;
  let next = 0;
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const [i, line] of lines.entries()) {
    if (oldLeft > 0 || newLeft > 0) {
      const kind = line[0];
      if (kind === '+' && newLeft > 0) {
        current?.add(next++);
        newLeft--;
      } else if (kind === '-' && oldLeft > 0) oldLeft--;
      else if ((kind === ' ' || line === '') && oldLeft > 0 && newLeft > 0) {
        // A context line (an empty one when a tool strips the trailing space).
        next++;
        oldLeft--;
        newLeft--;
      } else if (kind !== '\\') {
        throw new DiffFormatError(
          i + 1,
          `the hunk ends early (${oldLeft} old and ${newLeft} new lines missing)`,
        );
      }
      continue;
    }
    if (line.startsWith('+++ ')) {
      // Git ends the name with a tab when it contains a space (a tab in a name is quoted, so this one is git's).
      const target = line.slice(4).replace(/\t$/, '');
      current = target === '/dev/null' ? undefined : new Set();
      if (current) files.set(unquoteGitPath(target).replace(/^b\//, ''), current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      next = Number(hunk[2]);
      newLeft = hunk[3] === undefined ? 1 : Number(hunk[3]);
    }
  }
  if (oldLeft > 0 || newLeft > 0) throw new DiffFormatError(lines.length, 'the output ends inside a hunk');
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
  let changed: Map<string, Set<number>>;
  try {
    changed = parseUnifiedDiff(diff);
  } catch (error) {
    throw new UsageError(`--diff-base ${rev} in ${top}: ${(error as Error).message}`);
  }
  return {
    top,
    changed,
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
    const relative = forwardSlashes(join(place.prefix, basename(file)));
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
