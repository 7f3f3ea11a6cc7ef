// The names a text calls, as whole words: what a later pass asks of each kept text before it searches
// it for a call of one of the words it looks for (see SecondPass). A run of a large tree asks that of
// every file in each pass after the first, and a search of the whole text for each word (the first
// letter of `ssl_write` stands everywhere) read every file several times over in each of those passes;
// the names are read once per text, where the first such pass asks.

/**
 * The maximal runs of word characters (`[A-Za-z0-9_]`) in `text` that white space (as a pattern's
 * `\s` reads it) and then a `(` follow: every name a match of `\bname\s*\(` or `->\s*name\s*\(`
 * calls, and more (a word run some other character precedes, `if`). Each once, each between two line
 * feeds: one string a kept text holds for the run, not a set of many small ones its collector copies.
 */
export function calledNames(text: string): string {
  const names = new Set<string>();
  for (let open = text.indexOf('('); open >= 0; open = text.indexOf('(', open + 1)) {
    let end = open;
    while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
    let start = end;
    while (start > 0 && isWordCode(text.charCodeAt(start - 1))) start--;
    if (start < end) names.add(text.slice(start, end));
  }
  return `\n${[...names].join('\n')}\n`;
}

/**
 * Whether a search for `\bword\s*\(` or `(?:->|\.)\s*word\s*\(` can find one of `words` in the text
 * whose {@link calledNames} are `called`: false only when it cannot. A word of other characters than
 * word characters (`$`) is not read so: true.
 */
export function mayCall(called: string, words: readonly string[]): boolean {
  return words.some((word) => !WORD.test(word) || called.includes(`\n${word}\n`));
}

const WORD = /^\w+$/;

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** White space as a pattern's `\s` reads it. */
function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && /\s/.test(String.fromCharCode(c));
}
