// What writev-lint says about fixes, as ruff says it: which findings --fix would fix (`[*]`), how many
// unsafe fixes only --unsafe-fixes applies, and --diff's output (the diffs on standard output, what they
// would fix on standard error).
import { displayPath, fixable } from './formats';
import type { FileResult } from './lintFile';
import { unifiedDiff } from './unifiedDiff';

/** `1 fix`, `2 fixes`. */
function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** ` (2 hidden fixes can be enabled with --unsafe-fixes)`, or '' when there are none or they are on. */
function hiddenNote(results: readonly FileResult[], unsafe: boolean): string {
  if (unsafe) return '';
  const hidden = results.reduce((n, r) => n + r.findings.filter((f) => f.fix?.safety === 'unsafe').length, 0);
  return hidden === 0
    ? ''
    : ` (${counted(hidden, 'hidden fix', 'hidden fixes')} can be enabled with --unsafe-fixes)`;
}

/**
 * The line after a text report's summary: `[*] 3 fixable with --fix (1 hidden fix can be enabled with
 * --unsafe-fixes)`; undefined when no finding has a fix.
 */
export function fixableLine(results: readonly FileResult[], unsafe: boolean): string | undefined {
  const count = results.reduce((n, r) => n + r.findings.filter((f) => fixable(f, unsafe)).length, 0);
  const hidden = hiddenNote(results, unsafe);
  if (count === 0 && hidden === '') return undefined;
  if (count === 0) return `no finding is fixable with --fix${hidden}`;
  return `[*] ${count} fixable with --fix${unsafe ? ' --unsafe-fixes' : ''}${hidden}`;
}

/** What --diff prints: the diffs (standard output) and the summary (standard error). */
export interface DiffOutput {
  readonly diff: string;
  readonly summary: string;
  /** Files the diff changes (exit status 1 when any). */
  readonly files: number;
}

/**
 * The unified diff of every file --fix would change (paths relative to `cwd`, in the results' order),
 * and the summary: `would fix 4 findings in 2 files (1 hidden fix can be enabled with --unsafe-fixes)`.
 */
export function diffOutput(results: readonly FileResult[], cwd: string, unsafe: boolean): DiffOutput {
  let fixes = 0;
  let files = 0;
  const diffs: string[] = [];
  for (const r of results) {
    if (!r.preview) continue;
    const diff = unifiedDiff(displayPath(r.path, cwd), r.preview.before, r.preview.after);
    if (diff === '') continue;
    diffs.push(diff);
    files++;
    fixes += r.preview.fixed;
  }
  const summary =
    files === 0
      ? `nothing to fix${hiddenNote(results, unsafe)}`
      : `would fix ${counted(fixes, 'finding')} in ${counted(files, 'file')}${hiddenNote(results, unsafe)}`;
  return { diff: diffs.join(''), summary, files };
}
