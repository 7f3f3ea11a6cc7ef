// A write the function returns under a test, as the last of a run: `if (len > 0) return put(fd, body,
// len);` after the header's write, and `return failed || put(fd, body, len);` (or `&&`) after a write
// that kept its status in `failed`. On the path where the test holds, the write runs right after the
// writes before it and the function leaves: they are one sequence, which one gathered call could send.
// Where the test fails, the function goes on (or returns the test's outcome) without it, so the write
// joins the run as a write under a condition that ends it (`leaves`), never opening one. A test that
// is the status the write right before kept, tested for its success as that write spells it (see
// gatedWrites.ts `statusGate`), is the run's own failure check, as a gated write's is.
//
// None has a fix: the gathered call would have to stand in a return under the test, with the writes
// before it moved there and their own error handling merged into its result, and `||`/`&&` return a
// truth value where the write returned its status or count.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { returnStep } from './chains';
import { statusGate } from './gatedWrites';
import { identifiers, namedKids, unwrap } from './syntax';
import { callWrite, checkOf, readsOnly, sameLength, stepFields, type CContext } from './writes';

const TESTED =
  'the last write is returned under a test: a gathered call would have to stand in that return, with the writes before it';

const JOINED =
  'the last write is a term of the returned condition: a gathered call would have to stand in that return, with the writes before it';

/** The single statement of a body (`{ stmt; }` or `stmt`), comments aside. */
function only(body: Node | null): Node | undefined {
  if (!body || body.type !== 'compound_statement') return body ?? undefined;
  const kids = namedKids(body).filter((c) => c.type !== 'comment');
  return kids.length === 1 ? kids[0] : undefined;
}

/** The terms of a chain of `op` (`||` or `&&`), left to right, parentheses read through. */
function terms(node: Node, op: string): Node[] {
  const n = unwrap(node);
  const left = n.childForFieldName('left');
  const right = n.childForFieldName('right');
  if (n.type !== 'binary_expression' || n.childForFieldName('operator')?.text !== op || !left || !right)
    return [n];
  return [...terms(left, op), ...terms(right, op)];
}

/**
 * `if (<test>) return <write>;` without `else`, the return one a run may end with (see chains.ts
 * `returnStep`): the write under the test, leaving. The test only reads, or is the status the write
 * right before kept, tested for its success.
 */
function testedReturn(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.hasError || stmt.childForFieldName('alternative')) return undefined;
  const cond = stmt.childForFieldName('condition');
  const inner = only(stmt.childForFieldName('consequence'));
  if (!cond || inner?.type !== 'return_statement') return undefined;
  const write = returnStep(inner, ctx);
  if (!write) return undefined;
  const gate = statusGate(cond, stmt, ctx, true);
  if (!gate && !readsOnly(cond, ctx.pure)) return undefined;
  if (gate && (write.reads.includes(gate) || write.targetNames.includes(gate))) return undefined;
  return {
    ...write,
    span: { start: stmt.startIndex, end: stmt.endIndex },
    calls: write.calls ?? [{ start: inner.startIndex, end: inner.endIndex }],
    condition: cond.text,
    reads: [...new Set([...write.reads, ...identifiers(cond)])],
    template: undefined,
    noFix: write.noFix ?? TESTED,
    ...(gate && { gate }),
  };
}

/**
 * `return <terms> || <write>;` (or `&&`): the write runs only where every term before it is false (or
 * true), and the function returns either way. Each term only reads; one term alone may be the status
 * the write right before kept, tested for that write's failure (`||`) or success (`&&`).
 */
function joinedReturn(stmt: Node, ctx: CContext): WriteStep | undefined {
  const value = stmt.namedChild(0);
  const bare = value ? unwrap(value) : undefined;
  const op = bare?.type === 'binary_expression' ? bare.childForFieldName('operator')?.text : undefined;
  if (!bare || (op !== '||' && op !== '&&')) return undefined;
  const before = terms(bare, op);
  const last = before.pop();
  const check = last && checkOf(last, ctx.codes);
  if (!check || check.assigned || before.length === 0) return undefined;
  const write = callWrite(check.call, ctx);
  if (!write || write.own) return undefined;
  if (check.len && !sameLength(check.len.text, write.checkLen)) return undefined;
  // What the write's result is compared with runs after it: it must only read.
  if (check.len && !readsOnly(check.len, ctx.pure)) return undefined;
  const gate = before.length === 1 ? statusGate(before[0]!, stmt, ctx, op === '&&') : undefined;
  if (!gate && !before.every((t) => readsOnly(t, ctx.pure))) return undefined;
  if (gate && (write.reads.includes(gate) || write.targetNames.includes(gate))) return undefined;
  const tested = before.map((t) => t.text).join(` ${op} `);
  const reads = new Set(write.reads);
  for (const t of before) identifiers(t, reads);
  return {
    kind: 'write',
    ...stepFields(write),
    span: { start: stmt.startIndex, end: stmt.endIndex },
    calls: [{ start: check.call.startIndex, end: check.call.endIndex }],
    condition: op === '&&' ? `(${tested})` : `!(${tested})`,
    reads: [...reads],
    noFix: write.noFix ?? JOINED,
    leaves: true,
    ...(gate && { gate }),
  };
}

/**
 * A write returned under a test as the last of a run (see the file comment): `if (<test>) return
 * <write>;` or `return <terms> || <write>;`. Undefined for any other statement.
 */
export function returnedStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type === 'if_statement') return testedReturn(stmt, ctx);
  if (stmt.type === 'return_statement' && !stmt.hasError) return joinedReturn(stmt, ctx);
  return undefined;
}
