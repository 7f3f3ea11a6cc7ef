// An early exit between the writes (`if (!more) return 0;`): the writes after it run only when its test
// fails. The run goes on past it, and each later write joins under the negated tests; there is no fix
// (gathering means filling the vector under the test by hand). The test must read only the function's
// own names, none of them an earlier write's result, and no call between may change what it reads.
//
// The body may first write and compute, as an optional section of a record does
// (`put(tag); if (!table) { put(zero); return 1; } put(count);`): where the test holds, the run is the
// writes before it and the body's; where it fails, the writes before it and those after. Each path
// makes as many syscalls as its own writes, so the body's writes count only what they add to the
// longer path. What the body does after its last write, and a pointer it re-points, are no reason to
// stop (see ../exitArms.ts).
import type { BranchStep, WriteStep } from '../../model';
import { meets } from '../branches';
import { exitArmWrites } from '../exitArms';
import { armsMaySendComputed } from './computed';
import { callsOut, end, type BranchVerdict, type Joiner, type RunSoFar } from './joiner';

const EXIT =
  'an early exit (a return, goto, break or continue under a test) stands between the writes; gathering them means filling the vector under its test by hand';

const GLOBAL_TEST = end(
  'earlyExit',
  "an early exit tests something other than the function's own names, or a write's result",
);
const CALLED = end('earlyExit', 'a call before an early exit may change what it tests');
const PAST = { kind: 'past' } as const;

/** The tests of the early exits the run passed. */
const EXITS = {};

/** The writes the run took from the bodies of early exits, and where each body's writes start. */
interface BodyWrites {
  readonly writes: readonly WriteStep[];
  readonly at: number;
}
const BODIES = {};

/** The verdict on an early exit reading `reads`: an end, or undefined when the run may go past it. */
function unsafe(reads: readonly string[], run: RunSoFar): BranchVerdict | undefined {
  if (!reads.every((n) => run.locals.has(n)) || meets(reads, run.results)) return GLOBAL_TEST;
  if (run.pending.some(callsOut)) return CALLED;
  return undefined;
}

/**
 * The writes of an early exit's body that writes before it leaves (see ../exitArms.ts), when they may
 * send what a statement before the branch computed.
 */
function bodyWrites(step: BranchStep, run: RunSoFar): WriteStep[] | undefined {
  const writes = exitArmWrites(step, run);
  return writes && armsMaySendComputed(writes, run) ? writes : undefined;
}

/** `writes` with the body's writes counting only the syscalls they add to the longer path. */
function longerPath(writes: readonly WriteStep[], bodies: readonly BodyWrites[]): WriteStep[] {
  const counted = [...writes];
  const count = (from: number, to = counted.length) =>
    counted.slice(from, to).reduce((n, w) => n + (w.syscalls ?? 1), 0);
  // From the last body back: what follows a body is already counted as one path.
  for (const { writes: taken, at } of [...bodies].reverse()) {
    const end = at + taken.length;
    let extra = Math.max(0, count(at, end) - count(end));
    for (let k = at; k < end; k++) {
      const own = counted[k]!.syscalls ?? 1;
      const kept = Math.min(own, extra);
      extra -= kept;
      if (kept !== own) counted[k] = { ...counted[k]!, syscalls: kept };
    }
  }
  return counted;
}

/** Writes after an early exit join the run under the negation of its test, without a fix. */
export const earlyExit: Joiner = {
  name: 'earlyExit',
  facts: [
    'branch.partial',
    'branch.arms',
    'write.condition',
    'write.noFix',
    'write.syscalls',
    'write.pieces',
    'write.formatted',
    'write.assigns',
    'other.mutated',
    'other.frees',
    'run.head',
    'run.writes',
    'run.locals',
    'run.results',
    'run.pending',
    'run.names',
    'run.sent',
    'run.changedSoFar',
    'run.movedCalls',
    'run.clobbered',
    'run.sentBuffers',
    'run.armsClobber',
  ],
  rules: {
    branch(step, run) {
      if (run.head || run.writes.length === 0) return undefined;
      const exit = step.partial?.exit;
      if (exit) {
        const verdict = unsafe(exit.reads, run);
        if (verdict) return verdict;
        run.memory<string[]>(EXITS, () => []).push(step.partial.condition);
        return PAST;
      }
      const last = step.partial?.exitLast;
      if (!last || unsafe(last.reads, run)) return undefined;
      const writes = bodyWrites(step, run);
      if (!writes) return undefined;
      run.memory<BodyWrites[]>(BODIES, () => []).push({ writes, at: run.writes.length });
      run.memory<string[]>(EXITS, () => []).push(step.partial.condition);
      return { kind: 'take', writes };
    },
    write(step, run): WriteStep {
      const exits = run.recalled<string[]>(EXITS);
      if (!exits) return step;
      return { ...step, condition: step.condition ?? `(!${exits.join(' && !')})`, noFix: EXIT };
    },
    finish(writes, run) {
      const bodies = run.recalled<BodyWrites[]>(BODIES);
      return bodies ? longerPath(writes, bodies) : writes;
    },
  },
};
