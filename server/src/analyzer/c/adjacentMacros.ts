// Adjacent string macros as one argument. C concatenates adjacent string literals, and a header's
// `#define SS_MODE "@"` makes `write(fd, SS_RESET SS_MODE, 2)` one constant buffer; the grammar,
// knowing no macro, reads two expressions with no comma between and gives up on the argument list.
// A run of macro-named words (upper case, the convention for object-like macros) standing alone as an
// argument can only be such a concatenation: no C expression puts two names side by side.

/** An argument (after `(` or `,`, before `,` or `)`) that is two or more upper-case words in a row. */
const ADJACENT_MACROS = /([(,][ \t]*)([A-Z_][A-Z0-9_]*(?:[ \t]+[A-Z_][A-Z0-9_]*)+)(?=[ \t]*[,)])/g;

/** Cheap first look: two upper-case words separated by blanks only. */
const ANY_PAIR = /[A-Z0-9_][ \t]+[A-Z_][A-Z0-9_]*[ \t]*[,)]/;

/**
 * `text` with the blanks between the words of each adjacent-macro argument made underscores, so the
 * grammar reads the argument as one name: one constant buffer, as a concatenated literal is. The length
 * and every offset stay those of `text`; readers take the argument's text from the original, which
 * still spells the concatenation for a fix to copy.
 */
export function joinAdjacentMacros(text: string): string {
  if (!ANY_PAIR.test(text)) return text;
  return text.replace(
    ADJACENT_MACROS,
    (_match, lead: string, words: string) => lead + words.replace(/[ \t]/g, '_'),
  );
}
