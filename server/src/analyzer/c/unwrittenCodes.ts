// A helper whose codes say whether it wrote, not whether its write succeeded:
//
//   static int invalid(struct user *u, const char *text, const char *arg)
//   {
//       if (!arg || !*arg) {
//           respond(u, "%s", text);     /* the only write */
//           return 1;
//       }
//       return 0;
//   }
//
// Every return is a constant, 0 on one path and 1 on another, which reads like a status that is 0 on
// success; but 0 is returned only where nothing was written, and 1 only after the write. A caller's
// `if (invalid(u, "need a", a)) return; if (invalid(u, "need b", b)) return;` leaves as soon as one
// writes: the two writes never both run, and read as checked-each statuses they would pass for a run.
// Such a call tested by an `if` is no write step of a run (writes.ts), and its codes no success status.
import type { Node } from 'web-tree-sitter';

/** Statements whose body runs on some paths only: a write inside one does not run before what follows. */
const BRANCHING = new Set([
  'if_statement',
  'else_clause',
  'switch_statement',
  'case_statement',
  'while_statement',
  'for_statement',
  'do_statement',
  'conditional_expression',
]);

/**
 * True when `call` runs on every path that reaches `ret` (both inside `body`): some statement holding
 * the call stands before `ret` in a block that holds both, with no branch between that statement and
 * the call (an `if`'s condition runs always; its arms do not).
 */
export function runsBefore(call: Node, ret: Node, body: Node): boolean {
  let at: Node = call;
  for (let parent = call.parent; parent && at.id !== body.id; at = parent, parent = parent.parent) {
    if (parent.type === 'compound_statement') {
      if (ret.startIndex >= at.endIndex && ret.endIndex <= parent.endIndex) return true;
      continue;
    }
    if (parent.type === 'if_statement' && parent.childForFieldName('condition')?.equals(at)) {
      // The test runs before either arm.
      if (ret.startIndex >= at.endIndex && ret.endIndex <= parent.endIndex) return true;
      continue;
    }
    if (BRANCHING.has(parent.type)) return false;
  }
  return false;
}

/**
 * True when the returns of `body` (a helper's, around its one write `call`) say whether it wrote, not
 * how its write went: each gives a number, none the write runs before gives 0, some it does not run
 * before gives 0, and some it runs before gives another number (see the file comment).
 */
export function writesOnlyCoded(body: Node, call: Node, coded = false): boolean {
  const returns = body.descendantsOfType('return_statement').filter((r): r is Node => r !== null);
  const values = returns.map((r) => r.namedChild(0)?.text.replace(/[\s()]/g, '') ?? '');
  if (returns.length < 2 || !values.every((v) => /^-?\d+$/.test(v))) return false;
  // `if (invalid(u, text, arg)) return 1;` of a helper whose own codes say it wrote: it wrote only there.
  const branch = coded ? codedBranch(call) : undefined;
  const after = returns.map((r) =>
    branch ? r.startIndex >= branch.startIndex && r.endIndex <= branch.endIndex : runsBefore(call, r, body),
  );
  return (
    values.some((v, i) => after[i] && v !== '0') &&
    !values.some((v, i) => after[i] && v === '0') &&
    values.some((v, i) => !after[i] && v === '0')
  );
}

/**
 * The consequence of the `if` whose test is `call` (`if (h(...))`, `if (h(...) != 0)`): where a call of a
 * helper whose result says it wrote has written. Undefined for a call standing anywhere else.
 */
function codedBranch(call: Node): Node | undefined {
  let test: Node = call;
  while (test.parent?.type === 'parenthesized_expression') test = test.parent;
  if (test.parent?.type === 'binary_expression') {
    const right = test.parent.childForFieldName('right');
    if (test.parent.childForFieldName('operator')?.text !== '!=' || right?.text !== '0') return undefined;
    test = test.parent;
    while (test.parent?.type === 'parenthesized_expression') test = test.parent;
  }
  const stmt = test.parent;
  if (stmt?.type !== 'if_statement' || !stmt.childForFieldName('condition')?.equals(test)) return undefined;
  return stmt.childForFieldName('consequence') ?? undefined;
}
