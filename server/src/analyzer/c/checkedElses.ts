// A checked write whose `else` is its success path: `if (send_all(c, s, n) < 0) fail(c); else sent +=
// n;`, `if (write(fd, b, n) != n) return -1; else { total += n; crc = update(crc, b, n); }`, or the
// test the other way round (`if (write(fd, b, n) == n) total += n; else return -1;`). Without the
// `else`, the statement is a write with its failure handling, and the statements after it are the next
// steps of the block. With it, the success arm is those next steps: it runs right after the write, on
// the only path where the writes after the if can join this one without a failure between. So the if
// reads as a branch of one arm, always taken where the code goes on, made of the write and then the
// success arm's statements; a run may pass through it as through any arm that computes (an accounting
// update, the next length), and stops where the success arm does I/O or changes what was sent.
//
// The failure arm is where it was: the write's own error handling, as for the if without `else`. A
// gathered call would have to keep both arms around the whole vector, so the run is reported without a
// fix.
import type { Node } from 'web-tree-sitter';
import type { Arm, BranchStep, WriteStep } from '../model';
import { identifiers } from './syntax';
import { callWrite, checkOf, SUCCESS_CHECKS, writeStep, type CallWrite, type CContext } from './writes';

const NO_FIX =
  "the write's test has an else arm that runs on its success: a gathered call would have to keep both arms around every write";

/** How a caller reads the statements of an arm (its steps, and the blocks nested in them). */
export interface ArmReader {
  /**
   * Reads `statements` as an arm of a branch; with `lead`, the arm's own block starts with that write
   * (the test's, which runs right before the arm), so the runs within the arm open at it.
   */
  readonly arm: (statements: readonly Node[], lead?: WriteStep) => Arm;
  /** Reads `statements` as a block of their own, for the runs inside them. */
  readonly block: (statements: readonly Node[]) => void;
  /** The statements of a body: a `{ }` block's, or the single statement. */
  readonly body: (node: Node | null) => readonly Node[];
}

/**
 * The step of `if (<checked write>) A; else B;` (see the file comment): a branch whose one arm is the
 * write followed by the success arm's steps; undefined for any other statement, and when the test is
 * no check of a write the analyzer reads (then the if stays the branch it was). Reads the failure arm
 * as a block of its own through `reader`.
 */
export function checkedElseStep(stmt: Node, ctx: CContext, reader: ArmReader): BranchStep | undefined {
  if (stmt.type !== 'if_statement' || stmt.hasError) return undefined;
  const cond = stmt.childForFieldName('condition');
  const then = stmt.childForFieldName('consequence');
  const otherwise = stmt.childForFieldName('alternative')?.namedChild(0);
  if (!cond || !then || !otherwise) return undefined;
  const check = checkOf(cond, ctx.codes);
  if (!check) return undefined;
  const write = callWrite(check.call, ctx);
  if (!write) return undefined;
  const { succeeds, success, failure } = armsBySuccess(write, check.kind, then, otherwise);
  const step = writeStep(stmt, check.call, ctx);
  if (!step) return undefined;
  const lead = {
    ...step,
    span: { start: stmt.startIndex, end: succeeds ? cond.endIndex : then.endIndex },
    template: undefined,
    noFix: step.noFix ?? NO_FIX,
  };
  return successBranch(stmt, stmt, lead, success, failure, reader);
}

/**
 * Which arm of `if (<test>) then; else otherwise;` runs where the tested write succeeded, as the
 * callee's results say (successBodies.ts reads a status helper's test the same way): a truth test of a
 * helper returning non-zero on success is read only that way round.
 */
export function armsBySuccess(
  write: Pick<CallWrite, 'truthyOnSuccess' | 'zeroOnSuccess'>,
  kind: string,
  then: Node,
  otherwise: Node,
): { readonly succeeds: boolean; readonly success: Node; readonly failure: Node } {
  const succeeds = write.truthyOnSuccess
    ? kind === 'truthy'
    : write.zeroOnSuccess
      ? kind === 'falsy'
      : SUCCESS_CHECKS.has(kind);
  return { succeeds, success: succeeds ? then : otherwise, failure: succeeds ? otherwise : then };
}

/**
 * The branch a checked write with an else reads as (see the file comment): `lead`, the write as the
 * step spanning its test, followed by the steps of `success`, the one arm; `failure` is read as a block
 * of its own. The branch spans `from` (the write's statement) to the end of `ifElse`.
 */
export function successBranch(
  from: Node,
  ifElse: Node,
  lead: WriteStep,
  success: Node,
  failure: Node,
  reader: ArmReader,
): BranchStep {
  reader.block(reader.body(failure));
  // The success arm's runs open at the test's write: no block holds both but the arm's own.
  const arm = reader.arm(reader.body(success), lead);
  return {
    kind: 'branch',
    span: { start: from.startIndex, end: ifElse.endIndex },
    arms: [{ steps: [lead, ...arm.steps], declares: arm.declares }],
    tests: [...identifiers(ifElse.childForFieldName('condition') ?? ifElse)],
  };
}
