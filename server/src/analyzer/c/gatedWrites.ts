// A write run only when the write before it succeeded, tested through the result that write kept:
// `ret = write(f, line, len); if (ret != -1) ret = write(f, "\n", 1);`. Right after such a write the
// test is the run's own failure check (as `||` is in a chained condition); the gates joiner decides that,
// since only the run knows which write came before. The gated write may keep its result elsewhere, or
// nowhere (`wr = write(fd, a, n); if (wr > 0) wr2 = write(fd, b, m);`): the test is still the status of
// the write before, as that write spells success (a count for a plain write, 0 for a helper returning 0
// on success). A test that lets a short first write through (`wr > 0`) is no full check, so such a run
// is reported without a fix: a gathered call has no test between the two.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { keptIn } from './chains';
import { conjoinedGate } from './conjoinedGates';
import { gateMacro } from './macroStatements';
import { storedTestIn } from './storedTests';
import { calleeName, identifiers, namedKids, unwrap } from './syntax';
import {
  callWrite,
  checkOf,
  keptResultStep,
  sameLength,
  statementCall,
  SUCCESS_CHECKS,
  writeStep,
  type CallWrite,
  type CContext,
} from './writes';

/** Whether `v OP constant` (as `>=0`) tests a write's success. A helper may return 0 or -1 for its
 * status, where `> 0` would be its failure. */
function succeeds(success: string, plain: boolean): boolean {
  return success === '!=-1' || success === '>=0' || (plain && success === '>0');
}

/** `v != -1`, `v >= 0`, `v > 0` (either way round): the variable tested for a write's success. */
function successTested(test: Node, plain: boolean): string | undefined {
  const t = unwrap(test);
  if (t.type !== 'binary_expression') return undefined;
  const op = t.childForFieldName('operator')?.text ?? '';
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  if (!left || !right) return undefined;
  const [name, constant, form] =
    unwrap(left).type === 'identifier'
      ? [unwrap(left).text, right.text.replace(/\s+/g, ''), op]
      : [unwrap(right).text, left.text.replace(/\s+/g, ''), FLIPPED[op]];
  if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
  return succeeds(`${form}${constant}`, plain) ? name : undefined;
}

const FLIPPED: Readonly<Record<string, string>> = { '!=': '!=', '<=': '>=', '<': '>' };

/**
 * `if (v != -1) v = write(...);` (no `else`, the body that one statement): a write gated on `v`, the
 * result an earlier write kept. Its arguments must not read `v` (then it would depend on the count, not
 * only on success). Reported without a fix: `v` ends up holding the total.
 */
export function gatedStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type === 'expression_statement') return macroGatedStep(stmt, ctx);
  if (stmt.type !== 'if_statement' || stmt.hasError || stmt.childForFieldName('alternative'))
    return undefined;
  const cond = stmt.childForFieldName('condition');
  const body = stmt.childForFieldName('consequence');
  const inner =
    body?.type === 'compound_statement' ? namedKids(body).filter((k) => k.type !== 'comment') : [body];
  const only = inner.length === 1 ? inner[0] : undefined;
  const kept = only ? keptIn(only) : undefined;
  if (!cond || !only) return undefined;
  const write = kept && callWrite(kept.call, ctx);
  const gate = write && conjoinedGate(stmt, cond, kept, write, ctx, (t) => successTested(t, !write.wrapper));
  if (kept && write && gate) return gated(stmt, kept, cond.text, write, gate.rest, gate.held);
  return gatedElsewhere(stmt, cond, only, ctx);
}

/**
 * The statement before `stmt` in its block (comments skipped), when it keeps the result of a write:
 * `n = write(...);`, `int rc = put(...);`.
 */
function keptWriteBefore(
  stmt: Node,
  ctx: CContext,
): { result: string; call: Node; write: CallWrite } | undefined {
  let prev = stmt.previousNamedSibling;
  while (prev?.type === 'comment') prev = prev.previousNamedSibling;
  const kept = prev ? keptIn(prev) : undefined;
  const write = kept && callWrite(kept.call, ctx);
  return kept && write && !write.own ? { ...kept, write } : undefined;
}

/** The statement before `stmt` (comments skipped), when it stores a write's test (see storedTests.ts). */
function storedBefore(stmt: Node, ctx: CContext): { result: string; kind: string } | undefined {
  let prev = stmt.previousNamedSibling;
  while (prev?.type === 'comment') prev = prev.previousNamedSibling;
  const stored = prev ? storedTestIn(prev, ctx) : undefined;
  const write = stored && callWrite(stored.call, ctx);
  return stored && write && !write.own ? stored : undefined;
}

/**
 * The check kinds (see writes.ts `Check`) that say a write succeeded (`success`) or failed, as its
 * result spells it: a status helper's own truth or zero, a plain write's count (`> 0` included: it
 * lets a short write through, which the run's finding then has no fix for), and for a helper returning
 * a count or -1, only the sign.
 */
function statusKinds(write: CallWrite, success: boolean): ReadonlySet<string> {
  if (write.truthyOnSuccess) return new Set([success ? 'truthy' : 'falsy']);
  if (write.zeroOnSuccess) return new Set(success ? ['falsy', '>=0', '!=-1'] : ['truthy', '<0', '==-1']);
  if (!write.wrapper && write.syscalls === undefined)
    return new Set(success ? ['==', '>0', '>=0', '!=-1'] : ['!=', '<0', '<=0', '==-1']);
  return new Set(success ? ['>=0', '!=-1'] : ['<0', '==-1']);
}

