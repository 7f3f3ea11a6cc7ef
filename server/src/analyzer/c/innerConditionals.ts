// Conditional groups that sit inside one statement or expression rather than between statements:
//
//   if (sa == NULL ||                      } else if (*p == ' ') {        numbytes = send(fd, buf, n,
//   #ifdef HAVE_SA_LEN                         return;                     #if defined(MSG_NOSIGNAL)
//       sa->sa_len != sizeof(*sin6) ||     }                                   MSG_NOSIGNAL
//   #endif                                 #ifdef PLATFORM                 #else
//       sa->sa_family != AF_INET6)         else if (*p == '[') {               0
//       return;                                ...                         #endif
//                                          }                               );
//                                          #endif
//
// The grammar reads a conditional only where a statement or a declaration may stand, so such a group
// is an ERROR, and its recovery swallows the rest of the function, often the rest of the file: every
// write after it is lost. Read as the compiler sees it in one configuration (the first arm's, as the
// other readers of `#if` choose: its directive lines and the other arms blanked), the code parses whole.
// A group is taken as inside a statement when the code before it cannot end one (it ends in an
// operator, `(`, `,`, `else`, or the head of an `if`, `while`, `for` or `switch`), when an arm starts
// with what only continues one (`else`, `||`, `)`...), ends in what needs more (an operator, a bare
// `if (...)` head; not `else`, the split `else` sessionAlternatives.ts reads as the grammar parses it)
// or closes a block it did not open (`} else {`), or when the code after it continues one. Groups whose
// arms leave braces open are the paired readers' (pairedConditionals.ts, alternativeOpeners.ts), and
// `#if 0` holds text no compiler reads: both are left as they are.
import { knownEffects } from '../catalogue';
import { blankedKeepingLines, blankedRanges, LITERALS_AND_COMMENTS } from './comments';
import { firstArmCuts } from './alternativeOpeners';
import { conditionalGroups } from './conditionalGroups';
import { directiveLines } from './pairedConditionals';

/** A code line's end that needs more code after it (`||`, `(`, `,`, `=`, `?`...), or `else` and `do`. */
const NEEDS_MORE = /(?:[-(,=|&+*/%<>!?^[~]|\belse|\bdo)$/;

/** An arm's start, or the code's after a group, that only continues a statement. */
const CONTINUES = /^(?:else\b|\|\||&&|[|)\],?:^]|==|!=|<|>|\/[^*/])/;

