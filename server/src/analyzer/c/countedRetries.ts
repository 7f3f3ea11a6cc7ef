// A write retried a bounded number of times, the loop left as soon as the write did not fail for a
// reason worth waiting out: `for (run = 0; run < 10; run++) { ret = write(fd, buf, len); if (ret >= 0
// || errno != EAGAIN) break; if (run > 0) log(...); usleep(1000); }`. Serial and device code spells
// its retry this way: the counter only bounds the waiting, and the statements after the test (a log
// line, a pause) run only after a failed call, with the same buffer, length and descriptor. Every round
// but the last leaves after one call that sent something or failed for good, so the loop is one write,
// and a gathered call retried the same way keeps its meaning. A loop that goes on after a write that
// sent something, or whose later statements touch what the write is given, is no such retry.
import type { Node } from 'web-tree-sitter';
import { calls, identifiers, namedKids, withoutCasts } from './syntax';

/** Names the rest of a leaving test may read: `errno` and constants (`EAGAIN`, `EINTR`). */
const RETRY_NAME = /^(errno|[A-Z][A-Z0-9_]*)$/;

/** The terms of a chain of `||`, left to right. */
function disjuncts(node: Node): Node[] {
  const n = withoutCasts(node);
  if (n.type !== 'binary_expression' || n.childForFieldName('operator')?.text !== '||') return [n];
  const left = n.childForFieldName('left');
  const right = n.childForFieldName('right');
  return left && right ? [...disjuncts(left), ...disjuncts(right)] : [n];
}

/** True when `term` holds whenever `result` says the call did not fail: `n >= 0`, `n != -1`. */
function notFailed(term: Node, result: string): boolean {
  if (term.type !== 'binary_expression') return false;
  const op = term.childForFieldName('operator')?.text;
  const left = term.childForFieldName('left');
  const right = term.childForFieldName('right');
  if (!left || !right || withoutCasts(left).text !== result) return false;
  const bound = withoutCasts(right).text.replace(/\s+/g, '');
  return (op === '>=' && bound === '0') || (op === '!=' && bound === '-1') || (op === '>' && bound === '-1');
}

/** True when `stmt` only leaves the loop: `break;`, `return ...;`, or a block holding just that. */
function leaves(stmt: Node | null): boolean {
  if (!stmt) return false;
  if (stmt.type === 'break_statement' || stmt.type === 'return_statement') return true;
  if (stmt.type !== 'compound_statement') return false;
  const kids = namedKids(stmt).filter((k) => k.type !== 'comment');
  return kids.length === 1 && leaves(kids[0] ?? null);
}

/** True when `node` (a loop's test, initializer or update) names none of `names` and calls nothing. */
function apart(node: Node | null, names: ReadonlySet<string>): boolean {
  return !node || (calls(node).length === 0 && ![...identifiers(node)].some((n) => names.has(n)));
}

/**
 * True when `loop` (a `for` or `while`) retries `call`, whose result the body's first statement
 * assigns to `result` (`ret = write(fd, buf, len);`), a bounded number of times: its test, initializer
 * and update call nothing and name nothing the call is given; the next statement leaves the loop when
 * the call did not fail or failed for good (`if (ret >= 0 || errno != EAGAIN) break;`); and the
 * statements after it, run only after a failure, name nothing the call is given.
 */
export function countedRetry(loop: Node, call: Node, result: string): boolean {
  if (loop.type !== 'for_statement' && loop.type !== 'while_statement') return false;
  const given = identifiers(call);
  given.delete(result);
  const header = ['condition', 'initializer', 'update'].map((f) => loop.childForFieldName(f));
  if (!header[0] || !header.every((n) => apart(n, new Set([...given, result])))) return false;
  const body = loop.childForFieldName('body');
  if (body?.type !== 'compound_statement') return false;
  const [first, test, ...rest] = namedKids(body).filter((k) => k.type !== 'comment');
  // The call stands alone in the body's first statement: `ret = write(...);`.
  let holder = call.parent;
  while (holder?.type === 'cast_expression' || holder?.type === 'parenthesized_expression')
    holder = holder.parent;
  if (!first || holder?.type !== 'assignment_expression' || holder.parent?.id !== first.id) return false;
  if (first.type !== 'expression_statement') return false;
  if (test?.type !== 'if_statement' || test.childForFieldName('alternative')) return false;
  if (!leaves(test.childForFieldName('consequence'))) return false;
  const condition = test.childForFieldName('condition');
  if (!condition) return false;
  const terms = disjuncts(condition);
  const others = terms.filter((t) => !notFailed(t, result));
  if (others.length === terms.length) return false;
  const onlyErrno = others.every(
    (t) => calls(t).length === 0 && [...identifiers(t)].every((n) => RETRY_NAME.test(n)),
  );
  return onlyErrno && rest.every((s) => keeps(s, given));
}

/**
 * True when `stmt` leaves what the call is given as it was: it assigns none of it and hands none of it
 * to a call (a log line after the failure, `info("%s: EAGAIN #%d", Port, run)`, and a pause do neither).
 */
function keeps(stmt: Node, given: ReadonlySet<string>): boolean {
  const names = (n: Node) => [...identifiers(n)].some((x) => given.has(x));
  const assigned = stmt.descendantsOfType(['assignment_expression', 'update_expression']);
  const handed = calls(stmt).flatMap((c) => {
    const args = c.childForFieldName('arguments');
    return args ? [args] : [];
  });
  return !assigned.some(names) && !handed.some(names);
}
