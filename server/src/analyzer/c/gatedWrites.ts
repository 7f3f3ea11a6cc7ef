// A write run only when the write before it succeeded, tested through the result that write kept:
// `ret = write(f, line, len); if (ret != -1) ret = write(f, "\n", 1);`. Right after such a write the
// test is the run's own failure check (as `||` is in a chained condition); the gates joiner decides that,
// since only the run knows which write came before.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { keptIn } from './chains';
import { conjoinedGate } from './conjoinedGates';
import { gateMacro } from './macroStatements';
import { calleeName, identifiers, namedKids, unwrap } from './syntax';
import { callWrite, keptResultStep, type CallWrite, type CContext } from './writes';

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
  if (!cond || !kept) return undefined;
  const write = callWrite(kept.call, ctx);
  const gate = write && conjoinedGate(stmt, cond, kept, write, ctx, (t) => successTested(t, !write.wrapper));
  if (!write || !gate) return undefined;
  return gated(stmt, kept, cond.text, write, gate.rest, gate.held);
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
