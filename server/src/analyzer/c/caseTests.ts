// The test each arm of a switch runs under. A write in a case arm runs where the switch's value equals
// one of the arm's labels (`default`: none of the switch's labels), not merely "in one arm": with that
// test, a write before the switch under a test of the same value (`if (kind != K_NONE) write(head);`)
// is known to run wherever the arm's write runs when no label of the arm is K_NONE, and the two make
// a run on that path (see shapes/joiners/caseImplications.ts). Only a switch whose cases each end in
// `break` (or are the last) gets tests: a case falling through into the next runs under either label,
// and a label under `#if` may or may not be compiled.
import type { Arm, CaseTest } from '../model';
import type { Case } from './switchCases';
import { integerConstants } from './statusConstants';
import { identifiers } from './syntax';
import type { Node } from 'web-tree-sitter';

/** An integer literal's value (`0x10`, `3u`, `-1`), or undefined (an octal spelling among them). */
function literalValue(text: string): number | undefined {
  const m = /^(-?)(0[xX][\da-fA-F]+|0|[1-9]\d*)[uUlL]*$/.exec(text);
  return m ? (m[1] ? -1 : 1) * Number(m[2]) : undefined;
}

/**
 * A constant as tests compare it: the decimal text of the integer `values` or the literal gives it,
 * the text without whitespace or outer parentheses otherwise.
 */
export function canonicalConstant(text: string, values: ReadonlyMap<string, number>): string {
  let t = text.replace(/\s+/g, '');
  while (/^\(.*\)$/.test(t)) t = t.slice(1, -1);
  const named = values.get(t);
  if (named !== undefined) return String(named);
  const literal = literalValue(t);
  return literal === undefined ? t : String(literal);
}

/**
 * `arms` (as caseArms.ts built them from `cases`, one per case with statements, in order) each with
 * its {@link CaseTest}, or `arms` unchanged when some case falls through into the next, a label is
 * under `#if`, `default` shares its statements with a label, or an arm assigns (or takes the address
 * of) a name the value reads: a test after the switch would read another value. `value` is the
 * switch's parenthesised condition, `body` its body, `text` the file's.
 */
export function withCaseTests(
  cases: readonly Case[],
  arms: readonly Arm[],
  value: Node,
  body: Node,
  text: string,
): readonly Arm[] {
  const at = body.startIndex;
  if (!arms.some((a) => a.steps.some((s) => s.kind === 'write' || s.kind === 'branch'))) return arms;
  // A value that calls or assigns is no value a test before the switch read.
  if (value.descendantsOfType(['call_expression', 'assignment_expression', 'update_expression']).length > 0)
    return arms;
  const values = integerConstants(text);
  const all: string[] = [];
  const groups: { labels: string[]; otherwise: boolean }[] = [];
  let pending: string[] = [];
  let pendingDefault = false;
  for (const [i, c] of cases.entries()) {
    if (!c.isDefault && c.label === undefined) return arms;
    if (c.label !== undefined) {
      const label = canonicalConstant(c.label, values);
      all.push(label);
      pending.push(label);
    } else pendingDefault = true;
    const real = c.statements.filter((s) => s.type !== 'comment');
    if (real.length === 0) continue;
    if (real[real.length - 1]!.type !== 'break_statement' && i !== cases.length - 1) return arms;
    if (pendingDefault && pending.length > 0) return arms;
    groups.push({ labels: pending, otherwise: pendingDefault });
    pending = [];
    pendingDefault = false;
  }
  if (groups.length !== arms.length) return arms;
  const reads = [...identifiers(value)];
  if (changesAny(body, reads)) return arms;
  let subject = value.text.replace(/\s+/g, '');
  while (/^\(.*\)$/.test(subject)) subject = subject.slice(1, -1);
  return arms.map((arm, i) => {
    const g = groups[i]!;
    const test: CaseTest = g.otherwise
      ? { subject, reads, labels: all, otherwise: true, at, values }
      : { subject, reads, labels: g.labels, at, values };
    return { ...arm, test };
  });
}

/** True when `body` assigns, increments or takes the address of one of `names`. */
function changesAny(body: Node, names: readonly string[]): boolean {
  for (const id of body.descendantsOfType('identifier')) {
    if (!id || !names.includes(id.text)) continue;
    let top = id;
    while (
      top.parent &&
      (top.parent.type === 'field_expression' || top.parent.type === 'subscript_expression')
    )
      top = top.parent;
    const up = top.parent;
    if (!up) continue;
    if (up.type === 'update_expression') return true;
    if (up.type === 'assignment_expression' && up.childForFieldName('left')?.id === top.id) return true;
    if (up.type === 'pointer_expression' && up.text.trimStart().startsWith('&')) return true;
  }
  return false;
}
