// What every output format is given: the results to print, where paths are relative to, the text of the
// files with findings (for UTF-8 columns and fingerprints), and each finding's fingerprint.
import { readFile } from 'node:fs/promises';
import { decodeSource } from '../workspace/sourceFile';
import { displayPath } from './formats';
import { fingerprints } from './fingerprint';
import type { FileResult, ReportedFinding } from './lintFile';

/** The input of a formatter. */
export interface Report {
  readonly results: readonly FileResult[];
  /** Paths are printed relative to this folder. */
  readonly cwd: string;
  /** The text of each file with findings, as it was when its findings were computed. */
  readonly texts: ReadonlyMap<string, string>;
  /** Each finding's fingerprint (see fingerprint.ts), paths relative to `cwd`. */
  readonly fingerprints: ReadonlyMap<ReportedFinding, string>;
  /** writev-lint's version. */
  readonly version: string;
  /** Unsafe fixes count as fixable (--unsafe-fixes): `[*]` marks their findings too. */
  readonly unsafeFixes?: boolean;
  /** Colour the text format. */
  readonly color: boolean;
}

/**
 * Reads the text of every file with findings (the files were just linted, so a failure here is a file
 * changed or removed meanwhile: its findings keep message-based fingerprints).
 */
export async function textsOf(
  results: readonly FileResult[],
  known: ReadonlyMap<string, string> = new Map(),
): Promise<Map<string, string>> {
  const texts = new Map(known);
  for (const r of results) {
    if (r.findings.length === 0 || texts.has(r.path)) continue;
    // Decoded as the lint decoded it (Latin-1 where not UTF-8): the fingerprints hash this text.
    const text = await readFile(r.path).then(
      (bytes) => decodeSource(bytes).text,
      () => undefined,
    );
    if (text !== undefined) texts.set(r.path, text);
  }
  return texts;
}

/** Fingerprints of every finding of `results`, with paths relative to `cwd`. */
export function fingerprintsOf(
  results: readonly FileResult[],
  texts: ReadonlyMap<string, string>,
  cwd: string,
): Map<ReportedFinding, string> {
  const all = new Map<ReportedFinding, string>();
  for (const r of results) {
    // Most files of a tree have no finding: no path to make relative (750 path.relative calls on busybox).
    if (r.findings.length === 0) continue;
    for (const [f, print] of fingerprints(r, displayPath(r.path, cwd), texts.get(r.path))) all.set(f, print);
  }
  return all;
}

/** `results` with only the findings `keep` accepts. */
export function keepFindings(
  results: readonly FileResult[],
  keep: (finding: ReportedFinding, result: FileResult) => boolean,
): FileResult[] {
  return results.map((r) => {
    const findings = r.findings.filter((f) => keep(f, r));
    return findings.length === r.findings.length ? r : { ...r, findings };
  });
}
