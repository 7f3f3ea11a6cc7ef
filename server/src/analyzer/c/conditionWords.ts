// Words in a conditional directive's test (`#if UNUSED`, `#ifdef NORETURN`, `#elif MAYBE_UNUSED`) are
// macros the preprocessor evaluates, never attributes of a declaration. Blanking them as attribute-like
// macros leaves `#if` with no condition: the grammar then reads the group as an error and no function
// in it is read, though the preprocessor compiles it whenever the macro is set. So the attribute
// blanking passes over the lines of these directives (with their continuation lines) and keeps them.

/** A conditional directive with its backslash-continued lines (the preprocessor joins them). */
const CONDITION = /^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef)\b(?:[^\n]*\\\r?\n)*[^\n]*/gm;

/**
 * `text` with every match of `pattern` (a global regular expression of attribute-like macro names)
 * replaced by as many spaces, except inside the lines of conditional directives (`#if`, `#ifdef`,
 * `#ifndef`, `#elif`, `#elifdef`, `#elifndef`). Offsets and lines stay those of `text`.
 */
export function blankOutsideConditions(text: string, pattern: RegExp): string {
  const kept: [number, number][] = [];
  for (const m of text.matchAll(CONDITION)) kept.push([m.index, m.index + m[0].length]);
  let k = 0;
  return text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const at = rest[rest.length - 2] as number;
    while (k < kept.length && (kept[k] as [number, number])[1] <= at) k++;
    const span = kept[k];
    return span && span[0] <= at ? match : ' '.repeat(match.length);
  });
}
