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
import { lineMatches } from './lineMatches';

/** A directive line: its keyword (group 1) and the rest of the line (group 2). */
export const DIRECTIVE = /^[ \t]*#[ \t]*(\w+)(.*)$/gm;

/** {@link DIRECTIVE} read where a line starts (sticky), for {@link lineMatches}. */
const DIRECTIVE_HERE = new RegExp(DIRECTIVE.source, 'my');

/** A directive line of {@link directiveLines}: its keyword, the rest of it, its offsets. */
export interface DirectiveLine {
  readonly keyword: string;
  readonly rest: string;
  readonly start: number;
  readonly end: number;
}

/** The text {@link directiveLines} last read, and its lines. */
let lastText: string | undefined;
let lastLines: readonly DirectiveLine[] = [];

/**
 * The directive lines of `text`, as a global search for {@link DIRECTIVE} finds them. The readers of
 * conditional groups (this file's, nestedPairedConditionals.ts, alternativeOpeners.ts) run one after
 * the other on a text that most often none of them changes: the lines of the last text read are kept,
 * so the three share one search, tried only at the lines holding a `#`.
 */
export function directiveLines(text: string): readonly DirectiveLine[] {
  if (text !== lastText) {
    lastLines = lineMatches(text, '#', DIRECTIVE_HERE).map((m) => ({
      keyword: m[1]!,
      rest: m[2]!,
      start: m.index,
      end: m.index + m[0].length,
    }));
    lastText = text;
  }
  return lastLines;
}

/** A conditional group with no other directive inside: its opening and closing lines, by offset. */
export interface Group {
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
  for (const { keyword, rest, start, end } of directiveLines(text)) {
    if (/^if(?:n?def)?$/.test(keyword)) {
      opening = { condition: `#${keyword} ${rest.replace(/\/\*.*?\*\/|\/\/.*$/g, '').trim()}`, start, end };
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
  return blankedPairs(text, groups);
}

/**
 * `text` with the directive lines of the pairs among `groups` (in the order of their openings)
 * blanked: each group that closes `n` blocks takes the nearest earlier open group with the same
 * opening directive that leaves `n` open, and the two are blanked when `accept` takes them (a pair it
 * refuses is taken all the same, so neither group pairs with another).
 */
export function blankedPairs<G extends Group>(
  text: string,
  groups: readonly G[],
  accept: (opener: G, closer: G) => boolean = () => true,
): string {
  const open: G[] = [];
  const paired: G[] = [];
  for (const group of groups) {
    if (group.balance > 0) {
      open.push(group);
      continue;
    }
    if (group.balance === 0) continue;
    let k = open.length - 1;
    while (k >= 0 && !(open[k]!.condition === group.condition && open[k]!.balance === -group.balance)) k--;
    if (k < 0) continue;
    const opener = open[k]!;
    open.splice(k, 1);
    if (accept(opener, group)) paired.push(opener, group);
  }
  if (paired.length === 0) return text;
  const lines = paired.flatMap((g) => [g.open, g.close]).sort((a, b) => a[0] - b[0]);
  return blankedRanges(text, lines);
}
