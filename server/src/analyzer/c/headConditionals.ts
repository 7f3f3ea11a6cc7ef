// Definitions whose head holds conditional groups: a return type or a parameter chosen by `#ifdef`,
// or a header given twice (ANSI and K&R) with a comment between the `#endif` and the body:
//
//   static                            VOID
//   #ifdef WITH_THREADS               #ifdef __STDC__
//   long                              report(int fd, char *s)
//   #else                             #else
//   void                              report(fd, s) int fd; char *s;
//   #endif                            #endif
//   reader (                          /* report */ {
//   #ifdef WITH_THREADS
//          void *arg
//   #endif
//          ) {
//
// Old portable C writes heads like this. The grammar reads a conditional group only where a whole
// item may stand, so the head is cut into declarations missing their `;` and the body is a block of
// no function: nothing in it is read. splitHeaders.ts reads a header written whole in each group
// with its body right after the `#endif`; these are the rest. Read as one configuration compiles it
// (each group's first arm, as the other `#if` readers choose: its directive lines and the other arms
// blanked), the head is one declarator and its body, and the function parses.
import { blankedKeepingLines, blankedRanges, LITERALS_AND_COMMENTS } from './comments';
import { directiveLines } from './pairedConditionals';

/** A conditional: its directive lines' offsets at its own level, the opening first and the `#endif` last. */
type Chain = readonly (readonly [number, number])[];

/** A text's conditionals by their opening's start, and those starts in order. */
interface Conditionals {
  readonly byOpening: ReadonlyMap<number, Chain>;
  readonly openings: readonly number[];
}

/** The conditionals of `text` (one arm or more, nested ones too). */
function conditionals(text: string): Conditionals {
  const found: [number, Chain][] = [];
  const open: [number, number][][] = [];
  for (const { keyword, start, end } of directiveLines(text)) {
    if (/^if(?:n?def)?$/.test(keyword)) open.push([[start, end]]);
    else if (open.length > 0 && (keyword === 'elif' || keyword === 'else'))
      open[open.length - 1]!.push([start, end]);
    else if (open.length > 0 && keyword === 'endif') {
      const chain = open.pop()!;
      chain.push([start, end]);
      found.push([chain[0]![0], chain]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  return { byOpening: new Map(found), openings: found.map((f) => f[0]) };
}

/** The first of `sorted` at or after `at` (binary search), or undefined. */
function firstAfter(sorted: readonly number[], at: number): number | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < at) low = mid + 1;
    else high = mid;
  }
  return sorted[low];
}

/**
 * The ranges that read `chain` as its first arm: the opening line, then the rest from the next
 * directive; and so for the conditionals nested in that arm.
 */
function firstArm(chain: Chain, chains: Conditionals): [number, number][] {
  const cuts: [number, number][] = [
    [chain[0]![0], chain[0]![1]],
    [chain[1]![0], chain[chain.length - 1]![1]],
  ];
  // The conditionals opening inside the first arm, each once (those nested in them are its own).
  let at = chain[0]![1];
  for (;;) {
    const opening = firstAfter(chains.openings, at);
    if (opening === undefined || opening >= chain[1]![0]) break;
    const inner = chains.byOpening.get(opening)!;
    cuts.push(...firstArm(inner, chains));
    at = inner[inner.length - 1]![1];
  }
  return cuts;
}

/** Words that open a statement or stand in an expression: a text holding one is no head. */
const NOT_HEAD =
  /\b(?:if|while|for|switch|return|else|do|case|goto|sizeof|typedef|struct\s+\w+\s*\{|enum\s*\{)\b/;

/**
 * A definition's head and its `{`, in code with comments and literals blanked: type words and `*`s,
 * the name, then an ANSI parameter list (nested parentheses one deep) or a K&R name list and its
 * declarations.
 */
const HEAD =
  /^\s*(?:[A-Za-z_]\w*[\s*]+)*[A-Za-z_]\w*\s*(?:\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)|\(\s*(?:[A-Za-z_]\w*\s*(?:,\s*[A-Za-z_]\w*\s*)*)?\)\s*(?:[^;{}()]+;\s*)+)\s*\{$/;

/** How far past a conditional its head's `{` may stand. */
const REACH = 2000;

/**
 * `text` with each conditional that stands inside a definition's head (see the file comment) read as
 * its first arm, together with the other conditionals of the same head: only where the head so read
 * is one declarator followed by its body. Offsets and lines stay those of `text`.
 */
export function blankHeadConditionals(text: string): string {
  if (!text.includes('#')) return text;
  const chains = conditionals(text);
  if (chains.openings.length === 0) return text;
  const code = text.replace(LITERALS_AND_COMMENTS, (m) => blankedKeepingLines(m));
  const directives = directiveLines(text);
  const cuts: [number, number][] = [];
  let done = 0;
  for (const opening of chains.openings) {
    const chain = chains.byOpening.get(opening)!;
    if (opening < done) continue;
    // Back over the head's lines above the conditional (its type, or its name and the parameters
    // before the group): words, `*`s, parentheses and commas only, no blank line.
    let start = opening;
    for (;;) {
      const lineStart = code.lastIndexOf('\n', start - 2) + 1;
      if (start === 0 || !/^[ \t]*[A-Za-z_][\w \t*(),[\]]*\r?\n$/.test(code.slice(lineStart, start))) break;
      start = lineStart;
    }
    // On to the body's `{`, taking in the conditionals met on the way.
    const mine: [number, number][] = firstArm(chain, chains);
    const spans: [number, number][] = [[opening, chain[chain.length - 1]![1]]];
    let at = chain[chain.length - 1]![1];
    let brace = -1;
    let k = directives.findIndex((d) => d.start >= at);
    while (at - opening < REACH) {
      const next = directives[k]?.start ?? Infinity;
      const stop = /[;{}]/.exec(code.slice(at, Math.min(next, opening + REACH)));
      if (stop) {
        if (stop[0] === '{') brace = at + stop.index;
        break;
      }
      const more = chains.byOpening.get(next);
      if (!more) break;
      mine.push(...firstArm(more, chains));
      spans.push([next, more[more.length - 1]![1]]);
      at = more[more.length - 1]![1];
      while (directives[k] && directives[k]!.start < at) k++;
    }
    if (brace < 0) continue;
    const head = blankedRanges(
      code.slice(start, brace + 1),
      mine.map(([a, b]) => [a - start, b - start]),
    );
    if (NOT_HEAD.test(head) || !HEAD.test(head)) continue;
    // The name's parameter list outside every group: the groups choose parts of one head. A whole
    // header in each group is splitHeaders.ts's reading (and a K&R one beside it, the compiler's other).
    const list = start + head.indexOf('(');
    if (spans.some(([a, b]) => list >= a && list < b)) continue;
    cuts.push(...mine);
    done = brace;
  }
  return cuts.length === 0 ? text : blankedRanges(text, cuts);
}
