// Functions of the tree that never return, read from their bodies wherever they are defined. A
// project's `fatal(fd, msg)` writes its message and calls `_exit(1)`: two calls of it in another file
// (`if (bad) fatal(fd, "bad\n"); fatal(fd, "worse\n");`) are no run of writes, as the first never
// comes back. The calling file's text shows only the calls; the body, in the file that defines it,
// shows that it leaves, and that is a fact of the tree (see noReturnCalls.ts for a file's own).
import type { CFunctionFact } from './functionFacts';
import { balanced } from './macroStatements';
import { libraryNeverReturns } from './noReturnCalls';

/** Words that open a statement like a call but are none (`while (0);` closing a `do`). */
const NOT_CALLS = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'do', 'else', 'case']);

/** A statement that is one call, perhaps cast to void: its callee and its arguments. */
const CALL_STATEMENT = /^\s*(?:\(\s*void\s*\)\s*)?([A-Za-z_]\w*)\s*\(([\s\S]*)\)\s*$/;

/**
 * The callee of the call that ends `body` (a definition's text inside its braces, comments and literals
 * blanked) when the body holds no `return`: every path then reaches that last statement, so the
 * function leaves when the call does. Undefined when the body returns, or ends otherwise (a block, an
 * `if`, a label before the call, a directive line: read as no answer, never as leaving).
 */
export function endingCall(body: string): string | undefined {
  let end = body.length - 1;
  while (end >= 0 && /\s/.test(body[end]!)) end--;
  if (end < 0 || body[end] !== ';' || /\breturn\b/.test(body)) return undefined;
  const start = Math.max(
    body.lastIndexOf(';', end - 1),
    body.lastIndexOf('{', end),
    body.lastIndexOf('}', end),
  );
  const m = CALL_STATEMENT.exec(body.slice(start + 1, end));
  if (!m || NOT_CALLS.has(m[1]!) || !balanced(m[2]!)) return undefined;
  return m[1];
}

/**
 * The functions other files can call that never return: each definition of the name visible to them
 * (`shared`: a header's, or exported) ends in a call that never returns, a library one (`exit`,
 * `abort`) or another such function of the tree, worked out to a least fixed point. A name one of
 * whose definitions may return (two programs of a tree, each with its own `usage()`) is left out.
 */
export function treeLeaving(
  files: Iterable<readonly [readonly CFunctionFact[], boolean]>,
): ReadonlySet<string> {
  const ends = new Map<string, (string | undefined)[]>();
  for (const [functions, shared] of files)
    for (const f of functions) {
      if (!shared && !f.exported) continue;
      const list = ends.get(f.name);
      if (list) list.push(f.endsIn);
      else ends.set(f.name, [f.endsIn]);
    }
  const leaving = new Set<string>();
  for (const [name, list] of ends) if (list.some((e) => e === undefined)) ends.delete(name);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, list] of ends) {
      if (leaving.has(name)) continue;
      if (list.every((e) => libraryNeverReturns(e!) || leaving.has(e!))) {
        leaving.add(name);
        grew = true;
      }
    }
  }
  return leaving;
}
