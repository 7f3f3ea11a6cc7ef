// Splitting an argument list at the commas of its own level, for rules that read a call's or a macro
// use's arguments out of cleaned text (comments and literals blanked, so no comma hides in a string).

/**
 * `text` (what lies between a call's parentheses) split at the commas outside parentheses and
 * brackets; undefined when its parentheses or brackets do not pair up. The parts are not trimmed.
 */
export function splitTopLevel(text: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && --depth < 0) return undefined;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, k));
      start = k + 1;
    }
  }
  parts.push(text.slice(start));
  return depth === 0 ? parts : undefined;
}
