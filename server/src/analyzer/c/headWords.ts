// Words in a definition's head that C cannot hold there: a macro the file's headers define away or as
// an attribute, before the name or after a parameter's name:
//
//   int FAST_CALL read_byte(void)                      static NOINLINE uint32_t now(void)
//   COLD_PATH                                          void copy(int fd, void *ctx UNUSED)
//   static void report(int fd, const char *fmt, ...)   {
//   {
//
// The grammar reads the word before the name as the declarator of a declaration missing its `;`, then
// the name and its parameters as a call or a definition of another name, and the body is never read as
// the function's. A C declaration's specifiers hold at most one type name that is not a keyword (none
// beside `int`, `char`, `struct x`...), nothing but qualifiers after a `*`, and a parameter ends with
// its declarator's name; a word beyond that can only be a macro of this kind. Blanked (spaces of the
// same length), the head reads as the compiler sees it once the macro is expanded to nothing; of two
// candidate type names the last stays, as a type name stands right before the declarator. A macro call
// standing on its own in the head (`FORMAT_ATTR(printf, 2, 3)` on the line above) is blanked too.
import { blankedRanges } from './comments';
import { changedLines } from './textChanges';

/** C's keywords (and GCC's spellings) that may stand in a declaration's specifiers. */
const SPECIFIERS: ReadonlySet<string> = new Set(
  (
    'static extern auto register inline __inline __inline__ _Noreturn const volatile restrict __restrict ' +
    '__restrict__ __const __volatile__ __extension__ _Thread_local __thread _Atomic'
  ).split(' '),
);

/** Keywords that are (part of) a type. */
const TYPE_KEYWORDS: ReadonlySet<string> = new Set(
  'void char short int long float double signed unsigned _Bool _Complex __int128 __signed__'.split(' '),
);

/** Keywords that take a tag after them. */
const TAGGED: ReadonlySet<string> = new Set(['struct', 'union', 'enum']);

/** Calls that are C's (or a compiler's) own in a head: never a macro to blank. */
const OWN_CALLS: ReadonlySet<string> = new Set(
  '__attribute__ __attribute __declspec _Alignas alignas __typeof__ typeof __asm__ __asm asm'.split(' '),
);

/** Words that show the text is a statement or an expression, not a head. */
const NOT_HEAD: ReadonlySet<string> = new Set(
  (
    'if while for switch return else do case default goto sizeof typedef break continue _Static_assert ' +
    'static_assert _Generic'
  ).split(' '),
);

/** One token of a head's prefix. */
interface Token {
  readonly kind: 'word' | 'star' | 'call';
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** The end of the parenthesis opening at `open`, or -1 when it does not close before `limit`. */
function closing(text: string, open: number, limit: number): number {
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return i + 1;
    else if (c === 59 || c === 123 || c === 125) return -1; // ; { }
  }
  return -1;
}

/** The opening `(` of the parenthesis that closes at `close` (a `)`), or -1. */
function opening(text: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0 && close - i < 4000; i--) {
    const c = text.charCodeAt(i);
    if (c === 41) depth++;
    else if (c === 40 && --depth === 0) return i;
    else if (c === 59 || c === 123 || c === 125) return -1;
  }
  return -1;
}

/** Identifier characters: letters, digits, `_` (`\w`). */
function isWordCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95
  );
}

/** How far back a word before a name or a parenthesis is looked for. */
const WORD_REACH = 80;

/**
 * Where the identifier (`[A-Za-z_]\w*`) ending at `end` starts, looking back no further than `limit`
 * ({@link WORD_REACH} characters), or -1 when none ends there. What `/[A-Za-z_]\w*$/` finds in the text
 * of that reach, read backwards: each head's words were a regular expression's scan of 80 characters,
 * at every keystroke, for every definition of the file.
 */
function wordStartBefore(text: string, end: number, limit = Math.max(0, end - WORD_REACH)): number {
  let start = end;
  while (start > limit && isWordCode(text.charCodeAt(start - 1))) start--;
  // The word starts at its first character that is no digit.
  while (start < end && text.charCodeAt(start) >= 48 && text.charCodeAt(start) <= 57) start++;
  return start < end ? start : -1;
}

/**
 * The identifier before `end` with only blanks (spaces, tabs) between, as `/([A-Za-z_]\w*)[ \t]*$/`
 * finds it in the {@link WORD_REACH} characters before `end`: where it starts and where it ends, or
 * undefined.
 */
function wordBefore(text: string, end: number): { start: number; end: number } | undefined {
  const limit = Math.max(0, end - WORD_REACH);
  let last = end;
  while (last > limit && (text.charCodeAt(last - 1) === 32 || text.charCodeAt(last - 1) === 9)) last--;
  const start = wordStartBefore(text, last, limit);
  return start < 0 ? undefined : { start, end: last };
}

/** A space, tab or carriage return. */
function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/**
 * The tokens of the head before the name that starts at `nameStart`: words, `*`s and macro calls, back
 * to the end of the item before (a `;`, a brace, a directive or comment line, a blank line) or the
 * start of the text. Undefined when anything else stands there (an operator, a literal: not a head).
 */
