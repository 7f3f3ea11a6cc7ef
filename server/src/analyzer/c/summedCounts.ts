// Byte counts summed and tested once: `n = write(fd, a, la); n += write(fd, b, lb); if (n != la + lb)
// goto fail;`. A write returns at most the length it was given, and -1 on failure, so the sum is
// `la + lb` exactly when every write sent all it was given; one writev of the same buffers returns
// `la + lb` exactly then too, so the test keeps its meaning. What differs is the failure path alone:
// after a short or failed first write the second still runs and sends its bytes after the partial
// first part, where one writev stops at the first short write. Either way the test fails and the
// descriptor holds a broken record, so the error handling is kept and the writes gather. A test of the
// sum against anything else keeps no meaning (`n < 0`: -1 plus the next count is not negative), and a
// sum tested nowhere right after says nothing: neither is read here.
import type { Node } from 'web-tree-sitter';
import { strictest } from '../cTemplates';
import { assumedCalls } from '../shapes/assumptions';
import type { Piece, WriteStep } from '../model';
import { keptIn } from './chains';
import { unwrap, withoutCasts } from './syntax';
import { callWrite, readsOnly, sameLength, type CallWrite, type CContext } from './writes';

/** `name += <call>;`: the call. */
function addedCall(stmt: Node, name: string): Node | undefined {
  const expr = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  const assign = expr ? unwrap(expr) : undefined;
  if (assign?.type !== 'assignment_expression' || assign.childForFieldName('operator')?.text !== '+=')
    return undefined;
  const left = assign.childForFieldName('left');
  const right = assign.childForFieldName('right');
  const call = right ? unwrap(right) : undefined;
  return left?.type === 'identifier' && left.text === name && call?.type === 'call_expression'
    ? call
    : undefined;
}

/** The terms of a sum, left to right (`la + lb + 1` gives three). */
function addends(node: Node): Node[] {
  const n = withoutCasts(node);
  if (n.type === 'binary_expression' && n.childForFieldName('operator')?.text === '+') {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left && right) return [...addends(left), ...addends(right)];
  }
  return [n];
}

/**
 * True when `stmt` is `if (name != total)` (or `total != name`, `name < total`) whose test only reads,
 * `total` being the writes' lengths summed in their order.
 */
function testsTotal(stmt: Node, name: string, writes: readonly CallWrite[], ctx: CContext): boolean {
  if (stmt.type !== 'if_statement' || stmt.hasError) return false;
  const cond = stmt.childForFieldName('condition');
  const test = cond ? unwrap(cond) : undefined;
  if (!cond || test?.type !== 'binary_expression' || !readsOnly(cond, ctx.pure)) return false;
  const op = test.childForFieldName('operator')?.text;
  const left = test.childForFieldName('left');
  const right = test.childForFieldName('right');
  if (!left || !right) return false;
  const named = (n: Node) => withoutCasts(n).type === 'identifier' && withoutCasts(n).text === name;
  const total =
    named(left) && (op === '!=' || op === '<') ? right : named(right) && op === '!=' ? left : null;
  if (!total) return false;
  const terms = addends(total);
  return terms.length === writes.length && terms.every((t, i) => sameLength(t.text, writes[i]!.checkLen));
}

/** Why summed writes have no fix: the sum and its test stay the caller's to rewrite. */
const SUMMED =
  'the byte counts are summed and tested once against the total; a gathered call returns that total itself, so the sum would be rewritten as its result';

/**
 * `n = write(fd, a, la);` then `n += write(fd, b, lb);` (each a plain write or a helper that writes
 * once, to one descriptor), the sum tested right after against `la + lb` (see the file's comment):
 * one step of all the writes, covering the statements that sum them (the test stays a statement of
 * its own, read after them). Undefined when `statements[i]` starts no such sum. Reported without a fix.
 */
export function summedWrites(
  statements: readonly Node[],
  i: number,
  ctx: CContext,
): { step: WriteStep; covers: number } | undefined {
  const first = statements[i];
  const kept = first && !first.hasError ? keptIn(first) : undefined;
  if (!first || !kept) return undefined;
  const { result } = kept;
  const start = callWrite(kept.call, ctx);
  if (!start || start.own || start.syscalls !== undefined || start.targetNames.includes(result))
    return undefined;
  const writes: CallWrite[] = [start];
  const calls: Node[] = [kept.call];
  let j = i + 1;
  for (; j < statements.length; j++) {
    const stmt = statements[j]!;
    const call = stmt.hasError ? undefined : addedCall(stmt, result);
    const write = call && callWrite(call, ctx);
    if (!call || !write || write.own || write.syscalls !== undefined || write.target !== start.target) break;
    // A later call's arguments run before the earlier writes once gathered (see argumentCalls).
    if (
      write.argumentCalls?.io ||
      write.argumentCalls?.changes.some((n) => writes.some((w) => w.reads.includes(n)))
    )
      break;
    writes.push(write);
    calls.push(call);
  }
  const check = statements[j];
  if (writes.length < 2 || !check || !testsTotal(check, result, writes, ctx)) return undefined;
  const family = strictest(writes.map((w) => w.family));
  const pieces = writes.every((w) => w.pieces) ? writes.flatMap((w) => w.pieces as Piece[]) : undefined;
  const assumes = writes.slice(1).flatMap((w) => w.argumentCalls?.assumed ?? []);
  return {
    step: {
      kind: 'write',
      span: { start: first.startIndex, end: statements[j - 1]!.endIndex },
      target: start.target,
      fdText: start.fdText,
      targetNames: start.targetNames,
      callee: [...new Set(writes.map((w) => w.callee))].join('/'),
      family: family ?? start.family,
      ...(pieces && { pieces }),
      reads: [...new Set(writes.flatMap((w) => w.reads))],
      syscalls: writes.length,
      calls: calls.map((c) => ({ start: c.startIndex, end: c.endIndex })),
      chain: true,
      noFix: writes.find((w) => w.noFix)?.noFix ?? SUMMED,
      assigns: [result],
      ...(writes.some((w) => w.assumed) && { assumed: true }),
      ...(assumes.length > 0 && { assumes: assumedCalls(assumes) }),
    },
    covers: j - i,
  };
}
