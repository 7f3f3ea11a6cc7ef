// What a review reports: --quiet drops information and hints, --diff-base keeps findings with a write on
// a changed line, --baseline drops known findings (or --update-baseline records them all); and the exit
// status of what is left (--exit-zero, --max-warnings).
import type { CliOptions } from './args';
import { baselineEntries, readBaseline, writeBaseline } from './baseline';
import { changedLines, touchesChange } from './diffFilter';
import type { FileResult } from './lintFile';
import { keepFindings } from './report';

/** The findings to report, and what to tell the user about how they were chosen. */
export interface Reviewed {
  readonly results: FileResult[];
  readonly notes: string[];
}

type ReviewOptions = Pick<CliOptions, 'quiet' | 'diffBase' | 'baseline' | 'updateBaseline'> &
  Partial<Pick<CliOptions, 'select' | 'ignore'>>;

/**
 * Applies the review options to `results` (`texts`: the text of every file with findings). With
 * `updateBaseline`, writes the baseline of every finding (after --quiet) and reports nothing.
 */
export async function review(
  results: readonly FileResult[],
  texts: ReadonlyMap<string, string>,
  options: ReviewOptions,
): Promise<Reviewed> {
  const notes: string[] = [];
  let all = [...results];
  if (options.quiet) all = keepFindings(all, (f) => f.severity === 'error' || f.severity === 'warning');
  const { select, ignore = [] } = options;
  if (select || ignore.length > 0) {
    // Before the baseline: a code left out is neither reported nor recorded, as ruff's --select does.
    all = keepFindings(all, (f) => (!select || select.includes(f.code)) && !ignore.includes(f.code));
  }
  if (options.baseline && options.updateBaseline) {
    const { entries } = baselineEntries(all, texts, options.baseline);
    await writeBaseline(options.baseline, entries);
    notes.push(`recorded ${entries.length} finding${entries.length === 1 ? '' : 's'} in ${options.baseline}`);
    return { results: keepFindings(all, () => false), notes };
  }
  let shown = all;
  if (options.diffBase) {
    const withFindings = all.filter((r) => r.findings.length > 0).map((r) => r.path);
    const changed = await changedLines(withFindings, options.diffBase);
    shown = keepFindings(shown, (f, r) => touchesChange(f, changed.get(r.path)));
  }
  if (options.baseline) {
    const known = await readBaseline(options.baseline);
    // Fingerprints over every finding (not only those left after --diff-base), so identical findings
    // are numbered the same way as when the baseline was recorded.
    const { byFinding } = baselineEntries(all, texts, options.baseline);
    const current = new Set(byFinding.values());
    shown = keepFindings(shown, (f) => !known.has(byFinding.get(f) ?? ''));
    const gone = [...known].filter((print) => !current.has(print)).length;
    if (gone > 0)
      notes.push(
        `${gone} finding${gone === 1 ? '' : 's'} of ${options.baseline} no longer found (--update-baseline drops them)`,
      );
  }
  return { results: shown, notes };
}

/**
 * The exit status for the reported findings and the `fixedFiles` that --fix changed, and why it is 1
 * when --max-warnings or --exit-non-zero-on-fix decided it.
 */
export function exitStatus(
  results: readonly FileResult[],
  options: Pick<CliOptions, 'exitZero' | 'maxWarnings' | 'exitNonZeroOnFix'>,
  fixedFiles = 0,
): { code: 0 | 1; message?: string } {
  if (options.exitZero) return { code: 0 };
  const status = findingsStatus(results, options);
  if (status.code === 0 && options.exitNonZeroOnFix && fixedFiles > 0)
    return {
      code: 1,
      message: `${fixedFiles} file${fixedFiles === 1 ? '' : 's'} fixed (--exit-non-zero-on-fix)`,
    };
  return status;
}

function findingsStatus(
  results: readonly FileResult[],
  options: Pick<CliOptions, 'maxWarnings'>,
): { code: 0 | 1; message?: string } {
  const findings = results.flatMap((r) => r.findings);
  if (findings.length === 0) return { code: 0 };
  if (options.maxWarnings === undefined) return { code: 1 };
  const errors = findings.filter((f) => f.severity === 'error').length;
  const others = findings.length - errors;
  if (errors > 0) return { code: 1 };
  if (others > options.maxWarnings)
    return { code: 1, message: `${others} findings: more than --max-warnings ${options.maxWarnings}` };
  return { code: 0 };
}
