// An arm of an if/else that is one write, where every other arm hands the same descriptor to a call
// (another way to write the line's head, a helper making several writes): on the path through that arm
// its write and the writes after the branch are adjacent (`if (stamped) stamp_line(fd, s); else put(fd,
// s); put(fd, "\n");`), so it opens a run that goes on after the branch, filled by hand on that path, as
// the writes ending a longer arm do. An other arm that only computes, changes memory its caller sees,
// or reports and leaves makes the branch a choice that ends the run, as elsewhere in the engine, so
// the reading is kept to arms that are themselves output to the descriptor. An `if` without
// `else` whose body is one write is a conditional write of its own (the model makes it one), so only a
// chain ending in a plain `else` is read so (its tests may have effects: they run before the arm's
// write, as for any arm's last writes).
import type { BranchStep, Step, WriteStep } from '../model';

/**
 * True when `steps`, one arm of `branch`, hold one write (and comments) that may open a run: one the
 * run before the branch did not take (`taken`, by where writes start), or the write would be in two.
 */
export function soleArmWrite(
  branch: BranchStep,
  steps: readonly Step[],
  taken?: ReadonlySet<number>,
): boolean {
  if (branch.partial && !branch.partial.exhaustive) return false;
  const own = steps.filter((s) => !(s.kind === 'other' && s.comment));
  const write = own.length === 1 && own[0]!.kind === 'write' ? own[0] : undefined;
  if (!write || taken?.has(write.span.start)) return false;
  return branch.arms.every((arm) => arm.steps === steps || handsDescriptor(arm.steps, write));
}

/** True when a statement of `steps` (an arm) calls a function given `write`'s descriptor. */
function handsDescriptor(steps: readonly Step[], write: WriteStep): boolean {
  const names = new Set(write.targetNames);
  return steps.some(
    (s) =>
      s.kind === 'other' &&
      s.calls.length > 0 &&
      (s.handed ?? s.reads).some((n) => names.has(n.replace(/(?:->|\.|\[).*$/, ''))),
  );
}
