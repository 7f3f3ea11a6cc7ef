// The top-level parts of a C file, for a batch run that parses only the parts that can hold something
// to find. A part ends after a line starting with `}` (the end of a top-level definition in nearly
// every C style, the same cut the parser's error recovery makes), unless that line is inside a
// comment or string, inside a preprocessor conditional (`#if` ... `#endif`: a part holds whole
// conditionals, so that each parses alone as it does in the whole file), or leaves a brace open (a
// badly indented `}` inside a function body: cutting there would part the function).

/**
 * Comments, strings and character literals (whose braces and `#if` do not count), conditional
 * directives (group 1), a `}` starting a line (group 2) and other braces (group 3). An unterminated
 * comment runs to the end.
 */
const TOKENS =
  /\/\*[\s\S]*?(?:\*\/|(?![\s\S]))|\/\/(?:[^\n\\]|\\[\s\S])*|"(?:[^"\\\n]|\\[\s\S])*"?|'(?:[^'\\\n]|\\[\s\S])*'?|^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b|^(\})|([{}])/gm;

/**
 * Blank space and comments before the first line of code, or after the last. Each comment can be
 * matched one way only (a block comment ends at its first `*\/`, a line comment at the end of its
 * line): a line of slashes (busybox's `////////:config`) read as several comments in every possible
 * way once took minutes.
 */
const SPACE = String.raw`(?:\s|\/\*(?:[^*]|\*(?!\/))*\*\/|\/\/[^\n]*(?![^\n]))*`;

/** An include guard's opening: `#ifndef NAME` on the file's first line of code (group 1: NAME). */
const GUARD_START = new RegExp(`^${SPACE}(#[ \\t]*ifndef[ \\t]+(\\w+)[^\\n]*)\\n`);

/** A file's last line of code: `#endif`, with a comment after it at most. */
const GUARD_END = new RegExp(`(#[ \\t]*endif\\b[^\\n]*(?![^\\n]))${SPACE}$`);

/**
 * `text` with its include guard's `#ifndef` and `#endif` lines blanked (spaces; offsets and lines are
 * kept), or `text` itself when it has none. An include guard is a conditional that opens on the
 * file's first line of code with `#ifndef NAME`, is followed by `#define NAME`, and closes on its
 * last line. A part holds whole conditionals (see {@link partCuts}), so a guarded header was one part,
 * parsed whole (busybox's libbb.h, 102,000 characters, for a few prototypes that name a write
 * function, most of the time in the parser's error recovery); without the guard it is cut like a
 * source file. The guard changes nothing in what the parser reads: it holds the whole file.
 */
export function unguarded(text: string): string {
  const start = GUARD_START.exec(text);
  if (!start) return text;
  const name = start[2]!;
  const afterStart = start.index + start[0].length;
  if (!new RegExp(`^${SPACE}#[ \\t]*define[ \\t]+${name}\\b`).test(text.slice(afterStart))) return text;
  const end = GUARD_END.exec(text);
  if (!end || end.index < afterStart) return text;
  // The guard's conditional must close at that #endif, and nowhere before it.
  let depth = 0;
  TOKENS.lastIndex = 0;
  const inner = text.slice(afterStart, end.index);
  for (let m = TOKENS.exec(inner); m !== null; m = TOKENS.exec(inner)) {
    const directive = m[1];
    if (directive === undefined) continue;
    if (directive.startsWith('if')) depth++;
    else if (depth === 0)
      return text; // the guard's own #else, #elif or an early #endif
    else if (directive === 'endif') depth--;
  }
  if (depth !== 0) return text;
  const openAt = start.index + start[0].length - 1 - start[1]!.length;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return (
    text.slice(0, openAt) +
    blank(start[1]!) +
    text.slice(openAt + start[1]!.length, end.index) +
    blank(end[1]!) +
    text.slice(end.index + end[1]!.length)
  );
}

/** A conditional being read: the brace depth at its `#if`, and at the end of its first branch. */
interface Conditional {
  readonly atIf: number;
  firstEnd?: number;
}

/**
 * The offsets where the top-level parts of `text` start, then `text.length`: `[0, ..., text.length]`,
 * strictly increasing. Part i is `[cuts[i], cuts[i + 1])`. A cut is just after a line that starts with
 * `}` outside comments, strings and preprocessor conditionals, that closes every brace before it. Only
 * the first branch of a conditional counts braces (`#ifdef A` `if (a) {` `#else` `if (b) {` `#endif`
 * opens one), as the compiler sees one branch.
 */
export function partCuts(text: string): number[] {
  const cuts = [0];
  const conditionals: Conditional[] = [];
  let braces = 0;
  // The end of the last closing `}` line, until a token shows that a comment or string runs over it
  // or a brace opens again on that line.
  let pending = -1;
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(text); m !== null; m = TOKENS.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (pending !== -1) {
      if (start >= pending) {
        if (pending < text.length) cuts.push(pending);
        pending = -1;
      } else if (end > pending || m[3] === '{') pending = -1;
    }
    const directive = m[1];
    if (directive !== undefined) {
      const open = conditionals[conditionals.length - 1];
      if (directive.startsWith('if')) conditionals.push({ atIf: braces });
      else if (!open)
        continue; // an #else or #endif without its #if: nothing to undo
      else if (directive === 'endif') {
        conditionals.pop();
        braces = open.firstEnd ?? braces;
      } else {
        open.firstEnd ??= braces;
        braces = open.atIf;
      }
    } else if (m[3] !== undefined) {
      braces = m[3] === '{' ? braces + 1 : Math.max(0, braces - 1);
    } else if (m[2] !== undefined) {
      braces = Math.max(0, braces - 1);
      if (braces === 0 && conditionals.length === 0) {
        const newline = text.indexOf('\n', end);
        pending = newline === -1 ? text.length : newline + 1;
      }
    }
  }
  if (pending !== -1 && pending < text.length) cuts.push(pending);
  cuts.push(text.length);
  return cuts;
}

/**
 * The ranges `[start, end)` to parse: the parts (from {@link partCuts}) for which `wanted` (given the
 * part's text and its index) says yes and that `done` does not hold yet, adjacent ones joined. Adds the
 * chosen parts' indices to `done`.
 */
export function chooseParts(
  text: string,
  cuts: readonly number[],
  wanted: (part: string, index: number) => boolean,
  done: Set<number>,
): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    if (done.has(i)) continue;
    const start = cuts[i]!;
    const end = cuts[i + 1]!;
    if (!wanted(text.slice(start, end), i)) continue;
    done.add(i);
    const last = ranges[ranges.length - 1];
    if (last && last[1] === start) last[1] = end;
    else ranges.push([start, end]);
  }
  return ranges;
}
