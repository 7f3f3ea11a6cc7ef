// The name one parameter's declaration declares (`const char *buf` gives `buf`, `int v[2]` gives `v`),
// read from its text alone. Every definition of every file of a tree has its parameter list read so,
// and a search anchored at the end (`...$`) tried each character of the declaration as a start: most
// declarations have no `[`, and their name is the last word, found by looking back from the end.
// A list is cut into its declarations at its top-level commas alone: `void (*fn)(int, int)` and
// `char v[N, M]` (a macro's bounds) are one declaration each.

/**
 * The declarations of a parameter list (`list`: the text between a definition's parentheses), cut at
 * its commas outside parentheses and brackets, each trimmed; `['']` for an empty list.
 */
export function parameterDeclarations(list: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k <= list.length; k++) {
    const c = list.charCodeAt(k);
    if (c === 40 || c === 91) depth++;
    else if (c === 41 || c === 93) depth--;
    else if ((c === 44 && depth === 0) || k === list.length) {
      found.push(list.slice(start, k).trim());
      start = k + 1;
    }
  }
  return found;
}

/** The name before any array bounds at the end of a declaration, as a search finds it. */
export const DECLARED_NAME = /([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$/;

/**
 * The name `declaration` (one parameter's text) declares: the leftmost name that only white space and
 * array bounds (`[N]`) follow to the end, or `''` when there is none (`void`'s own word is a name).
 */
export function parameterName(declaration: string): string {
  if (declaration.includes('[')) return DECLARED_NAME.exec(declaration)?.[1] ?? '';
  let end = declaration.length;
  while (end > 0 && isSpace(declaration.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isWordCode(declaration.charCodeAt(start - 1))) start--;
  // The leftmost place a name may start: digits start none.
  while (start < end && isDigit(declaration.charCodeAt(start))) start++;
  return declaration.slice(start, end);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95;
}

/** White space as a pattern's `\s` reads it. */
function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && /\s/.test(String.fromCharCode(c));
}
