// A write sends what a call whose body the analyzer never read returned from the values it was given,
// kept first in a local: `magic = to_wire(opts); put(fd, &magic, 8);`.
// Written inline (`put(fd, frame(hdr))`) the call is one of the write's argument calls, taken to do no
// output and named in the finding (see the argumentCalls joiner); kept in a local first, it is the same
// computation, so it is taken the same way: the statement does no output, and the write that sends the
// local says what its run takes for granted. A body found later (another file of the tree) decides
// instead, as it does for argument calls (CContext.unread).
import type { Node } from 'web-tree-sitter';
import type { OtherStep, Step } from '../model';
import { assumedCalls } from '../shapes/assumptions';
import { calleeName, calls, declaredName, namedKids, unwrap } from './syntax';
import { argumentCall, pureTest, type CContext } from './writes';

/**
 * The local `stmt` sets and the call whose value it keeps, when the statement is only that
 * (`x = f(a, b);` or `T x = f(a, b);`): the arguments read values and call pure functions at most.
 */
function keptCall(stmt: Node, ctx: CContext): { name: string; callee: string } | undefined {
  let local: string | undefined;
  let value: Node | null = null;
  if (stmt.type === 'expression_statement') {
    const e = stmt.namedChild(0);
    if (stmt.namedChildCount !== 1 || e?.type !== 'assignment_expression') return undefined;
    if (e.childForFieldName('operator')?.text !== '=') return undefined;
    const left = e.childForFieldName('left');
    if (left?.type !== 'identifier') return undefined;
    local = left.text;
    value = e.childForFieldName('right');
  } else if (stmt.type === 'declaration') {
    const declarators = stmt.childrenForFieldName('declarator');
    const d = declarators[0];
    if (declarators.length !== 1 || d?.type !== 'init_declarator') return undefined;
    local = declaredName(d);
    value = d.childForFieldName('value');
  }
  const call = value ? unwrap(value) : undefined;
  if (!local || call?.type !== 'call_expression') return undefined;
  const callee = calleeName(call);
  if (!callee || argumentCall(call, ctx).kind !== 'assumed') return undefined;
  // A call given nothing computes from state hidden from the caller (a clock, a measurement, input),
  // and may take long: only a computation from the values it is given is taken. Those only read: no
  // assignment, no address taken, no call that is not pure.
  const list = call.childForFieldName('arguments');
  const args = list ? namedKids(list) : [];
  if (args.length === 0) return undefined;
  for (const arg of args) {
    if (
      arg.descendantsOfType(['assignment_expression', 'update_expression', 'pointer_expression']).length > 0
    )
      return undefined;
    if (calls(arg).some((c) => !pureTest(calleeName(c), ctx.pure, c))) return undefined;
  }
  return { name: local, callee };
}

/**
 * Marks, in one statement list's steps, each statement that keeps an unread call's value in a local
 * of the function a later write sends, with only writes between: the statement does no output, and
 * that write names the call it takes for granted. Changes `steps` in place; `statements` are their
 * statements, one a step; `scalars`: the function's locals and parameters of a scalar type.
 */
export function assumedResults(
  statements: readonly Node[],
  steps: Step[],
  locals: ReadonlySet<string>,
  scalars: ReadonlySet<string>,
  ctx: CContext,
): void {
  for (let i = 0; i < statements.length; i++) {
    const step = steps[i];
    if (step?.kind !== 'other' || step.barrier || step.output !== true || step.setsGlobal) continue;
    const stmt = statements[i]!;
    if (stmt.type !== 'expression_statement' && stmt.type !== 'declaration') continue;
    const kept = keptCall(stmt, ctx);
    if (!kept || !locals.has(kept.name)) continue;
    // A buffer of the function's own handed to the call (`n = fill(buf)`) may be changed, or filled
    // by a read: left alone. A global of unknown type is taken as an argument call's would be.
    if ((step.mutated ?? step.writes).some((n) => n !== kept.name && locals.has(n) && !scalars.has(n)))
      continue;
    // The first step after it that reads the local must be a write, and only writes come before it.
    let j = i + 1;
    for (; j < steps.length; j++) {
      const s = steps[j]!;
      if (s.kind === 'other' && s.comment) continue;
      if (s.kind !== 'write' || s.reads.includes(kept.name)) break;
    }
    const reader = steps[j];
    if (reader?.kind !== 'write' || !reader.reads.includes(kept.name)) continue;
    // A write already taking an argument call for granted says so itself; one note per write.
    if (reader.assumes || reader.argumentCalls?.assumed) continue;
    const quiet: OtherStep = { ...step, output: false };
    steps[i] = quiet;
    steps[j] = { ...reader, assumes: assumedCalls([kept.callee]) };
  }
}
