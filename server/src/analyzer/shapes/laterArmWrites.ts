// An if/else after a write, where one arm opens with writes to the same descriptor and another arm
// first computes and writes there only later, in straight-line code: `send(fd, hdr, n, 0); if (chunked)
// { data = encode(img); send(fd, size, ...); send(fd, data, ...); } else { send(fd, data, len, 0); }`.
// On the path of the second arm the run of the write before the branch ends at the arm's first
// statement (nothing of that arm opens it), and the arm's own writes are a run of their own; on the
// path of the first arm the writes are one run, as under an `if` without `else`. Only where the later
// writes sit in a loop, or behind a statement that may hide one, is the branch a choice between two
// shapes of output (a header, then one buffer or a copy loop), which stays apart.
import type { Step } from '../model';

/**
 * True when `steps` write to `target` only in straight-line code: writes, and branches that hold only
 * such code, never a loop that writes there, a statement read only as a barrier (a loop whose test
 * reads) or a call handed the descriptor (`names`), which may hide a write; a jump that only leaves
 * the block is no such statement. False when they write nothing there at all.
 */
export function writesLaterInLine(
  steps: readonly Step[],
  target: string,
  names: ReadonlySet<string>,
): boolean {
  return writesThere(steps, target) && inLine(steps, target, names);
}

/** True when a write to `target` is among `steps` or in their branches (loops are not looked into). */
function writesThere(steps: readonly Step[], target: string): boolean {
  return steps.some(
    (s) =>
      (s.kind === 'write' && s.target === target) ||
      (s.kind === 'branch' && s.arms.some((a) => writesThere(a.steps, target))),
  );
}

/**
 * True when no loop among `steps` (or in their branches) writes `target`, none is a barrier, and no
 * call is handed the descriptor (`names`, its identifiers): such a call may write there itself.
 */
function inLine(steps: readonly Step[], target: string, names: ReadonlySet<string>): boolean {
  return steps.every((s) => {
    // A jump that only leaves (`goto out;`, `return;`) ends its path: it hides no write.
    if (s.kind === 'other') {
      if (s.calls.length > 0 && s.reads.some((n) => names.has(n))) return false;
      return !s.barrier || s.quietLeave === true;
    }
    if (s.kind === 'loop') return !writesTo(s.body, target);
    // An arm that ends by leaving (`if (!img) { log(...); reply_error(c); goto out; }`) is a failure
    // path: what it prints or sends there is no second shape of the message.
    if (s.kind === 'branch') return s.arms.every((a) => leaves(a.steps) || inLine(a.steps, target, names));
    return true;
  });
}

/** True when the last statement of `steps` (comments aside) is a jump that only leaves the block. */
function leaves(steps: readonly Step[]): boolean {
  const own = steps.filter((s) => !(s.kind === 'other' && s.comment));
  const last = own[own.length - 1];
  return last?.kind === 'other' && last.quietLeave === true;
}

/**
 * True when `steps` may write to `target`: a write there, in their branches and loops too, or a
 * statement read only as a barrier (a loop whose test reads, a jump), which may hide one.
 */
export function writesTo(steps: readonly Step[], target: string): boolean {
  return steps.some(
    (s) =>
      (s.kind === 'write' && s.target === target) ||
      (s.kind === 'branch' && s.arms.some((a) => writesTo(a.steps, target))) ||
      (s.kind === 'loop' && writesTo(s.body, target)) ||
      (s.kind === 'other' && s.barrier),
  );
}
