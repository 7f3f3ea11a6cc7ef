// A run that starts with the writes ending one arm of an if/else and goes on after it (see
// branches.ts `trailing`) joins them with what follows on that arm's path only. Where another arm
// hands the same descriptor to a call that does I/O the run cannot take (the mail body written by a
// loop in one arm, from memory by one write in the other, then the end-of-data dot after both), the
// two paths send the same message in different ways: the writes after the branch close what either
// arm sent, not a run of the one arm. Such a branch starts no run.
import type { BranchStep, Step, WriteStep } from '../model';
import { leavesOnly } from './leavingArms';

/**
 * True when an arm of `branch` holding none of `writes` (the run's writes from its arms) hands the
 * descriptor of `writes[0]` to a statement that does I/O (a barrier reading one of its names, or one
 * the front end could not summarise) or to a loop writing to it, at any depth. An arm that only leaves
 * is no such path.
 */
export function otherArmOutput(branch: BranchStep, writes: readonly WriteStep[]): boolean {
  const first = writes[0];
  const names = new Set(first?.targetNames ?? []);
  if (!first || names.size === 0) return false;
  const doesIo = (steps: readonly Step[]): boolean =>
    steps.some((s) => {
      switch (s.kind) {
        case 'other':
          // A statement the front end could only read as a barrier (a call of a writer no run can
          // take, such as a loop over the message) says nothing more of what it reads.
          return (
            s.barrier &&
            !s.comment &&
            !s.quietLeave &&
            (s.reads.some((n) => names.has(n)) || (s.reads.length === 0 && s.calls.length === 0))
          );
        case 'branch':
          return s.arms.some((a) => doesIo(a.steps));
        case 'loop':
          return s.body.some((b) => b.kind === 'write' && b.target === first.target) || doesIo(s.body);
        default:
          return false;
      }
    });
  const holds = (steps: readonly Step[]) => {
    const start = steps[0]?.span.start ?? 0;
    const end = steps[steps.length - 1]?.span.end ?? 0;
    return writes.some((w) => w.span.start >= start && w.span.start < end);
  };
  return branch.arms.some(
    (arm) => arm.steps.length > 0 && !leavesOnly(arm.steps) && !holds(arm.steps) && doesIo(arm.steps),
  );
}
