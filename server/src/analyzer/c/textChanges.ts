// How an open document's text differs from its version analysed before: the common start and the
// common end. A stretch of text wholly within either is the same characters as in that version (the
// common end moved by the change of length), so what was computed from it there holds here: the
// function facts (keptFacts.ts) and the per-function memos (memo.ts) reuse it by position instead of
// reading or hashing the text again.

/** How a text differs from the version before it: see {@link sameEnds}. */
export interface TextChange {
  /** The length of the common start. */
  readonly prefix: number;
  /** The length of the common end (not overlapping the common start in the shorter text). */
  readonly suffix: number;
  /** The new text's length. */
  readonly length: number;
  /** The new text's length less the old one's: what an offset in the common end moved by. */
  readonly delta: number;
}

/** Characters compared at once by {@link sameEnds}. */
const BLOCK = 1024;

/** The common start and end of `a` and `b`, not overlapping in the shorter of the two. */
export function sameEnds(a: string, b: string): { prefix: number; suffix: number } {
  // Whole blocks first, compared as strings (the engine compares those in bulk), then character by
  // character in the block that differs: comparing every character in a loop cost more than the
  // readings it spared.
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix + BLOCK <= shorter && a.slice(prefix, prefix + BLOCK) === b.slice(prefix, prefix + BLOCK))
    prefix += BLOCK;
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  const room = shorter - prefix;
  let suffix = 0;
  while (
    suffix + BLOCK <= room &&
    a.slice(a.length - suffix - BLOCK, a.length - suffix) ===
      b.slice(b.length - suffix - BLOCK, b.length - suffix)
  )
    suffix += BLOCK;
  while (suffix < room && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix))
    suffix++;
  return { prefix, suffix };
}

/**
 * The offset in the version before of the stretch `[start, end)` of the new text, when the stretch
 * lies wholly within the common start or the common end; undefined when it touches the change.
 */
export function earlierOffset(change: TextChange, start: number, end: number): number | undefined {
  if (end <= change.prefix) return start;
  if (start >= change.length - change.suffix) return start - change.delta;
  return undefined;
}

/** The texts of kept documents as last analysed, each compared with the next. */
export class TextChanges {
  private readonly last = new Map<string, string>();

  /**
   * How `text`, the version of document `key` being analysed, differs from the one analysed before
   * (undefined for the first); `text` is kept for the next.
   */
  next(key: string, text: string): TextChange | undefined {
    const before = this.last.get(key);
    this.last.set(key, text);
    if (before === undefined) return undefined;
    return { ...sameEnds(before, text), length: text.length, delta: text.length - before.length };
  }

  /** Drops what is kept for document `key` (it was closed). */
  forget(key: string): void {
    this.last.delete(key);
  }
}

/**
 * The whole lines an edit touched: `[start, beforeEnd)` of the version before and `[start, afterEnd)`
 * of the new one (each end before its line's `\n`, or at the text's end), what lies before `start`
 * and from each end on being the same characters in both. Undefined when the texts are equal.
 */
export interface LineChange {
  readonly start: number;
  readonly beforeEnd: number;
  readonly afterEnd: number;
}

/** The lines `before` and `after` differ in (see {@link LineChange}); undefined when they are equal. */
export function changedLines(before: string, after: string): LineChange | undefined {
  if (before === after) return undefined;
  const { prefix, suffix } = sameEnds(before, after);
  // From the start of the line the first difference is on; `lastIndexOf` reads a negative index as 0,
  // so with no common start a text opening with a newline would look changed from its second line.
  const start = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  // From the first character of the common end (or the text's end) on to the end of its line: that
  // line's end is common text, so both versions end their last changed line there.
  const newline = after.indexOf('\n', after.length - suffix);
  const afterEnd = newline < 0 ? after.length : newline;
  return { start, beforeEnd: afterEnd - (after.length - before.length), afterEnd };
}

/**
 * Whether the changed lines of `change` (see {@link LineChange}) hold none of `characters` in either
 * version, and the line before them does not end in a `\` (which would continue it onto them). With
 * `characters` holding `/ * " ' # \`, such an edit neither opens nor closes a comment, a literal or a
 * directive: what a reading of those found in the rest of the text still holds.
 */
export function changedLinesFree(
  before: string,
  after: string,
  change: LineChange,
  characters: RegExp,
): boolean {
  const { start } = change;
  if (
    start >= 2 &&
    (before[start - 2] === '\\' || (before[start - 2] === '\r' && before[start - 3] === '\\'))
  )
    return false;
  return (
    !characters.test(before.slice(start, change.beforeEnd)) &&
    !characters.test(after.slice(start, change.afterEnd))
  );
}

/**
 * `pass` (a function of a text that reads and changes each line on its own, keeping its length:
 * blanking words of a line) made to work on the lines a text's change touched: the result for the
 * text before is kept, and only the changed lines go through `pass` again. An edited document's
 * analysis blanks the whole text at every keystroke. Equal to `pass(text)` for every text.
 */
export function lineByLine(pass: (text: string) => string): (text: string) => string {
  // The text passed last, what the pass made of it, and whether that was the text itself.
  let last: { readonly text: string; readonly out: string; readonly same: boolean } | undefined;
  return (text) => {
    if (last?.text === text) return last.out;
    const change = last && changedLines(last.text, text);
    let out: string;
    if (!last || !change) out = pass(text);
    else {
      const lines = text.slice(change.start, change.afterEnd);
      const passed = pass(lines);
      // Nothing changed, before or now: the text itself, not a copy pieced together.
      out =
        last.same && passed === lines
          ? text
          : last.out.slice(0, change.start) + passed + last.out.slice(change.beforeEnd);
    }
    last = { text, out, same: out === text };
    return out;
  };
}
