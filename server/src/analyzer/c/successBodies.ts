// A write tested for success with the writes that follow it inside the test's body: `if (send_all(fd,
// hdr, n) == 0) { send_all(fd, body, m); ... }`, `if (write(fd, a, la) == la) { write(fd, b, lb); }`.
// The body runs only where the first write sent everything, as the next term of `write(a) == la &&
// write(b) == lb` does: the writes are one sequence, in the order they run. One gathered call would
// have to stand in the test and send the body's bytes too, which changes the statement around it, so
// the run is reported without a fix.
import type { Node } from 'web-tree-sitter';
import type { WriteStep } from '../model';
import { callWrite, checkOf, SUCCESS_CHECKS, writeStep, type CContext } from './writes';

const NO_FIX =
  "the first write is the test of the if around the others: a gathered call would have to send the body's bytes in that test";

/**
 * The write step an `if` without `else` tests for success (see the file comment), to open the run of
 * its body; undefined for any other `if`. A status helper's success is its own: `== 0` or `!put(...)`
 * for one returning 0 on success, the bare call for one returning non-zero on success.
 */
export function successLead(stmt: Node, ctx: CContext): WriteStep | undefined {
  if (stmt.type !== 'if_statement' || stmt.childForFieldName('alternative') || stmt.hasError)
    return undefined;
  const cond = stmt.childForFieldName('condition');
  const body = stmt.childForFieldName('consequence');
  if (!cond || !body) return undefined;
  const check = checkOf(cond, ctx.codes);
  if (!check) return undefined;
  const write = callWrite(check.call, ctx);
  if (!write || write.own || write.syscalls !== undefined) return undefined;
  const succeeds = write.truthyOnSuccess
    ? check.kind === 'truthy'
    : write.zeroOnSuccess
      ? check.kind === 'falsy'
      : SUCCESS_CHECKS.has(check.kind);
  if (!succeeds) return undefined;
  const step = writeStep(stmt, check.call, ctx);
  if (!step) return undefined;
  return {
    ...step,
    span: { start: stmt.startIndex, end: cond.endIndex },
    template: undefined,
    noFix: step.noFix ?? NO_FIX,
  };
}
