// Conditional groups that open a block another group closes (as in pairedConditionals.ts), where the
// closing group holds conditionals of its own:
//
//   #ifdef FEATURE                         #ifdef FEATURE
//   if (!session) {                        } else {
//   #endif                                 #ifdef PLATFORM
//       return write(fd, buf, n);              ...
//                                          #else
//                                              ...
//                                          #endif
//                                          }
//                                          #endif
//
// pairedConditionals.ts pairs only groups with no directive inside, so such a pair stays unbalanced and
// the grammar recovers with an ERROR over the function: its writes are lost, and the function is never
// read as a writer. The inner conditionals are left as they are when every arm of them balances its
// braces (they then parse as conditionals): the outer group's count of open braces is then the same in
// every configuration, and the pair's two directive lines are blanked as pairedConditionals blanks them.
import { braceBalance } from './comments';
import { conditionalGroups } from './conditionalGroups';
import { blankedPairs, type Group as PlainGroup } from './pairedConditionals';

/** A conditional group with no `#elif` or `#else` of its own, whose inner conditionals all balance. */
interface Group extends PlainGroup {
  /** Whether it holds another conditional (the groups pairedConditionals.ts does not read). */
  readonly nested: boolean;
}

/** The groups of `text` that {@link Group} describes, at any depth. */
function groups(text: string): Group[] {
  const all = conditionalGroups(text);
  const arms = all.map(({ lines }) =>
    lines.slice(0, -1).map((line, k) => [line[1], lines[k + 1]![0]] as const),
  );
  const balances = arms.map((each) => each.map(([from, to]) => braceBalance(text.slice(from, to))));
  const nested = all.map(() => false);
  // Whether a conditional inside the group has an arm that leaves braces open or closes some: read
  // from the last group back, so each group's inner ones are known before it.
  const unbalancedInside = all.map(() => false);
  for (let k = all.length - 1; k >= 0; k--) {
    const parent = all[k]!.parent;
    if (parent === undefined) continue;
    nested[parent] = true;
    if (unbalancedInside[k] || balances[k]!.some((b) => b !== 0)) unbalancedInside[parent] = true;
  }
  const found: Group[] = [];
  all.forEach(({ keyword, rest, lines }, k) => {
    if (lines.length > 2 || unbalancedInside[k]) return;
    const condition = `#${keyword} ${rest.replace(/\/\*.*?\*\/|\/\/.*$/g, '').trim()}`;
    found.push({
      condition: condition.replace(/\s+/g, ' '),
      open: lines[0]!,
      close: lines[1]!,
      balance: balances[k]![0]!,
      nested: nested[k]!,
    });
  });
  return found;
}

/**
 * `text` with the directive lines of each pair of conditional groups that open and close one block
 * blanked (spaces, the line ends kept) when one of the two holds conditionals of its own that all
 * balance: a group that leaves `n` blocks open and a later group with the same opening directive that
 * closes `n`, the nearest such. Pairs of groups with no directive inside are pairedConditionals.ts's.
 */
export function blankNestedPairedConditionals(text: string): string {
  if (!text.includes('#if')) return text;
  const all = groups(text);
  if (!all.some((g) => g.nested && g.balance !== 0)) return text;
  // Only a pair with a nested group is this rule's, and only one that does not overlap the other.
  return blankedPairs(
    text,
    [...all].sort((a, b) => a.open[0] - b.open[0]),
    (opener, closer) => (opener.nested || closer.nested) && opener.close[1] <= closer.open[0],
  );
}
