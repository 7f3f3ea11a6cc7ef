// Fingerprints of findings that survive edits elsewhere in the file: the rule, the file and the text of
// the finding's writes, never a line number. Both the baseline and SARIF's partialFingerprints use them.
import { LineIndex } from '../analyzer/positions';
import type { FileResult, ReportedFinding } from './lintFile';

/** The fingerprint scheme's name; a change to the recipe gets a new version. */
export const FINGERPRINT_KEY = 'writevFinding/v1';

/**
 * The text a finding's writes cover, whitespace collapsed so re-indenting does not change it. `lines`
 * indexes `text`: made once per file, not per finding (indexing a file's lines again for each of its
 * findings was quadratic: 14 of cgit's 148 findings' ms were spent there).
 */
export function writeTexts(finding: ReportedFinding, text: string, lines = new LineIndex(text)): string[] {
  const spans = finding.related.length > 0 ? finding.related : [finding];
  return spans.map((s) =>
    text.slice(lines.offsetAt(s.start), lines.offsetAt(s.end)).replace(/\s+/g, ' ').trim(),
  );
}

/**
 * A fingerprint per finding: `hash:n`, where the hash covers the rule, `path` (as the caller names it,
 * relative to something stable) and the writes' text, and n counts identical findings in the file in
 * order (1 for the first), so two equal sequences in one file stay two.
 */
export function fingerprints(
  result: FileResult,
  path: string,
  text: string | undefined,
): Map<ReportedFinding, string> {
  const seen = new Map<string, number>();
  const out = new Map<ReportedFinding, string>();
  if (result.findings.length === 0) return out;
  // Loaded for the first finding: node:crypto is one of the costlier modules to load, and a run may
  // find nothing.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const lines = text === undefined ? undefined : new LineIndex(text);
  for (const f of result.findings) {
    const writes = text === undefined ? [f.message] : writeTexts(f, text, lines);
    const hash = createHash('sha256')
      .update([f.code, path, ...writes].join('\0'))
      .digest('hex')
      .slice(0, 32);
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    out.set(f, `${hash}:${n}`);
  }
  return out;
}
