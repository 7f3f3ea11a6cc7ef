// An arm that ends in an `if` of its own (`if (gap) { t = elapsed(...); if (t > min) write(fd, &t, 4); }`
// before `write(fd, &v, 4);`): the writes that end the inner branch's arms end the outer arm too, so a
// run that starts with them goes on after the outer branch, as it would from writes that end the outer
// arm itself. What the outer arm computes before the inner branch runs before the run opens.
import type { BranchStep, OtherStep, Step, WriteStep } from '../model';

/** The writes that end each arm of a branch, and the statements after them. */
export interface Tails {
  readonly arms: WriteStep[][];
  readonly after: OtherStep[];
}

/**
 * The writes a run may open with at `last`, the step an arm ends with before its trailing statements:
 * when it is a branch, the writes that end its own arms (`tails` reads them, nested branches again
 * included; `pick` keeps one path's count of them), with the statements after them. Undefined when
 * `last` is no branch, no arm of it ends in a write, or one path through it ends in two writes or more.
 */
export function nestedTail(
  last: Step | undefined,
  tails: (branch: BranchStep) => Tails,
  pick: (arms: readonly (readonly WriteStep[])[]) => WriteStep[] | undefined,
): { writes: WriteStep[]; after: OtherStep[] } | undefined {
  if (last?.kind !== 'branch') return undefined;
  const { arms, after } = tails(last);
  const writes = pick(arms);
  // Two writes or more ending an inner arm are a run of their own, reported inside that arm: joined to
  // the writes after the outer branch they would make one finding of two the arm's block already has.
  if (!writes || writes.reduce((n, w) => n + (w.syscalls ?? 1), 0) > 1) return undefined;
  return { writes, after };
}
