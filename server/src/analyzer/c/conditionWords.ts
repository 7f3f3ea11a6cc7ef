// Words in a conditional directive's test (`#if UNUSED`, `#ifdef NORETURN`, `#elif MAYBE_UNUSED`) are
// macros the preprocessor evaluates, never attributes of a declaration. Blanking them as attribute-like
// macros leaves `#if` with no condition: the grammar then reads the group as an error and no function
// in it is read, though the preprocessor compiles it whenever the macro is set. So the attribute
// blanking passes over the lines of these directives (with their continuation lines) and keeps them.

import { lineMatches } from './lineMatches';

/**
 * A conditional directive with its backslash-continued lines (the preprocessor joins them), read
 * where a line starts (sticky: see lineMatches.ts).
 */
const CONDITION = /^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef)\b(?:[^\n]*\\\r?\n)*[^\n]*/my;

/**
 * `text` with every match of `pattern` (a global regular expression of attribute-like macro names)
 * replaced by as many spaces, except inside the lines of conditional directives (`#if`, `#ifdef`,
 * `#ifndef`, `#elif`, `#elifdef`, `#elifndef`). Offsets and lines stay those of `text`.
 */
export function blankOutsideConditions(text: string, pattern: RegExp): string {
  // The directives are searched for when the pattern first matches: most texts hold no such word.
  let kept: [number, number][] | undefined;
  let k = 0;
  return text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const at = rest[rest.length - 2] as number;
    kept ??= lineMatches(text, '#', CONDITION).map((m) => [m.index, m.index + m[0].length]);
    while (k < kept.length && (kept[k] as [number, number])[1] <= at) k++;
    const span = kept[k];
    return span && span[0] <= at ? match : ' '.repeat(match.length);
  });
}
