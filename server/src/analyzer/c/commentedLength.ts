// A helper's length bounds how much code is read as a possible write helper; a comment is no code to
// read. A helper written with a comment on each arm (`/* Only in case n=0 (timeout), repeat calling the
// write function */`) is as short as the same helper without them, so the bound is held against the
// body's text less its comments.

const TOKENS = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/**
 * The length of `text` (characters) without its comments; string and character literals are kept
 * whole, so a `/*` inside one starts no comment.
 */
export function codeLength(text: string): number {
  let comments = 0;
  for (const m of text.matchAll(TOKENS)) if (m[0][0] === '/') comments += m[0].length;
  return text.length - comments;
}