function prefixTokens(text: string, nameStart: number): Token[] | undefined {
  const tokens: Token[] = [];
  let at = nameStart;
  for (;;) {
    while (at > 0 && isBlank(text.charCodeAt(at - 1))) at--;
    if (at === 0) break;
    const c = text[at - 1]!;
    if (c === '\n') {
      // The line above: a blank, directive or comment line ends the head (checked from its start).
      const lineStart = text.lastIndexOf('\n', at - 2) + 1;
      const line = text.slice(lineStart, at - 1).trim();
      if (line === '' || line.startsWith('#') || line.endsWith('*/') || line.startsWith('//')) break;
      at--;
      continue;
    }
    if (c === ';' || c === '{' || c === '}') break;
    if (c === '*') {
      tokens.push({ kind: 'star', text: '*', start: at - 1, end: at });
      at--;
      continue;
    }
    if (c === ')') {
      const open = opening(text, at - 1);
      if (open < 0) return undefined;
      const word = wordBefore(text, open);
      if (!word) return undefined;
      tokens.push({ kind: 'call', text: text.slice(word.start, word.end), start: word.start, end: at });
      at = word.start;
      continue;
    }
    const start = wordStartBefore(text, at);
    if (start < 0) return undefined;
    tokens.push({ kind: 'word', text: text.slice(start, at), start, end: at });
    at = start;
  }
  return tokens.reverse();
}

/**
 * The tokens of `tokens` (a head's prefix, in order) that C cannot hold there: macro calls other than
 * C's own, words after the first `*` that are not qualifiers, and type names beyond the one a
 * declaration may have (all of them beside a type keyword or a tag, else all but the last). Undefined
 * when the prefix is no declaration's (a statement's word, nothing before the name).
 */
function strayTokens(tokens: readonly Token[]): Token[] | undefined {
  if (tokens.some((t) => t.kind !== 'star' && NOT_HEAD.has(t.text))) return undefined;
  const stray: Token[] = [];
  const names: Token[] = [];
  let typed = false;
  let pointer = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'call') {
      if (!OWN_CALLS.has(t.text)) stray.push(t);
    } else if (t.kind === 'star') pointer = true;
    else if (SPECIFIERS.has(t.text) || OWN_CALLS.has(t.text)) continue;
    else if (pointer) stray.push(t);
    else if (TYPE_KEYWORDS.has(t.text)) typed = true;
    else if (TAGGED.has(t.text)) {
      typed = true;
      k++; // the tag
    } else names.push(t);
  }
  if (typed) stray.push(...names);
  else stray.push(...names.slice(0, -1));
  return stray;
}

/** C's keywords that a parameter's last word may be without being a name. */
function isKeyword(word: string): boolean {
  return SPECIFIERS.has(word) || TYPE_KEYWORDS.has(word) || TAGGED.has(word) || NOT_HEAD.has(word);
}

/**
 * The words after a parameter's declarator in the list `text.slice(open + 1, close - 1)`: in each
 * parameter, a word (or a word's call) after a type and a name (`char **argv UNUSED`, `int n
 * ATTR((unused))`). A parameter of one type alone (`void`, `const char *`) has no name to end it.
 */
function strayParameterWords(text: string, open: number, close: number): [number, number][] {
  const found: [number, number][] = [];
  let from = open + 1;
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    if ((c === ',' && depth === 0) || i === close - 1) {
      const stray = parameterStray(text, from, i);
      if (stray) found.push(stray);
      from = i + 1;
    }
  }
  return found;
}

/** The stray word (and its call) at the end of the parameter `text.slice(from, to)`, if any. */
function parameterStray(text: string, from: number, to: number): [number, number] | undefined {
  const param = text.slice(from, to);
  const m =
    /^([ \t\r\n]*(?:[A-Za-z_]\w*[ \t\r\n*]+)*?[A-Za-z_]\w*[ \t\r\n*]+)([A-Za-z_]\w*)([ \t\r\n]+)([A-Za-z_]\w*)([ \t]*\(\((?:[^()]|\([^()]*\))*\)\))?[ \t\r\n]*$/.exec(
      param,
    );
  if (!m) return undefined;
  const [, type, name, gap, word, call] = m as unknown as [string, string, string, string, string, string?];
  if (isKeyword(name) || isKeyword(word) || OWN_CALLS.has(word)) return undefined;
  const typeWords = type.match(/[A-Za-z_]\w*/g) ?? [];
  // The words before the name must make a type: a tag after struct/union/enum is no name.
  if (TAGGED.has(typeWords[typeWords.length - 1] ?? '') && !type.includes('*')) return undefined;
  if (typeWords.every((w) => SPECIFIERS.has(w))) return undefined;
  const start = from + type.length + name.length + gap.length;
  return [start, start + word.length + (call?.length ?? 0)];
}

