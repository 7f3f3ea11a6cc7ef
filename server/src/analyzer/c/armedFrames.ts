// A frame split over the arms of an if/else. A length-prefixed string writer sends the length and then
// the bytes when it has a string, and only a zero length when it has none:
// `if (s) { n = strlen(s); put(fd, &n, sizeof n); put(fd, s, n); } else { n = 0; put(fd, &n, sizeof n); }`.
// Every path through it is a few writes to one descriptor with computations between, so each call
// makes at most as many syscalls as its longest arm, as a frame with its payload under a test does;
// calls in a row are then one sequence (without a fix), not a barrier that splits the run around them.
import type { Step, WriteStep } from '../model';

/**
 * The writes an exhaustive if/else adds to a frame when each of its arms is itself a frame: only writes
 * to one descriptor and steps `computes` accepts, none positional or through a stream. Returns the
 * writes of the arm making the most syscalls; those past the fewest writes any arm makes run only on
 * some paths and carry `condition` (the write after them in the frame is still made on every path).
 * Undefined when `s` is no such branch (an `if` without `else`, a test with effects, an arm that calls
 * what may do output, writes to two descriptors). Does not modify `s`.
 */
export function armedFrameWrites(s: Step, computes: (s: Step) => boolean): WriteStep[] | undefined {
  if (s.kind !== 'branch' || s.partial || s.arms.length < 2) return undefined;
  const arms: WriteStep[][] = [];
  for (const arm of s.arms) {
    const writes: WriteStep[] = [];
    for (const step of arm.steps) {
      if (step.kind === 'write') writes.push(step);
      else if (!computes(step)) return undefined;
    }
    arms.push(writes);
  }
  const all = arms.flat();
  const first = all[0];
  if (!first || all.some((w) => w.target !== first.target || w.stream || w.position)) return undefined;
  const made = (ws: readonly WriteStep[]) => ws.reduce((sum, w) => sum + (w.syscalls ?? 1), 0);
  const longest = arms.reduce((a, b) => (made(b) > made(a) ? b : a));
  const always = Math.min(...arms.map((ws) => ws.filter((w) => !w.condition).length));
  return longest.map((w, i) =>
    i < always || w.condition ? w : { ...w, condition: 'one arm of an if/else' },
  );
}
