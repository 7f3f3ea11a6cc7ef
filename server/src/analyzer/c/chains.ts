// Statements that hold a write in a form other than "one call, checked or not": several writes chained
// in one condition (`if (w(fd, hdr, 4) < 0 || w(fd, buf, n) < 0 || fsync(fd) < 0) return -1;`), and a
// write under a condition without `else` (`if (negated) write_or_die(fd, "^", 1);`).
import type { Node } from 'web-tree-sitter';
import { C_FAMILY_STRICTNESS } from '../catalogue';
import type { Piece, WriteStep } from '../model';
import { identifiers, namedKids, unwrap } from './syntax';
import {
  callWrite,
  checkOf,
  hasEffects,
  onlyPureCalls,
  sameLength,
  statementCall,
  templateAround,
  writeStep,
  type CallWrite,
  type CContext,
} from './writes';

/** The terms of a chain of `op` (`||` or `&&`), left to right; one term when `node` is no such chain. */
function terms(node: Node, op: string): Node[] {
  const n = unwrap(node);
  if (n.type === 'binary_expression' && n.childForFieldName('operator')?.text === op) {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left && right) return [...terms(left, op), ...terms(right, op)];
  }
  return [n];
}

/** The strictest of the families (die over report over retry over plain), or undefined if unranked. */
export function strictest(families: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const f of families) {
    const rank = C_FAMILY_STRICTNESS[f];
    if (rank === undefined) return families.every((g) => g === f) ? f : undefined;
    if (best === undefined || rank > (C_FAMILY_STRICTNESS[best] ?? 0)) best = f;
  }
  return best;
}

/**
 * An `if` or `return` whose condition starts with two or more checked writes to one descriptor joined
 * by `||` (each `< 0`, `== -1` or `!= its length`) or by `&&` (each `== its length`). The writes prefix
 * is the sequence; the rest of the chain (`|| close(fd) < 0`) stays after the gathered call.
 */
export function chainStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.hasError) return undefined;
  const cond =
    stmt.type === 'if_statement'
      ? stmt.childForFieldName('condition')
      : stmt.type === 'return_statement'
        ? stmt.namedChild(0)
        : null;
  if (!cond) return undefined;
  const test = unwrap(cond);
  const op = test.type === 'binary_expression' ? test.childForFieldName('operator')?.text : undefined;
  if (op !== '||' && op !== '&&') return undefined;
  const allowed = op === '||' ? ['<0', '==-1', '!=', 'truthy', 'falsy'] : ['=='];
  const writes: { write: CallWrite; call: Node; len?: Node }[] = [];
  const list = terms(test, op);
  const kind = checkOf(list[0]!)?.kind; // terms() returns at least the node itself
  for (const term of list) {
    const check = checkOf(term);
    if (!check || !allowed.includes(check.kind) || check.kind !== kind) break;
    const write = callWrite(check.call, ctx);
    if (!write || write.own || write.syscalls !== undefined) break;
    if (writes.length > 0 && write.target !== writes[0]!.write.target) break;
    if (check.len && !sameLength(check.len.text, write.checkLen)) break;
    writes.push({ write, call: check.call, len: check.len });
  }
  if (writes.length < 2) return undefined;
  const first = writes[0]!;
  const last = writes[writes.length - 1]!;
  const family = strictest(writes.map((w) => w.write.family));
  const all = writes.map((w) => w.write);
  const pieces = all.every((w) => w.pieces) ? all.flatMap((w) => w.pieces as Piece[]) : undefined;
  const fixable = all.every((w) => w.fixable) && family !== undefined && family !== '';
  return {
    kind: 'write',
    span: { start: stmt.startIndex, end: stmt.endIndex },
    target: first.write.target,
    fdText: first.write.fdText,
    targetNames: first.write.targetNames,
    callee: [...new Set(all.map((w) => w.callee))].join('/'),
    family: family ?? first.write.family,
    pieces,
    reads: [...new Set(all.flatMap((w) => w.reads))],
    template: fixable
      ? templateAround(stmt, first.call.startIndex, last.call.endIndex, last.len, ctx.text)
      : undefined,
    syscalls: writes.length,
    calls: writes.map((w) => ({ start: w.call.startIndex, end: w.call.endIndex })),
    chain: true,
    // Tests after the writes (`|| close(fd) < 0`) may end the descriptor's use: nothing joins after.
    alone: writes.length < list.length || stmt.type === 'return_statement',
    noFix: family === undefined ? 'the chained writes belong to different write families' : undefined,
  };
}

/** The single statement of a body (`{ stmt; }` or `stmt`), if it has just one. */
function only(body: Node | null): Node | undefined {
  if (!body) return undefined;
  if (body.type !== 'compound_statement') return body;
  const kids = namedKids(body);
  return kids.length === 1 && body.namedChildren.every((c) => c?.type !== 'comment') ? kids[0] : undefined;
}

/**
 * `if (cond) <write>;` without `else`, where the condition only reads (no calls but pure ones, no
 * assignments): the write runs or not, and a fix can fill its slot of the vector under the same test.
 */
export function conditionalStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type !== 'if_statement' || stmt.hasError || stmt.childForFieldName('alternative'))
    return undefined;
  const cond = stmt.childForFieldName('condition');
  if (!cond || checkOf(cond) || !onlyPureCalls([cond], ctx.pure) || hasEffects(cond)) return undefined;
  const inner = only(stmt.childForFieldName('consequence'));
  const call = inner && statementCall(inner);
  const write = inner && call && writeStep(inner, call, ctx);
  if (!write) return undefined;
  return {
    ...write,
    span: { start: stmt.startIndex, end: stmt.endIndex },
    condition: cond.text,
    calls: write.calls ?? [{ start: call.startIndex, end: call.endIndex }],
    reads: [...new Set([...write.reads, ...identifiers(cond)])],
  };
}
