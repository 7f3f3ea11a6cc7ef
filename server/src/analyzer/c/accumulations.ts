// Statuses accumulated in one variable: each write's verdict is or-ed or and-ed into it
// (`ok &= put(fd, a, n);`), and the variable is tested after the last. Two facts this needs beyond a
// count's check: the statement that opens the accumulation may be a declaration (`int ok = put(...);`,
// `int bad = write(...) != n;`), and a project's write helper that returns a status says success or
// failure by its truth value alone. A helper whose every return is a constant is true on success
// (`return 1;` after its loop) or zero on success (`return 0;` / `return -1;`, or an errno): its bare
// call, or the call's negation (`!put(...)`, `put(...) == 0`), then says the write succeeded or failed,
// in an accumulation as in a chain (`put(a) == 0 && put(b) == 0`, chains.ts).
import type { Node } from 'web-tree-sitter';
import { plainAssignment, unwrap } from './syntax';
import type { CallWrite } from './writes';

/** The operators that accumulate a verdict (`=` with the variable itself on the right, or opening). */
const ACCUMULATING = new Set(['=', '|=', '+=', '&=']);

/**
 * The variable, operator and value of `name op value;` (an expression statement, `op` one of `=`, `|=`,
 * `+=`, `&=`) or of the declaration `T name = value;` (read as `=`).
 */
export function accumulating(stmt: Node): { name: string; op: string; right: Node } | undefined {
  if (stmt.type === 'declaration') {
    const plain = plainAssignment(stmt);
    return plain && { name: plain.name, op: '=', right: plain.value };
  }
  if (stmt.type !== 'expression_statement') return undefined;
  const expr = stmt.namedChild(0);
  const assign = expr ? unwrap(expr) : undefined;
  if (assign?.type !== 'assignment_expression') return undefined;
  const op = assign.childForFieldName('operator')?.text ?? '';
  const left = assign.childForFieldName('left');
  const right = assign.childForFieldName('right');
  if (!ACCUMULATING.has(op) || left?.type !== 'identifier' || !right) return undefined;
  return { name: left.text, op, right };
}

/**
 * Whether the statement after `stmt` (comments skipped) accumulates into `name`, and what: successes
 * (`name &= ...`, `name = name && ...`) or failures (`name |= ...`, `name += ...`, `name = name || ...`).
 * A plain `name = value;` before it is where the accumulation starts.
 */
export function accumulationAfter(stmt: Node, name: string): 'successes' | 'failures' | undefined {
  let next = stmt.nextNamedSibling;
  while (next?.type === 'comment') next = next.nextNamedSibling;
  const found = next ? accumulating(next) : undefined;
  if (!found || found.name !== name) return undefined;
  if (found.op === '&=') return 'successes';
  if (found.op === '|=' || found.op === '+=') return 'failures';
  const value = unwrap(found.right);
  const first = value.type === 'binary_expression' ? value.childForFieldName('left') : null;
  if (!first || unwrap(first).text !== name) return undefined;
  const inner = value.childForFieldName('operator')?.text;
  return inner === '&&' ? 'successes' : inner === '||' ? 'failures' : undefined;
}

/**
 * What a status helper's bare call (`truthy`) or its negation (`falsy`, `== 0`) says when true:
 * success for a helper true on success (or the negation of one zero on success), failure the other way
 * round; nothing for a helper whose returns say neither (a count, or statuses not all constants).
 */
export function statusSays(kind: string, write: CallWrite): 'success' | 'failure' | undefined {
  const zero = write.zeroOnSuccess === true;
  const truthy = write.truthyOnSuccess === true;
  if (!write.wrapper || zero === truthy) return undefined;
  return (kind === 'truthy') === truthy ? 'success' : 'failure';
}

/** True when `write` is a helper's call whose status is zero on success (`put(a) == 0 && ...`). */
export function zeroSucceeds(write: CallWrite): boolean {
  return statusSays('falsy', write) === 'success';
}
