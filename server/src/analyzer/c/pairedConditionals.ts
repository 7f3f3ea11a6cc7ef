// Conditional groups that open a block another group closes: an optional branch written as
//
//   #ifdef FEATURE              ...       #ifdef FEATURE
//   if (x) { ... } else {                  }
//   #endif                                 #endif
//
// so that the code between the groups is the else arm when FEATURE is defined and plain code when it
// is not. Each group alone holds an unbalanced brace, so the grammar can read neither as a conditional
// and recovers with an ERROR that swallows the rest of the function: every write after it is lost.
// Read as if the condition held (both groups' directive lines blanked), the function parses whole and
// its code is what the compiler sees in that configuration; read as if it did not, the braces balance
// too but the guarded writes vanish. Only groups whose braces do not balance are touched: a group that
// balances parses as a conditional, which is read as one.
import { blankedRanges, braceBalance } from './comments';

/** A directive line: its keyword (group 1) and the rest of the line (group 2). */
export const DIRECTIVE = /^[ \t]*#[ \t]*(\w+)(.*)$/gm;

/** A conditional group with no other directive inside: its opening and closing lines, by offset. */
interface Group {
  /** The opening directive, whitespace collapsed (`#ifdef FEATURE`). */
  readonly condition: string;
  /** Offsets of the opening line's start and end, and of the `#endif` line's. */
  readonly open: readonly [number, number];
  readonly close: readonly [number, number];
  /** Opening braces less closing ones between the two lines, literals and comments left out. */
  readonly balance: number;
}

/** The groups of `text` that hold no other directive (`#if`, `#ifdef` or `#ifndef` to `#endif`). */
function plainGroups(text: string): Group[] {
  const groups: Group[] = [];
  let opening: { condition: string; start: number; end: number } | undefined;
  for (const m of text.matchAll(DIRECTIVE)) {
    const keyword = m[1]!;
    const start = m.index;
    const end = start + m[0].length;
    if (/^if(?:n?def)?$/.test(keyword)) {
      opening = { condition: `#${keyword} ${m[2]!.replace(/\/\*.*?\*\/|\/\/.*$/g, '').trim()}`, start, end };
      continue;
    }
    if (keyword === 'endif' && opening) {
      groups.push({
        condition: opening.condition.replace(/\s+/g, ' '),
        open: [opening.start, opening.end],
        close: [start, end],
        balance: braceBalance(text.slice(opening.end, start)),
      });
    }
    // Any other directive (`#else`, `#elif`, `#define`...) or an `#endif` of a group not ours.
    opening = undefined;
  }
  return groups;
}

/**
 * `text` with the directive lines of each pair of conditional groups that open and close one block
 * blanked (spaces, the line ends kept): a group whose braces leave `n` blocks open and a later group
 * with the same opening directive that closes `n`, the nearest such. Groups that balance, or find no
 * partner, are left as they are.
 */
export function blankPairedConditionals(text: string): string {
  if (!text.includes('#if')) return text;
  const groups = plainGroups(text);
  if (!groups.some((g) => g.balance !== 0)) return text;
  const open: Group[] = [];
  const paired: Group[] = [];
  for (const group of groups) {
    if (group.balance > 0) {
      open.push(group);
      continue;
    }
    if (group.balance === 0) continue;
    let k = open.length - 1;
    while (k >= 0 && !(open[k]!.condition === group.condition && open[k]!.balance === -group.balance)) k--;
    if (k < 0) continue;
    paired.push(open[k]!, group);
    open.splice(k, 1);
  }
  if (paired.length === 0) return text;
  const lines = paired.flatMap((g) => [g.open, g.close]).sort((a, b) => a[0] - b[0]);
  return blankedRanges(text, lines);
}
