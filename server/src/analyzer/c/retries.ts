// A write retried where it stands: `while (write(fd, buf, n) < 0 && errno == EINTR);` makes one write
// that succeeds or fails for good, as a write-in-full helper's retry does. The loop only repeats the
// same call, so the statement is one write, and a gathered call retried the same way keeps its meaning.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { identifiers, namedKids, unwrap } from './syntax';
import { checkOf, readsOnly, writeStep, type CContext, type Check } from './writes';

/** Failure tests a retry may repeat the call on: a constant, so a gathered call's test is the same. */
const RETRIED_ON = new Set(['<0', '<=0', '==-1']);

/** Names the rest of a retry's test may read: `errno` and constants (`EINTR`, `EAGAIN`). */
const RETRY_NAME = /^(errno|[A-Z][A-Z0-9_]*)$/;

/** The terms of a chain of `&&`, left to right. */
export function conjuncts(node: Node): Node[] {
  const n = unwrap(node);
  if (n.type !== 'binary_expression' || n.childForFieldName('operator')?.text !== '&&') return [n];
  const left = n.childForFieldName('left');
  const right = n.childForFieldName('right');
  return left && right ? [...conjuncts(left), ...conjuncts(right)] : [n];
}

/** A loop body that does nothing: `;`, `{}` or `continue;`. */
function idle(body: Node | null): boolean {
  if (!body) return false;
  if (body.type === 'expression_statement') return body.namedChildCount === 0;
  if (body.type === 'continue_statement') return true;
  if (body.type !== 'compound_statement') return false;
  const kids = namedKids(body);
  return kids.length === 0 || (kids.length === 1 && kids[0]!.type === 'continue_statement');
}

/**
 * The call `stmt` retries where it stands: `while (<call> < 0 && errno == EINTR) ;` (the test may also
 * name `EAGAIN` and other constants, and call nothing not in `pure`), or undefined for any other
 * statement. The loop only repeats the same call until it succeeds or fails for good.
 */
export function retriedCall(stmt: Node, pure: ReadonlySet<string>): Node | undefined {
  const check = retryCheck(stmt, pure);
  return check && !check.assigned ? check.call : undefined;
}

/**
 * The test of the call `stmt` retries where it stands (see {@link retriedCall}), its result kept or not
 * (`while ((n = write(...)) == -1 && errno == EINTR);`), or undefined for any other statement.
 */
export function retryCheck(stmt: Node, pure: ReadonlySet<string>): Check | undefined {
  if (stmt.type !== 'while_statement' || stmt.hasError || !idle(stmt.childForFieldName('body')))
    return undefined;
  const cond = stmt.childForFieldName('condition');
  if (!cond) return undefined;
  const [first, ...rest] = conjuncts(cond);
  const check = first && checkOf(first);
  if (!check || !RETRIED_ON.has(check.kind) || rest.length === 0) return undefined;
  const onlyRetries = rest.every(
    (t) => readsOnly(t, pure) && [...identifiers(t)].every((n) => RETRY_NAME.test(n)),
  );
  return onlyRetries ? check : undefined;
}

/** The write step of a write retried where it stands (see {@link retriedCall}), or undefined. */
export function retriedStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  const call = retriedCall(stmt, ctx.pure);
  return call ? writeStep(stmt, call, ctx) : undefined;
}
