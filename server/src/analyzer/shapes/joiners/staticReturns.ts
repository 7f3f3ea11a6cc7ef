// A write sends the result of a function returning static storage (`ctime(&t)`, a formatter's
// `static char buf[16]`), and a later call of that function comes before a later write (between them,
// or in that write's own arguments): the call overwrites the bytes the earlier write sent, and one
// writev, reading every buffer when it runs, would send the last value twice.
import type { Step } from '../../model';
import { end, type Joiner, type Rules, type RunSoFar } from './joiner';

/** This joiner's memory of a run: the functions whose static storage its writes sent. */
const SENT = {};

const OVERWRITTEN = end(
  'staticReturns',
  'a call before the write overwrites the static storage an earlier write sent (the function returns the same buffer each time)',
);

function overwrites(called: readonly string[] | undefined, run: RunSoFar): boolean {
  if (!called) return false;
  const sent = run.recalled<Set<string>>(SENT);
  return sent !== undefined && called.some((n) => sent.has(n));
}

/**
 * True when a step of `steps`, in order, calls a function of `sent` (or one an earlier write of
 * `steps` sent); `sent` grows with what the writes send. Branches and loops are read arm by arm, each
 * from what was sent before it.
 */
function overwritten(steps: readonly Step[], sent: Set<string>, run: RunSoFar): boolean {
  for (const step of steps) {
    run.budget.visit();
    switch (step.kind) {
      case 'write':
      case 'other':
        if (step.staticCalls?.some((n) => sent.has(n))) return true;
        if (step.kind === 'write') for (const n of step.staticSent ?? []) sent.add(n);
        break;
      case 'branch':
        for (const arm of step.arms) {
          const after = new Set(sent);
          if (overwritten(arm.steps, after, run)) return true;
          for (const n of after) sent.add(n);
        }
        break;
      case 'loop': {
        // A second iteration calls again what the first one's writes sent.
        const after = new Set(sent);
        if (overwritten(step.body, after, run) || overwritten(step.body, after, run)) return true;
        for (const n of after) sent.add(n);
        break;
      }
    }
  }
  return false;
}

/** True when `steps` hold a call of a function returning static storage (as {@link overwritten} reads them). */
function mentions(steps: readonly Step[]): boolean {
  return steps.some((s) =>
    s.kind === 'write' || s.kind === 'other'
      ? s.staticCalls !== undefined || (s.kind === 'write' && s.staticSent !== undefined)
      : s.kind === 'branch'
        ? s.arms.some((arm) => mentions(arm.steps))
        : mentions(s.body),
  );
}

const RULES: Rules = {
  // The writes a branch gives the run: one of them, or a statement before it, may overwrite what an
  // earlier write (before the branch, or in it) sent. Answered only then: the other rules decide the rest.
  branch(step, run) {
    if (!mentions([step])) return undefined;
    const sent = new Set(run.recalled<Set<string>>(SENT) ?? []);
    return overwritten([step], sent, run) ? OVERWRITTEN : undefined;
  },
  // Every write of the run in order, those taken from branches' arms too (a branch the run starts or
  // ends in, whose writes no rule above saw one by one): no run when one overwrites what one before sent.
  finish: (writes, run) => (mentions(writes) && overwritten(writes, new Set(), run) ? OVERWRITTEN : writes),
  write: (step, run) => (overwrites(step.staticCalls, run) ? OVERWRITTEN : step),
  cross: (step, run) => (overwrites(step.staticCalls, run) ? OVERWRITTEN : undefined),
  taken(step, run) {
    if (!step.staticSent) return;
    const sent = run.memory(SENT, () => new Set<string>());
    for (const n of step.staticSent) sent.add(n);
  },
};

/** A call overwriting the static storage an earlier write of the run sent ends the run. */
export const staticReturns: Joiner = {
  name: 'staticReturns',
  facts: ['write.staticCalls', 'write.staticSent', 'other.staticCalls', 'branch.arms'],
  rules: RULES,
};
