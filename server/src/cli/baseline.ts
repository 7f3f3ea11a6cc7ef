// --baseline: a file of known findings, so a team can adopt the linter on an old tree and be told only
// about new findings. A finding is known when its fingerprint (rule, file, normalised text of its writes;
// see fingerprint.ts) is recorded, so a finding that only moved stays known.
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { UsageError } from './args';
import { fingerprints } from './fingerprint';
import { forwardSlashes } from './formats';
import type { FileResult, ReportedFinding } from './lintFile';
import { writeAtomically } from './writeAtomically';

/** One recorded finding; `rule`, `path` and `message` are there for people reading the file. */
export interface BaselineEntry {
  readonly fingerprint: string;
  readonly rule: string;
  readonly path: string;
  readonly message: string;
}

/** The baseline file. */
export interface BaselineFile {
  readonly version: 1;
  readonly tool: 'writev-lint';
  readonly findings: readonly BaselineEntry[];
}

/** Paths in a baseline are relative to its folder, so the tree can be linted from anywhere. */
function baselinePath(file: string, baseline: string): string {
  return forwardSlashes(relative(dirname(resolve(baseline)), file));
}

/** The entries for every finding of `results` (texts: the files' text, for the fingerprints). */
export function baselineEntries(
  results: readonly FileResult[],
  texts: ReadonlyMap<string, string>,
  baseline: string,
): { entries: BaselineEntry[]; byFinding: Map<ReportedFinding, string> } {
  const entries: BaselineEntry[] = [];
  const byFinding = new Map<ReportedFinding, string>();
  for (const r of results) {
    const path = baselinePath(r.path, baseline);
    for (const [f, fingerprint] of fingerprints(r, path, texts.get(r.path))) {
      entries.push({ fingerprint, rule: f.code, path, message: f.message });
      byFinding.set(f, fingerprint);
    }
  }
  entries.sort((a, b) => a.path.localeCompare(b.path) || a.fingerprint.localeCompare(b.fingerprint));
  return { entries, byFinding };
}

/** Reads the fingerprints recorded in `file`; a missing or malformed file is a usage error naming it. */
export async function readBaseline(file: string): Promise<Set<string>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const hint =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? ' (create it with --update-baseline)' : '';
    throw new UsageError(`cannot read the baseline ${file}: ${(error as Error).message}${hint}`);
  }
  const findings = (raw as Partial<BaselineFile> | null)?.findings;
  if ((raw as Partial<BaselineFile> | null)?.version !== 1 || !Array.isArray(findings))
    throw new UsageError(
      `${file} is not a writev-lint baseline (expected {"version": 1, "findings": [...]})`,
    );
  const prints = new Set<string>();
  for (const [i, entry] of findings.entries()) {
    const fingerprint = (entry as Partial<BaselineEntry> | null)?.fingerprint;
    if (typeof fingerprint !== 'string')
      throw new UsageError(`${file}: findings[${i}].fingerprint must be a string`);
    prints.add(fingerprint);
  }
  return prints;
}

/**
 * Writes the baseline whole, through an exclusively created temporary file renamed over it (see
 * writeAtomically.ts): a failed write loses nothing, and a link planted beside it is never followed.
 */
export async function writeBaseline(file: string, entries: readonly BaselineEntry[]): Promise<void> {
  const body: BaselineFile = { version: 1, tool: 'writev-lint', findings: entries };
  try {
    await writeAtomically(file, `${JSON.stringify(body, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(`cannot write the baseline ${file}: ${(error as Error).message}`);
  }
}
