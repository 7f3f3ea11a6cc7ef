// Statements that are a call of a function-like macro (`RETURN(611);`, `CHECK(x);`). A macro may hide
// a `return`, a `goto` or a `break`: a run must not cross one that leaves, as the code after it does not
// run after the writes before it. The file's own definition says what the macro does; one defined in a
// header the analyzer does not read could do anything, so a statement of it ends a run.

/** An upper-case name, as C spells macros. */
const MACRO = /^[A-Z][A-Z0-9_]*$/;

/** What leaves the code around a macro's expansion. */
const LEAVES = /\b(?:return|goto|break|continue|exit|_exit|abort|longjmp|siglongjmp)\b/;

/**
 * True when a statement calling `name` (a function-like macro by its spelling) may leave the code
 * around it: the file (`text`) defines it with a body that does, or does not define it at all.
 */
export function macroStatementLeaves(name: string, text: string): boolean {
  if (!MACRO.test(name)) return false;
  const def = new RegExp(
    `#[ \\t]*define[ \\t]+${name}[ \\t]*\\(([^)\\n]*)\\)((?:[^\\n\\\\]|\\\\[\\s\\S])*)`,
  ).exec(text);
  if (!def) return true;
  return LEAVES.test(def[2] ?? '');
}

/**
 * The function-like macros `text` defines in upper case, each with whether a statement of it leaves:
 * what {@link macroStatementLeaves} answers from the file (for a cache of its answers).
 */
export function macroStatementKinds(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/#[ \t]*define[ \t]+([A-Z][A-Z0-9_]*)[ \t]*\(/g))
    found.push(`${m[1]}:${macroStatementLeaves(m[1]!, text) ? 'leaves' : 'stays'}`);
  return found.sort();
}
