// A write tested after a comma expression computes its operand first: `if ((i = htonl(n),
// write(fd, &i, sizeof i)) != sizeof i)`. The parts before the last operand (the prelude) run right
// before the write, so the write is a checked write like any other, and its prelude is computation
// between it and the writes before it: a later write may join a run when its prelude does no I/O and
// changes nothing an earlier write sent (`i` reassigned before a second write of `&i` ends the run,
// as the first write's bytes would otherwise change). No fix: the vector would be filled before the
// prelude runs, and a gathered call would run every prelude before the first byte goes out.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { calls, identifiers, namedKids, rootName, unwrap } from './syntax';
import { argumentCall, checkOf, SUCCESS_CHECKS, writeStep, type CContext } from './writes';

/** Why a write computed in a comma expression has no fix. */
export const COMMA_PRELUDE =
  'a comma expression in the test computes a value right before the write; one gathered call would need that computation moved before the vector is filled, by hand';

/** What the nodes assign or increment: the variables they are rooted in, or null for a store through a pointer. */
function assignedNames(node: Node): string[] | null {
  const names: string[] = [];
  for (const n of node.descendantsOfType(['assignment_expression', 'update_expression'])) {
    if (!n) continue;
    const target =
      n.type === 'assignment_expression' ? n.childForFieldName('left') : n.childForFieldName('argument');
    const at = target ? unwrap(target) : undefined;
    // `*p = x` or `p[i] = x` may store into any buffer p points at, which the names alone cannot tell.
    if (!at || (at.type !== 'identifier' && at.type !== 'field_expression')) return null;
    if (at.type === 'field_expression' && at.text.includes('->')) return null;
    const root = rootName(at);
    if (!root) return null;
    names.push(root);
  }
  return names;
}

/**
 * What evaluating a write's prelude does, in the shape of a write's argument calls (see
 * argumentCalls.ts): the calls it makes to functions that do no output, and the names it may change
 * (what it assigns, and what it hands those calls); `io` when it calls something that may do output,
 * or stores through a pointer.
 */
export function preludeEffects(
  prelude: readonly Node[],
  ctx: CContext,
): NonNullable<WriteStep['argumentCalls']> {
  const found = { calls: [] as string[], changes: [] as string[], assumed: [] as string[], io: false };
  for (const part of prelude) {
    const assigned = assignedNames(part);
    if (assigned === null) found.io = true;
    else found.changes.push(...assigned);
    for (const call of calls(part)) {
      const what = argumentCall(call, ctx);
      if (what.kind === 'pure') continue;
      if (what.kind === 'io') found.io = true;
      // A named call is a computation the later steps may change the inputs of, I/O or not.
      if (what.name === undefined) continue;
      found.calls.push(what.name);
      if (what.kind === 'assumed') found.assumed.push(what.name);
      const list = call.childForFieldName('arguments');
      for (const arg of list ? namedKids(list) : []) for (const n of identifiers(arg)) found.changes.push(n);
    }
  }
  return {
    calls: found.calls,
    changes: found.changes,
    ...(found.io && { io: true }),
    ...(found.assumed.length > 0 && { assumed: found.assumed }),
  };
}

/** The names a prelude reads (a later step that changes one of them changes what the write sends). */
export function preludeReads(prelude: readonly Node[]): string[] {
  const names = new Set<string>();
  for (const part of prelude) identifiers(part, names);
  return [...names];
}

/** A write's argument calls with its prelude's effects added (the prelude runs just before them). */
export function withPrelude(
  own: WriteStep['argumentCalls'],
  prelude: NonNullable<WriteStep['argumentCalls']>,
): NonNullable<WriteStep['argumentCalls']> {
  const assumed = [...(own?.assumed ?? []), ...(prelude.assumed ?? [])];
  return {
    calls: [...(own?.calls ?? []), ...prelude.calls],
    changes: [...(own?.changes ?? []), ...prelude.changes],
    ...((own?.io || prelude.io) && { io: true }),
    ...(assumed.length > 0 && { assumed }),
  };
}

/**
 * `if ((i = htonl(n), write(fd, &i, sizeof i)) != sizeof i) handler`: the checked write, with its
 * prelude as computation it makes before the call (no fix), or undefined for any other statement.
 */
export function commaStep(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type !== 'if_statement' || stmt.hasError || stmt.childForFieldName('alternative'))
    return undefined;
  const cond = stmt.childForFieldName('condition');
  const check = cond ? checkOf(cond, ctx.codes, true) : undefined;
  const prelude = check?.prelude;
  if (!check || !prelude || SUCCESS_CHECKS.has(check.kind)) return undefined;
  // A prelude that may do anything still runs before the write: the write may open a run, never join one.
  const write =
    writeStep(stmt, check.call, ctx, false, check) ?? writeStep(stmt, check.call, ctx, true, check);
  if (!write) return undefined;
  return {
    ...write,
    calls: write.calls ?? [{ start: check.call.startIndex, end: check.call.endIndex }],
    reads: [...new Set([...write.reads, ...preludeReads(prelude)])],
    argumentCalls: withPrelude(write.argumentCalls, preludeEffects(prelude, ctx)),
    noFix: write.noFix ?? COMMA_PRELUDE,
  };
}
