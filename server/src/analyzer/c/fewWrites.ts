// Target functions that cannot hold a finding, told from their text before their syntax is read. A
// run is reported from two syscalls to one descriptor, each made by a call of a write function, a
// wrapper or a writing macro (one call of a framing wrapper or of a macro of several writes is that
// many syscalls), and a loop's writes need a `for`, `while` or `do`. A function with one such call
// and no loop has nothing to find: most functions that write at all are of this kind, and reading
// their statements was a large part of a whole tree's analysis.

/** A loop statement's keyword (in comments and strings too: a word there only keeps a function). */
const LOOP = /\b(?:for|while|do)\b/;

/**
 * Whether `text` (a whole function definition) may hold a run or a loop of writes: it has a loop
 * keyword, or its calls matched by `calls` (global patterns of `\b(?:names)\s*\(`) add up to two
 * syscalls or more, `syscalls(name)` being the most one call of `name` makes.
 */
export function mayHoldWrites(
  text: string,
  calls: readonly RegExp[],
  syscalls: (name: string) => number,
): boolean {
  if (LOOP.test(text)) return true;
  let made = 0;
  for (const pattern of calls) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      made += syscalls(/^\w+/.exec(m[0])![0]);
      if (made >= 2) return true;
    }
  }
  return false;
}
