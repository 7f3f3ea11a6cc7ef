// Writes checked one after another in an else-if chain: `if (write(fd, &n, 4) < 0) r = -1; else if
// (write(fd, s, n) < 0) r = -1;`, or the same with the second test alone in the else block. Each write
// runs only when the one before it succeeded, as in a `||` chain of checks, but each failure has its own
// arm: a gathered call has one failure path, so the sequence is reported without a fix.
import type { Node } from 'web-tree-sitter';
import { strictest } from '../cTemplates';
import type { Piece, WriteStep } from '../model';
import { libraryWaits } from '../catalogue';
import { callArgs, calleeName, calls, canonicalTarget, namedKids, unwrap } from './syntax';
import { assignedTruth, callWrite, checkOf, sameLength, type CallWrite, type CContext } from './writes';

/** Check kinds that say the write failed (its arm handles the failure; the else goes on). */
const FAILED = new Set(['<0', '<=0', '==-1', '!=', 'truthy', 'falsy']);

const OWN_ARMS =
  'each write is tested in its own else-if arm with its own failure handling; gathering them means one test of the total';

/** The one statement of an else clause: `else if (...)`, or `else { if (...) }` with nothing else. */
function elseStatement(stmt: Node): Node | undefined {
  const clause = stmt.childForFieldName('alternative');
  const inner = clause?.namedChild(0);
  if (!inner) return undefined;
  if (inner.type !== 'compound_statement') return inner;
  const kids = namedKids(inner);
  return kids.length === 1 && kids[0]!.type !== 'comment' ? kids[0] : undefined;
}

/** The operands of a test's `||`s, in order (`a || b || c` gives `a`, `b`, `c`), parentheses aside. */
function disjuncts(test: Node): Node[] {
  const t = unwrap(test);
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  if (t.type !== 'binary_expression' || t.childForFieldName('operator')?.text !== '||' || !left || !right)
    return [t];
  return [...disjuncts(left), ...disjuncts(right)];
}

/**
 * Whether `term`, tested before a link's write (`ok < 0 || write(fd, ...) != n`), neither does output
 * nor changes anything the writes read: it assigns nothing, and it calls only pure functions, or
 * functions that do no output handed the written descriptor `target` (a wait for it to take output,
 * see writableWaits.ts; a library wait is none of these). Its failure shares the link's arm.
 */
function quietTerm(term: Node, target: string, ctx: CContext): boolean {
  if (term.descendantsOfType(['assignment_expression', 'update_expression']).length > 0) return false;
  return calls(term).every((call) => {
    const name = calleeName(call);
    if (!name || ctx.functions.has(name) || ctx.wrappers.has(name) || ctx.macros?.has(name)) return false;
    if (libraryWaits(name) || ctx.waits?.(name)) return false;
    if (ctx.pure.has(name)) return true;
    const args = callArgs(call);
    // A wait for output is handed the written descriptor in the place of the one it waits on.
    const waited = ctx.writableWaits?.(name);
    if (waited !== undefined) return ctx.quiet(name) && canonicalTarget(args[waited]?.text ?? '') === target;
    return ctx.quiet(name) && args.some((a) => canonicalTarget(a.text) === target);
  });
}

/** The write a link of the chain checks for failure, if its test is exactly that. */
function failedWrite(stmt: Node, ctx: CContext): { write: CallWrite; call: Node; kept?: string } | undefined {
  if (stmt.type !== 'if_statement' || stmt.hasError) return undefined;
  const cond = stmt.childForFieldName('condition');
  // Terms tested before the write (`ready(fd) < 0 || write(fd, ...) != n`) send the link to its
  // failure arm as the write's failure does: the else still runs only after the write succeeded.
  const terms = cond ? disjuncts(cond) : [];
  const last = terms.length > 1 ? terms[terms.length - 1] : cond;
  const check = last ? checkOf(last, ctx.codes) : undefined;
  if (!check || !FAILED.has(check.kind)) return undefined;
  const write = callWrite(check.call, ctx);
  if (!write || write.own || write.syscalls !== undefined) return undefined;
  if (terms.length > 1 && !terms.slice(0, -1).every((t) => quietTerm(t, write.target, ctx))) return undefined;
  // A status helper's bare call is true when it succeeded: its else arm is the failure.
  if ((write.truthyOnSuccess && check.kind === 'truthy') || assignedTruth(check, write)) return undefined;
  if (check.len && !sameLength(check.len.text, write.checkLen)) return undefined;
  const kept = check.assigned?.text;
  if (kept && write.targetNames.includes(kept)) return undefined;
  return { write, call: check.call, kept };
}

/**
 * An if/else-if chain of two or more failure checks of writes to one descriptor, each further write in
 * the else of the one before; the last may have no else (one that does something else makes the step a
 * run of its own). Undefined for anything else.
 */
export function elseChainStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type !== 'if_statement' || !stmt.childForFieldName('alternative')) return undefined;
  const links: { write: CallWrite; call: Node; kept?: string }[] = [];
  let at: Node | undefined = stmt;
  let rest: Node | undefined;
  while (at) {
    const link = failedWrite(at, ctx);
    if (!link || (links.length > 0 && link.write.target !== links[0]!.write.target)) {
      rest = at;
      break;
    }
    links.push(link);
    const next = elseStatement(at);
    if (!next && at.childForFieldName('alternative')) rest = at;
    at = next;
  }
  if (links.length < 2) return undefined;
  const all = links.map((l) => l.write);
  const first = all[0]!;
  const family = strictest(all.map((w) => w.family));
  const pieces = all.every((w) => w.pieces) ? all.flatMap((w) => w.pieces as Piece[]) : undefined;
  const assigns = links.flatMap((l) => (l.kept ? [l.kept] : []));
  return {
    kind: 'write',
    span: { start: stmt.startIndex, end: stmt.endIndex },
    target: first.target,
    fdText: first.fdText,
    targetNames: first.targetNames,
    callee: [...new Set(all.map((w) => w.callee))].join('/'),
    family: family ?? first.family,
    pieces,
    reads: [...new Set(all.flatMap((w) => w.reads))],
    syscalls: links.length,
    calls: links.map((l) => ({ start: l.call.startIndex, end: l.call.endIndex })),
    chain: true,
    // An else that does more than the next check runs after the writes: nothing joins after it.
    alone: rest !== undefined || undefined,
    noFix: family === undefined ? 'the chained writes belong to different write families' : OWN_ARMS,
    assigns: assigns.length > 0 ? assigns : undefined,
    ...(all.some((w) => w.assumed) && { assumed: true }),
  };
}
