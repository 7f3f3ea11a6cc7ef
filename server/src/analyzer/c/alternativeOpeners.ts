// Conditional alternatives that each open the same block, closed once by the code after them:
//
//   #ifdef HAVE_PSELECT
//   if (pselect(...) < 0) {
//   #elif !defined(WIN32)
//   if (select(...) < 0) {
//   #else
//   if (select(...) == SOCKET_ERROR) {
//   #endif
//       ...
//   } else {
//
// Each arm alone leaves a brace open, so the grammar can read the chain as no conditional and recovers
// with an ERROR that swallows the rest of the file: every write after it is lost. Read as the compiler
// sees it in one configuration (the first arm's: its directive line and the other arms blanked), the
// code parses whole. Only chains of two arms or more whose arms all leave the same nonzero count of
// braces open are touched: arms that balance parse as a conditional, which is read as one, and arms
// that differ are no alternatives of one opening.
import { blankedRanges, braceBalance } from './comments';
import { directiveLines } from './pairedConditionals';

/**
 * The conditional chains of `text` with an `#elif` or `#else` and no other directive inside: the
 * offsets of each directive line's start and end, the opening first and the `#endif` last.
 */
export function alternativeChains(text: string): (readonly [number, number])[][] {
  const chains: (readonly [number, number])[][] = [];
  let chain: (readonly [number, number])[] | undefined;
  for (const { keyword, start, end } of directiveLines(text)) {
    const line = [start, end] as const;
    if (/^if(?:n?def)?$/.test(keyword)) {
      chain = [line];
      continue;
    }
    if (chain && (keyword === 'elif' || keyword === 'else')) {
      chain.push(line);
      continue;
    }
    if (chain && keyword === 'endif' && chain.length >= 2) chains.push([...chain, line]);
    // An `#endif` ends the chain; any other directive (`#define`, a nested group...) leaves it alone.
    chain = undefined;
  }
  return chains;
}

/**
 * `text` with each chain of alternatives that all open the same blocks read in its first arm's
 * configuration: the opening directive line, and everything from the first `#elif` or `#else` to the
 * `#endif` line, blanked (spaces, the line ends kept). Other chains are left as they are.
 */
export function blankAlternativeOpeners(text: string): string {
  if (!text.includes('#el')) return text;
  const cuts: (readonly [number, number])[] = [];
  for (const chain of alternativeChains(text)) {
    const balances = chain.slice(0, -1).map((line, k) => braceBalance(text.slice(line[1], chain[k + 1]![0])));
    const first = balances[0]!;
    if (first === 0 || !balances.every((b) => b === first)) continue;
    cuts.push(...firstArmCuts(chain));
  }
  if (cuts.length === 0) return text;
  return blankedRanges(text, cuts);
}

/**
 * The ranges that read `chain` (of {@link alternativeChains}) in its first arm's configuration: the
 * opening directive line, and everything from the first `#elif` or `#else` to the `#endif` line.
 */
export function firstArmCuts(chain: readonly (readonly [number, number])[]): (readonly [number, number])[] {
  return [chain[0]!, [chain[1]![0], chain[chain.length - 1]![1]]];
}
