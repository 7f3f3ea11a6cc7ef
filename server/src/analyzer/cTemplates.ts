// What the C front end (c/) and the C fix builder (fixes/cFix.ts) agree on about a write statement: the
// front end records each statement's template and family, the fix builder fills the template with one
// gathered call. Both read them here, so neither folder needs the other.
import { C_FAMILY_STRICTNESS, C_RESULT_DISCARDERS } from './catalogue';
import type { Template } from './model';

/** Stands for the byte count in a `!= len` check; a fix puts the sum of the lengths there. */
export const LENGTH_MARK = '\u0000length\u0000';

/**
 * A template of a bare statement: the call and its semicolon, its result at most discarded
 * (`(void)`, `(void)!`, `ignore_result(...)`).
 */
export function isBare(t: Template): boolean {
  const before = t.before
    .replace(/\(\s*void\s*\)/, '')
    .replace(/!/, '')
    .trim();
  const after = t.after.trim();
  if (before === '') return after === ';';
  const wrap = /^(\w+)\s*\($/.exec(before);
  return !!wrap && C_RESULT_DISCARDERS.has(wrap[1]!) && /^\)\s*;$/.test(after);
}

/** The strictest of the families (die over report over retry over plain), or undefined if unranked. */
export function strictest(families: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const f of families) {
    const rank = C_FAMILY_STRICTNESS[f];
    if (rank === undefined) return families.every((g) => g === f) ? f : undefined;
    if (best === undefined || rank > (C_FAMILY_STRICTNESS[best] ?? 0)) best = f;
  }
  return best;
}
