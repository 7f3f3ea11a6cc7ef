// A write tested for success with the writes that follow it inside the test's body: `if (send_all(fd,
// hdr, n) == 0) { send_all(fd, body, m); ... }`, `if (write(fd, a, la) == la) { write(fd, b, lb); }`.
// The body runs only where the first write sent everything, as the next term of `write(a) == la &&
// write(b) == lb` does: the writes are one sequence, in the order they run. One gathered call would
// have to stand in the test and send the body's bytes too, which changes the statement around it, so
// the run is reported without a fix.
//
// The test's write runs where the if stands, after the writes before it: `if (!put(fd, a)) goto out;
// if (put(fd, b)) { put(fd, c); }` is one run of three. So in the enclosing block the if is a branch
// whose arm the test's write opens, and whose test, that write aside, only reads: the writes before it
// may run on into the arm, as into any `if` without `else`. Only an arm that writes: a body that
// records the success (`ok++`, `last_ok = 1`) is state the run would have to cross.
import type { Node } from 'web-tree-sitter';
import type { Arm, BranchStep, Span, Step, WriteStep } from '../model';
import { conjoinedSuccess } from './successConjunctions';
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
  // `if (put(fd, a) == 0 && mode != HEAD)`: the first term's write (see successConjunctions.ts).
  const check = checkOf(cond, ctx.codes) ?? checkOf(conjoinedSuccess(cond, ctx.pure) ?? cond, ctx.codes);
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

/**
 * The step, in the enclosing block, of an `if` whose test `lead` checks for success (see the file
 * comment): a partial branch whose one arm starts with `lead`, so the writes before the if may join
 * it. `arms`: the if's one arm as read; `reads`: the names its condition reads. Undefined when the arm
 * writes nothing (see the file comment). Does not modify `arms`.
 */
export function successBranch(
  span: Span,
  cond: Node,
  lead: WriteStep,
  arms: readonly Arm[],
  reads: readonly string[],
): BranchStep | undefined {
  const [arm] = arms;
  if (!arm || !writes(arm.steps)) return undefined;
  return {
    kind: 'branch',
    span,
    arms: [{ steps: [lead, ...arm.steps], declares: arm.declares }],
    tests: reads,
    partial: { condition: cond.text },
  };
}

/** True when a write is among `steps`, or in a branch or loop among them. */
function writes(steps: readonly Step[]): boolean {
  return steps.some((s) =>
    s.kind === 'write'
      ? true
      : s.kind === 'branch'
        ? s.arms.some((a) => writes(a.steps))
        : s.kind === 'loop'
          ? writes(s.body)
          : false,
  );
}
