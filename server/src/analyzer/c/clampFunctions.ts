// Functions of a file that only clamp a count to a constant: `static size_t rwsize(size_t n) { return
// MIN(n, MAX_RW_COUNT); }`. A write-in-full loop may ask for `rwsize(left)` at a time instead of
// spelling the clamp in the call (see helperBodies.ts): each call still puts the whole buffer out. Read
// from the text, as a batch run parses only the parts of a file that can hold a write.

/** A definition whose body is one return of an expression: name, parameter, returned expression. */
const ONE_RETURN =
  /\b([A-Za-z_]\w*)\s*\(\s*(?:const\s+)?(?:(?:unsigned|signed|long|short)\s+)*[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s*\)\s*\{\s*return\s+([^;{}]+?)\s*;\s*\}/g;

/** A constant a count is clamped to (a cast of it allowed): a number, a macro, a `sizeof`. */
const CONSTANT = String.raw`(?:\([A-Za-z_][\w ]*\))?(?:\d+[uUlL]*|[A-Z][A-Z0-9_]*|sizeof\([^()]*\))`;

/** Whether `expression` (no spaces) is `param` clamped to a constant, by a minimum or a conditional. */
function clamps(expression: string, param: string): boolean {
  const bare = expression.replace(/^\((.*)\)$/, '$1');
  const c = CONSTANT;
  const p = param;
  return [
    new RegExp(`^(?:min|MIN)\\w*\\(${p},${c}\\)$`),
    new RegExp(`^(?:min|MIN)\\w*\\(${c},${p}\\)$`),
    new RegExp(`^\\(?${p}>=?${c}\\)?\\?${c}:${p}$`),
    new RegExp(`^\\(?${p}<=?${c}\\)?\\?${p}:${c}$`),
    new RegExp(`^\\(?${c}<=?${p}\\)?\\?${c}:${p}$`),
    new RegExp(`^\\(?${c}>=?${p}\\)?\\?${p}:${c}$`),
  ].some((pattern) => pattern.test(bare));
}

let lastText: string | undefined;
let lastFound: ReadonlySet<string> = new Set();

/** The names of the functions `text` defines whose body only returns their one parameter clamped. */
export function clampFunctions(text: string): ReadonlySet<string> {
  if (text === lastText) return lastFound;
  const found = new Set<string>();
  // Cheap first look: most files define no such function.
  if (/\breturn\s+(?:\(?\s*(?:min|MIN)\w*\s*\(|[^;{}]*\?)/.test(text)) {
    for (const m of text.matchAll(ONE_RETURN)) {
      const [, name, param, expression] = m;
      if (name && param && expression && clamps(expression.replace(/\s+/g, ''), param)) found.add(name);
    }
  }
  lastText = text;
  lastFound = found;
  return found;
}
