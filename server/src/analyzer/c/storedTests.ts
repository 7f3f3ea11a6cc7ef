// A write whose test is kept rather than acted on: `wok = (write(fd, req, sizeof *req) == sizeof *req);`,
// then more writes, and `if (wok && rok)` much later. The variable holds whether the write sent what it
// was asked, nothing else of its result, so the write is one like `ret = write(...);` whose result is
// kept: later statements may only test it, and a run may take it with the writes after it. A gathered
// call's total would answer the test for every write at once, so the test would need rewriting: no fix.
// A stored failure test (`bad = write(...) < 0;`) is usually the first of failures accumulated with `|=`,
// which accumulatedStep (chains.ts) reads before this file is asked; found alone, it is read here too.
// The same reading of tests tells when a check of the kept result leaves on success ({@link testsSuccess}).
import type { Node } from 'web-tree-sitter';
import { calleeName, calls, plainAssignment, unwrap } from './syntax';
import { checkOf, pureTest, SUCCESS_CHECKS, type CContext } from './writes';

/** Why a write whose test is kept has no fix. */
export function storedTestReason(callee: string, name: string): string {
  return `whether ${callee}() succeeded is kept in ${name}, a test a gathered call would answer for all the writes at once`;
}

/**
 * The call `stmt` stores the test of, with the variable: `ok = (call == len);`, `bad = call < 0;`, any
 * test {@link checkOf} reads, except one that also keeps the count (`ok = ((n = call) == len)`: the
 * count is a second result). Every other call in the test must be pure (a length such as `strlen(s)`).
 * Undefined for any other statement, and for a bare call (`ok = call;` keeps the count itself).
 */
export function storedTestIn(
  stmt: Node,
  ctx: CContext,
): { call: Node; result: string; kind: string } | undefined {
  const stored = plainAssignment(stmt);
  if (!stored) return undefined;
  const value = unwrap(stored.value);
  if (value.type === 'call_expression') return undefined;
  const check = checkOf(value, ctx.codes);
  if (!check || check.assigned || check.kind === 'truthy') return undefined;
  const { startIndex: from, endIndex: to } = check.call;
  // The write's own arguments are its to judge (callWrite); the rest of the test must only read.
  const others = calls(value).filter((c) => c.startIndex < from || c.endIndex > to);
  if (!others.every((c) => pureTest(calleeName(c), ctx.pure, c))) return undefined;
  return { call: check.call, result: stored.name, kind: check.kind };
}

/** Comparisons of a kept count that hold when the write succeeded (`n == len`, `n >= 0`, `n != -1`, `n > 0`). */
const COUNT_SUCCESS = /^(?:==(?!-1$|0$).+|>=0|!=-1|>0)$/;

/**
 * True when `cond` tests the kept `result` and holds exactly when the write succeeded: `if (n == len)`
 * for a count, `if (ok)` for a stored success test (`kind`, see {@link storedTestIn}), `if (!bad)` for a
 * stored failure test. A check that leaves on success is no failure check: the statements after it run
 * only when the write failed, so they are no run with it.
 */
export function testsSuccess(cond: Node, result: string, kind?: string): boolean {
  const t = unwrap(cond);
  if (kind !== undefined) {
    const succeeded = SUCCESS_CHECKS.has(kind);
    if (t.type === 'identifier' && t.text === result) return succeeded;
    if (t.type !== 'unary_expression' || t.childForFieldName('operator')?.text !== '!') return false;
    const arg = t.childForFieldName('argument');
    return !!arg && unwrap(arg).type === 'identifier' && unwrap(arg).text === result && !succeeded;
  }
  if (t.type !== 'binary_expression') return false;
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  if (!left || !right || unwrap(left).type !== 'identifier' || unwrap(left).text !== result) return false;
  const op = t.childForFieldName('operator')?.text ?? '';
  return COUNT_SUCCESS.test(`${op}${right.text.replace(/\s+/g, '')}`);
}
