// Applying fixes: picking the non-overlapping ones for fix-all, and applying edits to text.
import type { Finding, TextEdit } from './model';

function overlaps(a: TextEdit, b: TextEdit): boolean {
  return a.span.start < b.span.end && b.span.start < a.span.end;
}

/**
 * The edits of every fix in `findings` that does not overlap an earlier one, deduplicated (two fixes
 * adding the same import add it once), in document order. Safe to apply together.
 */
export function fixAllEdits(findings: readonly Finding[]): TextEdit[] {
  const chosen: TextEdit[] = [];
  const key = (e: TextEdit) => `${e.span.start}:${e.span.end}:${e.newText}`;
  const seen = new Set<string>();
  for (const finding of findings) {
    const edits = finding.fix?.edits ?? [];
    const fresh = edits.filter((e) => !seen.has(key(e)));
    if (fresh.some((e) => chosen.some((c) => overlaps(c, e)))) continue;
    for (const e of fresh) {
      seen.add(key(e));
      chosen.push(e);
    }
  }
  return chosen.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}

/** `text` with `edits` applied; the edits' spans refer to the original text and must not overlap. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}
