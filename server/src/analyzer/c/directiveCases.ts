// Whole cases of a `switch` under `#if`: platform- or feature-specific cases are often kept in a
// conditional group, label and statements together:
//
//   switch (type) {
//   #if defined(__x86_64__)
//   case R_X86_64_COPY:
//     if (!y) { put("symbol lookup failed: "); put(name); put("\n"); exit(1); }
//     ...
//   #else
//   #error add relocation types for your platform
//   #endif
//   }
//
// Such a switch is no branch the joiners can read (switchCases.ts gives up on a group mixing labels
// with statements), so it stays a barrier; but the runs inside each case are still runs, found in the
// case's own block as for the switch's other cases. The cases a configuration compiles are those of
// every group but one that never compiles (`#if 0`, or after `#if 1` its `#elif`/`#else`), as for
// statements under `#if` (see the preprocessor branch in steps.ts).
import type { Node } from 'web-tree-sitter';
import { constantCondition, namedKids } from './syntax';

const GROUPS = new Set(['preproc_if', 'preproc_ifdef']);

/**
 * The `case` statements under the conditional group `group` (a `#if`/`#ifdef` standing in a switch's
 * body), in source order, nested groups included, leaving out the groups no configuration compiles.
 * Empty when `group` is no conditional group.
 */
export function directiveCases(group: Node): Node[] {
  if (!GROUPS.has(group.type)) return [];
  const found: Node[] = [];
  let taken = false;
  for (let at: Node | null = group; at;) {
    const alternative: Node | null = at.childForFieldName('alternative');
    const value =
      at.type === 'preproc_ifdef' ? undefined : constantCondition(at.childForFieldName('condition'));
    const dead = taken || value === 0;
    if (value !== undefined && value !== 0) taken = true;
    if (!dead) {
      for (const kid of namedKids(at)) {
        if (alternative?.equals(kid)) continue;
        if (kid.type === 'case_statement') found.push(kid);
        else found.push(...directiveCases(kid));
      }
    }
    at = alternative;
  }
  return found;
}
