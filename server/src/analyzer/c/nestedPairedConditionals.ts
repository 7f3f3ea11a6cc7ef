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
import { blankedPairs, directiveLines, type Group as PlainGroup } from './pairedConditionals';

/** A conditional group with no `#elif` or `#else` of its own, whose inner conditionals all balance. */
interface Group extends PlainGroup {
  /** Whether it holds another conditional (the groups pairedConditionals.ts does not read). */
  readonly nested: boolean;
}

/** An open conditional while the directives are walked. */
interface Open {
  readonly condition: string;
  readonly open: readonly [number, number];
  /** The offsets where each of its arms starts (after its directive line) and ends. */
  readonly arms: [number, number][];
  /** Whether it has an `#elif` or `#else`. */
  alternatives: boolean;
  /** Whether a conditional inside it has an arm that leaves braces open or closes some. */
  unbalancedInside: boolean;
  nested: boolean;
}

/** The groups of `text` that {@link Group} describes, at any depth, in the order they end. */
function groups(text: string): Group[] {
  const found: Group[] = [];
  const stack: Open[] = [];
  for (const { keyword, rest, start, end } of directiveLines(text)) {
    const line = [start, end] as const;
    const top = stack[stack.length - 1];
    if (/^if(?:n?def)?$/.test(keyword)) {
      if (top) top.nested = true;
      const condition = `#${keyword} ${rest.replace(/\/\*.*?\*\/|\/\/.*$/g, '').trim()}`;
      stack.push({
        condition: condition.replace(/\s+/g, ' '),
        open: line,
        arms: [[line[1], line[1]]],
        alternatives: false,
        unbalancedInside: false,
        nested: false,
      });
      continue;
    }
    if (!top) continue;
    if (keyword === 'elif' || keyword === 'else') {
      top.arms[top.arms.length - 1]![1] = line[0];
      top.arms.push([line[1], line[1]]);
      top.alternatives = true;
      continue;
    }
    if (keyword !== 'endif') continue;
    stack.pop();
    top.arms[top.arms.length - 1]![1] = line[0];
    const balances = top.arms.map(([from, to]) => braceBalance(text.slice(from, to)));
    const parent = stack[stack.length - 1];
    if (parent && (top.unbalancedInside || balances.some((b) => b !== 0))) parent.unbalancedInside = true;
    if (top.alternatives || top.unbalancedInside) continue;
    found.push({
      condition: top.condition,
      open: top.open,
      close: line,
      balance: balances[0]!,
      nested: top.nested,
    });
  }
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
