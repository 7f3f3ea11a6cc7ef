// Statements that are a call of a function-like macro (`RETURN(611);`, `need(p);`). A macro may hide
// a `return`, a `goto` or a `break`: a run must not cross one that leaves, as the code after it does not
// run after the writes before it. The file's own definition says what the macro does, whatever its
// case, and so does an included header's; an upper-case name neither defines is a macro from a header
// the analyzer does not read, which could do anything, so a statement of it ends a run. A lower-case
// name none defines is taken for a function.

/** An upper-case name, as C spells macros. */
const MACRO = /^[A-Z][A-Z0-9_]*$/;

/** What leaves the code around a macro's expansion. */
const LEAVES = /\b(?:return|goto|break|continue|exit|_exit|abort|longjmp|siglongjmp)\b/;

/** `#define name(params) body`, the body running on over `\`-continued lines. */
const DEFINITION = /#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)\n]*)\)((?:[^\n\\]|\\[\s\S])*)/g;

/** The last text read, per kind: each statement of a function asks, and one file is read at a time. */
const last: { text: string; leaves: ReadonlyMap<string, boolean> }[] = [];

/**
 * The function-like macros `text` defines, each with whether its expansion may leave. A name defined
 * twice (`#if` alternatives) leaves if either definition does. `slot`: which last text to keep (the
 * file's or its headers').
 */
function definitions(text: string, slot = 0): ReadonlyMap<string, boolean> {
  const kept = last[slot];
  if (kept?.text === text) return kept.leaves;
  const leaves = new Map<string, boolean>();
  if (text.includes('define'))
    for (const m of text.matchAll(DEFINITION)) {
      const name = m[1]!;
      leaves.set(name, !!leaves.get(name) || LEAVES.test(m[3] ?? ''));
    }
  last[slot] = { text, leaves };
  return leaves;
}

/**
 * True when a statement calling `name` may leave the code around it: the file (`text`), or else a
 * header it includes (`included`, their definitions), defines it as a function-like macro with a body
 * that does, or it is spelled as a macro and neither defines it.
 */
export function macroStatementLeaves(name: string, text: string, included?: string): boolean {
  return (
    definitions(text).get(name) ??
    (included === undefined ? undefined : definitions(included, 1).get(name)) ??
    MACRO.test(name)
  );
}

/**
 * The function-like macros `text` defines, each with whether a statement of it leaves: what
 * {@link macroStatementLeaves} answers from the file (for a cache of its answers).
 */
export function macroStatementKinds(text: string): string[] {
  return [...definitions(text)].map(([name, leaves]) => `${name}:${leaves ? 'leaves' : 'stays'}`).sort();
}
