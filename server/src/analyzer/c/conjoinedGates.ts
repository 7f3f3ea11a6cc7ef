// A gate spelled as the helper's own success, and a gate that is one term of a conjunction: `if (ret
// == 0 && body != NULL) ret = put(fd, body, n);` after `ret = put(fd, hdr, m);`, where put returns 0 on
// success; `if (rc == ST_OK && ...)` where the file or its headers define ST_OK as 0; `if (r == n) r =
// write(fd, b, m);` after `r = write(fd, a, n);` (a full write tested by its count). C evaluates `&&`
// left to right and stops at the first false term, so where the other terms only read (calls only to
// functions known to be pure, no assignment, nothing either write is handed by address, not the status
// itself), the write runs exactly when the write before succeeded and those terms hold: the gate is
// the run's failure check, as gatedWrites.ts reads `!= -1`, and the other terms are the write's own
// condition. A test that the write before failed (`ret != 0`, `r == 0` of a plain write) is no gate.
import type { Node } from 'web-tree-sitter';
import { keptIn } from './chains';
import { codeText } from './statusConstants';
import { identifiers, namedKids, plainAssignment, unwrap } from './syntax';
import { callWrite, readsOnly, sameLength, type CallWrite, type CContext } from './writes';

/** A gate found in a test: the status variable, and the test's other terms (empty: none). */
export interface ConjoinedGate {
  readonly name: string;
  readonly rest: readonly Node[];
  /**
   * The write before runs under a test of its own, and the status held 0, a success, before it: where
   * that test fails the gate holds all the same (`int ret = 0; if (hdr) ret = put(...); if (ret == 0
   * && body) ret = put(...);`).
   */
  readonly held?: true;
}

/** The terms of a chain of `&&` (parentheses around each read through), in order. */
function conjuncts(test: Node): Node[] {
  const t = unwrap(test);
  if (t.type !== 'binary_expression' || t.childForFieldName('operator')?.text !== '&&') return [t];
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  return left && right ? [...conjuncts(left), ...conjuncts(right)] : [t];
}

/** `name == value` or `value == name`: the text compared with, or undefined for any other test. */
function comparedWith(term: Node, name: string): Node | undefined {
  if (term.type !== 'binary_expression' || term.childForFieldName('operator')?.text !== '==')
    return undefined;
  const left = term.childForFieldName('left');
  const right = term.childForFieldName('right');
  if (!left || !right) return undefined;
  const named = (n: Node) => unwrap(n).type === 'identifier' && unwrap(n).text === name;
  return named(left) ? right : named(right) ? left : undefined;
}

/**
 * The call whose result the statement before `stmt` keeps, and where: `name = put(...);`, `int name =
 * put(...);`, or an `if` without `else` whose body is that one statement (`test`: the link before in a
 * chain of gates, or a write under a test of its own). Comments between are skipped.
 */
function keptBefore(stmt: Node): { call: Node; result: string; stmt: Node; test?: Node } | undefined {
  let prev = stmt.previousNamedSibling;
  while (prev?.type === 'comment') prev = prev.previousNamedSibling;
  if (!prev) return undefined;
  const kept = keptIn(prev);
  if (kept) return { ...kept, stmt: prev };
  if (prev.type !== 'if_statement' || prev.childForFieldName('alternative')) return undefined;
  const test = prev.childForFieldName('condition');
  const body = prev.childForFieldName('consequence');
  const inner =
    body?.type === 'compound_statement' ? namedKids(body).filter((k) => k.type !== 'comment') : [body];
  const inside = inner.length === 1 && inner[0] ? keptIn(inner[0]) : undefined;
  return inside && test ? { ...inside, stmt: prev, test } : undefined;
}

/**
 * True when `name` holds 0 (or a name defined as 0) where `stmt` starts: the last statement before it
 * in its block that names `name` sets it so (`int ret = 0;`), with no label between (a jump could
 * arrive there), and the function never takes its address (a call could change it).
 */
function zeroBefore(stmt: Node, name: string, ctx: CContext): boolean {
  let fn: Node | null = stmt.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  const body = fn?.childForFieldName('body');
  if (!body || addressed(body).has(name)) return false;
  for (let s = stmt.previousNamedSibling; s; s = s.previousNamedSibling) {
    if (s.type === 'comment') continue;
    if (s.type === 'labeled_statement') return false;
    const set = plainAssignment(s);
    if (set?.name === name) return codeText(unwrap(set.value).text.replace(/\s+/g, ''), ctx.codes) === '0';
    if (identifiers(s).has(name)) return false;
  }
  return false;
}

/**
 * Whether `term` tests `name` for the success of `before`, the write whose result it holds, as that
 * write spells success: `== 0` (or a name defined as 0) for a helper returning 0 on success, `== len`
 * for a plain write given `len`.
 */
function ownSuccess(term: Node, name: string, before: CallWrite, ctx: CContext): boolean {
  const value = comparedWith(term, name);
  if (!value) return false;
  if (before.zeroOnSuccess) return codeText(value.text.replace(/\s+/g, ''), ctx.codes) === '0';
  return !before.wrapper && before.syscalls === undefined && sameLength(value.text, before.checkLen);
}

/** Names passed by address in a call's arguments (`&done`): what the call may change. */
function addressed(call: Node): Set<string> {
  const into = new Set<string>();
  for (const n of call.descendantsOfType('pointer_expression'))
    if (n?.childForFieldName('operator')?.text === '&') {
      const arg = n.childForFieldName('argument');
      if (arg) identifiers(arg, into);
    }
  return into;
}

/**
 * The gate of `stmt` (`if (<test>) <kept> = <write>;`) on `kept.result` when its test is a conjunction
 * (or a single term) one term of which tests the result for the success of the write that kept it
 * just before (`tested` says whether a term is one of the forms gatedWrites.ts knows, or see
 * {@link ownSuccess}), and whose other terms only read and read neither the status nor anything the two
 * writes are handed by address. Undefined otherwise.
 */
export function conjoinedGate(
  stmt: Node,
  test: Node,
  kept: { call: Node; result: string },
  write: CallWrite,
  ctx: CContext,
  tested: (term: Node) => string | undefined,
): ConjoinedGate | undefined {
  const terms = conjuncts(test);
  const prev = keptBefore(stmt);
  const before = prev?.result === kept.result ? callWrite(prev.call, ctx) : undefined;
  const gateAt = terms.findIndex(
    (t) => tested(t) === kept.result || (!!before && ownSuccess(t, kept.result, before, ctx)),
  );
  if (gateAt < 0) return undefined;
  const rest = terms.filter((_, i) => i !== gateAt);
  // Only a zero status tested as the helper's own success (`== 0`) is known to hold where the write
  // before did not run.
  const held =
    !!prev?.test &&
    !!before?.zeroOnSuccess &&
    ownSuccess(terms[gateAt]!, kept.result, before, ctx) &&
    !identifiers(prev.test).has(kept.result) &&
    readsOnly(prev.test, ctx.pure) &&
    zeroBefore(prev.stmt, kept.result, ctx);
  const gate = { name: kept.result, rest, ...(held && { held: true as const }) };
  if (rest.length === 0) return gate;
  // The write before not at hand (a macro gate, a statement between): what it changes is not known.
  if (!prev || !before) return undefined;
  const changed = addressed(kept.call);
  for (const n of addressed(prev.call)) changed.add(n);
  changed.add(kept.result);
  for (const n of write.targetNames) changed.add(n);
  for (const t of rest) {
    if (!readsOnly(t, ctx.pure)) return undefined;
    for (const n of identifiers(t)) if (changed.has(n)) return undefined;
  }
  return gate;
}
