// Comments in C text, found past string and character literals (each alternative tried in turn, the
// literals first), so that a `//` or `/*` inside a literal is no comment. Readers of raw text blank
// them before they look for directives, definitions or calls, each in the way its offsets need.

/** A literal (kept by the callers) or a comment (starting with `/`), in source order. */
export const LITERALS_AND_COMMENTS = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** Opening braces less closing ones in `code`, past literals and comments. */
export function braceBalance(code: string): number {
  if (!/[{}]/.test(code)) return 0;
  const bare = code.replace(LITERALS_AND_COMMENTS, ' ');
  // Counted by searching for each brace: iterating the string's characters took most of this
  // function's time, once per conditional arm of every blanking pass.
  let balance = 0;
  for (let i = bare.indexOf('{'); i >= 0; i = bare.indexOf('{', i + 1)) balance++;
  for (let i = bare.indexOf('}'); i >= 0; i = bare.indexOf('}', i + 1)) balance--;
  return balance;
}

/**
 * `text` with each of `ranges` (offsets, in order, not overlapping) blanked by
 * {@link blankedKeepingLines}: the same length and lines.
 */
export function blankedRanges(text: string, ranges: readonly (readonly [number, number])[]): string {
  let out = '';
  let copied = 0;
  for (const [start, end] of ranges) {
    out += text.slice(copied, start) + blankedKeepingLines(text.slice(start, end));
    copied = end;
  }
  return out + text.slice(copied);
}

/**
 * `text` with every character but the line feeds made a space: the same length and the same lines,
 * so offsets and line numbers still hold. Built from runs of spaces: a pattern replacing each
 * character called back for every one, which made blanking a header's long comments a visible part of
 * reading its macros.
 */
export function blankedKeepingLines(text: string): string {
  let out = '';
  let from = 0;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) {
    out += `${' '.repeat(k - from)}\n`;
    from = k + 1;
  }
  return out + ' '.repeat(text.length - from);
}