/**
 * The variable `term` tests, when it holds the result the statement right before `stmt` kept from a
 * write and the test says that write succeeded (`success`) or failed, as that write spells it: `wr > 0`
 * or `wr == n` after `wr = write(fd, a, n);`, `!rc` or `rc` after `rc = put(...)` of a helper returning
 * 0 on success. Undefined for any other term.
 */
export function statusGate(term: Node, stmt: Node, ctx: CContext, success: boolean): string | undefined {
  const stored = storedBefore(stmt, ctx);
  if (stored) {
    // `bad = write(...) != n;` holds the truth of its test: `bad` or `!bad` says which way it went.
    const t = unwrap(term);
    const arg =
      t.type === 'unary_expression' && t.childForFieldName('operator')?.text === '!'
        ? t.childForFieldName('argument')
        : null;
    const named = (n: Node | null) =>
      !!n && unwrap(n).type === 'identifier' && unwrap(n).text === stored.result;
    const truth = named(t) ? true : named(arg) ? false : undefined;
    if (truth === undefined) return undefined;
    return (truth === SUCCESS_CHECKS.has(stored.kind)) === success ? stored.result : undefined;
  }
  const before = keptWriteBefore(stmt, ctx);
  if (!before) return undefined;
  const check = checkOf(term, ctx.codes, false, { name: before.result, call: before.call });
  if (!check || check.assigned || !check.call.equals(before.call)) return undefined;
  if (!statusKinds(before.write, success).has(check.kind)) return undefined;
  if (check.len && !sameLength(check.len.text, before.write.checkLen)) return undefined;
  return before.result;
}

/** Why a write gated on the status of the write before, kept apart from its own result, has no fix. */
function gatedReason(gate: string): string {
  return `the write runs only when ${gate} says the one before it did not fail; a gathered call has no test between the two`;
}

/**
 * `if (wr > 0) wr2 = write(...);` or `if (wr > 0) write(...);` right after `wr = write(...)` (see the
 * file comment): the write gated on `wr`, keeping its own result elsewhere or nowhere. Its arguments
 * and descriptor must not read `wr` (a resend of the rest reads the count, not only the success).
 */
function gatedElsewhere(stmt: Node, cond: Node, inner: Node, ctx: CContext): WriteStep | undefined {
  const gate = statusGate(cond, stmt, ctx, true);
  if (!gate) return undefined;
  const kept = keptIn(inner);
  if (kept) {
    const write = callWrite(kept.call, ctx);
    if (!write || write.own || kept.result === gate) return undefined;
    if ([kept.result, gate].some((n) => write.targetNames.includes(n) || write.reads.includes(n)))
      return undefined;
    const step = keptResultStep(write, stmt, kept.call, kept.result, gatedReason(gate));
    return { ...step, condition: cond.text, reads: [...write.reads, gate], gate };
  }
  const call = statementCall(inner, ctx);
  const write = call && writeStep(inner, call, ctx);
  if (!call || !write || write.targetNames.includes(gate) || write.reads.includes(gate)) return undefined;
  return {
    ...write,
    span: { start: stmt.startIndex, end: stmt.endIndex },
    calls: write.calls ?? [{ start: call.startIndex, end: call.endIndex }],
    condition: cond.text,
    reads: [...write.reads, gate],
    noFix: write.noFix ?? gatedReason(gate),
    gate,
  };
}

/**
 * `CHAIN(e, put(fd, s));` where the file or a header it includes defines the macro as a gate
 * (`{ if (e >= 0) { e = (f); } }`, see macroStatements.ts): the same gated write, spelled once.
 */
function macroGatedStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  const expr = stmt.namedChild(0);
  if (stmt.hasError || expr?.type !== 'call_expression') return undefined;
  const name = calleeName(expr);
  const gate = name ? gateMacro(name, ctx.text, ctx.included) : undefined;
  const list = expr.childForFieldName('arguments');
  const args = list ? namedKids(list) : [];
  const status = gate ? args[gate.status] : undefined;
  const value = gate ? args[gate.value] : undefined;
  const call = value ? unwrap(value) : undefined;
  if (!gate || status?.type !== 'identifier' || call?.type !== 'call_expression') return undefined;
  const write = callWrite(call, ctx);
  if (!write || !succeeds(gate.success, !write.wrapper)) return undefined;
  return gated(
    stmt,
    { call, result: status.text },
    `${status.text} ${gate.success.replace(/^([^\d-]+)/, '$1 ')}`,
    write,
  );
}

/**
 * The step of a write gated on `kept.result`, which it assigns its result to; `rest`, the other terms
 * of a conjunction the gate is one term of, and `held`, whether the gate holds where the write before
 * did not run (see conjoinedGates.ts).
 */
function gated(
  stmt: Node,
  kept: { call: Node; result: string },
  condition: string,
  write: CallWrite,
  rest: readonly Node[] = [],
  held?: true,
): WriteStep | undefined {
  if (write.own || write.targetNames.includes(kept.result) || write.reads.includes(kept.result))
    return undefined;
  const step = keptResultStep(
    write,
    stmt,
    kept.call,
    kept.result,
    `the write runs only when the one before it succeeded, as ${kept.result} says; a gathered call would leave the total in ${kept.result}`,
  );
  const restReads = new Set<string>();
  for (const t of rest) identifiers(t, restReads);
  return {
    ...step,
    condition,
    reads: [...new Set([...write.reads, ...restReads, kept.result])],
    gate: kept.result,
    ...(rest.length > 0 && { gateRest: rest.map((t) => t.text).join(' && ') }),
    ...(held && { gateHeld: true }),
  };
}
