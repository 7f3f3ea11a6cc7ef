// Statements that hold a write without being one: a write under an `if` without `else`
// (`if (negated) writeSync(fd, '^');`), writes chained in one condition
// (`return writeSync(fd, a) === a.length && writeSync(fd, b) === b.length;`), and an early exit between
// writes (`if (!body) return;`). The shape finders join them with the writes around them (see model.ts).
import * as ts from 'typescript';
import type { Arm, BranchStep, WriteStep } from '../model';
import { callsIn, identifiers, suspends } from './syntax';
import { isPureCall, writeStep, type TsContext } from './writes';

/** Why writes chained in one condition get no fix. */
const CHAINED =
  'each write is checked on its own in one condition; a gathered call returns one count for all of them';

const ASSIGNS = /\+\+|--|[^=!<>]=[^=]/;

/** True when `test` only reads: pure calls at most, no assignment, no `await` or `yield`. */
export function readsOnly(test: ts.Expression, ctx: TsContext): boolean {
  return (
    !suspends(test) &&
    !ASSIGNS.test(test.getText(ctx.file)) &&
    callsIn(test).every((c) => isPureCall(c, ctx.bindings))
  );
}

function only(stmt: ts.Statement): ts.Statement | undefined {
  if (!ts.isBlock(stmt)) return stmt;
  return stmt.statements.length === 1 ? stmt.statements[0] : undefined;
}

/** `if (test) <write>;` (or `{ <write>; }`) without `else`, its test only reading. */
export function conditionalStep(stmt: ts.IfStatement, ctx: TsContext): WriteStep | undefined {
  if (stmt.elseStatement || !readsOnly(stmt.expression, ctx)) return undefined;
  const inner = only(stmt.thenStatement);
  const write = inner && writeStep(inner, ctx);
  if (!write || write.leaves || ts.isReturnStatement(inner)) return undefined;
  const test = stmt.expression;
  return {
    ...write,
    span: { start: stmt.getStart(ctx.file), end: stmt.end },
    condition: `(${test.getText(ctx.file)})`,
    calls: [write.span],
    // A statement between that changes the test changes which bytes go out.
    reads: [...new Set([...write.reads, ...identifiers(test)])],
  };
}

/** The terms of a chain of one operator, left to right (`a && b && c`). */
function terms(expr: ts.Expression, op: ts.SyntaxKind): ts.Expression[] {
  while (ts.isParenthesizedExpression(expr)) expr = expr.expression;
  if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === op)
    return [...terms(expr.left, op), ...terms(expr.right, op)];
  return [expr];
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

/** The write a chain term checks (`writeSync(fd, b) === b.length`), if it is one. */
function checkedWrite(term: ts.Expression, ctx: TsContext): WriteStep | undefined {
  while (ts.isParenthesizedExpression(term)) term = term.expression;
  if (!ts.isBinaryExpression(term) || !COMPARISONS.has(term.operatorToken.kind)) return undefined;
  const call = ts.isCallExpression(term.left)
    ? term.left
    : ts.isCallExpression(term.right)
      ? term.right
      : undefined;
  const other = call === term.left ? term.right : term.left;
  if (!call || callsIn(other).some((c) => !isPureCall(c, ctx.bindings)) || suspends(other)) return undefined;
  const write = writeStep(call, ctx);
  return write && !write.stream ? write : undefined;
}

/**
 * `return`, `if`, or a declaration whose condition starts with two or more checked writes to one
 * descriptor joined by `&&` (or `||`): one statement that is a sequence of its own, reported without a fix.
 */
export function chainStep(stmt: ts.Statement, ctx: TsContext): WriteStep | undefined {
  let expr: ts.Expression | undefined;
  if (ts.isReturnStatement(stmt)) expr = stmt.expression;
  else if (ts.isIfStatement(stmt)) expr = stmt.expression;
  else if (ts.isVariableStatement(stmt) && stmt.declarationList.declarations.length === 1)
    expr = stmt.declarationList.declarations[0]!.initializer;
  if (!expr) return undefined;
  let list: ts.Expression[] = [];
  for (const op of [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken]) {
    list = terms(expr, op);
    if (list.length >= 2) break;
  }
  const writes: WriteStep[] = [];
  for (const term of list) {
    const w = checkedWrite(term, ctx);
    if (!w || (writes[0] && w.target !== writes[0].target)) break;
    writes.push(w);
  }
  const first = writes[0];
  if (!first || writes.length < 2) return undefined;
  return {
    ...first,
    span: { start: stmt.getStart(ctx.file), end: stmt.end },
    pieces: writes.every((w) => w.pieces) ? writes.flatMap((w) => w.pieces!) : undefined,
    reads: [...new Set(writes.flatMap((w) => w.reads))],
    calls: writes.map((w) => w.span),
    syscalls: writes.length,
    chain: true,
    alone: true,
    noFix: CHAINED,
  };
}

/**
 * `if (test) return;` (or `break`, `continue`) without `else`, the test only reading and the exit
 * computing nothing: the writes after it run when the test fails.
 */
export function exitBranch(
  stmt: ts.IfStatement,
  ctx: TsContext,
  arm: (s: readonly ts.Statement[]) => Arm,
): BranchStep | undefined {
  if (stmt.elseStatement || !readsOnly(stmt.expression, ctx)) return undefined;
  const body = only(stmt.thenStatement);
  if (!body) return undefined;
  const leaves =
    ts.isBreakStatement(body) ||
    ts.isContinueStatement(body) ||
    (ts.isReturnStatement(body) &&
      (!body.expression || (callsIn(body.expression).length === 0 && !suspends(body.expression))));
  if (!leaves) return undefined;
  return {
    kind: 'branch',
    span: { start: stmt.getStart(ctx.file), end: stmt.end },
    arms: [arm([body])],
    partial: {
      condition: `(${stmt.expression.getText(ctx.file)})`,
      exit: { reads: [...identifiers(stmt.expression)] },
    },
  };
}
