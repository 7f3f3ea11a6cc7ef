// A write whose result is kept, then tested by an if with an `else`: `n = put(c, hdr, hlen); if (n !=
// hlen) { n = -1; } else if (dlen > 0) { n = put(c, data, dlen); }`. The variable stands for the call, so
// this is the checked write with an else of checkedElses.ts spelled over two statements: the arm the
// test sends to where the write succeeded runs right after it, and only there may the writes it holds
// join it. The failure arm need not leave: no path from it reaches the success arm's writes, and a run
// that goes on after the if/else is judged as after any branch (the joiners read what the arms change).
//
// The kept result is then a result the run's later writes may overwrite and the code after the if may
// read (a function returning the last count): a gathered call would leave the total there, so the run
// is reported without a fix, as every run through a checked else is. A success arm that reads the
// result (`total += n`) counts with what a gathered call would change: that if/else is left as it was.
import type { Node } from 'web-tree-sitter';
import type { BranchStep } from '../model';
import { keptIn } from './chains';
import { armsBySuccess, successBranch, type ArmReader } from './checkedElses';
import { identifiers } from './syntax';
import { callWrite, checkOf, keptResult, keptResultStep, readsOnly, type CContext } from './writes';

const NO_FIX =
  "the write's result is tested by an if with an else arm that runs on its success: a gathered call would have to keep both arms around every write";

/**
 * The step of `kept` (`n = <write>;`) and the `if (<test of n>) A; else B;` right after it (see the
 * file comment): a branch spanning both statements whose one arm is the write followed by the success
 * arm's steps. Undefined when `kept` keeps no write's result, when `stmt` is no if/else whose test only
 * reads that result as a failure or success check, or when the descriptor is named by the result. Reads
 * the failure arm as a block of its own through `reader`; `kept` must be read as no step of its own.
 */
export function keptElseStep(
  kept: Node,
  stmt: Node,
  ctx: CContext,
  reader: ArmReader,
): BranchStep | undefined {
  if (kept.type !== 'expression_statement' || kept.hasError) return undefined;
  if (stmt.type !== 'if_statement' || stmt.hasError) return undefined;
  const cond = stmt.childForFieldName('condition');
  const then = stmt.childForFieldName('consequence');
  const otherwise = stmt.childForFieldName('alternative')?.namedChild(0);
  if (!cond || !then || !otherwise) return undefined;
  const held = keptIn(kept);
  if (!held || !identifiers(cond).has(held.result) || !readsOnly(cond, ctx.pure)) return undefined;
  const write = callWrite(held.call, ctx);
  if (!write || write.own || write.targetNames.includes(held.result)) return undefined;
  const check = checkOf(cond, ctx.codes, false, { name: held.result, call: held.call });
  if (check?.call.id !== held.call.id || check.assigned) return undefined;
  const { succeeds, success, failure } = armsBySuccess(write, check.kind, then, otherwise);
  // A success arm that counts with the result (`total += n`) reads what a gathered call would change.
  if (readsKept(success, held.result)) return undefined;
  const step = keptResultStep(write, kept, held.call, held.result, keptResult(write.callee, held.result));
  const lead = {
    ...step,
    span: { start: kept.startIndex, end: succeeds ? cond.endIndex : then.endIndex },
    template: undefined,
    noFix: write.noFix ?? NO_FIX,
  };
  return successBranch(kept, stmt, lead, success, failure, reader);
}

/** True when `node` reads `name` anywhere but as the target of a plain assignment (`n = ...`). */
function readsKept(node: Node, name: string): boolean {
  return node.descendantsOfType('identifier').some((id) => {
    if (id?.text !== name) return false;
    const parent = id.parent;
    const assigned =
      parent?.type === 'assignment_expression' &&
      parent.childForFieldName('left')?.id === id.id &&
      parent.childForFieldName('operator')?.text === '=';
    return !assigned;
  });
}