/** A statement head before its parenthesized condition: the line the closing `)` before a group ends. */
const HEAD_LINE = /^[ \t]*(?:\}[ \t]*)?(?:else[ \t]+)?(?:if|while|for|switch)[ \t]*\(/;

/**
 * `text` with literals kept as quotes of the same length, comments and directive lines (with their
 * continued lines) blanked: the code the grammar reads, every offset and line where it was.
 */
function codeOnly(text: string): string {
  const bare = text.replace(LITERALS_AND_COMMENTS, (m) =>
    m.startsWith('/') ? blankedKeepingLines(m) : `"${' '.repeat(m.length - 2)}"`,
  );
  const directives: [number, number][] = [];
  for (const { start, end } of directiveLines(text)) {
    // A directive line ending in a backslash goes on in the next line (`end` is before its line end),
    // also where the backslash ends a line of a comment: lines are joined before comments are read.
    let to = end;
    while (text[to - 1] === '\\') {
      const newline = text.indexOf('\n', to);
      if (newline < 0) break;
      const next = text.indexOf('\n', newline + 1);
      to = next < 0 ? text.length : text[next - 1] === '\r' ? next - 1 : next;
    }
    const last = directives[directives.length - 1];
    if (last && start < last[1]) continue;
    directives.push([start, to]);
  }
  return blankedRanges(bare, directives);
}

/** A conditional group (see {@link ConditionalGroup}), and whether it is an `#if 0`. */
interface Chain {
  readonly lines: readonly (readonly [number, number])[];
  readonly zero: boolean;
  /** Whether an `#else` ends the alternatives: without one, some configuration compiles no arm. */
  readonly complete: boolean;
}

/** The conditional groups of `text` at any depth, in the order they open. */
function chains(text: string): Chain[] {
  return conditionalGroups(text).map(({ keyword, rest, lines, complete }) => ({
    lines,
    zero: keyword === 'if' && /^\s*0\b/.test(rest),
    complete,
  }));
}

/** The offset of the last character of `code` in [`from`, `to`) that is no blank, or -1. */
function lastCode(code: string, from: number, to: number): number {
  let k = to - 1;
  while (k >= from && code.charCodeAt(k) <= 32) k--;
  return k >= from ? k : -1;
}

/** The offset of the first character of `code` in [`from`, `to`) that is no blank, or -1. */
function firstCode(code: string, from: number, to: number): number {
  let k = from;
  while (k < to && code.charCodeAt(k) <= 32) k++;
  return k < to ? k : -1;
}

/**
 * Whether the code of `code` that ends at `end` (its last character) needs more after it: an operator,
 * `(`, `,`, `else`, `do`, or a bare statement head (`if (x)`) ending its line.
 */
function needsMore(code: string, end: number): boolean {
  if (NEEDS_MORE.test(code.slice(Math.max(0, end - 7), end + 1))) return true;
  return code[end] === ')' && HEAD_LINE.test(code.slice(code.lastIndexOf('\n', end) + 1, end + 1));
}

/** Whether the code of `code` that starts at `start` only continues a statement. */
function continues(code: string, start: number): boolean {
  return CONTINUES.test(code.slice(start, start + 6));
}

/** The longest arm {@link closesFirst} reads: longer ones are a header's guard or a file's half. */
const LONGEST_ARM = 50_000;

/**
 * Whether the code of `code` from `start` to `end` closes a block it did not open (`} else {`,
 * `continue; } else if (x) {`, `return n; } int g(void) {`): it ends a statement it did not start.
 */
function closesFirst(code: string, start: number, end: number): boolean {
  if (end - start > LONGEST_ARM) return false;
  let depth = 0;
  let open = code.indexOf('{', start);
  let close = code.indexOf('}', start);
  while (close >= 0 && close <= end) {
    if (open >= 0 && open < close) {
      depth++;
      open = code.indexOf('{', open + 1);
      continue;
    }
    if (--depth < 0) return true;
    close = code.indexOf('}', close + 1);
  }
  return false;
}

/** Whether the code of `chain` (in `code`, from {@link codeOnly}) sits inside one statement. */
function inside(code: string, chain: Chain): boolean {
  const { lines } = chain;
  const before = lastCode(code, 0, lines[0]![0]);
  if (before >= 0 && needsMore(code, before)) return true;
  for (let k = 0; k + 1 < lines.length; k++) {
    const start = firstCode(code, lines[k]![1], lines[k + 1]![0]);
    if (start < 0) continue;
    const end = lastCode(code, start, lines[k + 1]![0]);
    // An arm ending in `else` is the split `else` the grammar reads alone (sessionAlternatives.ts's
    // splitElse), the rest of the body read right: left as it is.
    if (/(?:^|\W)else$/.test(code.slice(Math.max(0, end - 4), end + 1))) continue;
    if (continues(code, start) || needsMore(code, end) || closesFirst(code, start, end)) return true;
  }
  const after = lines[lines.length - 1]![1];
  const next = firstCode(code, after, Math.min(code.length, after + 200));
  return next >= 0 && continues(code, next);
}

/** Words a `(` follows that call nothing: C's statements and operators, the preprocessor's `defined`. */
const NOT_CALLS: ReadonlySet<string> = new Set(
  'if while for switch return sizeof _Alignof alignof typeof __typeof__ defined do else case'.split(' '),
);

/** A call in code from {@link codeOnly}: its name, and its first argument when that is one plain term. */
const CALL = /\b([A-Za-z_]\w*)\s*\(\s*([^,()]*)/g;

/**
 * The calls of `code` that do more than compute by their name (writes, reads, waits, logging, opening
 * or closing a descriptor: see knownEffects), in order, each as its name and first argument
 * (`write(fd`), blanks dropped. A call of one of the project's own functions is not among them: read
 * only by name, `parse_option(p)` would refuse every option an `#ifdef` adds to a parser.
 */
function effects(code: string): string {
  const found: string[] = [];
  for (const m of code.matchAll(CALL)) {
    if (!NOT_CALLS.has(m[1]!) && knownEffects(m[1]!)) found.push(`${m[1]}(${m[2]!.replace(/\s+/g, '')}`);
  }
  return found.join(' ');
}

/** The socket types `code` names (`SOCK_DGRAM`, `SOCK_STREAM`...), each once, in order of name. */
function socketTypes(code: string): string {
  return [...new Set(code.match(/\bSOCK_[A-Z]+\b/g) ?? [])].sort().join(' ');
}

/**
 * Whether the configurations of `chain` (in `code`, from {@link codeOnly}) read alike for the writes
 * around it, so that what is found in its first arm's is found in each: its arms, and the empty one a
 * group without `#else` has, make the same calls with effects on the same first arguments and name the
 * same socket types, and, where the group is a call's first argument or an assigned value, hold the
 * same code. An arm that alone reads a reply, waits, writes, or picks another descriptor or a datagram
 * socket would make a run of one configuration look like the program's; such a group is left as it is.
 */
function alike(code: string, chain: Chain): boolean {
  const { lines } = chain;
  const arms = lines.slice(0, -1).map((line, k) => code.slice(line[1], lines[k + 1]![0]));
  if (!chain.complete) arms.push('');
  const [first, ...others] = arms.map((arm) => ({
    effects: effects(arm),
    sockets: socketTypes(arm),
    bare: arm.replace(/\s+/g, ''),
  }));
  if (others.some((arm) => arm.effects !== first!.effects || arm.sockets !== first!.sockets)) return false;
  const before = lastCode(code, 0, lines[0]![0]);
  if (before < 0) return true;
  const word = /([A-Za-z_]\w*)\s*$/.exec(code.slice(Math.max(0, before - 64), before));
  const valued = code[before] === '=' || (code[before] === '(' && word !== null && !NOT_CALLS.has(word[1]!));
  return !valued || others.every((arm) => arm.bare === first!.bare);
}

/** Opening braces less closing ones in `code` (from {@link codeOnly}: no literal or comment holds one). */
function braces(code: string): number {
  let balance = 0;
  for (let i = code.indexOf('{'); i >= 0; i = code.indexOf('{', i + 1)) balance++;
  for (let i = code.indexOf('}'); i >= 0; i = code.indexOf('}', i + 1)) balance--;
  return balance;
}

/**
 * `text` with each conditional group that sits inside one statement or expression read in its first
 * arm's configuration (see {@link firstArmCuts}): the same length and lines. A group inside an arm
 * blanked so is blanked with it; other groups are left as they are.
 */
export function blankInnerConditionals(text: string): string {
  if (!text.includes('#if')) return text;
  const all = chains(text);
  if (all.length === 0) return text;
  const code = codeOnly(text);
  const cuts: (readonly [number, number])[] = [];
  // The arms blanked so far: a group inside one is gone with it; one inside a kept arm is read alone.
  const gone: (readonly [number, number])[] = [];
  for (const chain of all) {
    const { lines } = chain;
    const at = lines[0]![0];
    if (chain.zero || gone.some(([from, to]) => from <= at && at < to) || !inside(code, chain)) continue;
    if (!alike(code, chain)) continue;
    if (lines.slice(0, -1).some((line, k) => braces(code.slice(line[1], lines[k + 1]![0])) !== 0)) continue;
    const [opening, rest] = firstArmCuts(lines) as [readonly [number, number], readonly [number, number]];
    cuts.push(opening, rest);
    gone.push(rest);
  }
  return cuts.length === 0
    ? text
    : blankedRanges(
        text,
        cuts.sort((a, b) => a[0] - b[0]),
      );
}
