// Conditional alternatives that each hold the head of the same statement, its body after the chain:
//
//   #ifdef _WIN32
//   if (WSAGetLastError() != WSAEWOULDBLOCK)
//   #else
//   if (errno != EWOULDBLOCK)
//   #endif
//   {
//       ...
//   }
//
// An arm alone is an `if` with no statement, so the grammar reads each as an ERROR, and the function
// holding the chain (a send helper, most often: the error codes differ by platform) is never read.
// Read as the compiler sees it in one configuration (the first arm's: its directive line and the other
// arms blanked), the function parses whole. Only chains whose every arm is one bare head of the same
// keyword (`if (...)`, `while (...)`, `for (...)`, `switch (...)`, nothing after its parenthesis) are
// touched: arms holding whole statements parse as a conditional, which is read as one.
import { blankedRanges, LITERALS_AND_COMMENTS } from './comments';
import { alternativeChains, firstArmCuts } from './alternativeOpeners';

/** A statement head's keyword (group 1) and its opening parenthesis, at the start of an arm. */
const HEAD = /^\s*(?:else\s+)?(if|while|for|switch)\s*\(/;

/**
 * The keyword of `arm` when it is one statement head and nothing else (its parenthesis closed at the
 * end, past comments and literals), or undefined.
 */
function bareHead(arm: string): string | undefined {
  const code = arm.replace(LITERALS_AND_COMMENTS, (m) => (m.startsWith('/') ? ' ' : '""'));
  const head = HEAD.exec(code);
  if (!head) return undefined;
  let depth = 0;
  for (let k = head[0].length - 1; k < code.length; k++) {
    const c = code[k];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return code.slice(k + 1).trim() === '' ? head[1] : undefined;
  }
  return undefined;
}

/**
 * `text` with each chain of alternatives that all hold the head of the same statement read in its
 * first arm's configuration (see {@link firstArmCuts}). Other chains are left as they are.
 */
export function blankAlternativeHeads(text: string): string {
  if (!text.includes('#el')) return text;
  const cuts: (readonly [number, number])[] = [];
  for (const chain of alternativeChains(text)) {
    const heads = chain.slice(0, -1).map((line, k) => bareHead(text.slice(line[1], chain[k + 1]![0])));
    const first = heads[0];
    if (first === undefined || !heads.every((h) => h === first)) continue;
    cuts.push(...firstArmCuts(chain));
  }
  return cuts.length === 0 ? text : blankedRanges(text, cuts);
}
