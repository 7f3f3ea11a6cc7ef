// `if ((p = getenv("HTTP_USER_AGENT")) != NULL) put_line(fd, p);`: a test that keeps what it tests in a
// variable of the function, an optional line between a request's fixed lines. The test runs before the
// write, as a call in the write's arguments would: when all it does besides reading is assign the
// function's own variables from calls that do no output, the write joins a run as a write with such
// calls in its arguments does (without a fix), unless it assigns what an earlier write sent.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { argumentCall, type CContext } from './writes';
import { callArgs, calls, identifiers } from './syntax';

/**
 * What the test `cond` does before its write when its only effects are plain assignments (`=`) of
 * names in `locals` and its calls are known to do no output (pure, or quiet by their bodies): those
 * calls, and the names it changes (the names assigned, and those given to
 * the calls). Undefined when it does anything else (an update, an assignment through a pointer or of a
 * global, a call that may do I/O or whose body is not in view). Reads `cond` only.
 */
export function assigningTest(
  cond: Node,
  ctx: CContext,
  locals: ReadonlySet<string>,
): NonNullable<WriteStep['argumentCalls']> | undefined {
  const changes: string[] = [];
  for (const e of cond.descendantsOfType(['update_expression', 'assignment_expression'])) {
    if (e?.type !== 'assignment_expression' || e.childForFieldName('operator')?.text !== '=')
      return undefined;
    const left = e.childForFieldName('left');
    if (left?.type !== 'identifier' || !locals.has(left.text)) return undefined;
    changes.push(left.text);
  }
  if (changes.length === 0) return undefined;
  const called: string[] = [];
  for (const call of calls(cond)) {
    const what = argumentCall(call, ctx);
    if (what.kind === 'pure') continue;
    // A test whose call has no body in view may be the question a protocol asks between its lines.
    if (what.kind !== 'quiet') return undefined;
    called.push(what.name);
    for (const arg of callArgs(call)) for (const n of identifiers(arg)) changes.push(n);
  }
  return { calls: called, changes };
}
