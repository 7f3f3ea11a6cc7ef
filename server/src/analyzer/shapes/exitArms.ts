// An `if` without `else` whose body writes and then leaves (`msg = "221 bye\r\n"; if (quit) { send(fd,
// msg, strlen(msg), 0); close(fd); return 1; }`), after writes to the same descriptor: where the test
// holds, those writes and the body's are one sequence, and the body's path ends there. Two things in
// such a body are no reason to stop the run, though a branch passed through whole (see `through` in
// branches.ts) would stop for them:
// - what the body does after its last write to the descriptor and before it leaves (closing, freeing,
//   logging, setting a state): on that path it comes after every write of the run, as it does today;
// - re-pointing a pointer that a write before sent as its buffer (`msg = "221 bye\r\n"` after
//   `send(fd, msg, ...)`): the bytes that write queued stay where they were, as between straight-line
//   writes (joiners/computed.ts). Not where a write sent the variable's own memory (`&len`, `hdr.body`):
//   assigning it changes those bytes (joiners/address.ts); nor where the statement changes what the
//   pointer points at, or releases it.
// The writes join without a fix, as every write a run takes from an arm does: gathering them means
// filling the vector under the test by hand, keeping each buffer's value where its write stands.
import type { BranchStep, Step, WriteStep } from '../model';
import { through } from './branches';
import type { RunSoFar } from './joiners/joiner';

/** True when `step` may write to `target`: a write there, or a branch or loop holding one. */
function writesThere(step: Step, target: string): boolean {
  if (step.kind === 'write') return step.target === target;
  if (step.kind === 'branch') return step.arms.some((a) => a.steps.some((s) => writesThere(s, target)));
  if (step.kind === 'loop') return step.body.some((s) => writesThere(s, target));
  return false;
}

/** `name` alone, behind casts and parentheses: a buffer that is the pointer's value. */
function pointerValue(buf: string, name: string): boolean {
  let t = buf.replace(/\s+/g, '');
  for (;;) {
    const before = t;
    t = t.replace(/^\((?:const)?[A-Za-z_]\w*(?:const)?\*+\)/, '');
    if (t.startsWith('(') && t.endsWith(')') && !/[()]/.test(t.slice(1, -1))) t = t.slice(1, -1);
    if (t === before) break;
  }
  return t === name;
}

/** True when `buf` (a piece's buffer expression) mentions `name` as an identifier. */
function mentions(buf: string, name: string): boolean {
  const code = buf.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '');
  return new RegExp(`(?<![\\w.>])${name}(?!\\w)`).test(code);
}

/**
 * True when every write of the run sent `name` only as a pointer's value (its buffer is `name`, or
 * `name` is in no buffer, only in a count): re-pointing `name` then changes no byte any of them sent.
 */
function sentAsPointer(name: string, writes: readonly WriteStep[]): boolean {
  return writes.every((w) => {
    if (w.formatted || !w.reads.includes(name)) return true;
    if (!w.pieces) return false;
    return w.pieces.every((p) => !mentions(p.buf, name) || pointerValue(p.buf, name));
  });
}

/** True when `step` (or anything nested in it) changes, releases or keeps a result in `name`. */
function touches(step: Step, name: string): boolean {
  switch (step.kind) {
    case 'other':
      return step.writes.includes(name) || (step.frees ?? []).includes(name);
    case 'write':
      return (step.assigns ?? []).includes(name);
    case 'branch':
      return step.arms.some((a) => a.steps.some((s) => touches(s, name)));
    case 'loop':
      return step.body.some((s) => touches(s, name));
  }
}

/**
 * The names the run sent that `steps` (an arm's statements before its last write) only re-point: each
 * statement that changes one is a plain assignment of it at the arm's top level (its memory is not
 * changed, nor released), and the run's writes sent it only as a pointer's value.
 */
function repointed(steps: readonly Step[], run: RunSoFar): Set<string> {
  const names = new Set<string>();
  for (const s of steps) if (s.kind === 'other') for (const n of s.writes) if (run.sent.has(n)) names.add(n);
  for (const n of names) {
    const rebinds = (s: Step) =>
      s.kind === 'other' && !(s.mutated ?? s.writes).includes(n) && !(s.frees ?? []).includes(n);
    if (steps.some((s) => touches(s, n) && !rebinds(s)) || !sentAsPointer(n, run.writes)) names.delete(n);
  }
  return names;
}

/**
 * The writes a run takes from the body of an `if` without `else` (`step`, whose body's last statement
 * only leaves) after the writes it gathered: the body's writes to the run's descriptor, up to the last
 * one, when what comes before that one is what a branch passed through may hold, save re-pointing what
 * the run sent. Undefined when the body holds none, or anything else before its last write. Reads
 * `step` and `run` only.
 */
export function exitArmWrites(step: BranchStep, run: RunSoFar): WriteStep[] | undefined {
  const arm = step.arms[0];
  if (!arm || run.lead.stream) return undefined;
  const steps = arm.steps.filter((s) => !(s.kind === 'other' && s.comment));
  const leave = steps[steps.length - 1];
  if (leave?.kind !== 'other' || !leave.barrier) return undefined;
  let last = steps.length - 2;
  while (last >= 0 && !writesThere(steps[last]!, run.lead.target)) last--;
  if (last < 0) return undefined;
  const before = steps.slice(0, last + 1);
  const moved = repointed(before, run);
  const sent = moved.size === 0 ? run.sent : { has: (n: string) => !moved.has(n) && run.sent.has(n) };
  const body: BranchStep = { ...step, arms: [{ ...arm, steps: before }] };
  return through(body, run.lead.target, run.names, run.locals, sent, false, run.budget)?.writes;
}
