// Applying fixes: picking the non-overlapping ones for fix-all, and applying edits to text.
import { applies } from './fixes/safety';
import { lineEndingOf, withLineEnding } from './fixes/text';
import type { Finding, TextEdit } from './model';

/**
 * The number of `sorted` (by start, then end) that come before or with a span from `start` to `end`:
 * where to insert it so that equal spans keep the order they came in.
 */
function countBefore(sorted: readonly TextEdit[], start: number, end: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const s = sorted[mid]!.span; // low <= mid < high <= sorted.length
    if (s.start < start || (s.start === start && s.end <= end)) low = mid + 1;
    else high = mid;
  }
  return low;
}

function overlaps(a: TextEdit, b: TextEdit): boolean {
  return a.span.start < b.span.end && b.span.start < a.span.end;
}

/**
 * Whether `e` overlaps one of `sorted`, a set of mutually non-overlapping edits in order (two spans
 * overlap when each starts before the other ends). In such a set the ends are in order too, so only
 * the last edit starting before `e` ends can reach into it.
 */
function overlapsAny(sorted: readonly TextEdit[], e: TextEdit): boolean {
  const last = sorted[countBefore(sorted, e.span.end, -1) - 1];
  return last !== undefined && last.span.end > e.span.start;
}

/**
 * The edits of every safe fix in `findings` (and with `unsafe` every unsafe one too: see FixSafety)
 * that does not overlap an earlier one, deduplicated (two fixes adding the same import add it once),
 * in document order: edits that can be applied together. Each edit costs a binary search and an array
 * insertion, not a comparison with every edit chosen before it, so that a file with thousands of fixes
 * stays fast.
 */
export function fixAllEdits(findings: readonly Finding[], unsafe = false): TextEdit[] {
  const chosen: TextEdit[] = [];
  const key = (e: TextEdit) => `${e.span.start}:${e.span.end}:${e.newText}`;
  const seen = new Set<string>();
  for (const finding of findings) {
    if (!applies(finding.fix, unsafe)) continue;
    const edits = finding.fix?.edits ?? [];
    const fresh = edits.filter((e) => !seen.has(key(e)));
    // A fix whose own edits overlap cannot be applied at all (none of ours does; one must not slip in).
    if (fresh.some((e, i) => fresh.some((f, j) => i < j && overlaps(e, f)))) continue;
    if (fresh.some((e) => overlapsAny(chosen, e))) continue;
    for (const e of fresh) {
      seen.add(key(e));
      chosen.splice(countBefore(chosen, e.span.start, e.span.end), 0, e);
    }
  }
  return chosen;
}

/**
 * `text` with `edits` applied; the edits' spans refer to the original text and must not overlap.
 * Builds the result once from the pieces between the edits (linear in the text's length): replacing
 * one edit at a time would copy the whole text per edit.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const pieces: string[] = [];
  let at = 0;
  for (const e of sorted) {
    pieces.push(text.slice(at, e.span.start), e.newText);
    at = Math.max(at, e.span.end);
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}

/**
 * `findings` with the line breaks of their fixes written in the line ending `text` uses (the fix
 * builders write LF). Returns `findings` itself for an LF file.
 */
export function inFileLineEndings(findings: Finding[], text: string): Finding[] {
  if (!findings.some((f) => f.fix)) return findings;
  const eol = lineEndingOf(text);
  if (eol === '\n') return findings;
  return findings.map((f) => {
    if (!f.fix) return f;
    // The object made last time for the same finding and line ending: a finding an edit left in place
    // stays the same object (see CAnalyzer.placedFindings).
    const last = inLineEndings.get(f);
    if (last?.eol === eol) return last.finding;
    const edits = f.fix.edits.map((e) => ({ ...e, newText: withLineEnding(e.newText, eol) }));
    const finding = { ...f, fix: { ...f.fix, edits } };
    inLineEndings.set(f, { eol, finding });
    return finding;
  });
}

/** {@link inFileLineEndings}'s last result for each finding, with the line ending it was given. */
const inLineEndings = new WeakMap<Finding, { eol: string; finding: Finding }>();