/** A parameter list's `)` and the `{` of a body after it (blanks and line ends between). */
const HEAD_END = /\)[ \t]*(?:\r?\n[ \t]*)?\{/g;

/**
 * One {@link HEAD_END} match: where its `)` stands, the stretch of text its reading reads (`from` to
 * `to`), and the ranges that reading blanks.
 */
interface Head {
  readonly at: number;
  readonly from: number;
  readonly to: number;
  readonly cuts: readonly (readonly [number, number])[];
}

/**
 * How far past a match's end its reading may look (the `((` test after the parameter list's `(`,
 * which stands before the match).
 */
const LOOK_AHEAD = 40;

/**
 * The reading of the match `m` of {@link HEAD_END}. Every search it makes back from the `)` stops at
 * a `;` or a brace (or sooner): it reads nothing before the line holding the last of those before the
 * match, which is where its stretch starts.
 */
function readHead(text: string, m: RegExpExecArray): Head {
  let last = m.index - 1;
  while (last >= 0) {
    const c = text.charCodeAt(last);
    if (c === 59 || c === 123 || c === 125) break; // ; { }
    last--;
  }
  const from = last < 0 ? 0 : text.lastIndexOf('\n', last) + 1;
  return { at: m.index, from, to: m.index + m[0].length + LOOK_AHEAD, cuts: headCuts(text, m) };
}

/** The ranges to blank in the head whose parameter list's `)` the match `m` found (none: empty). */
function headCuts(text: string, m: RegExpExecArray): (readonly [number, number])[] {
  const open = opening(text, m.index);
  if (open <= 0) return [];
  const before = wordBefore(text, open);
  if (!before) return [];
  const nameStart = before.start;
  const name = text.slice(before.start, before.end);
  if (isKeyword(name) || OWN_CALLS.has(name) || /^\(\s*\(/.test(text.slice(open, open + 40))) return [];
  const tokens = prefixTokens(text, nameStart);
  if (!tokens || tokens.length === 0) return [];
  // At the margin: the head's first token opens its line.
  const first = tokens[0]!.start;
  if (first > 0 && text[first - 1] !== '\n') return [];
  const stray = strayTokens(tokens);
  if (!stray) return [];
  const parameters = strayParameterWords(text, open, closing(text, open, m.index + 1));
  return [...stray.map((t): [number, number] => [t.start, t.end]), ...parameters];
}

/** The readings of the {@link HEAD_END} matches in `text` whose `)` stands from `from` to before `to`. */
function readHeads(text: string, from: number, to: number): Head[] {
  const heads: Head[] = [];
  HEAD_END.lastIndex = from;
  for (let m = HEAD_END.exec(text); m && m.index < to; m = HEAD_END.exec(text)) heads.push(readHead(text, m));
  return heads;
}

/**
 * The readings of the text analysed last, for the next version of it: an edited document's analysis
 * blanks the whole text again at every keystroke, and reading every head of a large file was half
 * of that blanking.
 */
let lastHeads: { readonly text: string; readonly heads: readonly Head[] } | undefined;

/**
 * The readings of every match in `text`, those of `last` reused where their stretch lies wholly
 * before or after the lines an edit changed (the same characters, so the same reading, moved by
 * the change of length after it). The others are read again, and so is every match whose `)` stands
 * from the line before the changed lines to the first `;` or brace after them: a match beyond that
 * reads from that `;` or brace on, a line after the change.
 */
function headsOf(text: string, last: typeof lastHeads): readonly Head[] {
  const change = last && changedLines(last.text, text);
  if (!last || !change) return last?.text === text ? last.heads : readHeads(text, 0, text.length);
  const { start, beforeEnd, afterEnd } = change;
  const delta = afterEnd - beforeEnd;
  // A match ending in the changed lines starts on them or on the line before (it spans two at most).
  let lo = start === 0 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
  for (const h of last.heads) if (h.to > start && h.from < beforeEnd) lo = Math.min(lo, h.at);
  let hi = afterEnd;
  while (hi < text.length) {
    const c = text.charCodeAt(hi);
    if (c === 59 || c === 123 || c === 125) break;
    hi++;
  }
  const heads: Head[] = [];
  for (const h of last.heads) if (h.at < lo) heads.push(h);
  heads.push(...readHeads(text, lo, hi));
  for (const h of last.heads) {
    const at = h.at + delta;
    if (at < hi) continue;
    heads.push({
      at,
      from: h.from + delta,
      to: h.to + delta,
      cuts: h.cuts.map(([s, e]): [number, number] => [s + delta, e + delta]),
    });
  }
  return heads;
}

/**
 * `text` with the stray words of each definition's head blanked (see the file comment): heads that
 * start at the margin, as a definition at file scope does, whose name is followed by its parameter
 * list and body. Offsets and lines stay those of `text`.
 */
export function blankHeadWords(text: string): string {
  const heads = headsOf(text, lastHeads);
  lastHeads = { text, heads };
  const cuts: (readonly [number, number])[] = [];
  for (const h of heads) cuts.push(...h.cuts);
  return cuts.length === 0
    ? text
    : blankedRanges(
        text,
        cuts.sort((a, b) => a[0] - b[0]),
      );
}
