// Old-style (K&R) definitions of functions that return a pointer:
//
//   char *
//   ctime(t)
//           time_t *t;
//   {
//
// The grammar reads a K&R definition only when its declarator is the function's name and parameter
// list alone; under a pointer declarator (`*ctime(t)`) it reads a declaration missing its `;` and a
// block of no function, so nothing in the body was read (every function of a file of pointer-returning
// K&R definitions was lost). Blanking the `*` between the type and the name makes the grammar read the
// definition; the return type is then read as the type without its pointer, which no reading of the
// body's writes asks about (the fact base reads function results from the text: functionFacts.ts).
import { lineMatches } from './lineMatches';

/**
 * A K&R definition returning a pointer: the type's words (group 1 holds the `*`s and the blanks
 * around them), the name and its list of parameter names, one or more declaration lines ending with
 * `;` (the parameters' types, comments after them allowed), then the body's `{` opening a line.
 * Sticky: tried only at the start of lines holding a `*` (see lineMatches.ts).
 */
const OLD_STYLE_POINTER =
  /^(?:[A-Za-z_]\w*[ \t]+)*[A-Za-z_]\w*([ \t]*\n?[ \t]*\*+[ \t]*\n?[ \t]*)[A-Za-z_]\w*[ \t]*\([ \t]*[A-Za-z_]\w*[ \t]*(?:,[ \t]*[A-Za-z_]\w*[ \t]*)*\)[ \t]*(?:\/\*[^\n]*?\*\/[ \t]*)?\n(?:[ \t]*[A-Za-z_][^;{}()\n]*;[ \t]*(?:\/\*[^\n]*?\*\/[ \t]*)?\n)+[ \t]*\{/my;

/** Words that can open a line like a K&R header's type but open a statement instead. */
const STATEMENT_WORDS: ReadonlySet<string> = new Set(['return', 'else', 'case', 'goto', 'typedef', 'do']);

/**
 * `text` with the `*`s of each K&R pointer-returning definition's header blanked (see the file
 * comment): the same length and lines. `text` itself when it holds none.
 */
export function blankOldStylePointers(text: string): string {
  if (!text.includes('*')) return text;
  let out: string | undefined;
  let copied = 0;
  for (const m of lineMatches(text, '*', OLD_STYLE_POINTER)) {
    const first = /^[A-Za-z_]\w*/.exec(m[0])?.[0] ?? '';
    if (STATEMENT_WORDS.has(first)) continue;
    const stars = m.index + m[0].indexOf(m[1]!);
    out = (out ?? '') + text.slice(copied, stars) + m[1]!.replace(/\*/g, ' ');
    copied = stars + m[1]!.length;
  }
  return out === undefined ? text : out + text.slice(copied);
}
