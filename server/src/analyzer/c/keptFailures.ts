// A kept result's failure handled by noting it and going on: `n = write(l->fd, buf, len); if (n < 0)
// l->nerror++;` and the next write runs whatever happened. The check only updates state (a counter, a
// flag) and falls through, so the writes after it run on every path, as after an unchecked write; a
// gathered call keeps one such check for all of them. What the check updates is said on the write step
// (`failureSets`), and the run ends before any step that reads it (shapes/joiners/failureState.ts).
import type { Node } from 'web-tree-sitter';
import { failureTest } from './failurePaths';
import { lvaluePath, namedKids, unwrap } from './syntax';
import { readsOnly, type CContext } from './writes';

/** True when the canonical expression `text` is `path` or reaches into it (`c->fd` into `c`). */
function within(text: string, path: string): boolean {
  return text === path || (text.startsWith(path) && /^(->|\.|\[)/.test(text.slice(path.length)));
}

/** What one statement of the failure path updates, if it only updates one lvalue from what it reads. */
function updated(stmt: Node, ctx: CContext): string | undefined {
  const expr = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  const x = expr ? unwrap(expr) : undefined;
  if (x?.type === 'update_expression') {
    const arg = x.childForFieldName('argument');
    return arg ? lvaluePath(arg) : undefined;
  }
  if (x?.type !== 'assignment_expression') return undefined;
  const left = x.childForFieldName('left');
  const right = x.childForFieldName('right');
  // The value only reads (`errno`, a constant): no call that may write, nothing else assigned.
  return left && right && readsOnly(right, ctx.pure) ? lvaluePath(left) : undefined;
}

/**
 * The lvalues `check` updates when it is the failure path of the write whose result is in `result`
 * and goes on after: `if (n < 0) nerr++;`, `if (n != len) { st->failed = 1; st->err = errno; }` (no
 * `else`; the test only reads and holds only when `n` says the write failed or fell short; every
 * statement of the body updates a variable or a member, calling nothing). Undefined for any other
 * statement, and when the body updates the result itself or what the write's descriptor reads.
 */
export function keptFailure(
  check: Node,
  result: string,
  descriptor: string,
  ctx: CContext,
): string[] | undefined {
  if (check.type !== 'if_statement' || check.hasError || check.childForFieldName('alternative'))
    return undefined;
  const test = check.childForFieldName('condition');
  const body = check.childForFieldName('consequence');
  if (!test || !body || !readsOnly(test, ctx.pure) || !failureTest(test, result)) return undefined;
  const stmts = body.type === 'compound_statement' ? namedKids(body) : [body];
  if (stmts.length === 0) return undefined;
  const changed: string[] = [];
  for (const stmt of stmts) {
    const path = updated(stmt, ctx);
    // The result, or the descriptor (`c->fd = -1` on failure): the run after it is another matter.
    if (!path || /^\w+/.exec(path)?.[0] === result || within(descriptor, path)) return undefined;
    changed.push(path);
  }
  return changed;
}
